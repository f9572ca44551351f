"""Hostile and crossing messages between two LAN sessions over an in-memory link (no socket, no
clock): a takeback allowed after the end (issue 30: 4), a Banqi host that peeks through a flip
it does not play (5), a resignation that crosses a move (6), and offer floods (7)."""

import random

import pytest

from players.events import EventKind
from tests.fakes.wire import memory_pair, settle
from tests.test_lan import local_move, plain_move


def play(h, g, rng, plies):
    """Both sides play honest random moves for `plies` plies (or to the end)."""
    for _ in range(plies):
        settle(h, g)
        if h.match.over:
            break
        s = h if h.match.to_move() == h.seat else g
        s.submit(local_move(s, rng))
    settle(h, g)


def one(session):
    """The session takes the next message on its link, and only that one."""
    session.handle(session.link.receive())
    events, session.notes = session.notes, []
    return events


def asks(events):
    return [e.question for e in events if e.kind is EventKind.ASK]


def same_end(h, g):
    """Both sides' records end alike: the same plies (as each may see them) and result."""
    assert not h.violation and not g.violation, (h.violation, g.violation)
    assert h.match.over and g.match.over
    assert len(h.match.moves) == len(g.match.moves)
    a, b = h.match.outcome(), g.match.outcome()
    assert (a.winner, a.termination, a.score) == (b.winner, b.termination, b.score)
    if not h.match.rules.HIDDEN:
        assert h.match.moves == g.match.moves


def to_turn(h, g, seat, rng, least=4):
    """Play on until `seat` is to move, after at least `least` plies."""
    play(h, g, rng, least)
    for _ in range(40):
        if h.match.to_move() == seat and not h.match.setup_pending():
            return
        play(h, g, rng, 1)
    raise AssertionError("never that seat's turn")


def to_plain_turn(h, g, seat, rng):
    """Banqi: play on (moving face-up pieces when one may) until `seat` is to move and the plies
    its takeback would undo moved pieces (a flip, once shown, is never taken back)."""
    for _ in range(200):
        m = h.match
        back = m.back_for(seat)
        if m.to_move() == seat and back and all(len(x) == 4 for x in m.moves[-back:]):
            return
        s = h if m.to_move() == h.seat else g
        s.submit(plain_move(s, rng))
        settle(h, g)
        assert not h.match.over
    raise AssertionError("never such a turn")


BANQI = [{}, {"fog": True}]


# --- 4. a takeback answered after the end
@pytest.mark.parametrize("options", BANQI)
def test_a_takeback_allowed_on_a_dialog_left_open_after_the_end_reopens_nothing(options):
    h, g = memory_pair("banqi", options, seed=3)
    to_plain_turn(h, g, g.seat, random.Random(1))
    n = len(h.match.moves)
    assert g.request_takeback()
    g.resign()
    events = h.events()  # the question, then the resignation and the host's reveal
    assert h.match.over and h.revealed
    assert asks(events)
    for q in asks(events):
        q.on_yes()  # the dialog was still open
    settle(h, g)
    assert h.match.over and len(h.match.moves) == n
    same_end(h, g)
    assert (h.verdict and h.verdict.ok) and (g.verdict and g.verdict.ok)


@pytest.mark.parametrize("options", BANQI)
def test_a_takeback_allowed_while_the_resignation_crosses_it_keeps_the_end(options):
    h, g = memory_pair("banqi", options, seed=4)
    to_plain_turn(h, g, g.seat, random.Random(2))
    n = len(h.match.moves)
    assert g.request_takeback()
    g.resign()
    q = asks(one(h))[0]  # the host has the question, not yet the resignation
    q.on_yes()  # allowed: the host takes back, and its answer crosses the resignation
    settle(h, g)
    assert len(h.match.moves) == n
    same_end(h, g)
    assert (h.verdict and h.verdict.ok) and (g.verdict and g.verdict.ok)


def test_a_takeback_reply_sent_after_the_end_changes_nothing_on_either_side():
    h, g = memory_pair("banqi", seed=5)
    to_turn(h, g, h.seat, random.Random(3), least=6)
    h.request_takeback()
    g.resign()
    settle(h, g)
    line, n = h.match.result_line(), len(h.match.moves)
    g.link.send({"type": "takeback_reply", "accept": True, "ply": n})  # a modified guest
    g.link.send({"type": "takeback", "ply": n})
    h.link.send({"type": "takeback_reply", "accept": True, "ply": n})  # a modified host
    settle(h, g)
    for s in (h, g):
        assert s.match.over and len(s.match.moves) == n and s.match.result_line() == line


# --- 5. the Banqi host peeks through a flip it does not play
def _host_turn_with_a_plain_move(h, g, rng):
    for _ in range(200):
        play(h, g, rng, 1)
        if h.match.over:
            break
        m = h.match
        if m.to_move() == h.seat and any(len(x) == 4 for x in m.legal_moves()) and any(
                len(x) == 2 for x in m.legal_moves()):
            return
    pytest.skip("no such position in this game")


def test_a_banqi_host_that_echoes_another_move_after_a_flips_part_is_cut_off():
    h, g = memory_pair("banqi", seed=6)
    _host_turn_with_a_plain_move(h, g, random.Random(4))
    ply, legal = len(h.match.moves), h.match.legal_moves()
    square = next(x for x in legal if len(x) == 2)
    h.link.send({"type": "flip", "ply": ply, "square": square})  # the modified host asks...
    settle(g)
    part = h.link.receive()
    assert part["type"] == "part" and part["square"] == square  # ...reads the piece...
    h.submit(next(x for x in legal if len(x) == 4))  # ...and plays something else
    settle(g)
    assert g.violation and "flip" in g.violation
    assert len(g.match.moves) == ply


def test_a_banqi_guest_refuses_a_takeback_between_its_part_and_the_flip():
    h, g = memory_pair("banqi", seed=7)
    _host_turn_with_a_plain_move(h, g, random.Random(5))
    ply = len(h.match.moves)
    square = next(x for x in h.match.legal_moves() if len(x) == 2)
    h.link.send({"type": "flip", "ply": ply, "square": square})
    h.link.send({"type": "takeback", "ply": ply})
    events = settle(g)
    assert not asks(events)  # declined at once, never put to the player
    got = [h.link.receive() for _ in range(2)]
    assert got[1] == {"type": "takeback_reply", "accept": False, "ply": ply}


# --- 6. a resignation that crosses a move on the wire
CROSSING = [("banqi", {"fog": True}), ("banqi", {}), ("ataxx", {}), ("dots", {}),
            ("planes", {})]


@pytest.mark.parametrize("game,options", CROSSING)
def test_a_guest_resignation_crossing_the_hosts_move_ends_both_records_alike(game, options):
    h, g = memory_pair(game, options, seed=8)
    rng = random.Random(6)
    if game == "banqi":  # a move, not a flip (a flip asks the guest first)
        _host_turn_with_a_plain_move(h, g, rng)
        move = next(x for x in h.match.legal_moves() if len(x) == 4)
    else:
        to_turn(h, g, h.seat, rng)
        move = local_move(h, rng)
    g.resign()  # at the host's turn; the host's move is already on its way
    h.submit(move)
    settle(h, g)
    same_end(h, g)
    assert h.match.outcome().winner == h.seat
    if h.secret_expected() or g.secret_expected():
        assert (h.verdict and h.verdict.ok) and (g.verdict and g.verdict.ok), (h.verdict, g.verdict)


@pytest.mark.parametrize("game,options", CROSSING)
def test_a_host_resignation_crossing_the_guests_move_ends_both_records_alike(game, options):
    h, g = memory_pair(game, options, seed=9)
    rng = random.Random(7)
    to_turn(h, g, g.seat, rng)
    g.submit(local_move(g, rng))
    h.resign()
    settle(h, g)
    same_end(h, g)
    assert g.match.outcome().winner == g.seat
    if h.secret_expected() or g.secret_expected():
        assert (h.verdict and h.verdict.ok) and (g.verdict and g.verdict.ok), (h.verdict, g.verdict)


@pytest.mark.parametrize("game", ["ataxx", "banqi"])
def test_two_resignations_or_a_resignation_and_a_draw_that_cross_agree(game):
    h, g = memory_pair(game, seed=10)
    rng = random.Random(8)
    to_turn(h, g, g.seat, rng)
    h.resign(), g.resign()
    settle(h, g)
    same_end(h, g)
    h2, g2 = memory_pair(game, seed=11)
    to_turn(h2, g2, g2.seat, rng)
    h2.offer_draw()
    q = asks(settle(g2))[0]
    g2.resign()
    q.on_yes()  # declines: the game is over here
    settle(h2, g2)
    same_end(h2, g2)
    h3, g3 = memory_pair(game, seed=12)
    to_turn(h3, g3, g3.seat, rng)
    h3.offer_draw()
    q = asks(settle(g3))[0]
    q.on_yes()  # a draw, agreed here, crosses the host's resignation
    h3.resign()
    settle(h3, g3)
    same_end(h3, g3)


def test_a_draw_accepted_while_the_offerers_move_crosses_it_ends_at_the_offer():
    h, g = memory_pair("ataxx", seed=13)
    rng = random.Random(9)
    to_turn(h, g, h.seat, rng)
    n = len(h.match.moves)
    h.offer_draw()
    q = asks(one(g))[0]
    q.on_yes()
    h.submit(local_move(h, rng))  # the host moves on before the answer comes
    settle(h, g)
    same_end(h, g)
    assert len(h.match.moves) == n and h.match.outcome().winner is None


def notices(events):
    return [e.text.key for e in events if e.kind is EventKind.NOTICE]


def test_a_draw_accepted_after_the_offerer_moved_on_is_said_to_have_lapsed_on_both_sides():
    """A real-window LAN pass: the offerer moved while the other side's dialog stayed open; its
    Accept went as a decline, the offerer read "Bob declined the draw" and the one who accepted
    was told nothing."""
    h, g = memory_pair("ataxx", seed=13)
    rng = random.Random(9)
    to_turn(h, g, h.seat, rng)
    h.offer_draw()
    q = asks(one(g))[0]
    h.submit(local_move(h, rng))  # the offerer moves on before any answer
    one(g)  # its move reaches the guest, whose dialog is still open
    g.notes = []
    q.on_yes()
    assert "Too late: a move was played since, so the offer lapsed" in notices(g.notes)
    said = notices(settle(h, g))
    assert "Your draw offer lapsed: a move was played after it" in said
    assert "{name} declined the draw" not in said
    assert not h.match.over and not g.match.over


# --- 7. offer floods
@pytest.mark.parametrize("kind,reply", [("draw_offer", "draw_reply"),
                                        ("takeback", "takeback_reply"),
                                        ("rematch", "rematch_reply")])
def test_a_flood_of_offers_opens_one_question_and_a_closed_link_withdraws_it(kind, reply):
    h, g = memory_pair("ataxx", seed=14)
    rng = random.Random(10)
    to_turn(h, g, h.seat, rng)
    if kind == "rematch":
        g.resign()
        settle(h, g)
    ply = len(h.match.moves)
    for _ in range(200):
        g.link.send({"type": kind, "ply": ply})
    events = h.events()
    assert len(asks(events)) == 1
    answers = [m for m in iter(g.link.receive, None) if m.get("type") == reply]
    assert len(answers) == 199 and not any(a["accept"] for a in answers)
    g.link.close("cable pulled")
    events = h.events()
    withdrawn = [e.question for e in events if e.kind is EventKind.WITHDRAWN]
    assert len(withdrawn) == 1
    sent = len(h.link.sent)
    withdrawn[0].on_yes()  # a late click does nothing
    assert len(h.link.sent) == sent and len(h.match.moves) == ply


def test_this_side_makes_one_offer_of_each_kind_at_a_time():
    h, g = memory_pair("ataxx", seed=15)
    to_turn(h, g, h.seat, random.Random(11))
    for _ in range(5):
        h.offer_draw()
        g.request_takeback()
    assert [m["type"] for m in h.link.sent[-1:]] == ["draw_offer"]
    assert sum(m["type"] == "draw_offer" for m in h.link.sent) == 1
    assert sum(m["type"] == "takeback" for m in g.link.sent) == 1


def test_a_planes_guest_refuses_a_takeback_between_its_answer_and_the_shot():
    h, g = memory_pair("planes", seed=16)
    to_turn(h, g, h.seat, random.Random(12), least=4)
    ply = len(h.match.moves)
    cell = h.match.legal_moves()[0]
    h.link.send({"type": "shot", "ply": ply, "cell": cell})  # the modified host asks...
    h.link.send({"type": "takeback", "ply": ply})  # ...then would rather shoot elsewhere
    events = settle(g)
    assert not asks(events)
    got = [h.link.receive() for _ in range(2)]
    assert got[0]["type"] == "answer" and got[1] == {"type": "takeback_reply", "accept": False,
                                                     "ply": ply}
    h.link.send({"type": "move", "ply": ply, "move": h.match.legal_moves()[1]})
    settle(g)
    assert g.violation and len(g.match.moves) == ply


def banqi_guest_at_its_table(io, options: dict | None = None):
    """A Banqi pair at the guest's turn, and the guest's table (its player at the screen)."""
    from players.base import Controller, HumanController
    from players.table import Table
    h, g = memory_pair("banqi", options, seed=17)
    to_turn(h, g, g.seat, random.Random(13))
    seats = [Controller(), Controller()]
    seats[g.seat] = HumanController()
    return h, g, Table(g.match, seats, remote=g, io=io)


def records_taken(monkeypatch, background: bool) -> tuple[list, list]:
    """The statistics counted and the winners of the replays written, as they happen; with
    background False, only what is written on the caller's thread (a background thread
    would die with a quitting arcade)."""
    from game import replay, stats
    counted: list = []
    written: list = []
    take = counted.append
    monkeypatch.setattr(stats, "record_in_background",
                        (lambda *entry: take(entry)) if background else (lambda *entry: None))
    monkeypatch.setattr(stats, "record", lambda *entry: take(entry))
    monkeypatch.setattr(replay, "save_replay",
                        lambda match, duration: written.append(match.outcome().winner))
    return counted, written


def test_the_players_statistics_count_the_end_both_sides_agree_on(monkeypatch):
    """A draw agreed here crosses the host's resignation: the host's end stands, and the
    guest's table counts a win, not the draw it saw first (it counts once the record is
    settled: the peer's reveal has come)."""
    from game import stats
    counted = []
    monkeypatch.setattr(stats, "record_in_background", lambda *entry: counted.append(entry))
    h, g, table = banqi_guest_at_its_table(io=lambda work: None)
    h.offer_draw()
    q = asks(table.tick())[0]
    q.on_yes()  # a draw here...
    table.tick()
    assert g.match.outcome().winner is None
    h.resign()  # ...crossed the host's resignation
    settle(h, g)
    table.tick()
    same_end(h, g)
    assert g.match.outcome().winner == g.seat
    assert [c[2] for c in counted] == ["won"]


def test_an_end_whose_link_is_gone_is_counted_only_once_its_verdict_is_in(monkeypatch):
    """The guest resigns; its resignation crosses, the host's reveal is lost with the link.
    The verdict (the host unverified when the guest leaves) makes the game the host's loss,
    so neither a statistic nor the replay may be taken before it."""
    counted, written = records_taken(monkeypatch, background=True)
    h, g, table = banqi_guest_at_its_table(io=lambda work: work())
    g.resign()
    settle(h)
    frames = list(g.link.inbox)
    assert any(f["type"] == "reveal" for f in frames)
    g.link.inbox.clear()
    g.link.inbox.extend(f for f in frames if f["type"] != "reveal")  # lost with the link
    g.link.close("gone")
    for _ in range(3):
        table.tick()
    assert g.match.outcome().winner == h.seat and not g.verdict
    assert counted == [] and written == []  # not before the verdict
    table.close()  # the guest leaves: the host's reveal is owed and it is away
    assert g.verdict and not g.verdict.ok and g.match.outcome().winner == g.seat
    assert [c[2] for c in counted] == ["won"] and written == [g.seat]


def test_quitting_records_an_end_that_waited_on_the_peer_before_the_arcade_exits(monkeypatch):
    """Closing the arcade judges an end still waiting on the peer's reveal, and counts and
    keeps it on the quitting thread: a background thread would die with the process."""
    counted, written = records_taken(monkeypatch, background=False)
    h, g, table = banqi_guest_at_its_table(io=lambda work: None)  # a thread lost at exit
    g.resign()
    g.link.close("gone")  # before the host's reveal came
    table.tick()
    assert counted == [] and written == []
    table.save_on_quit()
    table.close()
    assert [c[2] for c in counted] == ["won"] and written == [g.seat]


def test_a_rematch_before_the_peers_reveal_judges_the_old_game_and_keeps_its_record(
        monkeypatch):
    """A modified host skips its reveal and starts a rematch at once: an honest host's reveal,
    sent at the end, would have come first (the link keeps order). The old game is judged
    unverified (the host's loss) before the new one begins, and the guest's record of it
    is kept with that result, not lost with the old match."""
    counted, written = records_taken(monkeypatch, background=True)
    h, g, table = banqi_guest_at_its_table(io=lambda work: work())
    old = g.match
    g.resign()  # the host wins...
    settle(h)
    g.link.inbox.clear()  # ...and its modified program sends no reveal
    g.offer_rematch()
    h.link.send({"type": "rematch_reply", "accept": True})
    h.link.send({"type": "new_game", "seed": 5, **h.hidden.welcome_fields()})
    table.tick()
    assert g.match is not old and not g.match.over  # the rematch began
    assert old.outcome().winner == g.seat  # the old game: the host's loss, unverified
    assert [c[2] for c in counted] == ["won"] and written == [g.seat]


def test_a_refusal_crosses_as_a_key_and_values_and_is_said_from_them():
    from net import messages
    h, g = memory_pair("ataxx", seed=18)
    g.link.send({"type": "move", "ply": 5, "move": "a1"})
    g.link.send({"type": "fly", "ply": 0})
    settle(h)
    frames = h.link.sent[-2:]
    assert [f["reason"] for f in frames] == [messages.WRONG_PLY, messages.UNKNOWN]
    assert frames[0]["values"] == {"ply": 5, "now": 0} and frames[0]["kind"] == "move"
    notes = g.events()
    said = [n.text for n in notes if n.kind is EventKind.NOTICE]
    reasons = [t.params["text"].params["reason"] for t in said]
    assert [r.key for r in reasons] == [messages.WRONG_PLY, messages.UNKNOWN]
    assert "ply 5" in said[0].english() and "ply 0" in said[0].english()
    forged = {"type": "error", "text": "x\x00" * 500, "reason": "{evil!r:>999999}",
              "values": {"evil": 1}}
    h.link.send(forged)
    notes = g.events()
    assert all(len(n.text.english()) < 400 for n in notes if n.text is not None)


@pytest.mark.parametrize("kind", ["rematch", "draw_offer", "takeback_reply", "part", 7])
def test_a_refused_messages_kind_is_said_in_the_players_language(kind):
    """The peer's refusal names what it refused in this player's words ("rematch 被拒絕" showed
    the message type itself); a kind this arcade has no word for is "a message"."""
    from game import i18n
    from net import messages
    error = {"type": "error", "text": "rematch refused: the game is not over", "kind": kind,
             "reason": messages.NOT_OVER, "values": {}}
    i18n.set_language("zh_TW")
    try:
        said = messages.said(error).say()
    finally:
        i18n.set_language("en")
    assert said.startswith({"rematch": "再來一局", "draw_offer": "求和",
                            "takeback_reply": "對悔棋的答覆"}.get(kind, "訊息"))
    assert not any("a" <= c.lower() <= "z" for c in said)


@pytest.mark.parametrize("mover", ["host", "guest"])
def test_a_clone_written_from_to_is_played_by_either_side_and_both_records_agree(mover):
    """The rules read "a7b6" from one's own stone as the clone b6: so must a LAN game."""
    from game.rules import ataxx
    h, g = memory_pair("ataxx")
    rng = random.Random(3)
    s = h if mover == "host" else g
    if s.match.to_move() != s.seat:
        play(h, g, rng, 1)
    state = s.match.state
    frm, to = next((f, t) for f in range(49) if state.own() >> f & 1
                   for t in map(lambda mv: ataxx.parse_move(mv)[1], s.match.legal_moves())
                   if ataxx.NEAR[f] >> t & 1)
    s.submit(ataxx.move_text(frm, to))
    settle(h, g)
    assert len(h.match.moves) == len(g.match.moves) >= 1
    assert h.match.moves == g.match.moves
    assert h.match.state == g.match.state and not h.match.over


def test_an_open_games_statistics_wait_for_an_end_that_crosses_the_wire(monkeypatch):
    """Ataxx has no secret to reveal: a draw agreed here that crosses the host's resignation is
    counted as the win it becomes, not as the draw seen first."""
    from game import stats
    from net.ending import CROSS_WAIT
    from players.base import Controller, HumanController
    from players.table import Table
    from tests.fakes.wire import Clock
    counted = []
    monkeypatch.setattr(stats, "record_in_background", lambda *entry: counted.append(entry))
    clock = Clock()
    h, g = memory_pair("ataxx", seed=21, clock=clock)
    to_turn(h, g, g.seat, random.Random(5))
    seats = [Controller(), Controller()]
    seats[g.seat] = HumanController()
    table = Table(g.match, seats, remote=g, io=lambda work: None, now=clock)
    h.offer_draw()
    asks(table.tick())[0].on_yes()  # a draw here...
    table.tick()
    assert g.match.outcome().winner is None and counted == []  # not yet: it may still change
    h.resign()  # ...crossed the host's resignation
    settle(h, g)
    table.tick()
    clock.t += CROSS_WAIT
    table.tick()
    same_end(h, g)
    assert [c[2] for c in counted] == ["won"]
    table.tick()
    assert len(counted) == 1  # once


def test_leaving_before_the_end_settles_still_counts_and_keeps_the_game_once(monkeypatch):
    from game import stats
    from players.base import Controller, HumanController
    from players.table import Table
    from tests.fakes.wire import Clock
    counted, writes = [], []
    monkeypatch.setattr(stats, "record_in_background", lambda *entry: counted.append(entry))
    clock = Clock()
    h, g = memory_pair("ataxx", seed=22, clock=clock)
    seats = [Controller(), Controller()]
    seats[g.seat] = HumanController()
    table = Table(g.match, seats, remote=g, io=writes.append, now=clock)
    h.resign()
    settle(h, g)
    table.tick()
    assert g.match.over and counted == [] and writes == []  # the crossing window is open
    table.close()  # the player leaves at once
    assert [c[2] for c in counted] == ["won"] and len(writes) == 1  # the replay's writing
    table.tick()
    assert len(counted) == 1 and len(writes) == 1


# --- 8. what a flip or a shot showed stays shown
@pytest.mark.parametrize("game", ["banqi", "planes"])
def test_no_takeback_goes_back_past_a_ply_that_showed_a_secret(game):
    """Asked by this side: refused here with a reason. Forged by a peer: declined at once."""
    h, g = memory_pair(game, seed=21)
    rng = random.Random(8)
    to_turn(h, g, g.seat, rng, least=6)
    while game == "banqi" and not any(len(x) == 2 for x in h.match.moves[-2:]):
        to_turn(h, g, g.seat, rng, least=1)  # the plies g's takeback undoes hold a flip
    n = len(h.match.moves)
    assert not g.request_takeback()
    said = [e.text.english() for e in g.events() if e.text is not None]
    assert "A move that showed something hidden cannot be taken back" in said
    assert not any(m["type"] == "takeback" for m in g.link.sent)
    g.link.send({"type": "takeback", "ply": n})  # a modified guest asks anyway
    assert not asks(settle(h))
    assert h.link.sent[-1] == {"type": "takeback_reply", "accept": False, "ply": n}
    assert len(h.match.moves) == len(g.match.moves) == n


def fog_guest_whose_host_shows_nothing(monkeypatch):
    """A fog Banqi guest resigns; the host's reveal is lost with the link and the guest leaves:
    the guest knows the game only through its views. (Its table, the records it took, the
    pair.)"""
    counted, written = records_taken(monkeypatch, background=True)
    h, g, table = banqi_guest_at_its_table(io=lambda work: work(), options={"fog": True})
    g.resign()
    settle(h)
    frames = [f for f in g.link.inbox if f["type"] != "reveal"]
    g.link.inbox.clear()
    g.link.inbox.extend(frames)
    g.link.close("gone")
    table.tick()
    table.close()
    return table, counted, written, h, g


def test_a_fog_game_the_host_never_showed_keeps_no_replay_that_could_not_be_rebuilt(
        monkeypatch):
    """Under the fog, the guest's record of a game the host never revealed does not rebuild it
    (its moves include the ones the fog hid). Its table counts the game and says why it keeps
    no replay, where it used to write one that the replays list could not open (and the
    result card's Watch replay and Review crashed on its hidden moves)."""
    table, counted, written, h, g = fog_guest_whose_host_shows_nothing(monkeypatch)
    assert not g.match.record_complete()
    assert [c[2] for c in counted] == ["won"] and written == []
    assert any("never showed the whole game" in str(n) for n in table.notices)


def test_a_fog_game_the_host_showed_keeps_a_replay_that_rebuilds_it(monkeypatch, tmp_path):
    from game import replay
    from players.base import Controller, HumanController
    from players.table import Table
    real = replay.save_replay
    kept: list = []
    monkeypatch.setattr(replay, "save_replay",
                        lambda match, duration: kept.append(real(match, duration, tmp_path)))
    h, g = memory_pair("banqi", {"fog": True}, seed=17)
    to_turn(h, g, g.seat, random.Random(13))
    seats = [Controller(), Controller()]
    seats[g.seat] = HumanController()
    table = Table(g.match, seats, remote=g, io=lambda work: work())
    g.resign()
    settle(h, g)
    table.tick()
    assert g.match.record_complete() and g.verdict and g.verdict.ok
    again, _body = replay.load_replay(kept[0])
    assert again.moves == h.match.moves and again.outcome() == h.match.outcome()
    table.close()


# --- 9. a takeback of a move the asker never made
@pytest.mark.parametrize("game", ["planes", "ataxx", "banqi", "jungle", "dots"])
def test_no_takeback_is_asked_or_granted_before_the_asker_has_moved(game):
    """A Planes guest pressed Undo while the host's planes stood hidden and before its own:
    the host was asked to take back a move the guest never made, its Allow did nothing, and the
    guest's board showed it waiting meanwhile. Nothing is asked, and a forged ask is declined."""
    h, g = memory_pair(game, seed=5)
    rng = random.Random(2)
    while not h.match.moves or h.match.to_move() != g.seat:
        settle(h, g)
        s = h if h.match.to_move() == h.seat else g
        s.submit(local_move(s, rng))
        settle(h, g)
    if h.match.back_for(g.seat):
        pytest.skip("the guest moved first in this game")
    n = len(h.match.moves)
    assert not g.request_takeback() and not g.waiting
    assert not any(m["type"] == "takeback" for m in g.link.sent)
    g.link.send({"type": "takeback", "ply": n})  # a modified guest asks anyway
    assert not asks(settle(h))
    assert h.link.sent[-1] == {"type": "takeback_reply", "accept": False, "ply": n}
    assert len(h.match.moves) == len(g.match.moves) == n
