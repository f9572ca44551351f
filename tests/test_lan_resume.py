"""A LAN game taken up again (issue 30: 11): either side's program killed mid-game goes on from
its save with its secrets restored; a restarted host takes back the same guest, proven by its
token, and a stranger is refused; a claimed win leaves no unfinished save. In memory: the wire
is tests/fakes/wire.py, and knocking again runs at once on an injected clock."""

import contextlib
import random
import re

import msgpack
import pytest

from game import i18n, replay, saves
from game.i18n import N_, Text
from game.match import CLAIM_AFTER, CLAIMED, Match
from game.rules import Termination
from net import headless, messages
from net import session as lan
from net.hosting import JoinFailed
from net.link import TIMEOUT
from players.base import Controller, HumanController
from players.events import EventKind
from players.table import Table
from tests.fakes.wire import Clock, link_pair, memory_pair, settle
from tests.test_lan import local_move
from tests.test_lan_crossing import play, to_turn


class Listening:
    """A host's listening socket as the session sees it: hellos waiting to be taken."""

    port = 47475

    def __init__(self):
        self.arrivals: list = []

    def next_arrival(self):
        return self.arrivals.pop(0) if self.arrivals else None

    def stop(self):
        pass


def on_disk(value):
    """What a save file gives back (msgpack, as game/storage writes it)."""
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False,
                           strict_map_key=False)


def knocks_at(guest, host, server, token=None):
    """The guest's knocking reaches `host` through `server`, at once and in memory."""
    def rejoin():
        a, b = link_pair()
        server.arrivals.append((a, {"type": "hello", "token": token or guest.token,
                                    "claimed": guest.claimed()}))
        host.events()  # the host takes the hello (or refuses it)
        welcome = b.receive()
        if welcome is None or welcome.get("type") != "welcome":
            raise ConnectionError("refused")
        return b, welcome
    guest.rejoin, guest.off_loop, guest.address = rejoin, (lambda work: work()), ("host", 1)


def finish(h, g, rng):
    play(h, g, rng, 400)
    if not h.match.over:
        g.resign()
    settle(h, g)
    assert h.match.over and g.match.over and not h.violation and not g.violation
    a, b = h.match.outcome(), g.match.outcome()
    assert (a.winner, a.termination) == (b.winner, b.termination)
    if h.secret_expected() or g.secret_expected():
        assert (h.verdict and h.verdict.ok) and (g.verdict and g.verdict.ok), (h.verdict, g.verdict)


@pytest.mark.parametrize("game,options", [("banqi", {}), ("planes", {}), ("ataxx", {}),
                                          ("banqi", {"fog": True})])
def test_a_restarted_host_takes_back_the_same_guest_and_refuses_a_stranger(game, options):
    h, g = memory_pair(game, options, seed=21)
    rng = random.Random(1)
    play(h, g, rng, 9)
    record, extra = on_disk(h.match.to_record()), on_disk(h.save_extra())
    h.link.close("the host's program was killed")  # nothing more from this one
    g.events()
    assert not g.connected
    server = Listening()
    h2 = lan.restored(Match.from_record(record), extra["lan"], server=server, now=Clock())
    stranger, far = link_pair()
    server.arrivals.append((stranger, {"type": "hello", "token": "guessed"}))
    h2.events()
    assert far.receive()["type"] == "refused" and not h2.connected
    knocks_at(g, h2, server)
    events = g.events()
    assert h2.connected and g.connected
    assert any(e.kind is EventKind.REFRESH for e in events)
    finish(h2, g, rng)


@pytest.mark.parametrize("game,options", [("banqi", {}), ("planes", {}),
                                          ("banqi", {"fog": True})])
def test_a_guest_killed_mid_game_goes_on_from_its_own_save(game, options):
    h, g = memory_pair(game, options, seed=22)
    h.server = server = Listening()
    rng = random.Random(2)
    play(h, g, rng, 10)
    record, extra = on_disk(g.match.to_record()), on_disk(g.save_extra())
    g.link.close("kill -9")
    h.events()
    assert not h.connected
    # a fog guest's record is its views, not a game to replay: it starts from the header
    header = Match(record["game"], record["options"], record["seed"])
    g2 = lan.restored(header, extra["lan"], now=Clock())
    knocks_at(g2, h, server)
    g2.events()
    assert g2.connected and h.connected
    assert len(g2.match.moves) == len(h.match.moves)
    finish(h, g2, rng)


def test_a_guest_knocks_again_on_its_clock_not_the_wall():
    h, g = memory_pair("ataxx", seed=23)
    h.server = server = Listening()
    clock = g.now = Clock()
    tries = []
    g.rejoin, g.off_loop, g.address = (lambda: tries.append(1) or (_ for _ in ()).throw(
        ConnectionError("nobody"))), (lambda work: work()), ("host", 1)
    h.link.close("cable pulled")
    for _ in range(5):
        g.events()
    assert len(tries) == 1  # once, then not before KNOCK_EVERY has passed
    clock.t += 1.5
    g.events()
    assert len(tries) == 2
    knocks_at(g, h, server)
    clock.t += 1.5
    g.events()
    assert g.connected and h.connected


@pytest.mark.parametrize("game", ["dots", "planes"])
@pytest.mark.parametrize("gone", [5.0, CLAIM_AFTER - TIMEOUT + 5])
def test_a_host_back_from_its_save_heeds_the_claim_the_guest_made_meanwhile(
        game, gone, monkeypatch):
    """The host's program was killed; the guest's player waited and claimed the game; the
    host taken up from its save then waited for a guest that no longer came, and could only
    claim too: each record said its own side won (a real-window pass). The guest now knocks
    once to say it claimed, and the host heeds it if it has been gone a claim's time since its
    save was written (a modified guest claiming the moment the host's window closed by
    mistake gets nothing)."""
    from net import rejoin
    h, g = memory_pair(game, seed=32)
    rng = random.Random(3)
    play(h, g, rng, 6)
    monkeypatch.setattr(rejoin, "wall", lambda: 5000.0)
    record, extra = on_disk(h.match.to_record()), on_disk(h.save_extra())
    monkeypatch.setattr(rejoin, "wall", lambda: 5000.0 + gone)
    h.link.close("the host's program was killed")
    g.events()
    g.match.resign(h.seat, CLAIMED, Termination.DISCONNECT)  # what Claim does
    claimed = g.match
    server = Listening()
    h2 = lan.restored(Match.from_record(record), extra["lan"], server=server, now=Clock())
    knocks_at(g, h2, server)
    g.events()  # the knock: the host takes the hello (its notes are said in test_lan)
    assert g.claim_told and g.match is claimed and not g.connected
    if gone < CLAIM_AFTER - TIMEOUT:
        assert not h2.match.over  # too soon: no loss for the host
        return
    assert h2.match.over and h2.match.result_line() == g.match.result_line()
    assert h2.match.outcome().winner == g.seat


def test_a_save_without_a_token_or_seat_is_refused():
    m = Match("ataxx", None, 1)
    for bad in (None, {}, {"seat": 0}, {"seat": 3, "token": "t"}, {"seat": 0, "token": ""}):
        with pytest.raises(ValueError):
            lan.restored(m, bad)
    with pytest.raises(ValueError):
        lan.restored(Match("banqi", None, 1), {"seat": 1, "token": "t",
                                               "secrets": {"key": b"\x00" * 256}})


def test_a_table_over_the_lan_saves_what_a_restart_needs_and_a_claimed_win_removes_it():
    h, g = memory_pair("planes", seed=24)
    clock = Clock()
    table = Table(h.match, [HumanController(), Controller()], remote=h,
                  save_name=lan.lan_save_name(h.match), io=lambda work: work(), now=clock)
    rng = random.Random(3)
    for _ in range(6):
        settle(h, g)
        s = h if h.match.to_move() == h.seat else g
        if s is h:
            assert table.play(local_move(h, rng)) is None
        else:
            g.submit(local_move(g, rng))
        table.tick()
    table.save_on_quit()
    extra = saves.read_extra(lan.lan_save_name(h.match))
    assert extra["lan"]["token"] == h.token and extra["lan"]["secrets"]["own_layout"]
    g.link.close("gone")
    table.tick()
    clock.t += CLAIM_AFTER - 1
    assert not table.claim() and not table.match.over  # not yet: a dropped link is no win
    clock.t += 1
    assert table.claim()
    table.tick()
    assert table.match.over
    assert not saves.path_for(lan.lan_save_name(h.match)).exists()
    i18n.set_language("zh_CN")  # the claim is said in the player's language, as every end is
    try:
        said = table.match.outcome().detail.say()
    finally:
        i18n.set_language("en")
    assert re.search(r"[\u4e00-\u9fff]", said) and not re.search(r"[A-Za-z]{2,}", said), said


def test_headless_play_leaves_no_unfinished_lan_save_after_a_claimed_win(monkeypatch):
    h, g = memory_pair("dots", {"rows": 3, "cols": 3}, seed=25)
    clock = Clock()
    monkeypatch.setattr(headless, "TICK", 0)
    monkeypatch.setattr(headless, "sleep", lambda s: setattr(clock, "t", clock.t + 30))
    g.link.close("gone for good")
    start = clock.t
    line = headless._play(h, "random", now=clock)
    assert CLAIMED in line and clock.t - start >= CLAIM_AFTER  # as a person's Claim waits
    assert not saves.path_for(lan.lan_save_name(h.match)).exists()


def test_a_host_taken_up_from_its_save_file_listens_again_for_the_same_guest_only():
    """Over loopback: the host's program is gone, its save is taken up (net/takeup.py); a
    stranger's hello is refused, and the guest that knocks with its token plays on."""
    import threading

    from net import takeup
    from tests.test_lan import pair, pump_until
    host, h, g = pair("banqi", seed=26)
    try:
        h.server = host
        play_real = random.Random(4)
        for _ in range(6):
            pump_until([h, g], lambda: not h.waiting and not g.waiting
                       and len(h.match.moves) == len(g.match.moves))
            s = h if h.match.to_move() == h.seat else g
            s.submit(local_move(s, play_real))
        pump_until([h, g], lambda: not h.waiting and len(h.match.moves) == len(g.match.moves))
        saves.save(h.match, lan.lan_save_name(h.match), extra=h.save_extra())
        host.stop()
        h.link.close("the host's window was closed")
        h2 = takeup.take_up(lan.lan_save_name(h.match), port=0)
        assert [e.kind for e in h2.events()] == [EventKind.PEER_LOST]
        port = h2.server.port
        got = {}

        def stranger():
            try:
                lan.join(("127.0.0.1", port), "banqi", h2.match.options, "X", "not-the-token",
                         wait=5)
            except JoinFailed as exc:
                got["refused"] = exc.text.key
        t = threading.Thread(target=stranger)
        t.start()
        pump_until([h2], lambda: not t.is_alive())
        assert got.get("refused") == messages.IN_A_GAME and not h2.connected
        g.address = ("127.0.0.1", port)
        pump_until([h2, g], lambda: h2.connected and g.connected, limit=20)
        assert len(g.match.moves) == len(h2.match.moves)
        g.resign()
        pump_until([h2, g], lambda: h2.verdict and g.verdict)
        assert h2.verdict.ok and g.verdict.ok
    finally:
        g.close(), host.stop()


def test_the_title_continues_a_lan_game_from_its_save_and_waits_for_the_other_side():
    """Title -> Continue over the LAN -> the lobby takes the save up -> the game, waiting for
    the other player (claim or wait); claiming the win leaves no LAN save behind."""
    from client.scenes.dialog import ConfirmScene
    from client.scenes.play import PlayScene
    from client.scenes.title import TitleScene
    from tests.harness import Harness

    h, g = memory_pair("ataxx", seed=27)
    play(h, g, random.Random(5), 6)
    h.server = Listening()
    name = lan.lan_save_name(h.match)
    extra = h.save_extra()
    extra["lan"]["port"] = 0  # any free port for the test's listening host
    saves.save(h.match, name, extra=extra)
    ui = Harness()
    try:
        ui.app.push(TitleScene(ui.app))
        ui.frame()
        ui.click_button("Continue over the LAN")
        ui.wait_until(lambda: isinstance(ui.top, ConfirmScene))  # gone: wait, or claim
        play_scene = ui.app.find(PlayScene)
        assert play_scene is not None and play_scene.session.token == h.token
        assert play_scene.match.moves == h.match.moves and not play_scene.session.connected
        # said once, not twice ("Waiting for … to come back. … Wait for them to come back")
        assert ui.top.detail.count("come back") == 1 and "is not back yet" in ui.top.detail
        claim = ui.top.buttons.buttons[0]  # a claim waits until they have been gone a while
        assert claim.label == f"Claim in {int(CLAIM_AFTER)} s" and not claim.enabled
        ui.frames(1, dt=CLAIM_AFTER)
        ui.click_button("Claim the game")
        ui.frames(3)
        assert play_scene.match.over
        assert not saves.path_for(name).exists()
    finally:
        ui.close()


@contextlib.contextmanager
def _host_play_scene(seed: int):
    """A LAN Ataxx game in memory, the host's side on a play scene: (host, guest, ui, scene)."""
    from client.scenes.play import PlayScene
    from tests.harness import Harness

    h, g = memory_pair("ataxx", seed=seed)
    ui = Harness()
    try:
        scene = PlayScene(ui.app, h.match, [HumanController(), Controller()], session=h,
                          now=lambda: 5.0)
        ui.app.push(scene)
        ui.frame()
        yield h, g, ui, scene
    finally:
        ui.close()


def test_the_other_player_is_gone_dialog_goes_once_they_are_back():
    """Continue over the LAN: the other side linked at once, but "The other player is gone"
    stayed up (over 10 s in a real window), and its Claim then did nothing."""
    from client.scenes.dialog import ConfirmScene

    with _host_play_scene(29) as (h, g, ui, scene):
        h.connected = False
        h._note(EventKind.PEER_LOST, text=Text(N_("{name} left"), {"name": "Bob"}))
        ui.frames(2)
        assert isinstance(ui.top, ConfirmScene) and ui.top.message == "The other player is gone"
        ui.frames(5)
        assert isinstance(ui.top, ConfirmScene)  # while they are away it waits for an answer
        h.connected = True  # back
        ui.frames(2)
        assert ui.top is scene


def test_the_panel_behind_the_gone_dialog_counts_down_with_it():
    """A real-window pass: behind "The other player is gone" (its Claim counting down) the
    panel's own Claim stood at "Claim in 60 s" until the dialog went."""
    from client.scenes.dialog import ConfirmScene
    from client.scenes.play import PlayScene
    from tests.harness import Harness

    h, g = memory_pair("ataxx", seed=29)
    ui = Harness()
    try:
        scene = PlayScene(ui.app, h.match, [HumanController(), Controller()], session=h)
        ui.app.push(scene)
        ui.frame()
        g.link.close("gone")
        ui.frames(2)
        assert isinstance(ui.top, ConfirmScene)

        def claims() -> list[str]:
            buttons = [*ui.top.buttons.buttons, *scene.panel_buttons.buttons]
            return [b.label for b in buttons if b.label.startswith("Claim")]

        for waited in (10, 30, 50):
            ui.frames(1, dt=waited - (CLAIM_AFTER - scene.table.claim_in()))
            ui.frames(1, dt=0)
            left = int(CLAIM_AFTER) - waited
            assert claims() == [f"Claim in {left} s"] * 2, claims()
        ui.frames(1, dt=CLAIM_AFTER)
        assert claims() == ["Claim the game"] * 2
    finally:
        ui.close()


def test_the_play_scene_closes_the_dialog_of_a_withdrawn_question():
    from client.scenes.dialog import ConfirmScene

    with _host_play_scene(28) as (h, g, ui, scene):
        g.offer_draw()
        ui.frames(2)
        assert isinstance(ui.top, ConfirmScene)
        g.link.close("gone")
        ui.frames(2)
        assert ui.top is scene or not isinstance(ui.top, ConfirmScene) or \
            "gone" in ui.top.message.lower()
        assert not any(isinstance(s, ConfirmScene) and "draw" in s.message
                       for s in ui.app.stack)


def test_closing_the_window_mid_lan_game_asks_first_and_the_game_is_saved():
    import pygame

    from client.scenes.dialog import ConfirmScene
    from client.scenes.play import PlayScene
    from tests.harness import Harness

    h, g = memory_pair("planes", seed=29)
    ui = Harness()
    try:
        name = lan.lan_save_name(h.match)
        scene = PlayScene(ui.app, h.match, [HumanController(), Controller()], session=h,
                          save_name=name, now=lambda: 5.0)
        ui.app.push(scene)
        ui.frame()
        ui.frame(pygame.event.Event(pygame.QUIT))
        assert ui.app.running and isinstance(ui.top, ConfirmScene)
        ui.click_button("Stay")
        assert ui.app.running and ui.top is scene
        ui.frame(pygame.event.Event(pygame.QUIT))
        ui.click_button("Quit")
        assert not ui.app.running
        assert saves.read_extra(name)["lan"]["token"] == h.token
    finally:
        ui.close()


@pytest.mark.parametrize("game", ["banqi", "planes"])
def test_a_flip_or_shot_asked_before_the_link_dropped_is_asked_again_and_played(game):
    """The guest answered (its part, its cell's answer) but the answer was lost with the link:
    on the resume the host asks the same again and plays it; nothing else may come there."""
    h, g = memory_pair(game, seed=30)
    h.server = server = Listening()
    rng = random.Random(6)
    to_turn(h, g, h.seat, rng, least=4)
    ply = len(h.match.moves)
    asked = next(x for x in h.match.legal_moves() if game != "banqi" or len(x) == 2)
    h.submit(asked)
    assert h.waiting
    g.events()  # the guest answers...
    h.link.inbox.clear()  # ...and the answer is lost with the link
    h.link.close("the network dropped")
    h.events()
    knocks_at(g, h, server)
    g.events()
    settle(h, g)
    assert not h.violation and not g.violation, (h.violation, g.violation)
    assert len(h.match.moves) == ply + 1 and len(g.match.moves) == ply + 1
    played = h.match.moves[ply]
    assert (played if game == "banqi" else played[0]) == asked


def test_a_chat_line_that_cannot_go_says_so_and_an_empty_one_is_not_sent():
    h, g = memory_pair("ataxx", seed=30)
    g.events()
    g.chat("   ")
    assert not [e for e in g.events() if e.kind is EventKind.NOTICE]
    assert not [e for e in settle(h, g) if e.kind is EventKind.NOTICE]  # nothing crossed
    g.link.close("gone")
    g.chat("hello?")
    said = [e.text.english() for e in g.events() if e.kind is EventKind.NOTICE]
    assert said[-1] == "Not sent: Host is not linked", said


@pytest.mark.parametrize("restarted", ["host", "guest"])
def test_the_side_that_came_back_is_told_so_and_the_other_that_it_is_back(restarted):
    """A guest restarted and taken up again read "Host is back", as if the host had been
    away: it is told it is back in the game with the host, and the side that waited that the
    other is back."""
    h, g = memory_pair("ataxx", seed=24)
    h.server = server = Listening()
    play(h, g, random.Random(3), 6)
    if restarted == "host":
        record, extra = on_disk(h.match.to_record()), on_disk(h.save_extra())
        h.link.close("killed")
        g.events()
        h = lan.restored(Match.from_record(record), extra["lan"], server=server, now=Clock())
    else:
        record, extra = on_disk(g.match.to_record()), on_disk(g.save_extra())
        g.link.close("killed")
        h.events()
        g = lan.restored(Match.from_record(record), extra["lan"], now=Clock())
    h.events(), g.events()
    said: dict[str, list[str]] = {"host": [], "guest": []}
    for side, s in (("host", h), ("guest", g)):
        s._say = lambda key, s=s, side=side, **p: said[side].append(
            Text(key, {"name": s.peer_name, **p}).english())
    knocks_at(g, h, server)
    g.events(), h.events()
    assert h.connected and g.connected
    waited = "guest" if restarted == "host" else "host"
    assert said[restarted].count("Back in the game with " + ("Guest" if restarted == "host"
                                                            else "Host")) == 1
    assert ("Host" if waited == "host" else "Guest") + " is back" not in said[waited]
    assert ("Guest" if waited == "host" else "Host") + " is back" in said[waited]
    assert not any(line.endswith(" is back") for line in said[restarted])


@pytest.mark.parametrize("game", ["ataxx", "banqi"])
def test_a_guests_record_of_a_resumed_game_keeps_the_whole_games_time_and_date(game):
    """The guest's match is rebuilt from the host's welcome on a resume; its replay said the game
    began then (a real-window pass: 2.2 s for a game the host's record gives 80 s)."""
    h, g = memory_pair(game, seed=31)
    h.server = server = Listening()
    clock = Clock()
    g.now = clock
    table = Table(g.match, [HumanController(), Controller()], remote=g, now=clock,
                  io=lambda work: work(), save_name="resumed-guest")
    table.tick()
    began, date = clock.t, g.match.started
    rng = random.Random(6)
    for _ in range(4):
        play(h, g, rng, 1)
        clock.t += 20.0
        table.tick()
    h.link.close("cable pulled")
    table.tick()
    knocks_at(g, h, server)
    clock.t += 30.0
    table.tick()  # knocks, and is welcomed back: a match rebuilt from the welcome
    assert g.connected and table.match is g.match
    g.resign()
    for _ in range(3):  # the end settles (the reveals cross), then its records are written
        h.events()
        clock.t += 5.0
        table.tick()
    entries, _problems = replay.list_replays(game)
    assert len(entries) == 1
    match, body = replay.load_replay(entries[0].path)
    assert 110.0 <= body["duration"] <= clock.t - began  # since the table began, to the end
    assert match.started == date


@pytest.mark.parametrize("saved_at", ["yesterday", None, True, float("nan"), float("inf"),
                                      -1e300, 1e300, [1]])
def test_a_saves_time_of_any_shape_takes_the_game_up(saved_at, monkeypatch):
    """A save file can be edited: whatever its time says, the game is taken up and waits; a
    time that is no number is as an older save's (no time: a claim is believed), and one in
    the future counts as no absence at all (a claim is not)."""
    from net import rejoin
    h, g = memory_pair("dots", seed=33)
    play(h, g, random.Random(3), 4)
    extra = on_disk(h.save_extra())
    extra["lan"]["saved_at"] = saved_at
    monkeypatch.setattr(rejoin, "wall", lambda: 5000.0)
    h2 = lan.restored(Match.from_record(on_disk(h.match.to_record())), extra["lan"],
                      server=Listening(), now=Clock())
    assert not h2.connected and not h2.match.over
    numeric = type(saved_at) is float and saved_at == saved_at and abs(saved_at) != float("inf")
    assert h2._claimed_too_soon() == (numeric and saved_at > 5000.0 - (CLAIM_AFTER - TIMEOUT))
