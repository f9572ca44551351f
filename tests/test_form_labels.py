"""A form's row labels (Settings, a game's setup, Watch) are drawn at one size, whatever the
window, the language or the row with the focus: each row used to shrink its own label to
its room, so at 800x560 'Hard AI time' stood smaller than 'Language' above it, and a label
shrank again when the focus made it bold."""

from __future__ import annotations

import hypothesis
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
