"""The dots board as a player meets it: a hint on any board size, a cursor unlike a line."""

import pygame

from client.boards.dots import Board
from client.ui import theme
from game.rules import dots as rules
from tests.fakes.ticking import TickingClock


def make(rows: int, cols: int) -> Board:
    pygame.init()
    b = Board({"rows": rows, "cols": cols, "first_reply_rule": False}, rules.SEAT_NAMES)
    b.layout(pygame.Rect(0, 0, 500, 500))
    s = rules.new_game({"rows": rows, "cols": cols})
    b.set_view(rules.view(s, 0), rules.legal_moves(s), my_turn=True, viewer=0)
    return b


def test_a_hint_beyond_the_solved_boards_names_a_line_for_the_player():
    b = make(5, 5)
    b.hint_clock = TickingClock(0.01)  # its searches end within a few hundred looks
    b.toggle_hint()
    assert "working" in b.hint
    b.hint_worker._thread.join(60)  # ended by its own clock, not a timer: no waiting
    b.update(0.02)
    assert b.hint.startswith("Hint: draw ") and "-" in b.hint, b.hint
    assert "table" not in b.hint and "solved" not in b.hint


def test_the_keyboard_cursor_is_a_dashed_pencil_mark_not_a_drawn_line():
    b = make(2, 2)
    b.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, unicode="", mod=0))
    surface = pygame.Surface((500, 500))
    surface.fill(theme.PAPER)
    b.draw(surface)
    a, z = b.line_points(b.cursor)
    along = [surface.get_at((a[0] + (z[0] - a[0]) * i // 40, a[1] + (z[1] - a[1]) * i // 40))[:3]
             for i in range(6, 35)]
    assert theme.PAPER in along and theme.ACCENT in along  # dashes with gaps
    assert theme.GRID not in along and not any(c in theme.SEAT_COLORS for c in along)
