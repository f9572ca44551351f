"""Fog-of-war Banqi over the LAN: the guest is sent its seat's view and no more, checks each
view, and at the end checks the whole game the host refereed. Loopback, bounded."""

import random
import threading

import pytest

from game.match import Match
from game.rules import Termination
from net.secrets import banqi
from net.session import join
from players.events import EventKind
from tests.test_lan import local_move, pair, play_through, play_until_a_plain_move, pump_until

FOG = {"fog": True}


def _squares(move):
    return [move[:2]] + ([move[2:]] if len(move) == 4 else [])


def check_frames_hide_the_fog(h, sent):
    """Every frame the host sent the guest carries nothing the guest's view does not show:
    each ply's view is the rules' own view for the guest's seat, a host move out of sight
    crosses as "~", and the whole game is shown only once it is over."""
    rules, guest = h.match.rules, 1 - h.seat
    plies = [m for m in sent if m.get("type") == "move"]
    assert plies, "no plies were sent"
    for m in sent:
        if m.get("type") == "reveal":
            assert h.match.over
        if m.get("type") == "welcome":
            assert not m["moves"] or all("view" in p for p in m["moves"])
    for m in plies:
        ply, state = m["ply"], h.match.states[m["ply"] + 1]
        seen = rules.visible(state, guest) if rules.outcome(state) is None else set(range(32))
        assert m["view"] == rules.view(state, guest)
        assert ("moves" in m) == (rules.outcome(state) is not None)
        move = m["move"]
        mover = rules.to_move(h.match.states[ply])
        if move == banqi.UNSEEN:
            assert mover == h.seat and not m["view"]["last"]
        elif mover == h.seat and len(move) == 4:
            assert all(rules.parse_square(sq) in seen for sq in _squares(move)), (ply, move)
        if "piece" in m:  # a flip: its square was face down, which every seat sees
            assert len(move) == 2 and h.match.states[ply].board[rules.parse_square(move)] == "?"
        board = rules.parse_board(m["view"]["board"])
        for sq in range(32):
            if sq not in seen:
                assert board[sq] == "~"
    return plies


def test_a_fog_game_plays_through_and_the_guest_sees_only_its_view():
    host, h, g = pair("banqi", FOG, seed=11)
    try:
        assert isinstance(g.match, banqi.FogMatch) and not g.match.whole
        play_through(h, g, random.Random(4), max_plies=3000)
        assert h.match.over and g.match.over and g.match.whole
        assert g.match.moves == h.match.moves
        assert h.match.result_line() == g.match.result_line()
        pump_until([h, g], lambda: g.verdict and h.verdict)
        assert (g.verdict and g.verdict.ok) and (h.verdict and h.verdict.ok), (g.verdict, h.verdict)
        plies = check_frames_hide_the_fog(h, h.link.sent)
        assert any(p["move"] == banqi.UNSEEN for p in plies)  # the fog did hide something
        # the guest's record is the whole game, and plays back (a replay, a save)
        again = Match.from_record(g.match.to_record())
        assert again.state.board == h.match.state.board
    finally:
        h.close(), g.close(), host.stop()


def test_the_fog_guest_knows_only_its_view_mid_game():
    """At every ply of a game's first 40, the guest's match is its seat's view and no more; the
    fog hid some square at some ply (the deal is the session's own: at one ply alone, the
    guest's pieces may happen to see the whole board)."""
    host, h, g = pair("banqi", FOG, seed=12)
    rng, fogged = random.Random(6), 0
    try:
        for _ in range(40):
            play_through(h, g, rng, max_plies=1)
            if h.match.over:
                break
            real = h.match.rules.view(h.match.state, g.seat)
            assert g.match.view(g.seat) == real and g.match.view(None) == real
            fogged += "~" in real["board"]
            assert g.match.score() == h.match.score()
            assert set(g.match.moves) - set(h.match.moves) <= {banqi.UNSEEN}
            if g.match.to_move() == g.seat:
                assert sorted(g.match.legal_moves()) == sorted(h.match.legal_moves())
        assert fogged
    finally:
        h.close(), g.close(), host.stop()


def settle(h, g):
    pump_until([h, g], lambda: not h.waiting and not g.waiting
               and len(h.match.moves) == len(g.match.moves))


def _tamper(h, change):
    """The host's echoes pass through `change(message)` before they are sent."""
    send = h.send

    def lying(message):
        if message.get("type") == "move":
            message = change(dict(message))
        send(message)
    h.send = lying


def test_a_fog_host_moving_the_guests_piece_in_its_view_is_cut_off():
    host, h, g = pair("banqi", FOG, seed=13)
    try:
        rng = random.Random(2)
        for _ in range(30):  # until the guest has a piece face up
            play_through(h, g, rng, max_plies=1)
            settle(h, g)
            colour = g.match.views[-1]["colors"][g.seat]
            board = h.match.rules.parse_board(g.match.views[-1]["board"])
            if colour and any(h.match.rules.colour_of(p) == colour for p in board) \
                    and h.match.to_move() == h.seat:
                break
        colour = g.match.views[-1]["colors"][g.seat]
        before = h.match.rules.parse_board(g.match.views[-1]["board"])
        mine = next(i for i, p in enumerate(before) if h.match.rules.colour_of(p) == colour)

        def vanish(message):  # the guest's piece gone from an empty square
            view = dict(message["view"])
            squares = list(h.match.rules.parse_board(view["board"]))
            squares[mine] = "."
            view["board"] = h.match.rules.board_text(squares)
            message["view"] = view
            return message

        _tamper(h, vanish)
        h.submit(local_move(h, rng))
        pump_until([h, g], lambda: g.violation)
        assert "pieces" in g.violation
    finally:
        h.close(), g.close(), host.stop()


def test_a_fog_host_showing_a_move_the_fog_hid_or_no_view_is_cut_off():
    host, h, g = pair("banqi", FOG, seed=14)
    try:
        settle(h, g)
        _tamper(h, lambda m: {k: v for k, v in m.items() if k != "view"})
        h.submit(local_move(h, random.Random(1)))
        pump_until([h, g], lambda: g.violation)
        assert "view" in g.violation and not g.match.moves
    finally:
        h.close(), g.close(), host.stop()


def test_a_fog_host_that_shows_another_game_at_the_end_loses_unverified():
    host, h, g = pair("banqi", FOG, seed=15)
    try:
        rng = random.Random(9)
        play_through(h, g, rng, max_plies=30)
        secret = h.hidden.secret

        def other_game():
            fields = secret()
            fields["moves"] = fields["moves"][:-1]  # not the game played
            return fields
        h.hidden.secret = other_game
        h.resign()
        pump_until([h, g], lambda: g.verdict)
        assert not g.verdict.ok and "did not show the game" in g.verdict
        out = g.match.outcome()
        assert out.termination is Termination.FAILURE and out.winner == g.seat
    finally:
        h.close(), g.close(), host.stop()


def test_an_honest_fog_game_ended_by_resignation_shows_the_whole_game_after():
    host, h, g = pair("banqi", FOG, seed=16)
    try:
        play_through(h, g, random.Random(10), max_plies=25)
        g.resign()
        pump_until([h, g], lambda: g.verdict and h.verdict)
        assert (g.verdict and g.verdict.ok) and g.match.whole and g.match.moves == h.match.moves
        assert g.match.outcome().termination is Termination.RESIGNATION
    finally:
        h.close(), g.close(), host.stop()


def test_a_fog_guest_resumes_from_the_views_and_takes_back():
    host, h, g = pair("banqi", FOG, seed=17)
    try:
        rng = random.Random(12)
        play_through(h, g, rng, max_plies=12)
        play_until_a_plain_move(h, g, rng)
        settle(h, g)
        views = list(g.match.views)
        g.link.close("cable pulled")
        pump_until([], lambda: h.events() is not None and not h.connected)
        got = {}
        t = threading.Thread(target=lambda: got.update(r=join(
            ("127.0.0.1", host.port), "banqi", host.options, "Guest", g.token)))
        t.start()
        pump_until([], lambda: not host.arrivals.empty())
        h.resume(host.next_arrival()[0])
        t.join(5)
        g.resume(*got["r"])
        assert isinstance(g.match, banqi.FogMatch) and g.match.views == views
        asker = g if g.match.to_move() == h.seat else h
        other = h if asker is g else g
        asker.request_takeback()
        asks = []
        pump_until([h, g], lambda: asks.extend(x for x in other.events()
                                               if x.kind is EventKind.ASK) or asks)
        asks[0].question.on_yes()
        pump_until([h, g], lambda: len(g.match.moves) == len(h.match.moves) < len(views) - 1)
        assert g.match.views[-1] == h.match.rules.view(h.match.state, g.seat)
        play_through(h, g, rng, max_plies=3000)
        pump_until([h, g], lambda: g.verdict)
        assert (g.verdict and g.verdict.ok) and g.match.whole
    finally:
        h.close(), g.close(), host.stop()


def test_a_lan_banqi_record_plays_back_to_the_pieces_both_sides_opened():
    """The flips are disclosed as reseeds: the record alone rebuilds the game (a save, a
    replay); before, the dummy deal showed other pieces, or the record did not play at all."""
    host, h, g = pair("banqi", seed=18)
    try:
        play_through(h, g, random.Random(3), max_plies=60)
        for side in (h, g):
            again = Match.from_record(side.match.to_record())
            assert again.state.board == h.match.state.board
            assert [s.board for s in again.states] == [s.board for s in side.match.states]
    finally:
        h.close(), g.close(), host.stop()


def test_the_result_card_of_a_fog_game_the_host_never_showed_offers_no_replay_nor_review(
        monkeypatch, h):
    """The guest knows such a game only through its views, and its moves include ones the fog
    hid: the card says so and leaves out Watch replay and Review (both crashed the arcade on a
    hidden move); the rest of the card stays."""
    from players.base import Controller, HumanController
    from tests.test_lan_crossing import fog_guest_whose_host_shows_nothing
    *_, g = fog_guest_whose_host_shows_nothing(monkeypatch)
    seats = [Controller(), Controller()]
    seats[g.seat] = HumanController()
    h.app.push("play", match=g.match, controllers=seats, session=g)
    h.frame()
    h.app.push("result", play=h.top)
    h.frame()
    labels = [b.label for b in h.find_buttons()]
    assert "Watch replay" not in labels and "Review" not in labels
    assert {"Rematch (R)", "Look at the board", "Menu (M)"} <= set(labels)
    assert "no replay and no review" in " ".join(h.top.reason_lines)


def test_a_result_card_shown_before_the_hosts_reveal_offers_replay_and_review_once_it_comes(h):
    """The card can come up before the whole game does (a slow link): it offers Watch replay
    and Review as soon as the host has shown it."""
    from players.base import Controller, HumanController
    from tests.fakes.wire import memory_pair, settle
    from tests.test_lan_crossing import to_turn
    host, g = memory_pair("banqi", FOG, seed=17)
    to_turn(host, g, g.seat, random.Random(13))
    seats = [Controller(), Controller()]
    seats[g.seat] = HumanController()
    h.app.push("play", match=g.match, controllers=seats, session=g)
    h.frame()
    g.resign()
    settle(host)
    held = list(g.link.inbox)  # the host's reveal, still on its way
    g.link.inbox.clear()
    h.frame()
    h.app.push("result", play=h.top)
    h.frame()
    assert "Review" not in [b.label for b in h.find_buttons()]
    g.link.inbox.extend(held)
    for _ in range(5):
        h.frame()
    assert g.match.record_complete()
    assert {"Watch replay", "Review"} <= {b.label for b in h.find_buttons()}
    assert "no review" not in " ".join(h.top.reason_lines)


def test_a_fog_guest_is_given_its_own_past_views_and_never_the_hosts():
    """The play screen catches a fog board up on its seat's earlier views (a game taken up
    again): a guest's are the views the host sent it, word for word; the host's own, or the
    whole state, are not the guest's to have."""
    from players.base import Controller, HumanController
    from players.table import Table
    from tests.fakes.wire import memory_pair, settle
    h, g = memory_pair("banqi", {"fog": True}, seed=9)
    rng = random.Random(4)
    while len(h.match.moves) < 30:
        settle(h, g)
        s = h if h.match.to_move() == h.seat else g
        s.submit(local_move(s, rng))
        settle(h, g)
    controllers = [Controller(), Controller()]
    controllers[g.seat] = HumanController()
    table = Table(g.match, controllers, remote=g, records=False)
    try:
        seen = table.views_seen(g.seat, 0)
        assert seen == g.match.views[:-1] and len(seen) == len(g.match.moves)
        assert table.views_seen(h.seat, 0) == []
        with pytest.raises(ValueError):
            g.match.view_at(3, h.seat)
    finally:
        table.close()



def test_a_fog_guests_move_list_is_the_one_its_eyes_give_of_the_whole_game():
    """A guest's list said "(out of sight)" for a capture of its own piece that its captured
    pieces told it of: the list was made from the guest's stand-in states, whose captured
    pieces count every clouded square too. Made from the host's views, it is the list the
    guest's eyes give of the real game, line for line, each with its mover (a stand-in state
    may read as a game over, and its line lost its side). The deal is a new shuffle each run."""
    from client.scenes.play import PlayScene
    from players.base import Controller, HumanController
    from tests.fakes.wire import memory_pair, settle
    from tests.harness import Harness
    h, g = memory_pair("banqi", {"fog": True}, seed=11)
    rng = random.Random(6)
    while len(h.match.moves) < 80 and not h.match.over:
        settle(h, g)
        s = h if h.match.to_move() == h.seat else g
        s.submit(local_move(s, rng))
        settle(h, g)
    assert not g.match.whole  # the guest knows the game only through its views
    harness = Harness((1100, 720))
    try:
        controllers = [Controller(), Controller()]
        controllers[g.seat] = HumanController()
        guest = PlayScene(harness.app, g.match, controllers, session=g)
        lines = guest.move_list()
        said = [f"{i + 1}. {h.match.rules.SEAT_NAMES[h.match.mover_at(i)]} "
                + guest.board.move_text(move, h.match.view_at(i, g.seat),
                                        h.match.view_at(i + 1, g.seat))
                for i, move in enumerate(h.match.moves)]
        assert lines == said  # each line with its mover: a stand-in state may read as an end
        guest.board.close()
    finally:
        harness.close()


def test_a_fog_view_whose_captured_pieces_are_not_pieces_is_refused():
    """A modified host could send "captured": ["zz"]: the guest's tray and its move list look
    each captured piece's glyph up, and crashed on one that is no piece."""
    from game.rules import banqi as rules
    from net.secrets import Violation
    state = rules.new_game({"fog": True}, 3)
    for bad in (["zz"], [7], ["p"] * 33):
        view = rules.view(state, 1)
        view["captured"] = bad
        with pytest.raises(Violation):
            banqi._checked_view(rules, view, {"variant": view["variant"], "fog": True})
    view = rules.view(state, 1)
    view["captured"] = ["p", "K"]
    assert banqi._checked_view(rules, view, {"variant": view["variant"],
                                             "fog": True})["captured"] == ["p", "K"]


def test_a_fog_guest_back_over_the_lan_lists_and_remembers_the_hosts_game_not_its_stand_in():
    """A real-window pass: a guest killed and continued over the LAN listed "2. second h4 車"
    for a flip that showed 相, and pencilled a 卒 as last seen where a 砲 was flipped. Its screen
    opened on the file's stand-in game (the face-down pieces dealt anew) and, once the host's
    welcome rebuilt the game from its views, kept the stand-in's lines and memory: the same
    moves, so nothing looked changed."""
    from client.scenes.play import PlayScene
    from players.base import Controller, HumanController
    from tests.fakes.wire import memory_pair, settle
    from tests.harness import Harness
    h, g = memory_pair("banqi", {"fog": True}, seed=12)
    rng = random.Random(7)
    for _ in range(8):  # flips only: a stand-in deal plays them too, showing other pieces
        settle(h, g)
        s = h if h.match.to_move() == h.seat else g
        s.submit(rng.choice([m for m in s.match.legal_moves() if len(str(m)) == 2]))
        settle(h, g)
    stand_in = Match("banqi", {"fog": True}, 999, g.match.seats)
    for move in g.match.moves:
        stand_in.play(move)
    assert [stand_in.view_at(i, g.seat)["board"] for i in range(9)] != \
        [g.match.view_at(i, g.seat)["board"] for i in range(9)]
    harness = Harness((1100, 720))
    try:
        controllers = [Controller(), Controller()]
        controllers[g.seat] = HumanController()
        guest = PlayScene(harness.app, stand_in, controllers, session=g)
        guest.move_list()
        g._note(EventKind.REFRESH)  # the host's welcome rebuilt it: the table takes it up
        guest._take(guest.table.tick())
        fresh = PlayScene(harness.app, g.match, controllers, session=g)
        assert guest.move_list() == fresh.move_list()
        assert guest.board.view == fresh.board.view
        assert {k: getattr(guest.board, k) for k in guest.board.fresh_private(g.seat)} == \
            {k: getattr(fresh.board, k) for k in fresh.board.fresh_private(g.seat)}
        guest.board.close()
        fresh.board.close()
    finally:
        harness.close()
