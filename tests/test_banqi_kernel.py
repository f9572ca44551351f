"""The compiled Banqi search against the pure one: the same piece moves as the rules, the same
evaluation and the same alpha-beta values (flips as passes, captures searched out at the leaves,
repetitions scored as draws) on positions from random games and on random boards; stoppable;
the bot uses it once ready and plays without it."""

import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ai import banqi as bot
from ai.base import Budget, Deadline
from game.rules import banqi as rules
from tests.fakes.cancel import frozen_clock
from tests.fakes.ticking import TickingClock
from tests.kernels import compiled

COLOURS = ("red", "black")
# random boards: any piece anywhere, face-down and empty squares, kings and cannons likely
board_st = st.lists(st.sampled_from(list("KAERNCPkaerncp?..CcKk")), min_size=32, max_size=32)


@pytest.fixture(scope="module")
def kernel():
    return compiled(bot.KERNEL)


def game_positions(count: int, variant: str, seed: int) -> list[tuple[list[str], str]]:
    """(board, colour to move) from random games of the rules, every few plies."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = rules.new_game({"variant": variant}, rng.randrange(1 << 30))
        for ply in range(rng.randrange(20, 140)):
            if rules.outcome(s) is not None:
                break
            legal = rules.legal_moves(s)
            captures = [m for m in legal if len(m) == 4 and s.board[rules.parse_square(m[2:])]
                        not in ".?"]
            s = rules.apply(s, rng.choice(captures) if captures and rng.random() < 0.5
                            else rng.choice(legal))
            colour = s.colors[s.turn]
            if colour is not None and ply % 7 == 0:
                out.append((list(s.board), colour))
    return out


def pure_moves(board: list[str], colour: str, variant: str) -> list[tuple[int, int]]:
    return [(rules.parse_square(m[:2]), rules.parse_square(m[2:]))
            for m in rules.moves_on(board, colour, variant) if len(m) == 4]


def compiled_value(kernel, board, colour, variant, depth):
    vals = kernel.values_of(bot.VALUES[variant])
    coded = kernel.encode(board)
    before = coded.copy()
    ctl = kernel.new_ctl()
    keys = np.zeros(depth + 2, dtype=np.int64)
    keys[0] = kernel.hash_of(coded, COLOURS.index(colour))
    value = kernel.negamax(coded, COLOURS.index(colour), depth, -1e9, 1e9,
                           variant == "china", vals, ctl, keys, 0, 0, 0, 0.0,
                           *kernel.new_table(-1))
    assert (coded == before).all()  # made and unmade in place
    assert not ctl[kernel.ABORTED]
    return value


@settings(max_examples=300, deadline=None)
@given(board=board_st, colour=st.sampled_from(COLOURS),
       variant=st.sampled_from(("taiwan", "china")))
def test_random_boards_same_moves_and_evaluation(kernel, board, colour, variant):
    china = variant == "china"
    assert kernel.moves(board, COLOURS.index(colour), china) == pure_moves(board, colour,
                                                                            variant)
    searcher = bot.Searcher(variant, Budget(60, now=frozen_clock()))
    assert kernel.evaluate(kernel.encode(board), COLOURS.index(colour), china,
                           kernel.values_of(bot.VALUES[variant])) == searcher.evaluate(board,
                                                                                       colour)


@pytest.mark.parametrize("variant", ["taiwan", "china"])
def test_game_positions_same_values_as_the_pure_search(kernel, variant):
    for i, (board, colour) in enumerate(game_positions(24, variant, 7)):
        depth = 3 if i % 4 == 0 else 2
        searcher = bot.Searcher(variant, Budget(60, now=frozen_clock()))
        expected = searcher.negamax(board, colour, depth, -1e9, 1e9)
        assert compiled_value(kernel, board, colour, variant, depth) == expected, (board, depth)


def step(s: rules.State, rng: random.Random) -> str | None:
    """A random step onto an empty square for the side to move (None if it has none)."""
    steps = [m for m in rules.legal_moves(s) if len(m) == 4
             and s.board[rules.parse_square(m[2:])] == "."]
    return rng.choice(steps) if steps else None


def game_lines(count: int, seed: int) -> list[tuple[list, str, list]]:
    """(board, colour to move, the search keys since the last flip or capture) from random games
    that end with both sides stepping out and back, so that the search meets positions again."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = rules.new_game(None, rng.randrange(1 << 30))
        for _ in range(rng.randrange(30, 120)):
            if rules.outcome(s) is not None:
                break
            s = rules.apply(s, rng.choice(rules.legal_moves(s)))
        if rules.outcome(s) is not None or s.colors[0] is None:
            continue
        m = step(s, rng)
        if m is None:
            continue
        s2 = rules.apply(s, m)
        n = step(s2, rng) if rules.outcome(s2) is None else None
        if n is None:
            continue
        for move in (n, m[2:] + m[:2], n[2:] + n[:2]):
            s2 = rules.apply(s2, move)
        if rules.outcome(s2) is None:
            out.append((list(s2.board), s2.colors[s2.turn],
                        [(b, s2.colors[t]) for b, t in s2.history]))
    return out


@pytest.mark.parametrize("draw", [0.0, -10.0, -400.0, 400.0])
def test_with_histories_the_same_values_as_the_pure_search(kernel, draw):
    """Positions met again on the way (or in the game before) are draws in both searches (a
    draw worth 400 either way is sure to change values)."""
    repeats = 0
    for i, (board, colour, keys) in enumerate(game_lines(16, 5)):
        depth = 3 if i % 3 == 0 else 2
        cap = Budget(60, now=frozen_clock())  # the depth ends each search, never the clock
        pure = bot.Searcher("taiwan", cap)
        compiled = bot.Searcher("taiwan", cap, kernel)
        expected = pure.negamax(board, colour, depth, -1e9, 1e9, list(keys), 0, 0, draw)
        assert compiled.search(board, colour, depth, -1e9, 1e9, list(keys), 0, 0,
                               draw) == expected, (board, depth)
        fresh = bot.Searcher("taiwan", cap).negamax(board, colour, depth, -1e9, 1e9)
        repeats += expected != fresh
    if abs(draw) >= 400:
        assert repeats  # the histories changed some values: the rule was exercised


@settings(max_examples=30, deadline=None)  # the pure search with quiescence is slow
@given(board=board_st, colour=st.sampled_from(COLOURS),
       variant=st.sampled_from(("taiwan", "china")))
def test_random_boards_same_values_as_the_pure_search(kernel, board, colour, variant):
    # The reference gets about 50,000 nodes, counted, not timed: a board of cannons can make
    # a capture tree of a million (70 s), which says nothing more than the others.
    budget = Budget(1.0, now=TickingClock(step=1 / 200))
    try:
        expected = bot.Searcher(variant, budget).negamax(board, colour, 2, -1e9, 1e9)
    except Deadline:
        assume(False)
    assert compiled_value(kernel, board, colour, variant, 2) == expected


def test_the_stop_flag_aborts_and_leaves_the_board(kernel):
    board, colour = game_positions(1, "taiwan", 3)[0]
    coded = kernel.encode(board)
    before = coded.copy()
    ctl = kernel.new_ctl()
    ctl[kernel.STOP] = 1
    keys = np.zeros(8, dtype=np.int64)
    kernel.negamax(coded, COLOURS.index(colour), 6, -1e9, 1e9, False,
                   kernel.values_of(bot.VALUES["taiwan"]), ctl, keys, 0, 0, 0, 0.0,
                   *kernel.new_table(10))
    assert ctl[kernel.ABORTED] and (coded == before).all()


def test_the_bot_searches_compiled(kernel, monkeypatch):
    seen = {}
    real = bot.Searcher

    class Spy(real):
        def __init__(self, *args):
            super().__init__(*args)
            seen["searcher"] = self

    s = rules.new_game(None, 11)
    for move in ("a1", "h4", "d2", "e3", "b2", "g3"):
        s = rules.apply(s, move)
    view = rules.view(s, s.turn)
    legal = rules.legal_moves(s)
    monkeypatch.setattr(bot, "Searcher", Spy)
    move = bot.choose(view, legal, Budget(0.3, now=TickingClock()), "hard", random.Random(1))
    assert move in legal and seen["searcher"].kernel is kernel and seen["searcher"].nodes > 0


def test_without_numba_the_pure_search_plays(monkeypatch):
    monkeypatch.setenv("PAPER_ARCADE_NO_NUMBA", "1")
    assert bot.KERNEL.get() is None
    s = rules.new_game(None, 2)
    for move in ("a1", "h4", "d2"):
        s = rules.apply(s, move)
    legal = rules.legal_moves(s)
    budget = Budget(0.1, now=TickingClock(0.01))  # about ten looks: some 2,500 nodes
    assert bot.choose(rules.view(s, s.turn), legal, budget, "hard", random.Random(1)) in legal
