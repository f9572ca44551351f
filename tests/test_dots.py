"""Dots and Boxes: numbering, rules, the first reply rule, exact values, the bot, the board."""

import random
from functools import cache

import pygame
import pytest

from ai import dots as bot
from ai.base import Budget
from ai.dots_solver import Memo, solve
from client.boards.dots import Board
from game.rules import RulesError
from game.rules import dots as rules
from tests.fakes.ticking import TickingClock


@pytest.mark.parametrize("rows,cols", [(1, 1), (2, 3), (3, 3), (5, 4)])
def test_numbering_matches_openspiel(rows, cols):
    h = (rows + 1) * cols
    for r in range(rows + 1):
        for c in range(cols):
            assert rules.line_ends(rows, cols, r * cols + c) == ((r, c), (r, c + 1))
    for r in range(rows):
        for c in range(cols + 1):
            assert rules.line_ends(rows, cols, h + r * (cols + 1) + c) == ((r, c), (r + 1, c))
    for line in range(rules.geometry(rows, cols).lines):
        assert rules.line_between(rows, cols, *rules.line_ends(rows, cols, line)) == line


def test_completing_a_box_scores_and_moves_again():
    s = rules.new_game({"rows": 1, "cols": 1})
    for line, mover in ((0, 0), (1, 1), (2, 0)):
        assert s.turn == mover
        s = rules.apply(s, line)
    assert s.turn == 1
    s = rules.apply(s, 3)
    assert s.scores == (0, 1) and rules.outcome(s).winner == 1 and rules.to_move(s) is None


def test_two_boxes_with_one_line():
    s = rules.new_game({"rows": 1, "cols": 2})
    for line in (0, 1, 2, 3, 4, 6):  # everything but the middle vertical line 5
        s = rules.apply(s, line)
    mover = s.turn
    s = rules.apply(s, 5)
    assert s.scores[mover] == 2 and rules.outcome(s).winner == mover


@pytest.mark.parametrize("bad", [-1, 24, "3", 3.0, None, True])
def test_bad_moves_change_nothing(bad):
    s = rules.apply(rules.new_game(), 3)
    with pytest.raises(RulesError):
        rules.apply(s, bad)
    with pytest.raises(RulesError):
        rules.apply(s, 3)  # already drawn
    assert s.drawn == (3,)


def test_first_reply_rule_forbids_the_mirror_class():
    s = rules.new_game({"first_reply_rule": True})
    s = rules.apply(s, 0)  # a corner edge of the top side
    banned = rules.symmetry_class(3, 3, 0)
    assert len(banned) == 8 and {0, 2} <= banned
    for line in banned - {0}:
        assert line not in rules.legal_moves(s)
        with pytest.raises(RulesError, match="first reply"):
            rules.apply(s, line)
    assert 1 in rules.legal_moves(s)  # the middle of the top side is another class
    s = rules.apply(s, 1)
    assert set(banned - {0}) <= set(rules.legal_moves(s))  # only the first reply is limited
    off = rules.apply(rules.new_game(), 0)
    assert 2 in rules.legal_moves(off)


@pytest.mark.parametrize("first", range(4))
def test_first_reply_rule_does_not_apply_where_it_would_forbid_every_line(first):
    s = rules.apply(rules.new_game({"rows": 1, "cols": 1, "first_reply_rule": True}), first)
    assert rules.symmetry_class(1, 1, first) == set(range(4))  # every line mirrors the first
    assert sorted(rules.legal_moves(s)) == sorted(set(range(4)) - {first})
    s = rules.apply(s, rules.legal_moves(s)[0])
    assert rules.to_move(s) == 0


def test_symmetry_classes_of_a_non_square_board_have_four_maps():
    assert len(rules.geometry(2, 3).symmetry) == 4
    assert rules.symmetry_class(2, 3, 0) == frozenset({0, 2, 6, 8})


def brute_force(rows: int, cols: int) -> int:
    """An independent exact value: plain minimax over line sets, box counting from scratch."""
    n = rules.geometry(rows, cols).lines
    h = (rows + 1) * cols
    boxes = []
    for r in range(rows):
        for c in range(cols):
            boxes.append({r * cols + c, (r + 1) * cols + c, h + r * (cols + 1) + c,
                          h + r * (cols + 1) + c + 1})

    @cache
    def value(drawn: frozenset) -> int:
        if len(drawn) == n:
            return 0
        best = None
        for line in range(n):
            if line in drawn:
                continue
            after = drawn | {line}
            gained = sum(1 for b in boxes if line in b and b <= after)
            v = gained + value(after) if gained else -value(after)
            best = v if best is None else max(best, v)
        return best

    return value(frozenset())


@pytest.mark.long
@pytest.mark.parametrize("rows,cols,expected", [(1, 1, -1), (1, 2, 0), (2, 2, 2), (2, 3, -2)])
def test_exact_values_against_brute_force(rows, cols, expected):
    assert brute_force(rows, cols) == expected
    assert int(solve(rows, cols)[0]) == expected
    assert Memo(rules.geometry(rows, cols)).value(0) == expected


def test_retrograde_table_agrees_with_search_everywhere_on_2x2():
    table = solve(2, 2)
    memo = Memo(rules.geometry(2, 2))
    rng = random.Random(0)
    for mask in rng.sample(range(1 << 12), 400):
        assert table[mask] == memo.value(mask)


@pytest.mark.long
def test_3x3_table_built_in_the_background_and_cached():
    """The 3x3 value: the second player wins by 3 (first player's margin -3), which agrees with
    the published analyses; 2x2 is a first-player win by 2 (3 boxes to 1)."""
    table = bot.table_for(3, 3)
    values = table.wait(timeout=120)
    assert values is not None and int(values[0]) == -3
    assert table.path().exists()
    assert bot.solved_value(rules.view(rules.new_game(), 0)) == -3


def test_hard_bot_keeps_what_perfect_play_keeps_on_3x3():
    bot.table_for(3, 3).wait(timeout=120)
    for seed in range(3):
        rng = random.Random(seed)
        s = rules.new_game()
        while rules.outcome(s) is None:
            legal = rules.legal_moves(s)
            if s.turn == 1:
                budget = Budget(1, now=TickingClock())  # the table answers: no time needed
                move = bot.choose(rules.view(s, 1), legal, budget, "hard", rng)
            else:
                move = rng.choice(legal)
            s = rules.apply(s, move)
        assert s.scores[1] - s.scores[0] >= 3


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_bot_answers_legally_in_time_on_a_big_board(level):
    rng = random.Random(4)
    s = rules.new_game({"rows": 5, "cols": 5, "first_reply_rule": True})
    for _ in range(12):
        legal = rules.legal_moves(s)
        budget = Budget(0.2, now=TickingClock(0.01))  # about twenty looks at its clock
        move = bot.choose(rules.view(s, s.turn), legal, budget, level, rng)
        assert move in legal
        s = rules.apply(s, move)


def test_bot_takes_a_free_box_and_double_crosses_to_keep_control():
    # 1x3: a chain of three. Opening it at an end gives the opponent the choice.
    s = rules.new_game({"rows": 1, "cols": 3})
    for line in (0, 1, 2, 3, 4, 5):  # top and bottom: a 3-chain with 4 verticals free
        s = rules.apply(s, line)
    s = rules.apply(s, 6)  # left end opened: the left box has three sides
    mover = s.turn
    move = bot.choose(rules.view(s, mover), rules.legal_moves(s),
                      Budget(1, now=TickingClock()), "hard", random.Random())
    assert move == 7  # take the box on offer


@pytest.fixture
def board():
    pygame.init()
    b = Board({"rows": 2, "cols": 2, "first_reply_rule": False}, rules.SEAT_NAMES)
    b.layout(pygame.Rect(0, 0, 500, 500))
    s = rules.new_game({"rows": 2, "cols": 2})
    b.set_view(rules.view(s, 0), rules.legal_moves(s), my_turn=True, viewer=0)
    return b


def test_board_click_hover_and_keyboard(board):
    for line in (0, 5, 7):
        a, b = board.line_points(line)
        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        board.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=mid, rel=(0, 0),
                                              buttons=(0, 0, 0)))
        assert board.hover == line
        click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=mid, button=1)
        assert board.handle_event(click) == line
    far = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=board.dot(1, 1), button=1)
    assert board.handle_event(far) is None  # a dot is no line
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, unicode="", mod=0)
    board.handle_event(key)
    enter = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, unicode="", mod=0)
    assert board.handle_event(enter) == board.cursor == 1
    surface = pygame.Surface((500, 500))
    board.draw(surface)
