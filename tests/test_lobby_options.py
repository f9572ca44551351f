"""The LAN lobby says the options a game is hosted with where they are not the usual ones
(whether a Banqi table has fog matters before one joins), in the player's language."""

from __future__ import annotations

import msgpack
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client.scenes import lobby as lobby_scene
from client.scenes.lobby import LobbyScene
from client.scenes.setup import SetupScene
from game import i18n, registry
from game import settings as arcade_settings
from net import discovery
from tests.fakes.ports import spare_port


def _found(scene: LobbyScene, game: str, options: dict) -> str:
    """The host button a beacon for this game and these options makes."""
    beacon = {"type": "beacon", "app": "Paper Arcade", "protocol": discovery.PROTOCOL,
              "game": game, "options": options, "version": "1", "port": 5999, "name": "Ann"}
    scene.hosts.heard(msgpack.packb(beacon), "10.3.0.1")
    scene._rebuild()
    scene.ensure_layout(scene.app.size)
    (button,) = scene.host_buttons.buttons
    return button.label


@pytest.mark.parametrize("lang, words", [("en", "Banqi (Fog of war: On)"),
                                         ("zh_CN", "Ann：暗棋（战争迷雾：开）")])
def test_a_hosted_game_with_fog_says_so_in_the_language(lobby, lang, words):
    h, scene = lobby
    i18n.set_language(lang)
    assert words in _found(scene, "banqi", {"variant": "taiwan", "fog": True})


def test_usual_options_and_a_crafted_value_say_nothing_more(lobby):
    h, scene = lobby
    assert _found(scene, "banqi", {"variant": "taiwan", "fog": False}).startswith("Ann: Banqi  (")


def test_a_value_no_choice_has_is_not_repeated(lobby):
    h, scene = lobby
    label = _found(scene, "banqi", {"variant": "x" * 30, "fog": False})
    assert "x" * 30 not in label and "(" not in label.split("  (")[0]


def test_the_host_column_says_the_options_it_will_host_with(lobby, monkeypatch):
    h, scene = lobby
    arcade_settings.put("last_setup", {"banqi": {"options": {"fog": True}}})
    scene.game_row.select([v for v, _label in scene.game_row.choices].index("banqi"))
    drawn: list[str] = []
    real = lobby_scene.theme.text
    monkeypatch.setattr(lobby_scene.theme, "text", lambda surface, text, *a, **k:
                        (drawn.append(text), real(surface, text, *a, **k))[1])
    h.frame()
    assert "Fog of war: On" in drawn


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_options_said_names_exactly_the_options_off_their_default(data):
    game = data.draw(st.sampled_from(registry.GAME_IDS))
    spec = registry.get(game).rules.OPTIONS
    options = {o.key: data.draw(st.sampled_from([v for v, _label in o.choices])) for o in spec}
    said = i18n.options_said(spec, options)
    for o in spec:
        label = dict(o.choices)[options[o.key]]
        assert (f"{o.label}: {label}" in said) == (options[o.key] != o.default)


def test_the_address_goes_before_the_games_text_gets_too_small(lobby):
    """A found game's button names its address while every label fits at a legible size;
    a long one (a Chinese name, two options) makes them all drop it instead of shrinking."""
    h, scene = lobby
    assert _found(scene, "banqi", {"variant": "taiwan", "fog": True}).endswith("(10.3.0.1:5999)")
    beacon = {"type": "beacon", "app": "Paper Arcade", "protocol": discovery.PROTOCOL,
              "game": "banqi", "options": {"variant": "china", "fog": True}, "version": "1",
              "port": 5999, "name": "小明的电脑小明的电脑小明的电脑"}
    scene.hosts.heard(msgpack.packb(beacon), "10.3.0.2")
    scene._rebuild()
    h.frame()  # laid out before it is drawn
    labels = [b.label for b in scene.host_buttons.buttons]
    assert len(labels) == 2 and not any("10.3.0." in label for label in labels)
    assert any("Rules: China, Fog of war: On" in label for label in labels)


def test_a_value_equal_to_a_choice_but_not_one_is_not_said(lobby):
    """A beacon's fog of 1 is not the choice True (a game's options refuse it): the lobby
    does not call it "Fog of war: On" (a hostile beacon's label said so)."""
    h, scene = lobby
    assert "Fog of war" not in _found(scene, "banqi", {"variant": "taiwan", "fog": 1})


def test_options_changed_in_setup_and_left_by_back_are_the_ones_hosted(lobby):
    """Fog set on in Banqi's setup, then Back (not Start): the lobby hosts with fog, as it says
    ("as you last set them up"), and the form shows it again next time."""
    h, _lobby = lobby
    setup = SetupScene(h.app, "banqi")
    h.app.push(setup)
    h.frame()
    fog = setup.option_rows["fog"]
    fog.select([v for v, _label in fog.choices].index(True))
    h.key(pygame.K_ESCAPE)
    assert h.top is not setup
    assert lobby_scene.hosted_options("banqi")["fog"] is True
    assert SetupScene(h.app, "banqi").option_rows["fog"].value is True


def test_the_lobby_opens_on_the_game_it_showed_last(lobby):
    h, scene = lobby
    games = [v for v, _label in scene.game_row.choices]
    scene.game_row.select(games.index("jungle"))
    again = LobbyScene(h.app, listen_port=spare_port())
    try:
        assert again.game_row.value == "jungle"
    finally:
        again.close()
    arcade_settings.put("lan_game", "no such game")
    crafted = LobbyScene(h.app, listen_port=spare_port())
    try:
        assert crafted.game_row.value == games[0]
    finally:
        crafted.close()
