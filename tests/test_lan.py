"""LAN play on loopback: every two-player game through the link, what the guest is sent, junk
frames of every kind, discovery, disconnect and resume, and the headless command lines."""

import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ai.base import Budget, decide_setup
from game.i18n import Text
from game.match import CLAIM_AFTER, CLAIMED
from game.rules import RulesError, Termination
from net import discovery, messages
from net import session as lan
from net.hosting import JoinFailed
from net.link import (
    MAX_FRAME,
    TIMEOUT,
    Link,
    LinkError,
    address_text,
    decode,
    encode,
    parse_address,
)
from net.secrets import Open, commitment
from net.session import Host, join, start_hosted, start_joined
from players.events import EventKind
from tests.fakes.cancel import frozen_clock
from tests.fakes.ports import spare_port

ROOT = Path(__file__).resolve().parent.parent


def pair(game, options=None, seed=7, record=True):
    """A host and a guest session joined on loopback."""
    host = Host(game, options or {}, 0, "127.0.0.1")
    got = {}
    t = threading.Thread(target=lambda: got.update(
        r=join(("127.0.0.1", host.port), game, host.options, "Guest")))
    t.start()
    arrival = None
    for _ in range(500):
        arrival = host.next_arrival()
        if arrival:
            break
        time.sleep(0.01)
    link, hello = arrival
    link.record_sent = record
    h = start_hosted(link, game, host.options, "Host", hello["name"], seed=seed)
    t.join(10)
    g = start_joined(*got["r"])
    return host, h, g


def local_move(s, rng):
    m = s.match
    if m.setup_pending():
        return decide_setup(m.game_id, m.view(s.seat), "random",
                            Budget(0.0, now=frozen_clock()), rng)
    return rng.choice(m.legal_moves())


def pump_until(sessions, done, limit=30.0):
    """Pump until done(); the limit only guards against a hang."""
    end = time.monotonic() + limit
    while not done() and time.monotonic() < end:
        for s in sessions:
            s.events()
        time.sleep(0.002)
    assert done(), "the sessions did not get there in time"


def play_plies(h, g, rng, plies):
    """Whoever is to move plays a random move, `plies` times; then both sides agree."""
    for _ in range(plies):
        pump_until([h, g], lambda: not h.waiting and not g.waiting
                   and len(h.match.moves) == len(g.match.moves))
        s = h if h.match.to_move() == h.seat else g
        s.submit(local_move(s, rng))
    pump_until([h, g], lambda: len(h.match.moves) == len(g.match.moves)
               and not h.waiting and not g.waiting)


def play_through(h, g, rng, max_plies=400):
    """Both sides play random moves until the game ends (or max_plies)."""
    for _ in range(max_plies):
        pump_until([h, g], lambda: not h.waiting and not g.waiting
                   and len(h.match.moves) == len(g.match.moves))
        if h.match.over:
            break
        s = h if h.match.to_move() == h.seat else g
        s.submit(local_move(s, rng))
    pump_until([h, g], lambda: len(h.match.moves) == len(g.match.moves))


def play_until_a_plain_move(h, g, rng, max_plies=60):
    """Banqi: play on (moving face-up pieces when one may) until the last ply moved a piece, so
    it may be taken back (a flip's piece, once shown, stays played)."""
    for _ in range(max_plies):
        pump_until([h, g], lambda: not h.waiting and not g.waiting
                   and len(h.match.moves) == len(g.match.moves))
        if len(h.match.moves[-1]) == 4 or h.match.over:
            return
        s = h if h.match.to_move() == h.seat else g
        s.submit(plain_move(s, rng))
    raise AssertionError("no plain move came")


def plain_move(s, rng):
    """Banqi: a random move of a face-up piece if there is one, else any legal move."""
    plain = [x for x in s.match.legal_moves() if len(x) == 4]
    return rng.choice(plain) if plain else local_move(s, rng)


@pytest.mark.parametrize("game", lan.lan_games())
def test_every_two_player_game_through_the_link(game):
    host, h, g = pair(game)
    try:
        play_through(h, g, random.Random(3), max_plies=5000)
        assert h.match.over and g.match.over
        assert h.match.result_line() == g.match.result_line()
        if h.match.rules.HIDDEN:  # the two sides' lists differ only in what each may not see
            pump_until([h, g], lambda: h.verdict and g.verdict if game == "planes"
                       else g.verdict)
            assert "checked" in g.verdict
        else:
            assert h.match.moves == g.match.moves
            assert h.match.view(None) == g.match.view(None)
    finally:
        h.close(), g.close(), host.stop()


def _flat(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _flat(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _flat(v)
    else:
        yield value


def test_the_guest_never_receives_the_hosts_planes_before_the_end():
    host, h, g = pair("planes")
    try:
        play_through(h, g, random.Random(5))
        pump_until([h, g], lambda: g.verdict and h.verdict)
        sent = h.link.sent
        reveal = next(i for i, m in enumerate(sent) if m["type"] == "reveal")
        before = sent[:reveal]
        layout = [list(p) for p in h.hidden.own_layout]
        for m in before:
            assert "layout" not in m and "salt" not in m
            assert layout not in list(_flat(m)) and not any(p in layout for p in _flat(m))
        # every cell the guest learned about came from a shot the guest made
        told = [m["move"] for m in before if m["type"] == "move" and isinstance(m["move"], list)]
        shots_by_guest = [list(shot) for shot in g.match.state.shots[g.seat]]
        assert told == shots_by_guest
        assert sent[reveal]["layout"] == h.hidden.own_layout
        assert "checked" in g.verdict and "checked" in h.verdict
    finally:
        h.close(), g.close(), host.stop()


def test_the_guest_learns_banqi_pieces_only_as_they_are_flipped():
    host, h, g = pair("banqi", seed=11)
    try:
        play_through(h, g, random.Random(2), max_plies=60)
        welcome = h.link.sent[0]
        assert welcome["type"] == "welcome" and welcome["seed"] != h.match.seed
        pieces = [m for m in h.link.sent if "piece" in m]
        for m in h.link.sent:
            if m["type"] == "move" and "piece" in m:
                assert len(m["move"]) == 2  # only a flip says what it shows
                sq = h.match.rules.parse_square(m["move"])
                assert h.match.states[m["ply"] + 1].board[sq] == m["piece"]
            else:
                assert "piece" not in m and "under" not in list(_flat(m))
        assert pieces
        # what the guest holds about face-down squares is its own dummy deal, not the truth
        assert h.match.state.board == g.match.state.board
        h0, g0 = h.match.states[0].under, g.match.states[0].under
        assert sum(a == b for a, b in zip(h0, g0)) < 16
    finally:
        h.close(), g.close(), host.stop()


def test_a_lying_plane_owner_is_reported():
    host, h, g = pair("planes")
    try:
        play_through(h, g, random.Random(9))
        # the guest reveals a different layout than the one it committed to
        g.hidden.own_layout = decide_setup("planes", g.match.view(g.seat), "random",
                                           Budget(0.0, now=frozen_clock()), random.Random(99))
        layout = g.hidden.own_layout
        verdict = h.check_reveal({"type": "reveal", "layout": layout, "salt": g.salt})
        assert verdict.startswith("Warning") and "commitment" in verdict
        # a layout that matches its commitment but not the answers given is caught too
        h.peer_commit = commitment(g.salt, layout)
        h.hidden.peer_answers = [[c, "head" if a != "head" else "miss"]
                                 for c, a in h.hidden.peer_answers]
        verdict = h.check_reveal({"type": "reveal", "layout": layout, "salt": g.salt})
        assert "answered falsely" in verdict
    finally:
        h.close(), g.close(), host.stop()


def test_a_host_dealing_against_its_key_is_reported():
    """The Banqi deal is shuffled by both sides (net/secrets/banqi.py): the seed commitment of
    the old host-deals scheme became the host's key, checked against its pass and every part."""
    from net.secrets import banqi
    host, h, g = pair("banqi", seed=4)
    try:
        play_through(h, g, random.Random(1), max_plies=20)
        assert g.hidden.parts  # some flips were opened
        h.match.resign(h.seat)
        g.match.resign(h.seat)
        wrong = banqi._encode(h.hidden.key + 2)
        verdict = g.check_reveal({"key": wrong})
        assert verdict.startswith("Warning") and not verdict.ok
        right = banqi._encode(h.hidden.key)
        square = next(iter(g.hidden.parts))
        told = g.hidden.parts[square]
        g.hidden.parts[square] = told * 4 % banqi.P  # a part the host's key did not make
        verdict = g.check_reveal({"key": right})
        assert "part that is not its key's" in verdict and not verdict.ok
        g.hidden.parts[square] = told
        assert "checked" in g.check_reveal({"key": right}) and g.check_reveal({"key": right}).ok
    finally:
        h.close(), g.close(), host.stop()


def test_a_game_without_a_secrets_module_plays_open_over_the_link(race):
    """The test game has no module in net/secrets: the open default carries it, and nothing is
    dealt, committed or revealed, though its rules hide a coin from the seats' views."""
    from game import registry
    assert registry.get(race).lan_module().SECRETS is Open
    host, h, g = pair(race, {"pile": 9}, seed=5)
    try:
        assert type(h.hidden) is Open and type(g.hidden) is Open
        welcome = h.link.sent[0]
        assert welcome["seed"] == h.match.seed and "commit" not in welcome
        play_through(h, g, random.Random(6))
        assert h.match.over and g.match.over
        assert h.match.moves == g.match.moves and h.match.state == g.match.state
        assert h.match.result_line() == g.match.result_line()
        assert not any(m["type"] in ("reveal", "commit") for m in h.link.sent)
        assert h.hidden.secret() is None and not h.secret_expected() and not g.secret_expected()
    finally:
        h.close(), g.close(), host.stop()


def test_options_the_lan_does_not_offer_are_refused_and_reset_by_the_lobby(monkeypatch):
    from client.scenes.lobby import hosted_options
    from game import settings
    from net.secrets import banqi

    class HeldOff(banqi.SharedDeal):  # fog is offered now: a game that holds an option off
        FIXED_OPTIONS = {"fog": (False, "fog of war is not offered over the LAN here")}

    monkeypatch.setattr(banqi, "SECRETS", HeldOff)
    with pytest.raises(RulesError, match="fog of war"):
        lan.check_lan_options("banqi", {"fog": True})
    assert lan.fixed_lan_options("banqi") == {"fog": False}
    assert lan.fixed_lan_options("ataxx") == {}
    settings.put("last_setup", {"banqi": {"options": {"variant": "china", "fog": True}}})
    assert hosted_options("banqi") == lan.check_lan_options("banqi", {"variant": "china"})
    with pytest.raises(RulesError, match="two-player"):
        lan.check_lan_options("no such game", {})


def raw_guest_frames(h, g, frames):
    """Send raw bytes from the guest's socket, then a message of a type no one knows as a
    marker; the host pumps until the guest has the marker's error back (messages are handled
    in order, so every frame before it has been). The error frames before the marker."""
    for f in frames + [frame({"type": "end_of_raw_frames"})]:
        g.link.sock.sendall(f)
    got = []

    def marker_answered():
        h.events()
        while (m := g.link.receive()) is not None:
            got.append(m)
        return any(m.get("kind") == "end_of_raw_frames" for m in got)

    pump_until([], marker_answered)
    return [m for m in got if m["type"] == "error" and m.get("kind") != "end_of_raw_frames"]


def frame(obj):
    body = msgpack.packb(obj)
    return struct.pack(">I", len(body)) + body


BAD_MESSAGES = [
    {"type": "move", "ply": 0, "move": "zz"},                 # illegal
    {"type": "move", "ply": 5, "move": "a1a2"},               # out of step
    {"type": "move", "ply": "0", "move": 3},                  # wrong field types
    {"type": "move"},                                          # missing fields
    {"type": "warp", "x": 1},                                 # unknown message
    {"type": "answer", "ply": 0, "cell": 1, "answer": "head"},  # an answer to no shot
    {"type": "reveal", "seed": 1, "salt": b"x"},              # a reveal before the end
    {"type": "takeback_reply", "accept": True, "ply": 0},     # a reply to nothing asked
    {"type": "resign_please"},
    {"type": "chat", "text": 12},
]


def test_bad_messages_get_an_error_and_change_nothing():
    host, h, g = pair("ataxx")
    try:
        h.submit(h.match.legal_moves()[0])  # the host moves; now it is the guest's turn
        pump_until([h, g], lambda: len(g.match.moves) == 1)
        before = (list(h.match.moves), h.match.state)
        errors = raw_guest_frames(h, g, [frame(m) for m in BAD_MESSAGES])
        assert (list(h.match.moves), h.match.state) == before and h.connected
        assert len(errors) == len(BAD_MESSAGES)  # each one answered
        # the host moving out of turn on the guest's side is refused the same way
        with pytest.raises(RulesError):
            h.submit(h.match.legal_moves()[0] if h.match.legal_moves() else "0000")
        assert h.match.state == before[1]
    finally:
        h.close(), g.close(), host.stop()


@pytest.mark.parametrize("junk", [
    b"\x00\x00\x00\x05\xc1\xc1\xc1\xc1\xc1",          # invalid msgpack
    struct.pack(">I", MAX_FRAME + 1) + b"x" * 100,    # oversized
    frame([1, 2, 3]),                                 # not a map
    frame({"kind": "move"}),                          # no type
    frame({"type": 7}),                               # a type that is no name
    frame({"type": "move", "ply": 0, "move": "a1"})[:-2],  # truncated, then the link ends
])
def test_junk_frames_close_the_link_and_leave_the_game(junk):
    host, h, g = pair("dots", record=False)
    try:
        before = list(h.match.moves)
        g.link.sock.sendall(junk)
        if junk.startswith(frame({"type": "move", "ply": 0, "move": "a1"})[:4]):
            g.link.sock.shutdown(socket.SHUT_WR)
        pump_until([h], lambda: not h.connected)
        assert h.match.moves == before and not h.match.over
        assert h.link.closed_reason
    finally:
        g.link.close(), host.stop()


def test_codec_limits():
    with pytest.raises(LinkError):
        encode({"type": "chat", "text": "x" * (MAX_FRAME + 1)})
    with pytest.raises(LinkError):
        decode(b"\xc1")
    with pytest.raises(LinkError):
        decode(msgpack.packb({"type": 3}))
    assert decode(encode({"type": "ping"})[4:]) == {"type": "ping"}
    assert parse_address("10.0.0.2:5000", 1) == ("10.0.0.2", 5000)
    assert parse_address("hostname", 47) == ("hostname", 47)
    for bad in ("", "a:b", "1.2.3.4:70000", ":5"):
        with pytest.raises(ValueError):
            parse_address(bad, 1)


def test_host_shrugs_off_junk_connections_and_refuses_mismatched_hellos():
    host = Host("ataxx", {}, 0, "127.0.0.1")
    try:
        for junk in (os.urandom(64), struct.pack(">I", 2**31), b"", frame({"type": "hello"})):
            with socket.create_connection(("127.0.0.1", host.port)) as s:
                s.sendall(junk)
        with pytest.raises(JoinFailed) as refused:
            join(("127.0.0.1", host.port), "dots", {}, "X")
        assert refused.value.text == Text(messages.OTHER_GAME)  # said in the guest's language
        old = lan.hello("ataxx", host.options, "X")
        old["version"] = "0.0.1"
        with socket.create_connection(("127.0.0.1", host.port)) as s:
            s.sendall(encode(old))
            s.settimeout(5)
            from net.link import read_frame
            assert "cannot play" in read_frame(s)["reason"]
        pump_until([], lambda: len(host.refused) >= 4)  # the junk and the two hellos
        assert host.next_arrival() is None
        # and a real guest still gets in
        got = {}
        t = threading.Thread(target=lambda: got.update(r=join(("127.0.0.1", host.port),
                                                              None, None, "G")))
        t.start()
        pump_until([], lambda: not host.arrivals.empty())
        link, hello = host.next_arrival()
        s = start_hosted(link, "ataxx", host.options, "H", hello["name"])
        t.join(5)
        assert got["r"][1]["type"] == "welcome"
        s.close()
    finally:
        host.stop()


def _until(done, tries: int = 500) -> bool:
    """Wait for another thread to get there, a bounded number of short looks (a hang guard,
    not a timer: what is tested runs on the links' own clock)."""
    for _ in range(tries):
        if done():
            return True
        time.sleep(0.01)
    return done()


def test_heartbeats_keep_a_quiet_link_and_silence_closes_it():
    clock = [1000.0]
    now = lambda: clock[0]  # noqa: E731
    a, b = socket.socketpair()
    la = Link(a, "a", heartbeat=0.05, timeout=30, now=now).start()
    clock[0] += 29
    assert la.open  # quiet, but not yet for its timeout
    clock[0] += 2  # b never answers: a has heard nothing for 31 s
    assert _until(lambda: not la.open) and "silent" in la.closed_reason
    b.close()
    c, d = socket.socketpair()
    lc = Link(c, "c", heartbeat=0.05, timeout=30, now=now).start()
    ld = Link(d, "d", heartbeat=0.05, timeout=30, now=now).start()
    for _ in range(3):  # 60 s of the links' time, the pings heard every 20
        clock[0] += 20
        assert _until(lambda: lc.last_heard == ld.last_heard == clock[0])
    assert lc.open and ld.open
    lc.close(), ld.close()


def test_disconnect_then_resume_goes_on_from_the_move_list():
    host, h, g = pair("planes", seed=3)
    try:
        rng = random.Random(8)
        play_plies(h, g, rng, 12)
        moves = list(g.match.moves)
        g.link.close("cable pulled")
        notes = []
        pump_until([], lambda: notes.extend(h.events()) or not h.connected)
        assert any(n.kind is EventKind.PEER_LOST for n in notes)
        got = {}
        t = threading.Thread(target=lambda: got.update(r=join(
            ("127.0.0.1", host.port), "planes", host.options, "Guest", g.token)))
        t.start()
        pump_until([], lambda: not host.arrivals.empty())
        link, hello = host.next_arrival()
        assert hello["token"] == h.token
        h.resume(link)
        t.join(5)
        g.resume(*got["r"])
        assert g.match.moves == moves and g.hidden.own_layout is not None
        play_through(h, g, rng)
        assert h.match.result_line() == g.match.result_line()
    finally:
        h.close(), g.close(), host.stop()


@pytest.mark.parametrize("game", ["dots", "banqi"])
def test_a_game_claimed_while_the_guest_was_gone_is_over_for_the_guest_when_it_comes_back(game):
    """The host claimed the game of a guest that left; the guest comes back to a lost game, not
    to one going on (it took up the game, its moves did nothing, the two records disagreed)."""
    host, h, g = pair(game, seed=3)
    try:
        rng = random.Random(8)
        play_plies(h, g, rng, 4)
        g.link.close("window closed")
        pump_until([h], lambda: not h.connected)
        h.match.resign(g.seat, CLAIMED, Termination.DISCONNECT)  # what Claim does
        got = {}
        t = threading.Thread(target=lambda: got.update(r=join(
            ("127.0.0.1", host.port), game, host.options, "Guest", g.token)))
        t.start()
        pump_until([], lambda: not host.arrivals.empty())
        link, _hello = host.next_arrival()
        h.resume(link)
        t.join(5)
        g.resume(*got["r"])
        assert g.match.over and g.match.outcome().winner == h.seat
        assert any(n.text is not None and "claimed the game while you were away" in
                   n.text.english() for n in g.events())
        assert g.match.ending.termination is Termination.DISCONNECT
        pump_until([h, g], lambda: h.settled() and g.settled())
        assert h.match.result_line() == g.match.result_line()
        assert h.match.outcome().winner == g.match.outcome().winner == h.seat
    finally:
        h.close(), g.close(), host.stop()


@pytest.mark.parametrize("game", ["dots", "banqi"])
@pytest.mark.parametrize("host_gone", [5.0, CLAIM_AFTER])
def test_a_guest_that_claimed_the_game_tells_the_host_and_does_not_take_it_up_again(
        game, host_gone):
    """The link went both ways and the guest's player claimed the game. The guest knocks once
    more, only to say so: its finished, counted game is not taken up again (a resume reopened
    it on its screen); the host heeds the claim if it was itself gone as long as a claim needs
    (then both records say the same), and says why not if it was not (a split in which each
    side claimed left two wins, and a guest could claim the moment it cut its own link)."""
    host, h, g = pair(game, seed=3)
    try:
        play_plies(h, g, random.Random(8), 4)
        clock = [100.0]
        h.now = g.now = lambda: clock[0]
        h.link.close("the cable between them pulled")
        pump_until([h, g], lambda: not g.connected and not h.connected)
        clock[0] += host_gone
        g.match.resign(h.seat, CLAIMED, Termination.DISCONNECT)  # what Claim does
        claimed = g.match
        h.server, g.address = host, ("127.0.0.1", host.port)  # the cable is back
        said = []
        pump_until([g], lambda: said.extend(n.text.english() for n in h.events()
                                            if n.text is not None) or g.claim_told)
        assert g.match is claimed and g.match.over and not g.connected
        if host_gone >= CLAIM_AFTER - TIMEOUT:
            assert h.match.over and h.match.result_line() == g.match.result_line()
            assert any("claimed the game while you were away" in line for line in said), said
            assert not any("is back" in line for line in said), said  # it is over: not back
            # words true for the loser too (it read "the other player left", who was itself)
            assert "loser left" in h.match.result_line(), h.match.result_line()
        else:
            assert not h.match.over
            assert any(f"away only {int(host_gone)} s" in line for line in said), said
        for _ in range(5):  # five knocking times go by: no more knocks
            clock[0] += 2.0
            g.events()
            h.events()
        assert host.arrivals.empty() and g.match is claimed and not g.connected
    finally:
        h.close(), g.close(), host.stop()


def test_takeback_draw_chat_and_rematch():
    host, h, g = pair("dots")
    try:
        rng = random.Random(4)
        h.submit(local_move(h, rng))
        pump_until([h, g], lambda: len(g.match.moves) == 1)
        g.submit(local_move(g, rng))
        pump_until([h, g], lambda: len(g.match.moves) == 2 and not g.waiting)
        n = len(h.match.moves)
        g.request_takeback()
        asks = []
        pump_until([], lambda: asks.extend(x for x in h.events()
                                           if x.kind is EventKind.ASK) or asks)
        asks[0].question.on_yes()
        pump_until([g], lambda: len(g.match.moves) < n)
        assert h.match.moves == g.match.moves and g.match.to_move() == g.seat
        g.chat("good luck")
        # the sender sees its own line go (it saw nothing before), as a line of the chat
        assert [x.text.english() for x in g.events() if x.kind is EventKind.CHAT] == [
            "You: good luck"]
        notes = []
        pump_until([], lambda: notes.extend(h.events()) or any(
            x.text is not None and "good luck" in x.text.english() for x in notes))
        h.offer_draw()
        asks = []
        pump_until([], lambda: asks.extend(x for x in g.events()
                                           if x.kind is EventKind.ASK) or asks)
        asks[0].question.on_yes()
        pump_until([h], lambda: h.match.over)
        assert g.match.over and h.match.outcome().winner is None
        from game.match import Match
        again = Match.from_record(h.match.to_record())  # saves and replays keep the agreement
        assert again.over and again.outcome().winner is None
        assert again.outcome().reason == "Draw agreed"
        old_seed = h.match.seed
        g.offer_rematch()
        asks = []
        pump_until([], lambda: asks.extend(x for x in h.events()
                                           if x.kind is EventKind.ASK) or asks)
        asks[0].question.on_yes()
        pump_until([h, g], lambda: not h.match.over and not g.match.over)
        assert g.match.seed == h.match.seed != old_seed and not h.match.moves
    finally:
        h.close(), g.close(), host.stop()


def test_an_asker_whose_takeback_is_refused_is_told_to_look_again_and_may_move():
    """A refused takeback frees the asker's turn, and the screen is told: it reads
    whose turn it is only on the session's notes (a player's board stayed dead after a refusal)."""
    host, h, g = pair("dots")
    try:
        play_plies(h, g, random.Random(4), 3)
        assert g.request_takeback() and g.waiting  # it waits for the answer before it moves
        asks = []
        pump_until([], lambda: asks.extend(x for x in h.events()
                                           if x.kind is EventKind.ASK) or asks)
        asks[0].question.on_no()
        notes = []
        pump_until([], lambda: notes.extend(g.events()) or "takeback" not in g.offers)
        assert not g.waiting
        assert any(x.kind is EventKind.REFRESH for x in notes)
    finally:
        h.close(), g.close(), host.stop()


def test_a_player_whose_move_the_peer_refuses_is_told_to_look_again_and_may_move():
    """The peer's error frees this side's turn (its move was not played), and the screen is
    told, as after a refused takeback."""
    host, h, g = pair("dots")
    try:
        rng = random.Random(5)
        h.submit(local_move(h, rng))
        pump_until([h, g], lambda: len(g.match.moves) == 1)
        g.submit(local_move(g, rng))
        assert g.waiting
        g.events()  # a frame: the screen sees this side waiting
        h.send({"type": "error", "text": "wait for your turn", "kind": "move"})
        notes = []
        pump_until([], lambda: notes.extend(g.events()) or not g.waiting)
        assert any(x.kind is EventKind.REFRESH for x in notes)
    finally:
        h.close(), g.close(), host.stop()


def test_error_frames_that_free_nothing_ask_the_screen_for_nothing():
    """Only an error that frees this side's turn has the screen look again (each look saves
    the game): a peer's stream of errors while nothing of this side's is out costs no saves."""
    host, h, g = pair("dots")
    try:
        rng = random.Random(5)
        h.submit(local_move(h, rng))
        pump_until([h, g], lambda: len(g.match.moves) == 1)
        g.events()
        for _ in range(20):
            h.send({"type": "error", "text": "nonsense", "kind": "move"})
        notes = []
        pump_until([], lambda: notes.extend(g.events()) or sum(
            n.kind is EventKind.NOTICE for n in notes) == 20)
        assert not any(n.kind is EventKind.REFRESH for n in notes)
    finally:
        h.close(), g.close(), host.stop()


def test_discovery_on_loopback():
    port = spare_port()
    hosts = discovery.HostList(port).start()
    beacon = discovery.Beacon({"name": "Ann", "game": "dots", "options": {"rows": 3},
                               "port": 5555}, port, ["127.0.0.1"]).start()
    try:
        pump_until([], lambda: hosts.hosts())
        (found,) = hosts.hosts()
        assert found.address == "127.0.0.1:5555" and found.name == "Ann" \
            and found.game == "dots" and found.options == {"rows": 3}
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:  # junk is ignored
            s.sendto(os.urandom(50), ("127.0.0.1", port))
            s.sendto(msgpack.packb({**beacon.message, "port": 5556}), ("127.0.0.1", port))
        pump_until([], lambda: len(hosts.hosts()) == 2)  # the beacon after the junk is heard
        assert [h.address for h in hosts.hosts()] == ["127.0.0.1:5555", "127.0.0.1:5556"]
    finally:
        beacon.stop(), hosts.stop()
    assert "255.255.255.255" in discovery.broadcast_addresses()


def test_the_host_list_says_when_it_listens_or_has_given_up():
    """Whoever waits for the list to listen waits on `settled`, never by probing the port."""
    port = spare_port()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as holder:
        holder.bind(("", port))  # without SO_REUSEPORT: nobody else may bind it
        refused = discovery.HostList(port).start()
        assert refused.settled.wait(10)
        assert refused.error is not None and refused.error.params["port"] == port
    hosts = discovery.HostList(port).start()
    try:
        assert hosts.settled.wait(10) and hosts.error is None
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            with pytest.raises(OSError):  # it holds the port as `settled` is set
                probe.bind(("", port))
    finally:
        hosts.stop()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("", port))  # free as stop returns: its thread has left recvfrom


def test_discovery_forgets_a_host_not_heard_for_forget_seconds():
    """On the list's own clock, fed a beacon by hand (the list is never started)."""
    clock = [1000.0]
    hosts = discovery.HostList(0, now=lambda: clock[0])
    beacon = discovery.Beacon({"name": "Ann", "game": "dots", "options": {}, "port": 5555}, 0)
    assert hosts.heard(msgpack.packb(beacon.message, use_bin_type=True), "127.0.0.1")
    clock[0] += discovery.FORGET
    assert [h.name for h in hosts.hosts()] == ["Ann"]  # heard FORGET seconds ago: still here
    clock[0] += 0.01
    assert hosts.hosts() == []


def test_a_stopped_beacon_takes_its_game_off_the_list_at_once():
    """The list's clock never moves here: only the beacon's last word can take the game off."""
    port = spare_port()
    hosts = discovery.HostList(port, now=lambda: 1000.0).start()
    beacon = discovery.Beacon({"name": "Ann", "game": "dots", "options": {}, "port": 5555},
                              port, ["127.0.0.1"])
    try:
        assert hosts.settled.wait(10) and hosts.error is None
        beacon.start()
        pump_until([], lambda: hosts.hosts())
        other = {**beacon.message, "port": 5556, "name": "Bob"}
        assert hosts.heard(msgpack.packb(other), "127.0.0.1")
        assert hosts.heard(msgpack.packb({**other, "port": 5557, "gone": True}),
                           "127.0.0.1") is None  # a game that is not there: nothing changes
        beacon.stop()
        pump_until([], lambda: [h.name for h in hosts.hosts()] == ["Bob"])
    finally:
        beacon.stop(), hosts.stop()


def test_the_lobby_lists_every_game_but_its_own_whatever_their_ports(lobby):
    h, scene = lobby
    here = {"type": "beacon", "protocol": discovery.PROTOCOL, "game": "dots", "options": {},
            "port": 47475}
    for name, lobby_id, sender in [("Me", scene.id, "10.0.0.2"), ("Ann", "a1", "10.0.0.3"),
                                   ("Bob", "", "10.0.0.4")]:  # an arcade before lobby ids
        assert scene.hosts.heard(msgpack.packb({**here, "name": name, "id": lobby_id}), sender)
    h.frame()
    assert sorted(host.name for host in scene.found) == ["Ann", "Bob"]
    h.click_button("Host this game")  # hosting on a port of its own: still the others only
    h.frame()
    assert sorted(host.name for host in scene.found) == ["Ann", "Bob"]
    scene.stop_hosting()
    h.frame()
    assert sorted(host.name for host in scene.found) == ["Ann", "Bob"]


def test_headless_host_and_join_print_the_same_line():
    env = dict(os.environ)
    host = subprocess.Popen([sys.executable, "main.py", "--host", "dots", "--headless", "--ai",
                             "random", "--port", "0"], cwd=ROOT, env=env,  # 0: any free port
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for line in host.stderr:  # until "hosting dots on port N" (a warning may come first)
            if line.startswith("hosting"):
                port = int(line.split()[-1])
                break
        with socket.create_connection(("127.0.0.1", port)) as junk:  # junk first
            junk.sendall(os.urandom(300))
        guest = subprocess.run([sys.executable, "main.py", "--join", f"127.0.0.1:{port}",
                                "--headless", "--ai", "random"], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=90)
        out, _ = host.communicate(timeout=60)
    finally:
        host.kill()
    assert guest.returncode == 0 and host.returncode == 0
    assert guest.stdout.strip().splitlines()[-1] == out.strip().splitlines()[-1]
    assert out.strip().splitlines()[-1].startswith("dots: ")


def test_lobby_hosts_accepts_a_guest_and_plays_through_the_play_scene(tmp_path):
    from client.scenes.dialog import ConfirmScene
    from client.scenes.lobby import LobbyScene
    from client.scenes.play import PlayScene
    from tests.harness import Harness

    h = Harness()
    try:
        lobby = LobbyScene(h.app, listen_port=spare_port())
        h.app.push(lobby)
        h.frame()
        h.click_button("Host this game")
        assert lobby.host is not None and "waiting for a player" in lobby.status
        game, port = lobby.host.game, lobby.host.port
        h.screenshot(tmp_path / "lobby.png")
        got = {}
        t = threading.Thread(target=lambda: got.update(
            r=join(("127.0.0.1", port), game, lobby.host.options, "Guest")))
        t.start()
        h.wait_until(lambda: isinstance(h.top, ConfirmScene))
        h.click_button("Accept")
        assert isinstance(h.top, PlayScene) and h.top.session is not None
        t.join(5)
        guest = start_joined(*got["r"])
        play = h.top
        rng = random.Random(1)
        for _ in range(6):  # the person at the host clicks moves; the guest answers
            h.wait_until(lambda: guest.events() is not None and not guest.waiting
                         and not play.session.waiting
                         and len(play.match.moves) == len(guest.match.moves))
            if play.match.to_move() == play.session.seat:
                assert play.try_move(rng.choice(play.match.legal_moves()))
            else:
                guest.submit(local_move(guest, rng))
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and len(guest.match.moves) != len(play.match.moves):
                guest.events()
                h.frame()
        h.wait_until(lambda: guest.events() is not None and not guest.waiting
                     and len(play.match.moves) == len(guest.match.moves) >= 6)
        assert play.match.moves == guest.match.moves
        h.screenshot(tmp_path / "lan_play.png")
        # an illegal click is refused here and changes nothing
        moves = list(play.match.moves)
        assert not play.try_move("not a move")
        assert play.match.moves == moves
        # the guest leaves: the host is asked to claim or wait; it waits, and may claim later
        # from the panel (found in a real window: after Wait nothing could claim the game, the
        # panel still offered a draw to nobody, and Menu said the other player would be told)
        guest.close()
        h.wait_until(lambda: isinstance(h.top, ConfirmScene))
        h.click_button("Wait")
        h.frame()
        assert h.top is play and play.status_text() == "Waiting for Guest to come back"
        labels = [b.label for b in play.panel_buttons.buttons]
        assert "Offer a draw" not in labels, labels
        claim = next(b for b in play.panel_buttons.buttons if b.label.startswith("Claim in"))
        assert not claim.enabled  # not before they have been gone a while: a drop is no win
        play.ask_leave()
        assert "Continue over the LAN" in h.top.detail
        h.click_button("Stay")
        h.frames(1, dt=CLAIM_AFTER)
        h.click_button("Claim the game")
        assert play.match.over and play.match.outcome().winner == play.session.seat
        h.frames(3)
        if h.top is play:
            play.show_result()
        rematch = h.top.buttons.buttons[0]  # the result card: no rematch with one who is gone
        assert rematch.label.startswith("Rematch") and not rematch.enabled
    finally:
        h.close()


def test_a_banqi_host_flips_by_a_click_once_the_deal_has_crossed():
    """Found in a real window: the board got its moves before the guest's shuffle came, and
    nothing told it when the deal crossed, so the host's clicks did nothing. A takeback of a
    flip is then refused with its reason alone (not also "Nothing to undo")."""
    import pygame

    from client.scenes.dialog import ConfirmScene
    from client.scenes.lobby import LobbyScene
    from tests.harness import Harness

    h = Harness()
    try:
        lobby = LobbyScene(h.app, listen_port=spare_port())
        h.app.push(lobby)
        h.frame()
        lobby.game_row.select(lan.lan_games().index("banqi"))
        h.click_button("Host this game")
        assert lobby.host is not None and lobby.host.game == "banqi"
        got = {}
        t = threading.Thread(target=lambda: got.update(r=join(
            ("127.0.0.1", lobby.host.port), "banqi", lobby.host.options, "Guest")))
        t.start()
        h.wait_until(lambda: isinstance(h.top, ConfirmScene))
        h.click_button("Accept")
        play = h.top
        assert play.session.seat == play.match.to_move()
        h.frame()  # the board is given its view before the guest's shuffle comes
        t.join(5)
        guest = start_joined(*got["r"])
        h.wait_until(lambda: guest.events() is not None and play.session.hidden.ready())
        h.frames(2)
        h.click(play.board.square_rect(0).center)
        assert play.session.waiting  # the flip is asked of the guest, whose part opens it
        h.wait_until(lambda: guest.events() is not None and not play.session.waiting)
        assert play.match.moves == ["a1"] and not play.session.violation
        h.wait_until(lambda: guest.events() is not None and guest.match.moves == ["a1"])
        guest.submit(next(m for m in guest.match.legal_moves() if len(m) == 2))
        h.wait_until(lambda: guest.events() is not None and len(play.match.moves) == 2)
        h.app.toasts.clear()
        play.session.link.record_sent = True
        h.key(pygame.K_u)  # a takeback would undo the flip: refused here, with the reason only
        assert [text for text, _ in h.app.toasts] == [
            "A move that showed something hidden cannot be taken back"]
        assert not any(m["type"] == "takeback" for m in play.session.link.sent)
        guest.close()
    finally:
        h.close()


def test_a_signal_closes_a_lan_game_without_the_question_a_closed_window_asks():
    """SDL turns SIGTERM into a window close, and mid-game a closed window asks first: a
    `kill` or a logout left the arcade running behind its question (found with two windows)."""
    import signal

    import pygame

    from client.scenes.dialog import ConfirmScene
    from players.base import Controller, HumanController
    from tests.fakes.wire import memory_pair
    from tests.harness import Harness

    h = Harness()
    host, guest = memory_pair("dots", seed=3)
    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        seats = [Controller(), Controller()]
        seats[host.seat] = HumanController()
        h.app.push("play", match=host.match, controllers=seats, session=host,
                   save_name="lan-signal")
        h.frame()
        h.frame(pygame.event.Event(pygame.QUIT))  # the window's close button
        assert h.app.running and isinstance(h.top, ConfirmScene)
        h.click_button("Stay")
        assert h.app.running and not isinstance(h.top, ConfirmScene)
        h.app.listen_for_signals()
        os.kill(os.getpid(), signal.SIGTERM)
        h.frame(pygame.event.Event(pygame.QUIT))  # what SDL would have made of it
        assert not h.app.running and not host.link.open
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        guest.close()
        h.close()


def test_a_stopped_host_frees_its_port_at_once():
    """Found in a real-window pass: after 'Stop hosting' the port went on listening (close()
    does not end a listening socket another thread is blocked in accept() on), so a guest that
    joined was taken in by nobody and waited two minutes, and taking up a LAN game on that
    port said it was in use."""
    host = Host("ataxx", {}, 0, "127.0.0.1")
    with socket.create_connection(("127.0.0.1", host.port)) as s:  # the accept loop runs,
        s.sendall(b"junk")
    pump_until([], lambda: len(host.refused) == 1)  # and is back in accept()
    host.stop()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", host.port), timeout=5).close()


@given(host=st.one_of(st.from_regex(r"[a-z0-9][a-z0-9.-]{0,30}", fullmatch=True),
                      st.ip_addresses().map(str)),
       port=st.integers(1, 65535))
def test_an_address_said_back_reads_as_the_same_address(host, port):
    """The lobby shows and knocks at the address it parsed once (it parsed host:port again,
    so 'a:b:c' became 'a:b:c:47475:47475' and '::1' lost its port)."""
    assert parse_address(address_text((host, port)), 1) == (host, port)
