"""The arcade draws all its text with its own font, and that font has every glyph it draws."""

import ast
from pathlib import Path
from unittest import mock

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.ui import theme
from game import registry
from game.match import Match, Seat
from tests.harness import Harness

ROOT = Path(__file__).resolve().parent.parent


def literals(folder: str) -> list[tuple[str, str]]:
    """Every string constant in the Python files under folder (f-strings' fixed parts too)."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.value))
    return found


def test_the_font_is_the_arcades_own_file_with_its_licence():
    for bold in (False, True):
        path = theme.font_path(bold)
        assert path.is_file() and path.parent == ROOT / "assets" / "fonts"
    assert (ROOT / "assets" / "fonts" / "OFL.txt").is_file()
    size = sum(p.stat().st_size for p in (ROOT / "assets" / "fonts").iterdir())
    assert size < 10_000_000


def test_every_game_text_has_all_its_glyphs():
    for game_id in registry.available():
        rules = registry.get(game_id).rules
        texts = [rules.TITLE, rules.TAGLINE, rules.RULES_TEXT, *rules.SEAT_NAMES]
        for opt in rules.OPTIONS:
            texts += [opt.label, *(label for _, label in opt.choices)]
        for s in texts:
            for bold in (False, True):
                assert theme.missing_glyphs(s, bold) == "", (game_id, s)


@pytest.mark.parametrize("folder", ["game", "players", "net", "ai"])
def test_every_string_in_the_code_has_all_its_glyphs(folder):
    missing = {(where, theme.missing_glyphs(s)) for where, s in literals(folder)
               if theme.missing_glyphs(s)}
    assert not missing


def test_common_chinese_of_both_scripts_is_in_the_font():
    # 炸飞机 (simplified) and 炸飛機 (traditional), the Banqi pieces both ways, a rules word.
    for s in ("炸飞机 炸飛機", "帥仕相俥傌炮兵 將士象車馬砲卒", "暗棋 翻棋 规则 規則",
              "Bomb the Planes"):
        assert theme.missing_glyphs(s) == "" and theme.missing_glyphs(s, True) == ""


class _Recording:
    """A font that remembers what it was asked to draw."""

    def __init__(self, real: pygame.font.Font, seen: set[str]):
        self.real, self.seen = real, seen

    def render(self, s, *args, **kwargs):
        self.seen.add(s)
        return self.real.render(s, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_every_string_drawn_on_the_screens_has_its_glyphs_and_no_system_font_is_asked(
        monkeypatch):
    seen: set[str] = set()
    real_font = theme.font
    monkeypatch.setattr(theme, "font", lambda size, bold=False: _Recording(
        real_font(size, bold), seen))

    def no_system_font(*args, **kwargs):
        raise AssertionError("a system font was asked for")

    monkeypatch.setattr(pygame.font, "SysFont", no_system_font)
    monkeypatch.setattr(pygame.font, "match_font", no_system_font)
    h = Harness((800, 560))
    try:
        h.app.push("title")
        h.frame()
        for game_id in registry.available():
            for name, kwargs in (("setup", {"game_id": game_id}), ("rules", {"game_id": game_id})):
                h.app.push(name, **kwargs)
                h.frames(2)
                h.app.pop()
            seats = [Seat("human", "Ann"), Seat("ai", "Bot", "easy")]
            match = Match(game_id, None, 3, seats[:registry.get(game_id).players])
            h.app.push("replay", match=match)
            h.frames(2)
            h.app.pop()
    finally:
        h.close()
    assert any(theme.has_cjk(s) for s in seen)
    assert {s: theme.missing_glyphs(s) for s in seen if theme.missing_glyphs(s)} == {}



@settings(max_examples=60, deadline=None)
@given(text=st.text(st.sampled_from("Wil.1 汉字"), max_size=40), width=st.integers(20, 400),
       size=st.integers(8, 30), smallest=st.integers(8, 16), bold=st.booleans())
def test_fit_draws_the_largest_size_that_fits_and_cuts_only_at_its_smallest(
        text, width, size, smallest, bold):
    pygame.init()
    got, line = theme.fit(text, width, size, smallest, bold)
    assert got == theme.shrink(text, width, size, smallest, bold)
    assert got == size if size <= smallest else smallest <= got <= size
    if got < size:  # one size larger would not have fitted
        assert theme.font(got + 1, bold).size(text)[0] > width
    if line == text:
        assert theme.font(got, bold).size(text)[0] <= width
    else:  # cut only where no size down to the smallest fits; what is left fits, with "…"
        assert got == min(size, smallest)
        assert line.endswith("…") and text.startswith(line[:-1].rstrip())
        assert theme.font(got, bold).size(line)[0] <= width or line == "…"


@settings(max_examples=40, deadline=None)
@given(label=st.text(st.sampled_from("Wil.1 汉字:（）"), min_size=1, max_size=120),
       width=st.integers(60, 400), height=st.integers(24, 60))
def test_a_button_label_is_drawn_inside_its_button_or_cut(label, width, height):
    """However long a label (a LAN host's name, game and options), its ink stays inside the
    button: shrunk, and at the smallest size cut with "…" (it ran past the button's edge)."""
    from client.ui import widgets
    pygame.init()
    surface = pygame.Surface((width + 40, height + 40))
    button = widgets.Button(label, lambda: None)
    button.rect = pygame.Rect(20, 20, width, height)
    drawn: list = []
    real = widgets.theme.text
    with mock.patch.object(widgets.theme, "text", lambda s, text, *a, **k:
                           drawn.append(real(s, text, *a, **k)) or drawn[-1]):
        button.draw(surface)
    (ink,) = drawn
    assert button.rect.left <= ink.left and ink.right <= button.rect.right


def _ink_rows(image: pygame.Surface, left: int, right: int) -> tuple[int, int]:
    """The first and last pixel rows with ink between columns left and right."""
    rows = [y for y in range(image.get_height())
            if any(image.get_at((x, y)).r < 128 for x in range(left, right))]
    return rows[0], rows[-1]


@pytest.mark.parametrize("bold", [False, True])
def test_an_ellipsis_after_latin_letters_sits_on_the_line_and_after_chinese_in_its_middle(bold):
    pygame.display.init()
    f = theme.font(40, bold)
    for before, on_the_line in (("x", True), ("Ann x", True), ("主", False)):
        image = f.render(before + "…", True, (0, 0, 0), (255, 255, 255))
        width = f.size(before)[0]
        letters = _ink_rows(image, 0, width)
        dots = _ink_rows(image, width, image.get_width())
        if on_the_line:  # the dots' foot on the foot of the x: English "..."
            assert abs(dots[1] - letters[1]) <= 2, (before, dots, letters)
        else:  # Chinese "……" is drawn at mid-height
            assert dots[1] < letters[1] - 8, (before, dots, letters)


@pytest.mark.parametrize("bold", [False, True])
def test_a_latin_name_or_a_number_in_a_chinese_line_is_set_apart_by_a_quarter_em(bold):
    """"Bob想和你下一局" ran together: Chinese typesetting puts a quarter-em between a Chinese
    character and a Latin letter or digit, on either side."""
    f = theme.font(40, bold)
    for left, right in (("Bob", "想和你下一局"), ("第", "3"), ("3", "步"), ("走", "b6b4")):
        assert f.size(left + right)[0] >= f.size(left)[0] + f.size(right)[0] + 40 // 5, \
            (left, right)
    assert theme.autospaced("Bob想和你下一局") == "Bob\u2005想和你下一局"
    assert theme.autospaced("第3步") == "第\u20053\u2005步"
    for same in ("Bob 想", "（Bob）想", "Bob, Ann", "「b6b4」", "按 Ctrl+S（保存）", "3×3"):
        assert theme.autospaced(same) == same


@given(st.text(st.sampled_from("ab3 …主。 "), max_size=12), st.sampled_from([11, 16, 24]))
@settings(max_examples=60, deadline=None)
def test_text_is_measured_as_it_is_drawn(s, size):
    assert theme.font(size).size(s)[0] == theme.render(s, size, (0, 0, 0)).get_width()


def _ink(font: pygame.font.Font, ch: str):
    """The glyph's inked pixels, cropped to them."""
    import numpy as np
    a = pygame.surfarray.array3d(font.render(ch, True, (0, 0, 0), (255, 255, 255)))[:, :, 0] < 128
    xs, ys = np.nonzero(a)
    return a[xs.min():xs.max() + 1, ys.min():ys.max() + 1]


def _overlap(a, b) -> float:
    """How much two inked shapes, set at one corner, cover each other (1 the same)."""
    import numpy as np
    w, h = max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1])
    big_a, big_b = np.zeros((w, h), bool), np.zeros((w, h), bool)
    big_a[:a.shape[0], :a.shape[1]], big_b[:b.shape[0], :b.shape[1]] = a, b
    return (big_a & big_b).sum() / (big_a | big_b).sum()


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("nine, six", [("9", "6"), ("９", "６")])
def test_a_nine_is_a_turned_six_and_does_not_read_as_a_q(bold, nine, six):
    """Klee One's 9 had a straight tail: Jungle's rank 9, Planes' A9 and 2048's 4096 read
    as q (a9, 40q6)."""
    font = theme.font(40, bold)
    turned_six = _ink(font, six)[::-1, ::-1]
    like_six, like_q = _overlap(_ink(font, nine), turned_six), _overlap(_ink(font, nine),
                                                                        _ink(font, "q"))
    assert like_six > 0.75 and like_six > like_q + 0.25, (like_six, like_q)
