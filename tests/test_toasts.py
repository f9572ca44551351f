"""A toast is read before it goes: a long one wraps onto up to three lines instead of being cut
to one small line, and stays as long as it takes to read (a join error was gone in a second)."""

from __future__ import annotations

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from client import app as app_module
from client.ui import theme
from tests.harness import Harness

CHAT = ("Bob: good game! shall we play again tomorrow at the same time, with fog this time, "
        "and the clock at five minutes each?")


@pytest.fixture
def h():
    harness = Harness((800, 560))
    harness.app.push("title")
    harness.frame()
    yield harness
    harness.close()


def _drawn(h, monkeypatch) -> list[str]:
    drawn: list[str] = []
    real = app_module.theme.render
    monkeypatch.setattr(app_module.theme, "render",
                        lambda s, *a, **k: (drawn.append(s), real(s, *a, **k))[1])
    h.app._draw_toasts(pygame.Surface(h.app.size))
    return drawn


def test_a_long_chat_line_is_drawn_whole_on_more_than_one_line(h, monkeypatch):
    h.app.toast(CHAT)
    lines = _drawn(h, monkeypatch)
    assert len(lines) > 1
    assert " ".join(line.strip() for line in lines) == CHAT


def test_a_toast_too_long_for_three_lines_ends_in_an_ellipsis(h, monkeypatch):
    h.app.toast(CHAT * 6)
    lines = _drawn(h, monkeypatch)
    assert len(lines) == app_module.TOAST_LINES and lines[-1].endswith("…")


def test_a_long_toast_outlives_a_short_one_and_neither_stays(h):
    h.app.toast("Rematch offered")
    h.app.toast("Could not join 192.168.1.20:5999: the host did not answer in time")
    h.frames(5 * 60)  # five seconds on the harness's clock
    said = [m for m, _until in h.app.toasts]
    assert said == ["Could not join 192.168.1.20:5999: the host did not answer in time"]
    h.frames(8 * 60)
    assert h.app.toasts == []


@given(st.text(max_size=300), st.text(max_size=300))
def test_reading_time_grows_with_the_text_and_has_a_ceiling(a, b):
    assert theme.reading_seconds(a) <= theme.reading_seconds(a + b) <= 12.0


def test_chinese_reads_slower_a_character_than_latin_letters():
    assert theme.reading_seconds("无法加入主机没有回答") > theme.reading_seconds("abcdefghij")


def test_a_line_far_too_long_is_cut_in_a_few_measures_not_one_a_character(monkeypatch):
    """Cutting took a character off and measured again, each time: a 20,000-letter line (a
    file name, an error) held the first frame of its toast for seconds (18.5 s at 100,000)."""
    pygame.init()
    measured: list[str] = []
    real = theme.ArcadeFont.size
    monkeypatch.setattr(theme.ArcadeFont, "size",
                        lambda self, text: (measured.append(text), real(self, text))[1])
    size, cut = theme.fit("x" * 20_000, 300, 18, 18)
    assert cut.endswith("…") and theme.font(18).size(cut)[0] <= 300
    assert theme.font(18).size(cut[:-1] + "x…")[0] > 300  # as much as fits, no less
    assert len(measured) < 40


def _toast_spans(h) -> list[tuple[int, int]]:
    """The toasts' vertical spans as drawn: runs of their ink down the toast area's middle (a
    row is inked if any of a few pixels there is: their letters are drawn in paper)."""
    area = h.top.toast_area(h.app.size)
    x, spans, start = area.centerx, [], None
    for y in range(area.top, area.bottom + 1):
        inked = any(tuple(h.app.screen.get_at((x + dx, y)))[:3] == theme.INK[:3]
                    for dx in range(-12, 13, 3))
        if inked and start is None:
            start = y
        if not inked and start is not None:
            if y - start > 20:  # a box, not a letter's stroke
                spans.append((start, y))
            start = None
    return spans


def _play_scene_with_a_chat_toast(h) -> tuple[int, int]:
    h.app.replace("setup", game_id="ataxx")
    h.frame()
    h.click_button("Start")
    h.frames(3)
    h.app.toast(CHAT)
    h.frame()
    (span,) = _toast_spans(h)
    return h.top.toast_area(h.app.size).centerx, span[0] + 3


def test_a_click_on_a_toast_puts_it_away_and_the_board_under_it_gets_no_click(h):
    """A long chat line stood over the board's lowest row for its 11 s at 800x560."""
    spot = _play_scene_with_a_chat_toast(h)
    scene = h.top
    got: list[int] = []
    real = scene.handle_event
    scene.handle_event = lambda event: (got.append(event.type), real(event))[1]
    h.click(spot)
    assert h.app.toasts == [] and _toast_spans(h) == []
    assert pygame.MOUSEBUTTONDOWN not in got and pygame.MOUSEBUTTONUP not in got
    h.click(spot)  # the toast gone, the same spot reaches the scene again
    assert pygame.MOUSEBUTTONDOWN in got and pygame.MOUSEBUTTONUP in got


def test_a_click_beside_a_toast_leaves_it_and_reaches_the_scene(h):
    x, y = _play_scene_with_a_chat_toast(h)
    h.app.toast("Rematch offered")
    h.frame()
    upper, lower = _toast_spans(h)
    h.click((x, h.top.toast_area(h.app.size).top + 2))  # above both
    assert [m for m, _until in h.app.toasts] == [CHAT, "Rematch offered"]
    h.click((x, upper[0] + 3))  # the chat line, now above the newer one
    assert [m for m, _until in h.app.toasts] == ["Rematch offered"]
    assert len(_toast_spans(h)) == 1
