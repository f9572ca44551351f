"""A form's row labels (Settings, a game's setup, Watch) are drawn at one size, whatever the
window, the language or the row with the focus: each row used to shrink its own label to
its room, so at 800x560 'Hard AI time' stood smaller than 'Language' above it, and a label
shrank again when the focus made it bold."""

from __future__ import annotations

import hypothesis
import pytest
from hypothesis import given
from hypothesis import strategies as st

from client.scenes.settings_page import SettingsScene
from client.ui import theme
from client.ui.widgets import LABEL_GAP
from game import i18n, registry
from tests.harness import Harness

FORMS = ["settings", "watch"] + [f"setup {g}" for g in registry.available()]


def _open(app, form: str) -> None:
    if form == "settings":
        app.push("settings")
    elif form == "watch":
        app.push("setup", game_id=registry.available()[0], watch=True)
    else:
        app.push("setup", game_id=form.split()[1])


def _rows(scene) -> list:
    return scene.rows if isinstance(scene, SettingsScene) else scene.visible_rows()


def _label_draws(scene, surface) -> list[tuple[object, str, int]]:
    """(row, line, size) of each line of a row's label drawn in one frame."""
    drawn: list[tuple[str, tuple[int, int], int]] = []
    real = theme.text

    def record(surf, words, pos, size, *args, **kwargs):
        drawn.append((words, pos, size))
        return real(surf, words, pos, size, *args, **kwargs)
    theme.text = record
    try:
        scene.draw(surface)
    finally:
        theme.text = real
    return [(row, words, size) for row in _rows(scene) for words, (x, y), size in drawn
            if x == row.rect.x and row.rect.top <= y <= row.rect.bottom and words
            and words in row.label.replace("\n", " ")]


@hypothesis.settings(max_examples=30, deadline=None)
@given(width=st.integers(800, 1920), height=st.integers(560, 1080),
       language=st.sampled_from(["en", "zh_CN", "zh_TW"]), form=st.sampled_from(FORMS))
def test_a_forms_labels_share_one_size_whichever_row_has_the_focus(width, height, language,
                                                                   form):
    i18n.set_language(language)
    harness = Harness((width, height))
    try:
        _open(harness.app, form)
        harness.frame()
        scene, surface = harness.app.top, harness.app.screen
        rows = _rows(scene)
        sizes = set()
        for focus in range(len(rows)):
            scene.focus = focus
            draws = _label_draws(scene, surface)
            assert {id(row) for row, _w, _s in draws} == {id(row) for row in rows}, form
            for row, words, size in draws:
                sizes.add(size)
                bold = row is rows[focus]
                assert theme.font(size, bold).size(words)[0] <= row.label_width - LABEL_GAP, \
                    (row.label, words, size)
        assert len(sizes) == 1, (form, sorted(sizes))
    finally:
        i18n.set_language("en")
        harness.close()


def _form_at(form: str, size: tuple[int, int], language: str) -> tuple[list, list[int], object]:
    """The form's rows' rectangles, the sizes its labels and chips are drawn at, and its box."""
    i18n.set_language(language)
    harness = Harness(size)
    try:
        _open(harness.app, form)
        harness.frame()
        scene = harness.app.top
        rows = _rows(scene)
        drawn: list[int] = []
        real = theme.text

        def record(surf, words, pos, at, *args, **kwargs):
            drawn.append(at)
            return real(surf, words, pos, at, *args, **kwargs)
        theme.text = record
        try:
            for row in rows:
                row.draw(harness.app.screen, False)
        finally:
            theme.text = real
        return [row.rect for row in rows], drawn, scene.box
    finally:
        i18n.set_language("en")
        harness.close()


@hypothesis.settings(max_examples=15, deadline=None)
@given(width=st.integers(1280, 1920), height=st.integers(800, 1080),
       grow=st.integers(60, 400), language=st.sampled_from(["en", "zh_CN", "zh_TW"]),
       form=st.sampled_from(FORMS))
def test_a_form_grows_with_a_taller_window_and_stays_inside_it(width, height, grow, language,
                                                               form):
    """On a 1600x1000 window the setup and settings rows kept their 1280x800 size, small at
    the sheet's top with the rest of it empty: a taller window now gives taller rows and
    larger words, never smaller, and every row stays within its sheet."""
    small = _form_at(form, (width, height), language)
    large = _form_at(form, (width, height + grow), language)
    for rects, _drawn, box in (small, large):
        assert all(box.contains(rect) for rect in rects), form
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(b.height >= a.height for a, b in zip(small[0], large[0]))
    assert max(large[1]) >= max(small[1])


@pytest.mark.parametrize("form", FORMS)
def test_a_form_on_a_1600x1000_window_is_larger_than_on_1280x800(form):
    small = _form_at(form, (1280, 800), "en")
    large = _form_at(form, (1600, 1000), "en")
    assert large[0][0].height > small[0][0].height and max(large[1]) > max(small[1])
