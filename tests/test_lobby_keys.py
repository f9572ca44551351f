"""The LAN lobby has one keyboard focus: Tab goes round its places, keys go to the one that has
it, and only that one is drawn focused."""

from __future__ import annotations

import msgpack
import pygame

from client.scenes.lobby import Area, LobbyScene
from net import discovery
from tests.harness import Harness


def _found(scene: LobbyScene, name: str = "Ann") -> None:
    beacon = {"type": "beacon", "app": "Paper Arcade", "protocol": discovery.PROTOCOL,
              "game": "dots", "options": {}, "version": "1", "port": 5999, "name": name}
    scene.hosts.heard(msgpack.packb(beacon), "10.3.0.1")
    scene._rebuild()


def _focused_places(h: Harness, scene: LobbyScene, monkeypatch) -> list[str]:
    """The places that drew themselves focused in one frame."""
    drawn: list[str] = []
    for place, widget in (("hosts", scene.host_buttons), ("address", scene.address),
                          ("game", scene.game_row), ("actions", scene.buttons)):
        real = widget.draw

        def spy(surface, focused=True, real=real, place=place):
            if focused:
                drawn.append(place)
            return real(surface, focused)
        monkeypatch.setattr(widget, "draw", spy)
    h.frame()
    monkeypatch.undo()
    return drawn


def test_one_place_is_drawn_focused_wherever_tab_takes_the_keyboard(lobby, monkeypatch):
    h, scene = lobby
    assert _focused_places(h, scene, monkeypatch) == ["game"]
    _found(scene)
    seen = []
    for _ in range(len(Area)):
        h.key(pygame.K_TAB)
        seen.append(scene.area)
        assert _focused_places(h, scene, monkeypatch) == [scene.area.value]
    assert set(seen) == set(Area)  # every place, found games included, once round
    h.key(pygame.K_TAB, mod=pygame.KMOD_SHIFT)
    assert scene.area is seen[-2]


def test_the_action_buttons_are_reached_and_pressed_by_keys(lobby):
    h, scene = lobby
    h.key(pygame.K_DOWN)  # from the game row down to the buttons
    assert scene.area is Area.ACTIONS and scene.buttons.focus == 0
    h.key(pygame.K_DOWN)
    assert scene.buttons.buttons[scene.buttons.focus].label == "Host this game"
    h.key(pygame.K_RETURN)
    assert scene.host is not None  # hosting: the keyboard got there without a mouse
    scene.stop_hosting()


def test_keys_go_only_to_the_place_that_has_them(lobby):
    h, scene = lobby
    _found(scene)
    game = scene.game_row.index
    scene.area = Area.HOSTS
    h.key(pygame.K_RIGHT)
    assert scene.game_row.index == game  # the game row did not move
    scene.area = Area.ADDRESS
    for ch in "host":
        h.key(getattr(pygame, f"K_{ch}"), unicode=ch)
    assert scene.address.value == "host" and scene.host is None  # "h" typed, not Host
    scene.area = Area.GAME
    h.key(pygame.K_RIGHT)
    assert scene.game_row.index == (game + 1) % len(scene.game_row.choices)
    assert scene.address.value == "host"
