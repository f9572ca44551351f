"""Typed text comes as SDL's TEXTINPUT: a Chinese input method (pinyin) gives whole words
there and nothing in KEYDOWN's unicode, so a name in Chinese could not be typed at all."""

import pygame
from hypothesis import given
from hypothesis import strategies as st

from client.ui.widgets import TextField
from game import settings


def _typed(text: str) -> pygame.event.Event:
    return pygame.event.Event(pygame.TEXTINPUT, text=text)


def _down(key: int, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=key, unicode=unicode, mod=0, scancode=0)


@given(st.lists(st.text(max_size=6), max_size=8))
def test_a_field_takes_what_the_input_method_gives_and_keeps_to_its_length(words):
    field = TextField("Name", max_len=12)
    for word in words:
        field.handle_event(_typed(word), True)
    assert field.value == "".join(ch for w in words for ch in w if ch.isprintable())[:12]


def test_a_key_that_types_adds_its_letter_once_and_no_hotkey_fires():
    field = TextField("Name")
    assert field.handle_event(_down(pygame.K_q, "q"), True)  # taken: Q is not Quit here
    assert field.value == ""
    field.handle_event(_typed("q"), True)
    field.handle_event(_typed("小明"), True)
    assert field.value == "q小明"
    field.handle_event(_down(pygame.K_BACKSPACE), True)
    assert field.value == "q小"
    assert not field.handle_event(_typed("x"), False)  # not focused: not its text
    assert field.value == "q小"


def test_a_chinese_name_is_typed_into_the_settings_page(h):
    h.click_button("Settings")
    page = h.top
    page.name.value = ""
    page.focus = page.rows.index(page.name)
    h.frame(_typed("小"), _typed("明"))
    assert page.name.value == "小明"
    h.key(pygame.K_ESCAPE)
    assert settings.get("player_name") == "小明"


def test_an_address_is_typed_into_the_lobby(lobby):
    from client.scenes.lobby import Area
    h, scene = lobby
    scene.area = Area.ADDRESS
    for ch in "10.0.0.7":
        h.key(ord(ch) if ch != "." else pygame.K_PERIOD, ch)
    assert scene.address.value == "10.0.0.7"
    scene.area = Area.GAME
    h.frame(_typed("9"))
    assert scene.address.value == "10.0.0.7"  # the keyboard is elsewhere


def test_ctrl_a_selects_the_name_so_what_is_typed_replaces_it():
    """Ctrl+A did nothing, and the typed name went after the old one."""
    ctrl_a = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, unicode="\x01",
                                mod=pygame.KMOD_LCTRL, scancode=0)
    field = TextField("Name", "Player")
    assert field.handle_event(ctrl_a, True)
    field.handle_event(_typed("安"), True)
    field.handle_event(_typed("娜"), True)
    assert field.value == "安娜"
    field.handle_event(ctrl_a, True)
    field.handle_event(_down(pygame.K_BACKSPACE), True)
    assert field.value == ""
    field = TextField("Name", "Ann")
    field.handle_event(ctrl_a, True)
    field.handle_event(_down(pygame.K_RIGHT), True)  # the selection goes, the name stays
    field.handle_event(_typed("a"), True)
    assert field.value == "Anna"


@given(st.sampled_from(["", "Ill", "小明", "W" * 60]), st.booleans())
def test_the_caret_is_a_bar_beside_the_words_not_a_letter_among_them(value, focused):
    """The caret was a "|" typed after the name, which reads as the letter I ("Ill|"): it is a
    bar of the focus ink, taller than the words, just after them and inside the box."""
    from client.ui import theme
    pygame.init()
    surface = pygame.Surface((520, 60))
    field = TextField("Name", value)
    field.layout(pygame.Rect(10, 10, 500, 40), 120)
    drawn: list[tuple[str, pygame.Rect]] = []
    real = theme.text
    try:
        theme.text = lambda s_, text, *a, **k: drawn.append((text, real(s_, text, *a, **k))) \
            or drawn[-1][1]
        field.draw(surface, focused)
    finally:
        theme.text = real
    assert not any("|" in text for text, _rect in drawn)
    box = field.box
    bar = [x for x in range(box.x + 2, box.right - 2)
           if sum(surface.get_at((x, y))[:3] == theme.FOCUS
                  for y in range(box.y + 3, box.bottom - 3)) >= box.height - 14]
    assert bool(bar) == focused
    if focused:
        text, words = drawn[-1]
        end = words.right if text else box.x + 6
        assert end <= bar[0] <= end + 4 and bar[-1] < box.right - 2
