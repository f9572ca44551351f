"""A modified program on the other end of the LAN link: raw frames from a hostile guest or host
against a real loopback session. Each attack is refused, cut off or settled against the liar;
the honest side keeps its secrets and keeps working. Bounded in count and time."""

import errno
import random
import socket
import threading
import time

import pytest

from game.match import CLAIM_AFTER, CLAIMED
from game.rules import Termination
from net import discovery, ending, headless, hosting
from net import session as lan
from net.link import MAX_INBOX, TIMEOUT, encode
from net.secrets import banqi
from players.events import EventKind
from tests.fakes.cancel import frozen_clock
from tests.fakes.ticking import TickingClock
from tests.fakes.wire import Clock
from tests.test_lan import (
    local_move,
    pair,
    play_plies,
    play_through,
    play_until_a_plain_move,
    pump_until,
)

MARKER = {"type": "end_of_raw_frames"}  # a type no one knows: always answered with an error
_unread: dict[int, list] = {}  # what reached each sender's link while raw() waited


def _is_marker_error(m) -> bool:
    return m.get("type") == "error" and m.get("kind") == MARKER["type"]


def raw(sender, frames, receiver):
    """Send messages from `sender`'s socket as a modified program would, then MARKER; the
    receiver pumps until the marker's error is back at the sender (messages are handled in
    order, so every frame before it has been) or it has cut the sender off. Its notes."""
    try:
        for f in frames + [MARKER]:
            sender.link.sock.sendall(encode(f))
    except OSError:  # the honest side cut the link off
        pass
    notes, got = [], _unread.setdefault(id(sender), [])

    def settled() -> bool:
        notes.extend(receiver.events())
        while (m := sender.link.receive()) is not None:
            got.append(m)
        return bool(receiver.violation) or not receiver.link.open \
            or any(_is_marker_error(m) for m in got)

    pump_until([], settled)
    got[:] = [m for m in got if not _is_marker_error(m)]
    return notes


def replies(session):
    """What reached `session`'s link unread since the last call (the honest side's error
    frames), the raw() markers' errors left out."""
    got = _unread.pop(id(session), [])
    while (m := session.link.receive()) is not None:
        got.append(m)
    return [m for m in got if not _is_marker_error(m)]


def to_guest_turn(h, g):
    h.submit(h.match.legal_moves()[0])
    pump_until([h, g], lambda: len(g.match.moves) == 1 and not h.waiting)


def test_a_spoofed_closed_message_is_refused_not_taken_for_a_lost_link():
    host, h, g = pair("ataxx")
    try:
        notes = raw(g, [{"type": "_closed", "reason": "fake"}], h)
        assert h.connected and h.link.open
        assert not any(n.kind is EventKind.PEER_LOST for n in notes)
        assert any(m["type"] == "error" for m in replies(g))
    finally:
        h.close(), g.close(), host.stop()


def test_replies_without_an_offer_and_messages_after_the_end_change_nothing():
    host, h, g = pair("dots")
    try:
        to_guest_turn(h, g)
        moves = list(h.match.moves)
        raw(g, [{"type": "draw_reply", "accept": True, "ply": len(moves)},
                {"type": "takeback_reply", "accept": True, "ply": len(moves)},
                {"type": "rematch_reply", "accept": True}], h)
        assert not h.match.over and h.match.moves == moves
        assert sum(m["type"] == "error" for m in replies(g)) == 3
        # a reply to an offer is taken once
        h.offers["draw"] = len(h.match.moves)
        raw(g, [{"type": "draw_reply", "accept": False, "ply": len(moves)}] * 2, h)
        assert "draw" not in h.offers and sum(m["type"] == "error" for m in replies(g)) == 1
        h.match.resign(g.seat)  # a finished win, then the guest tries to rewrite it
        h.events()
        line = h.match.result_line()
        raw(g, [{"type": "draw_reply", "accept": True, "ply": len(moves)},
                {"type": "move", "ply": 1, "move": 0}, {"type": "rematch_reply", "accept": True},
                {"type": "new_game", "seed": 3}], h)
        assert h.match.result_line() == line and h.match.outcome().winner == h.seat
    finally:
        h.close(), g.close(), host.stop()


def test_the_host_may_not_play_the_guests_seat():
    host, h, g = pair("ataxx")
    try:
        to_guest_turn(h, g)
        moves = list(g.match.moves)
        forged = g.match.legal_moves()[0]  # a move for the guest it never made
        raw(h, [{"type": "move", "ply": len(moves), "move": forged}], g)
        assert g.match.moves == moves
        assert g.violation and not g.link.open
        assert "played" in g.violation
    finally:
        h.close(), g.close(), host.stop()


def test_any_failure_in_handling_is_a_violation_that_ends_the_link(monkeypatch):
    host, h, g = pair("ataxx")
    try:
        to_guest_turn(h, g)

        def broken(move, message):
            raise ZeroDivisionError("a crafted message broke a hook")
        monkeypatch.setattr(h.hidden, "receive_as_host", broken)
        raw(g, [{"type": "move", "ply": 1, "move": g.match.legal_moves()[0]}], h)  # no raise
        assert h.violation and "ZeroDivisionError" in h.violation and not h.link.open
        h.events()  # the session goes on; no resume is taken from a violator
        assert not h.match.over or h.match.outcome().termination is not None
    finally:
        h.close(), g.close(), host.stop()


def test_a_planes_guest_answers_one_shot_per_ply():
    host, h, g = pair("planes", seed=3)
    try:
        rng = random.Random(1)
        for _ in range(2):  # both layouts set
            pump_until([h, g], lambda: not h.waiting and not g.waiting
                       and len(h.match.moves) == len(g.match.moves))
            s = h if h.match.to_move() == h.seat else g
            s.submit(local_move(s, rng))
        pump_until([h, g], lambda: len(h.match.moves) == len(g.match.moves) == 2)
        assert not h.match.setup_pending() and h.match.to_move() == h.seat
        ply, cells = len(g.match.moves), g.match.legal_moves()[:100]
        raw(h, [{"type": "shot", "ply": ply, "cell": c} for c in cells], g)
        got = replies(h)
        answers = [m for m in got if m["type"] == "answer"]  # the same one again may be
        assert answers and {a["cell"] for a in answers} == {cells[0]}  # re-asked on a resume
        assert sum(m["type"] == "error" for m in got) >= len(set(cells)) - 1
        # the host's echo must be the shot answered, not another cell
        raw(h, [{"type": "move", "ply": ply, "move": cells[5]}], g)
        assert len(g.match.moves) == ply and g.violation
    finally:
        h.close(), g.close(), host.stop()


def test_a_planes_guest_that_never_reveals_loses_unverified(monkeypatch, capsys):
    host, h, g = pair("planes", seed=5)
    try:
        h.now = clock = Clock()  # the reveal's deadline runs on this clock, not the wall's
        monkeypatch.setattr(g.hidden, "secret", lambda: None)  # the modified guest
        play_through(h, g, random.Random(2))
        h.events()
        assert not h.verdict  # not yet: the deadline has not passed
        clock.t += ending.REVEAL_WAIT + 0.5
        h.events()
        assert "unverified" in h.verdict and not h.verdict.ok
        out = h.match.outcome()
        assert out.winner == h.seat and out.termination is Termination.FAILURE
        assert "unverified" in h.match.result_line()
        record = h.match.to_record()  # the record says so too
        assert "unverified" in str(record)
        headless._finish(h)  # and headless play prints it
        assert "unverified" in capsys.readouterr().out
    finally:
        h.close(), g.close(), host.stop()


def test_a_planes_guest_that_reveals_another_layout_loses():
    host, h, g = pair("planes", seed=6)
    try:
        play_through(h, g, random.Random(4), max_plies=3)
        from ai.base import Budget, decide_setup
        g.hidden.own_layout = decide_setup("planes", g.match.view(g.seat), "random",
                                           Budget(0.0, now=frozen_clock()), random.Random(77))
        play_through(h, g, random.Random(4))
        pump_until([h, g], lambda: h.verdict)
        assert not h.verdict.ok and h.match.outcome().winner == h.seat
    finally:
        h.close(), g.close(), host.stop()


def test_a_flood_closes_the_link_with_a_reason_and_memory_stays_bounded():
    host, h, g = pair("dots", record=False)
    try:
        chat = encode({"type": "chat", "text": "x" * 100})
        try:
            g.link.sock.sendall(chat * 5000)  # the host does not pump meanwhile
        except OSError:
            pass
        pump_until([], lambda: not h.link.open, limit=5)
        assert h.link.inbox.qsize() <= MAX_INBOX
        assert "messages" in h.link.closed_reason
    finally:
        h.close(), g.close(), host.stop()


def test_a_dripping_hello_is_cut_at_one_overall_deadline(monkeypatch):
    """On the host's own clock, which moves 100 s at each look: the host looks once for the
    hello's deadline (600 s on) and once before each read, and each read gets one byte as soon
    as the host waits in it. Every read is quick, yet at the 7th look the deadline has passed:
    the hello is cut after 5 bytes. A limit per read alone would take the whole hello."""
    monkeypatch.setattr(hosting, "HELLO_TIMEOUT", 600.0)
    clock = TickingClock(step=100.0)
    host = lan.Host("ataxx", {}, 0, "127.0.0.1", now=clock)

    def host_looked(times):
        end = time.monotonic() + 10  # a bound on the wait for the host's thread, not a timer
        while clock.reads < times and not host.refused and time.monotonic() < end:
            time.sleep(0.001)
        return clock.reads >= times and not host.refused

    try:
        frame = encode(lan.hello("ataxx", host.options, "Slow"))
        with socket.create_connection(("127.0.0.1", host.port)) as s:
            sent = 0
            for byte in frame[:-1]:
                if not host_looked(sent + 2):  # the deadline, then one look a read
                    break
                try:
                    s.sendall(bytes([byte]))
                except OSError:  # cut off already
                    break
                sent += 1
            assert host.refused == ["no whole message in time"]
            assert clock.reads == 7 and 5 <= sent < len(frame) - 1
            s.settimeout(10)
            try:
                assert s.recv(100) == b""  # the host closed the connection
            except ConnectionResetError:
                pass
        assert host.next_arrival() is None
    finally:
        host.stop()


def test_the_accept_loop_survives_running_out_of_descriptors(monkeypatch):
    real = socket.create_server

    class Exhausted:
        def __init__(self, sock):
            self.sock, self.fails = sock, 3

        def accept(self):
            if self.fails:
                self.fails -= 1
                raise OSError(errno.EMFILE, "Too many open files")
            return self.sock.accept()

        def __getattr__(self, name):
            return getattr(self.sock, name)

    monkeypatch.setattr(hosting.socket, "create_server", lambda *a, **k: Exhausted(real(*a, **k)))
    host = lan.Host("ataxx", {}, 0, "127.0.0.1")
    try:
        got = {}
        t = threading.Thread(target=lambda: got.update(r=lan.join(
            ("127.0.0.1", host.port), "ataxx", host.options, "G", wait=10)))
        t.start()
        pump_until([], lambda: not host.arrivals.empty())
        link, hello = host.next_arrival()
        s = lan.start_hosted(link, "ataxx", host.options, "H", hello["name"])
        t.join(5)
        assert got["r"][1]["type"] == "welcome" and host.accept_errors == 3
        s.close()
    finally:
        host.stop()


def test_a_slow_accept_still_welcomes_the_guest_through_the_hosts_pings():
    host = lan.Host("dots", {}, 0, "127.0.0.1")
    try:
        got = {}
        t = threading.Thread(target=lambda: got.update(r=lan.join(
            ("127.0.0.1", host.port), None, None, "G", wait=15)))
        t.start()
        pump_until([], lambda: not host.arrivals.empty())
        link, hello = host.next_arrival()
        # the player at the host takes a while: meanwhile the link's heartbeat pings the guest
        # (its beat loop sends this every HEARTBEAT seconds), before any welcome
        assert link.send({"type": "ping"}) and link.open
        s = lan.start_hosted(link, "dots", host.options, "H", hello["name"])
        t.join(5)
        assert got["r"][1]["type"] == "welcome"
        s.close(), got["r"][0].close()
    finally:
        host.stop()


def test_a_waiting_guest_pings_the_host_even_while_the_hosts_own_pings_keep_coming():
    """Found in a real window: the host's link pings every 2 s, so the guest's socket was
    never quiet for its 2 s and the guest never pinged; after 10 s the host's link called the
    guest silent and closed, and a player who took that long to Accept lost the guest. Here
    the host's pings are all in the socket at once and the guest pings at every chance."""
    server = socket.create_server(("127.0.0.1", 0))
    got = {}
    t = threading.Thread(target=lambda: got.update(r=hosting.join(
        server.getsockname(), None, None, "G", wait=15, heartbeat=0.0)))
    t.start()
    try:
        sock, _ = server.accept()
        sock.settimeout(5)
        welcome = {"type": "welcome", "seat": 1, "game": "dots", "options": {}, "seed": 1,
                   "moves": [], "names": ["H", "G"]}
        sock.sendall(encode({"type": "ping"}) * 20 + encode(welcome))
        t.join(5)
        assert got["r"][1]["type"] == "welcome"
        sent = [hosting.read_frame(sock)["type"] for _ in range(21)]
        assert sent[0] == "hello" and sent[1:] == ["ping"] * 20
        got["r"][0].close()
        sock.close()
    finally:
        server.close()


def test_discovery_bounds_the_list_and_its_fields():
    hosts = discovery.HostList(0)
    beacon = {"type": "beacon", "app": "Paper Arcade", "protocol": discovery.PROTOCOL,
              "game": "dots", "options": {}, "version": "1"}
    import msgpack
    for port in range(1, 600):  # one sender, many ports, huge names
        hosts.heard(msgpack.packb({**beacon, "port": port, "name": "N" * 30000}), "10.0.0.9")
    for port in range(1, 100):
        hosts.heard(msgpack.packb({**beacon, "port": port, "name": "n" * 30}), "10.0.0.9")
    assert len(hosts.hosts()) <= discovery.MAX_PER_SENDER
    for i in range(200):  # many senders
        hosts.heard(msgpack.packb({**beacon, "port": 5000, "name": f"h{i}"}), f"10.1.{i}.1")
    listed = hosts.hosts()
    assert len(listed) <= discovery.MAX_HOSTS
    assert all(len(h.name) <= 40 and len(h.game) <= 32 for h in listed)
    big = {**beacon, "port": 1, "name": "x", "options": {f"k{i}": "v" * 10 for i in range(99)}}
    assert hosts.heard(msgpack.packb(big), "10.2.0.1") is None


def _truth(h, g):
    """The real deal, which only both keys together open (the test holds both)."""
    d = h.hidden.inverse * g.hidden.inverse
    cards = [banqi._CARD_OF[pow(x, d % (banqi.P - 1), banqi.P)] for x in h.hidden.deck]
    pieces = sorted(h.match.rules.new_game(h.match.options, 0).under)
    return [pieces[c] for c in cards]


def test_neither_banqi_program_knows_a_face_down_piece():
    host, h, g = pair("banqi", seed=8)
    try:
        pump_until([h, g], lambda: not h.waiting)  # the deal crossed
        truth = _truth(h, g)
        assert sorted(truth) == sorted(h.match.state.under)
        for side in (h, g):  # what each program holds is its own dummy, not the deal
            assert sum(a == b for a, b in zip(side.match.state.under, truth)) < 16
        play_through(h, g, random.Random(3), max_plies=40)
        for ply, state in enumerate(h.match.states[1:]):  # every flip showed the true piece
            move = h.match.moves[ply]
            if len(move) == 2:
                sq = h.match.rules.parse_square(move)
                assert state.board[sq] == truth[sq] == g.match.states[ply + 1].board[sq]
        sent = h.link.sent  # no frame carries a piece except a flip's echo, of that flip
        for m in sent:
            if "piece" in m:
                assert len(m["move"]) == 2
    finally:
        h.close(), g.close(), host.stop()


def test_banqi_checks_hold_after_a_takeback_and_a_rematch():
    host, h, g = pair("banqi", seed=9)
    try:
        rng = random.Random(5)
        play_through(h, g, rng, max_plies=6)
        play_until_a_plain_move(h, g, rng)
        g.request_takeback() if g.match.to_move() == h.seat else h.request_takeback()
        asker, other = (g, h) if "takeback" in g.offers else (h, g)
        asks = []
        pump_until([h, g], lambda: asks.extend(x for x in other.events()
                                               if x.kind is EventKind.ASK) or asks)
        n = len(asker.match.moves)
        asks[0].question.on_yes()
        pump_until([h, g], lambda: len(asker.match.moves) < n
                   and len(h.match.moves) == len(g.match.moves))
        play_through(h, g, rng, max_plies=30)
        h.resign()
        pump_until([h, g], lambda: h.verdict and g.verdict)
        assert (h.verdict and h.verdict.ok) and (g.verdict and g.verdict.ok), (h.verdict, g.verdict)
        g.offer_rematch()
        asks = []
        pump_until([h, g], lambda: asks.extend(x for x in h.events() if x.kind is EventKind.ASK)
                   or asks)
        asks[0].question.on_yes()
        pump_until([h, g], lambda: not h.match.over and not g.match.over and not h.waiting)
        play_through(h, g, rng, max_plies=20)
        g.resign()
        pump_until([h, g], lambda: h.verdict and g.verdict)
        assert h.verdict.ok and g.verdict.ok, (h.verdict, g.verdict)
    finally:
        h.close(), g.close(), host.stop()


def test_a_banqi_host_opening_a_flip_falsely_is_cut_off():
    host, h, g = pair("banqi", seed=10)
    try:
        pump_until([h, g], lambda: not h.waiting)
        square = h.match.legal_moves()[0]
        ply = len(g.match.moves)
        sq = h.match.rules.parse_square(square)
        pieces = sorted(h.match.rules.new_game(h.match.options, 0).under)

        def part_of(other: int) -> int:  # another square's card with the host's key taken off
            return pow(h.hidden.deck[other], h.hidden.inverse, banqi.P)

        # another square's card whose piece is not the "K" claimed (a K would open "rightly")
        other = next(o for o in range(32)
                     if o != sq and pieces[g.hidden.table[part_of(o)]] != "K")
        wrong = banqi._encode(part_of(other))
        raw(h, [{"type": "flip", "ply": ply, "square": square}], g)
        raw(h, [{"type": "move", "ply": ply, "move": square, "piece": "K", "part": wrong}], g)
        assert g.violation and len(g.match.moves) == ply
    finally:
        h.close(), g.close(), host.stop()


MESSAGE_TYPES = [t for t in lan.MESSAGES if t != "bye"] + [
    "shot", "answer", "deal", "flip", "part", "_closed"]
VALUES = [None, 0, 1, -1, 2**40, "", "a1", "hidden", b"x" * 8, [1, 2], {"a": 1}, True, 3.5]


@pytest.mark.parametrize("game", ["planes", "ataxx"])
def test_random_messages_at_random_phases_never_break_the_host(game):
    rng = random.Random(game)
    host, h, g = pair(game, record=False)
    try:
        for round_ in range(4):
            if round_ == 2:
                play_through(h, g, rng, max_plies=3)
            frames = []
            for _ in range(60):
                m = {"type": rng.choice(MESSAGE_TYPES)}
                for field in rng.sample(["ply", "move", "accept", "text", "seed", "cell",
                                         "answer", "square", "part", "cards", "layout"], 3):
                    m[field] = rng.choice(VALUES + [len(h.match.moves)])
                frames.append(m)
            moves = list(h.match.moves)
            raw(g, frames, h)  # must not raise
            if h.violation:
                break
            assert h.match.moves[:len(moves)] == moves
        assert not h.violation and h.link.open, h.violation or h.link.closed_reason
    finally:
        h.close(), g.close(), host.stop()


def test_headless_play_goes_on_through_a_dropped_link(tmp_path):
    host, h, g = pair("dots", {"rows": 3, "cols": 3}, record=False)
    h.server, g.address = host, ("127.0.0.1", host.port)
    results = {}
    threads = [threading.Thread(target=lambda s=s, k=k: results.update(
        {k: headless._play(s, "random")}), daemon=True) for s, k in ((h, "h"), (g, "g"))]
    for t in threads:
        t.start()
    try:
        pump_until([], lambda: len(g.match.moves) >= 2 and g.match.to_move() == g.seat
                   or g.match.over, limit=10)
        g.link.close("cable pulled")  # in the guest's own turn
        for t in threads:
            t.join(40)
        assert results["h"] == results["g"]
        assert CLAIMED not in results["h"] and "resigned" not in results["h"]
    finally:
        host.stop()


def test_a_planes_records_end_holds_both_layouts_once_each_reveal_checked():
    """Each side's record (its replay, its review) shows the other's planes after the game:
    the checked reveal takes the place of "hidden" and the shots at it replay to the same
    answers; both records are then the same game."""
    from game.match import Match
    from tests.fakes.wire import memory_pair, settle
    from tests.test_lan_crossing import play

    h, g = memory_pair("planes", seed=8)
    play(h, g, random.Random(3), 400)
    settle(h, g)
    assert h.match.over
    assert h.verdict.ok and g.verdict.ok
    assert h.match.moves == g.match.moves and "hidden" not in h.match.moves
    for s in (h, g):
        again = Match.from_record(s.match.to_record())
        assert all(isinstance(layout, tuple) for layout in again.state.layouts)
        assert again.state.shots == s.match.state.shots and again.outcome() == s.match.outcome()


@pytest.mark.parametrize("game", ["dots", "banqi"])
def test_a_first_welcome_that_says_claimed_ends_nothing(game):
    """A host may say it claimed the game only to a guest coming back: a welcome to a guest
    joining for the first time that says so would have ended a game never played as the
    guest's loss."""
    from net.rejoin import Gone
    host, h, g = pair(game)
    try:
        welcome = {**h.welcome(), "claimed": True}
        fresh = lan.Session.from_welcome(Gone(), welcome, "Host")
        assert not fresh.match.over and fresh.match.moves == g.match.moves
    finally:
        h.close(), g.close(), host.stop()


@pytest.mark.parametrize("game", ["dots", "banqi"])
@pytest.mark.parametrize("gone", [5.0, CLAIM_AFTER - TIMEOUT - 1, CLAIM_AFTER - TIMEOUT + 1])
def test_a_host_that_claims_before_the_guest_was_gone_a_claims_time_wins_nothing_here(game, gone):
    """A modified host cuts its own link and claims the game at once (an honest one waits
    CLAIM_AFTER, its Claim counting down). The guest coming back to that claim sooner than a
    claim allows takes no loss: it keeps its game, hangs up and knocks no more (the host will
    not go on), says why, and keeps that in its save; a claim after long enough stands."""
    host, h, g = pair(game, seed=3)
    try:
        play_plies(h, g, random.Random(8), 4)
        clock = [100.0]
        g.now, g.off_loop = (lambda: clock[0]), (lambda work: work())
        moves = list(g.match.moves)
        h.link.close("the host pulled its own cable")
        pump_until([g], lambda: not g.connected)
        h.match.resign(g.seat, CLAIMED, Termination.DISCONNECT)  # what Claim does
        got = {}
        t = threading.Thread(target=lambda: got.update(r=hosting.join(
            ("127.0.0.1", host.port), game, host.options, "Guest", g.token)))
        t.start()
        pump_until([], lambda: not host.arrivals.empty())
        h.resume(host.next_arrival()[0])
        t.join(5)
        clock[0] += gone
        g.resume(*got["r"])
        said = [n.text.english() for n in g.events() if n.text is not None]
        if gone >= CLAIM_AFTER - TIMEOUT:  # long enough: the claim stands, as before
            assert g.match.over and g.match.outcome().winner == h.seat
            return
        assert not g.match.over and g.match.moves == moves and not g.connected
        assert any(f"away only {int(gone)} s" in line for line in said), said
        assert g.save_extra()["lan"]["claim_refused"] is True
        g.address = ("127.0.0.1", host.port)  # where it would knock
        for _ in range(5):  # five knocking times go by: none
            clock[0] += 2.0
            g.events()
        assert host.arrivals.empty() and not g.match.over
    finally:
        h.close(), g.close(), host.stop()


def test_a_first_hello_that_says_claimed_ends_nothing():
    """A guest may say it claimed a game only when it knocks again at a game it left: a
    modified guest whose first hello says so joins a new game that goes on, its loss nowhere."""
    host = hosting.Host("dots", {}, 0, "127.0.0.1")
    got = {}
    t = threading.Thread(target=lambda: got.update(r=hosting.join(
        ("127.0.0.1", host.port), "dots", host.options, "Guest", claimed=True)))
    t.start()
    try:
        pump_until([], lambda: not host.arrivals.empty())
        link, hello = host.next_arrival()
        assert hello["claimed"] is True  # it reached the host as sent
        h = lan.start_hosted(link, "dots", host.options, "Host", hello["name"], seed=4)
        t.join(10)
        g = lan.start_joined(*got["r"])
        play_plies(h, g, random.Random(2), 2)
        assert not h.match.over and not g.match.over and h.match.moves == g.match.moves
        h.close(), g.close()
    finally:
        host.stop()
