"""The dots board as a player meets it: a hint on any board size, a cursor unlike a line."""

import pygame
from hypothesis import given, settings
from hypothesis import strategies as st

from client.boards.dots import Board, dot_radius, label_room, label_size
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


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 5), cols=st.integers(1, 5),
       width=st.integers(260, 1400), height=st.integers(220, 900))
def test_the_labels_keep_clear_of_the_dots_and_inside_the_board(rows, cols, width, height):
    """At 1280x800 a 2x2 board's dots grew over its letters and numbers, and the top ones ran
    up into the header."""
    b = make(rows, cols)
    room = pygame.Rect(10, 10, width, height)
    b.layout(room)
    radius = dot_radius(b.spacing)
    dots = [b.dot(r, c) for r in range(rows + 1) for c in range(cols + 1)]
    for words, where, anchor in b.labels():
        box = theme.render(words, label_size(b.spacing), theme.INK).get_rect(**{anchor: where})
        margin = 2 * label_room(b.spacing)
        if b.spacing * cols + margin <= width and b.spacing * rows + margin <= height:
            assert room.contains(box), (words, box, room)
        for x, y in dots:  # no dot's ink on a label
            nearest = (min(max(x, box.left), box.right), min(max(y, box.top), box.bottom))
            assert (nearest[0] - x) ** 2 + (nearest[1] - y) ** 2 > radius ** 2, (words, box)


def test_the_hint_says_its_forecast_in_the_languages_brackets():
    """"提示：画 a1-b1（你仍可净胜 2 格）", not "(你仍可净胜 2 格)"."""
    from game import i18n
    b = make(2, 2)
    i18n.set_language("zh_CN")
    try:
        said = b._hint_text((2, 0))
    finally:
        i18n.set_language("en")
    assert "（你仍可净胜 2 格）" in said and "(" not in said, said
    assert b._hint_text((2, 0)).endswith("(you can still win by 2)")


def test_the_hint_calls_the_player_you_while_their_takeback_is_asked():
    """Over the LAN a player who asked to take back their move may not move until the answer
    (my_turn is False), yet the position is still theirs to play: the hint said "blue can still
    win by 2" of the player's own side (a real-window pass)."""
    b = make(2, 2)
    s = rules.new_game({"rows": 2, "cols": 2})
    b.set_view(rules.view(s, 0), [], my_turn=False, viewer=0)
    assert b._hint_text((2, 0)).endswith("(you can still win by 2)")
    b.set_view(rules.view(s, None), [], my_turn=False, viewer=None)  # watching: by side
    assert "you" not in b._hint_text((2, 0))
