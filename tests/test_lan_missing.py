"""What the player is told when a capability is missing: a system that does not list its network
interfaces, and a build without the LAN."""

from __future__ import annotations

from client import app as app_module
from client.scenes import table as scene_table
from client.ui import theme
from net import discovery


def _drawn(h, monkeypatch) -> list[str]:
    drawn: list[str] = []
    real = theme.render

    def record(text, *args, **kwargs):
        drawn.append(str(text))
        return real(text, *args, **kwargs)

    monkeypatch.setattr(theme, "render", record)
    h.frames(2)
    return drawn


def test_the_lobby_says_why_a_host_may_not_show_up_without_interface_listing(h, monkeypatch):
    h.app.push("lobby")
    assert not any("type its address" in t for t in _drawn(h, monkeypatch))
    monkeypatch.setattr(discovery, "fcntl", None)
    shown = " ".join(_drawn(h, monkeypatch))
    assert "type its address" in shown and "none yet" not in shown


def test_a_build_without_the_lan_says_why(h, monkeypatch):
    monkeypatch.delitem(scene_table.SCENES, "lobby")
    monkeypatch.setattr(app_module, "LAN_MISSING", "No module named 'net.session'")
    title = h.top
    title.open_lobby()
    h.frame()
    assert any("net.session" in text for text, _ in h.app.toasts)


def test_continuing_over_a_lan_the_build_lacks_says_so_as_opening_the_lobby_does(h, monkeypatch):
    monkeypatch.delitem(scene_table.SCENES, "lobby")
    monkeypatch.setattr(app_module, "LAN_MISSING", "No module named 'net.session'")
    title = h.top
    title.open_lobby()
    title.continue_lan("a saved game")
    h.frame()
    said = [text for text, _ in h.app.toasts]
    assert len(said) == 2 and said[0] == said[1]
    assert said[0] != "No module named 'net.session'"  # the words a player reads come first
