"""The title's keyboard focus stays on the button it was on when the buttons change: a game
saved while the title was covered adds Continue above the others, and the focus used to land
on the button below the one the player had used."""

import random

from client.ui.widgets import Button, ButtonGroup
from game import saves
from game.match import Match, Seat
from tests.harness import Harness


def test_the_focus_stays_on_its_button_when_continue_appears():
    h = Harness((1000, 700))
    try:
        title = h.app.push("title")
        h.frame()
        labels = [b.label for b in title.buttons.buttons]
        title.buttons.focus = labels.index("Load a saved game")
        match = Match("jungle", None, 3, [Seat("human", "Ann"), Seat("ai", "Bot", "easy")])
        match.play(random.Random(3).choice(match.legal_moves()))
        saves.save(match, saves.autosave_name(match))
        h.frames(2)
        now = [b.label for b in title.buttons.buttons]
        assert "Continue" in now and len(now) == len(labels) + 1
        assert now[title.buttons.focus] == "Load a saved game"
    finally:
        h.close()


def test_a_group_keeps_the_focused_label_or_the_nearest_place():
    group = ButtonGroup([Button(x, lambda: None) for x in "abc"])
    group.focus = 2
    group.set([Button(x, lambda: None) for x in "zabc"])
    assert group.focus == 3
    group.set([Button(x, lambda: None) for x in "xy"])  # gone: the nearest place
    assert group.focus == 1
