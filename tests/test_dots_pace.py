"""Dots: lines that arrive in quick succession (a bot taking a chain, a LAN peer's burst) are
drawn one after another at a readable pace, and the board is busy until the last is drawn, so a
bot's next line waits; a view that jumps (undo, load) shows every line at once."""

import pygame
import pytest

from client.boards.dots import STROKE_SECONDS, Board
from game.rules import dots as rules

OPTIONS = {"rows": 3, "cols": 3, "first_reply_rule": False}


@pytest.fixture
def board():
    pygame.init()
    b = Board(OPTIONS, rules.SEAT_NAMES)
    b.layout(pygame.Rect(0, 0, 600, 600))
    return b


def after(lines: list[int]) -> dict:
    s = rules.new_game(OPTIONS)
    for line in lines:
        s = rules.apply(s, line)
    return rules.view(s, None)


def show(board, lines, animate=True):
    board.set_view(after(lines), [], my_turn=False, viewer=None,
                   last_move=lines[-1] if lines else None, animate=animate)


def test_a_burst_of_lines_is_drawn_one_at_a_time(board):
    show(board, [0])
    board.update(1.0)
    assert not board.busy()
    show(board, [0, 5, 9, 13])  # three lines arrive at once
    assert board.busy() and board.shown == 1
    assert not board.paper.mask >> 5 & 1  # not on the paper yet
    board.update(STROKE_SECONDS * 1.05)
    assert board.shown == 2 and board.busy()
    assert board.paper.mask >> 5 & 1 and not board.paper.mask >> 9 & 1
    board.update(STROKE_SECONDS * 1.05)
    board.update(STROKE_SECONDS * 1.05)
    assert board.shown == 4 and not board.busy()
    assert board.paper == board.state


def test_a_box_appears_only_when_its_last_side_is_drawn(board):
    box = [line for line in range(rules.geometry(3, 3).lines)
           if (0, 0) in rules.line_ends(3, 3, line) or (1, 1) in rules.line_ends(3, 3, line)]
    sides = [n for n in box if set(rules.line_ends(3, 3, n)) <= {(0, 0), (0, 1), (1, 0), (1, 1)}]
    assert len(sides) == 4
    show(board, sides[:3])
    board.update(5.0)
    show(board, sides)
    assert board.state.owners[0] >= 0 and board.paper.owners[0] < 0
    surface = pygame.Surface((600, 600))
    board.draw(surface)  # mid-stroke draws without error and without the box
    board.update(STROKE_SECONDS * 1.05)
    assert board.paper.owners[0] == board.state.owners[0]


def test_a_jump_shows_every_line_at_once(board):
    show(board, [0, 5, 9])
    board.update(5.0)
    show(board, [0], animate=False)  # undo
    assert not board.busy() and board.paper == board.state
    show(board, [0, 5, 9, 13, 2], animate=False)  # load
    assert not board.busy()


def test_with_animations_off_nothing_waits(board):
    board.prefs["animation_speed"] = 0
    show(board, [0])
    show(board, [0, 5, 9])
    assert not board.busy()
