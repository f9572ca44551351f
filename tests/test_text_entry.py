"""Text and numbers from outside (beacons, files, settings, programs) are cleaned where they
enter: no U+0000, control character or lone surrogate reaches a font, no name is longer than
NAME_MAX, no date or setting is out of range; and the renderer draws any string at all."""

import math
import sys
from pathlib import Path

import msgpack
import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import replay, storage
from game import settings as game_settings
from game.match import Match, Seat
from game.text import NAME_MAX, clean_number, clean_text
from tests.fakes.ports import spare_port
from tests.harness import Harness

HOSTILE = ["Ev\x00il", "\ud800", "a\udfffb", "\x1b[31mred", "tab\there", "line\nbreak",
           "\x7f\x85\x9f", "x" * 60_000, "y" * 200_000, "\u202eabc", "😀" * 50]
AGENTS = Path(__file__).resolve().parent / "agents"


def drawable(s: str) -> bool:
    """What a font accepts and a screen can hold: no U+0000, no surrogate, no control."""
    return (isinstance(s, str) and len(s) <= NAME_MAX and "\x00" not in s
            and not any("\ud800" <= c <= "\udfff" for c in s)
            and not any(ord(c) < 32 or 0x7f <= ord(c) <= 0x9f for c in s))


def repr_id(value) -> str:
    return ascii(value)[:24]


# --- the function itself
any_text = st.text(alphabet=st.characters(codec=None, categories=None), max_size=300)


@settings(max_examples=300, deadline=None)
@given(value=any_text | st.binary(max_size=200) | st.integers() | st.floats() | st.none()
       | st.lists(st.integers(), max_size=3) | st.dictionaries(st.text(max_size=3), st.none()),
       limit=st.integers(min_value=-5, max_value=500))
def test_clean_text_never_raises_and_gives_a_drawable_line(value, limit):
    out = clean_text(value, limit)
    assert isinstance(out, str) and len(out) <= max(0, limit)
    assert drawable(out[:NAME_MAX])


def test_clean_text_keeps_ordinary_names_and_cuts_long_ones():
    assert clean_text("  Ann Lee  ") == "Ann Lee"
    assert clean_text("张三 (kitchen)") == "张三 (kitchen)"
    assert clean_text("Ev\x00il\ud800") == "Evil\ufffd"
    assert clean_text("a\nb", lines=True, limit=10) == "a\nb"
    assert clean_text("a\nb") == "a b"
    assert len(clean_text("x" * 200_000)) == NAME_MAX
    assert clean_text(10**5000) == ""  # too long to print: no ValueError
    assert clean_text(b"\xff\x00ok") == "\ufffdok"


def test_clean_number_bounds_everything():
    for bad in (math.nan, "1", None, True, [1]):
        assert clean_number(bad, 7.0, 0.0, 10.0) == 7.0
    assert clean_number(1e20, 0.0, 0.0, 10.0) == 10.0
    assert clean_number(-math.inf, 0.0, -1.0, 10.0) == -1.0
    assert clean_number(10**400, 0.0, 0.0, 5.0) == 5.0
    assert clean_number(-(10**400), 0.0, -2.0, 5.0) == -2.0


# --- the renderer: the last guard
@pytest.mark.parametrize("s", HOSTILE + [None, 12, b"\x00", "", "\U0010ffff"], ids=repr_id)
def test_the_renderer_draws_any_string(s):
    from client.ui import theme
    img = theme.render(s, 20, theme.INK)
    assert img.get_width() < 20_000
    theme.wrap(s if isinstance(s, str) else "", 300, 18)
    theme.missing_glyphs(s if isinstance(s, str) else "")


# --- where text enters
def _beacon(name, port=5000):
    from net import discovery
    return {"type": "beacon", "app": "Paper Arcade", "protocol": discovery.PROTOCOL,
            "game": "dots", "options": {}, "version": "1", "port": port, "name": name}


def test_a_beacon_name_is_cleaned_where_it_is_heard():
    from net import discovery
    hosts = discovery.HostList(0)
    fits = [n for n in HOSTILE + ["q" * 1500]  # a datagram holds at most MAX_DATAGRAM bytes
            if "\ud800" not in n and "\udfff" not in n and len(n.encode()) < 1800]
    for i, name in enumerate(fits):
        info = hosts.heard(msgpack.packb(_beacon(name)), f"10.0.{i}.1")
        assert info is not None and drawable(info.name), repr(info.name[:50])
    assert hosts.heard(msgpack.packb(_beacon("Ev\x00il", 5001)), "10.9.0.1").name == "Evil"


def test_a_beacon_with_u0000_does_not_crash_the_lobby():
    from client.scenes.lobby import LobbyScene
    h = Harness((1000, 700))
    try:
        lobby = LobbyScene(h.app, listen_port=spare_port())
        h.app.push(lobby)
        h.frame()
        for i, name in enumerate(["Ev\x00il", "\x00", "z" * 1500]):
            lobby.hosts.heard(msgpack.packb(_beacon(name, 6000 + i)), "10.3.0.1")
        lobby._rebuild()
        h.frames(2)  # draws the host buttons
        assert [b.label.split(":")[0] for b in lobby.host_buttons.buttons] == ["?", "Evil",
                                                                               "z" * NAME_MAX]
    finally:
        h.app.top.close() if h.app.top is not None else None
        h.close()


def _finished_race(names, seed=3):
    m = Match("race", None, seed, [Seat("human", "a"), Seat("ai", "b")])
    while not m.over:
        m.play(m.legal_moves()[0])
    record = replay.replay_body(m, 1.0)
    record["seats"] = [{"kind": "human", "name": n} for n in names]
    return record


def _write_replay(body, name):
    path = replay.replays_dir() / f"{name}{replay.SUFFIX}"
    storage.write_file(path, replay.KIND, replay.FORMAT, body)
    return path


def _open_browser(h):
    from client.scenes.replays import ReplayBrowserScene, ReplayPlayerScene
    h.app.push("replays")
    browser = h.top
    assert isinstance(browser, ReplayBrowserScene)
    h.wait_until(lambda: not browser.loading)
    return browser, ReplayPlayerScene


def test_seat_names_in_a_replay_are_cleaned_and_cut_in_the_browser_and_the_player(race):
    _write_replay(_finished_race(["Ev\x00il\x1b", "n" * 200_000]), "names")
    h = Harness((1000, 700))
    try:
        h.app.push("title")
        browser, player_scene = _open_browser(h)
        assert len(browser.entries) == 1
        assert browser.entries[0].seats == ["Evil", "n" * NAME_MAX]
        h.frames(2)
        h.key(pygame.K_RETURN)
        h.wait_until(lambda: isinstance(h.top, player_scene))  # read off the loop
        assert [s.name for s in h.top.match.seats] == ["Evil", "n" * NAME_MAX]
        h.frames(3)
    finally:
        h.close()


def test_a_seat_name_in_a_save_is_cleaned_when_it_is_loaded(race):
    from game import saves
    body = _finished_race(["Ev\x00il", "\x00" * 10 + "Bo\x07b"])
    path = saves.path_for("names")
    storage.write_file(path, saves.KIND, saves.FORMAT, {"match": body, "saved": 0,
                                                        "title": "x", "moves": 1})
    assert [s.name for s in saves.load(path).seats] == ["Evil", "Bob"]
    assert Seat.from_dict({"kind": "ai", "name": "\ud800" * 99, "level": "\x00hard"}).level \
        == "hard"


@pytest.mark.parametrize("date", [1e20, -1e20, math.nan, math.inf, -1, "yesterday", None,
                                  [1], 2**64 - 1])
def test_a_replay_with_any_date_opens_in_the_browser(race, date):
    body = _finished_race(["a", "b"])
    body["date"] = date
    _write_replay(body, "dated")
    good = _finished_race(["c", "d"], seed=4)
    _write_replay(good, "good")
    h = Harness((1000, 700))
    try:
        h.app.push("title")
        browser, _ = _open_browser(h)
        assert len(browser.entries) == 2
        assert all(0 <= e.date <= replay.LAST_DATE for e in browser.entries)
        h.frames(3)  # each row formats its date
        for e in browser.entries:
            browser.describe(e)
    finally:
        h.close()


def test_player_name_in_settings_is_cleaned_on_read():
    path = game_settings.path()
    storage.write_file(path, "settings", game_settings.FORMAT,
                       {"player_name": "Ann\x00\x1b" + "e" * 100})
    game_settings.reset_for_tests()
    name = game_settings.get("player_name")
    assert drawable(name) and name.startswith("Anneee")
    game_settings.reset_for_tests()
    storage.write_file(path, "settings", game_settings.FORMAT, {"player_name": "\x00\x01"})
    assert game_settings.get("player_name") == game_settings.DEFAULTS["player_name"]


def test_player_name_with_u0000_does_not_crash_the_lobby():
    storage.write_file(game_settings.path(), "settings", game_settings.FORMAT,
                       {"player_name": "Ev\x00il"})
    game_settings.reset_for_tests()
    from client.scenes.lobby import LobbyScene, lan_name
    assert lan_name() == "Evil"
    h = Harness((1000, 700))
    try:
        lobby = LobbyScene(h.app, listen_port=spare_port())
        h.app.push(lobby)
        h.frames(2)
    finally:
        h.app.top.close()
        h.close()


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 1e308, -1e308, 2**64 - 1])
def test_settings_numbers_are_bounded_on_read(value):
    storage.write_file(game_settings.path(), "settings", game_settings.FORMAT,
                       {"volume": value, "animation_speed": value, "ai_seconds": value})
    game_settings.reset_for_tests()
    for key in ("volume", "animation_speed", "ai_seconds"):
        got = game_settings.get(key)
        low, high = game_settings.BOUNDS[key]
        assert isinstance(got, float) and math.isfinite(got) and low <= got <= high, (key, got)


def test_a_declared_setting_is_bounded_too():
    storage.write_file(game_settings.path(), "settings", game_settings.FORMAT,
                       {"t_best": math.nan, "t_name": "x\x00y"})
    game_settings.reset_for_tests()
    game_settings.declare([game_settings.Setting("t_best", 0), game_settings.Setting("t_name",
                                                                                     "")])
    assert game_settings.get("t_best") == 0 and game_settings.get("t_name") == "xy"


# --- an outside program's hello
def play_against_first_move(match, ctrl, tries: int = 2000) -> None:
    """Seat 0 is the program, seat 1 takes the first legal move; to the end of the game."""
    import threading

    from players.base import SeatFailure
    pause = threading.Event()
    try:
        while not match.over:
            seat = match.to_move()
            if seat == 1:
                match.play(match.legal_moves()[0])
                continue
            ctrl.request(match, seat)
            for _ in range(tries):
                try:
                    decision = ctrl.poll()
                except SeatFailure as exc:
                    match.resign(seat, str(exc))
                    break
                if decision is not None:
                    match.play(decision.move)
                    break
                pause.wait(0.005)  # a bounded number of looks, not a timer
            else:
                raise AssertionError("the program never answered")
    finally:
        ctrl.close()
        ctrl.wait_closed()


HELLO = """
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({{"type": "hello", "name": {name!r}, "games": ["race"]}}), flush=True)
    elif msg["type"] == "start":
        print(json.dumps({{"type": "ready"}}), flush=True)
    elif msg["type"] == "turn":
        print(json.dumps({{"type": "move", "move": msg["legal"][0]}}), flush=True)
    elif msg["type"] == "quit":
        break
"""


@pytest.mark.parametrize("name", ["Ev\x00il", "\ud800bot", "\x1b[2Jclear", "w" * 60_000],
                         ids=["nul", "surrogate", "escape", "long"])
def test_a_program_names_itself_with_anything_and_is_named_cleanly(race, tmp_path, name):
    from players.program import AgentController
    script = tmp_path / "namer.py"
    script.write_text(HELLO.format(name=name))
    match = Match(race, {"pile": 5}, 1)
    ctrl = AgentController(f"{sys.executable} {script}", time_ms=2000)
    play_against_first_move(match, ctrl)
    assert match.over and match.resigned is None
    assert drawable(ctrl.name) and ctrl.name, repr(ctrl.name[:60])
    assert ctrl.name == clean_text(name)
