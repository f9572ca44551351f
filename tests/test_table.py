"""The Table: a game in progress without a window. Whole games of every game through it with
pygame never imported, and its rules checked over generated games: a secret is never given to
the wrong seat, a finished game stays finished, and the end-of-game work is done once."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from ai.base import Budget, decide_setup
from game import saves
from game.match import CLAIM_AFTER, Match, Seat
from players.base import HumanController
from players.bot import AIController
from players.events import EventKind
from players.table import REVEAL_SECONDS, Table
from tests.fakes.cancel import frozen_clock

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.long
def test_every_game_plays_hot_seat_over_the_lan_and_as_a_demo_without_pygame():
    run = subprocess.run([sys.executable, "-m", "tests.table_games"], cwd=ROOT,
                         capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "pygame imported: no" in run.stdout
    for game in ("ataxx", "dots", "planes", "banqi", "jungle"):
        assert f"{game}: hot-seat, demo, LAN" in run.stdout


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


GAMES = [("planes", None), ("banqi", {"fog": True}), ("banqi", {"fog": False}), ("ataxx", None)]


class HotSeat(RuleBasedStateMachine):
    """Two people at one computer do anything in any order: move, hand over, undo, resign, let
    time pass. What the board is given is always the present seat's own view, never anything
    during a hand-over; the end is final and its work is done once."""

    @initialize(which=st.sampled_from(range(len(GAMES))), seed=st.integers(0, 2**20))
    def start(self, which: int, seed: int) -> None:
        game, options = GAMES[which]
        self.rng = random.Random(seed)
        self.clock = Clock()
        self.writes: list = []
        self.match = Match(game, options, seed, [Seat("human", "A"), Seat("human", "B")])
        self.table = Table(self.match, [HumanController(), HumanController()],
                           now=self.clock, io=self.writes.append, save_name="table-test")
        self.ended: tuple | None = None
        self.endings = 0

    def _tick(self) -> None:
        events = self.table.tick()
        self.endings += sum(e.kind is EventKind.ENDED for e in events)

    @rule()
    def move(self) -> None:
        t, m = self.table, self.match
        sight = t.sight()
        if t.human_to_move() is None or sight.view is None:
            assert t.play(0) is not None or m.over or sight.view is not None  # refused
            return
        if m.setup_pending():
            move = decide_setup(m.game_id, sight.view, "random",
                                Budget(0.0, now=frozen_clock()), self.rng)
        else:
            move = self.rng.choice(sight.legal)
        assert t.play(move) is None
        self._tick()

    @rule()
    def hand_over(self) -> None:
        seat = self.table.handover_seat()
        if seat is not None:
            self.table.take_seat(seat)
        self._tick()

    @rule(seconds=st.floats(0, 2 * REVEAL_SECONDS))
    def time_passes(self, seconds: float) -> None:
        self.clock.t += seconds
        self._tick()

    @rule()
    def key_after_seeing(self) -> None:
        self.table.end_reveal()
        self._tick()

    @rule()
    def undo(self) -> None:
        was_over = self.match.over
        moves = list(self.match.moves)
        taken = self.table.undo()
        if was_over:
            assert not taken and self.match.moves == moves
        self._tick()

    @rule()
    def resign(self) -> None:
        self.table.resign()
        self._tick()

    @invariant()
    def the_board_sees_only_its_own_seat(self) -> None:
        if not hasattr(self, "table"):
            return
        t, m = self.table, self.match
        sight = t.sight()
        if m.over:
            return
        if t.hidden_hotseat:
            if t.needs_handover():
                assert sight.view is None
            if sight.view is not None:
                assert sight.viewer == t.shown_viewer is not None
                assert sight.view == m.rules.view(m.state, sight.viewer)
        elif sight.view is not None:
            assert sight.view == m.view(sight.viewer)
        if sight.my_turn:
            assert sight.viewer == m.to_move()

    @invariant()
    def a_finished_game_stays_finished(self) -> None:
        if not hasattr(self, "table"):
            return
        m = self.match
        if self.ended is not None:
            assert m.over and (len(m.moves), m.outcome()) == self.ended
        elif m.over:
            self.ended = (len(m.moves), m.outcome())
        assert self.endings <= 1
        assert len(self.writes) == (1 if self.endings else 0)  # the replay, once

    def teardown(self) -> None:
        if hasattr(self, "table"):
            self.table.close()
            saves.remove("table-test")


HotSeat.TestCase.settings = settings(max_examples=25, stateful_step_count=40, deadline=None,
                                     suppress_health_check=[HealthCheck.too_slow])
test_hot_seat_rules_hold_in_any_order = HotSeat.TestCase


def test_the_clock_flags_with_the_injected_time_and_the_end_is_counted_once():
    clock = Clock()
    writes: list = []
    match = Match("ataxx", None, 3, [Seat("human", "A"), Seat("human", "B")])
    table = Table(match, [HumanController(), HumanController()], time_control="5",
                  now=clock, io=writes.append, save_name="table-test")
    try:
        assert table.clock is not None
        table.tick()
        clock.t += table.clock.left(0) + 1
        events = table.tick()
        assert match.over and match.outcome().winner == 1
        assert [e.kind for e in events].count(EventKind.ENDED) == 1
        for _ in range(3):
            assert not table.undo() and table.tick() == []
        assert len(writes) == 1
    finally:
        table.close()
        saves.remove("table-test")


def test_a_bot_seat_moves_through_the_table_and_a_human_move_out_of_turn_is_refused():
    clock = Clock()
    match = Match("ataxx", None, 4, [Seat("human", "A"), Seat("ai", "B", "random")])
    table = Table(match, [HumanController(), AIController("random", 0.0, seed=1)],
                  now=clock, io=lambda work: None, save_name="table-test")
    try:
        assert table.play(match.legal_moves()[0]) is None
        assert table.play(match.legal_moves()[0]) is not None  # the bot's turn: refused
        for _ in range(2000):  # the bot thinks on its worker: wait for its answer, bounded
            table.tick()
            if match.to_move() == 0:
                break
            clock.t += 0.1
            time.sleep(0.005)
        assert len(match.moves) == 2 and match.to_move() == 0
    finally:
        table.close()
        saves.remove("table-test")


def test_no_takeback_is_asked_of_a_player_who_is_away():
    """After Wait, Undo asked the absent player ('Takeback requested', to nobody); it is
    offered again once they are back."""
    from players.base import Controller
    from tests.fakes.remote import SilentRemote
    match = Match("ataxx", None, 3, [Seat("human", "A"), Seat("remote", "B")])
    match.play(match.legal_moves()[0])
    remote = SilentRemote(match)
    table = Table(match, [HumanController(), Controller()], remote=remote, records=False)
    remote.connected = False
    assert table.peer_away and not table.can_undo() and not table.undo()
    assert remote.sent == []
    remote.connected = True
    assert table.can_undo() and table.undo() and remote.sent == [("takeback", None)]


def test_a_lan_takeback_or_draw_already_out_is_not_said_again():
    from players.base import Controller
    from tests.fakes.remote import SilentRemote

    class OneOfEach(SilentRemote):  # the session sends one offer of each kind at a time
        def request_takeback(self) -> bool:
            return super().request_takeback() and len(self.sent) == 1

        def offer_draw(self) -> bool:
            return super().offer_draw() and [k for k, _ in self.sent].count("draw") == 1

    match = Match("ataxx", None, 3, [Seat("human", "A"), Seat("remote", "B")])
    match.play(match.legal_moves()[0])
    table = Table(match, [HumanController(), Controller()], remote=OneOfEach(match),
                  records=False)
    said = []
    for _ in range(3):
        table.undo()
        table.offer_draw()
        said += [e.text.key for e in table.tick() if e.kind is EventKind.NOTICE]
    assert said == ["Takeback requested", "Draw offered"]


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(["g2048", "foxhunt"]), seed=st.integers(0, 2**16),
       helped=st.lists(st.booleans(), min_size=1, max_size=25))
def test_a_game_autoplay_moved_in_is_never_counted_even_after_a_save(game, seed, helped):
    """A solo game counts for the player (statistics, a best score) exactly when no move of it
    was autoplay's; a save keeps that, and a table continued from the save keeps it too."""
    match = Match(game, None, seed, [Seat("human", "A")])
    table = Table(match, [HumanController()], records=False, now=Clock())
    rng = random.Random(seed)
    for by_bot in helped:
        if match.over:
            break
        assert table.play(rng.choice(match.legal_moves()), helped=by_bot) is None
        table.tick()
    played = helped[:len(match.moves)]
    extra = table.save_extra()
    again = Table(match, [HumanController()], records=False, now=Clock(),
                  helped=extra.get("helped") is True)
    if not match.over:
        match.resign(0)
    for t in (table, again):
        assert t.counts() is not any(played)
        assert (t.stats_entry() is None) is any(played)
        t.close()


def test_the_title_screens_idle_demo_leaves_no_replay():
    """It plays itself over and over while nobody is there: its games are nobody's to replay
    (a helper found 18 of them in the replays after five idle minutes)."""
    for demo, replays in ((True, 0), (False, 1)):
        writes: list = []
        match = Match("dots", {"rows": 1, "cols": 1}, 3, [Seat("human", "A"), Seat("human", "B")])
        table = Table(match, [HumanController(), HumanController()], now=Clock(),
                      io=writes.append, save_name="table-test", demo=demo)
        try:
            while not match.over:
                assert table.play(match.legal_moves()[0]) is None
                table.tick()
            assert len(writes) == replays
        finally:
            table.close()
            saves.remove("table-test")


@pytest.mark.parametrize("game", ["planes", "ataxx", "dots"])
def test_undo_is_offered_once_the_person_has_a_move_to_take_back(game):
    """Undo went back to the person's own last turn, yet it was offered before they had one:
    against a bot that moved first it did nothing, and over the LAN it asked the other player
    to take back a move nobody here made. It is offered from the person's first move on."""
    from players.base import Controller
    from tests.fakes.remote import SilentRemote
    rng = random.Random(4)
    for other in ("ai", "remote"):
        match = Match(game, None, 3, [Seat(other, "B", "easy"), Seat("human", "A")])
        remote = SilentRemote(match) if other == "remote" else None
        table = Table(match, [Controller(), HumanController()], remote=remote, records=False)
        try:
            while match.to_move() != 1 or not match.moves:
                seat = match.to_move()
                match.play(decide_setup(game, match.view(seat), "random", Budget(
                    0.0, now=frozen_clock()), rng) if match.setup_pending() else
                    rng.choice(match.legal_moves()))
            assert not table.can_undo() and not table.undo()
            assert remote is None or remote.sent == []
            assert len(match.moves) >= 1
            match.play(decide_setup(game, match.view(1), "random", Budget(0.0, now=frozen_clock()),
                                    rng) if match.setup_pending() else rng.choice(
                match.legal_moves()))
            assert table.can_undo()
        finally:
            table.close()


class ClaimWait(RuleBasedStateMachine):
    """Over the LAN the other player's link drops and comes back, time passes, and this side
    tries to claim the game, in any order. A claim holds only once the other player has been
    gone CLAIM_AFTER seconds on end as this table saw it (a dropped link is not a win), always
    holds by then, and a refused one changes nothing; a claimed game stays over."""

    @initialize(seed=st.integers(0, 2**20))
    def start(self, seed: int) -> None:
        from players.base import Controller
        from tests.fakes.remote import SilentRemote
        self.clock = Clock()
        self.match = Match("dots", {"rows": 3, "cols": 3}, seed,
                           [Seat("human", "A"), Seat("remote", "B")])
        self.remote = SilentRemote(self.match)
        self.table = Table(self.match, [HumanController(), Controller()], remote=self.remote,
                           records=False, now=self.clock)
        self.present_at = self.clock.t  # the last time a tick saw the peer here
        self.away_from: float | None = None  # the first tick of the present absence
        self.claimed = False

    @rule()
    def link_drops(self) -> None:
        self.remote.connected = False

    @rule()
    def link_back(self) -> None:
        self.remote.connected = True

    @rule(seconds=st.sampled_from([0.5, 5.0, 30.0, 49.0, 59.9, 60.0, 75.0]))
    def time_passes(self, seconds: float) -> None:
        self.clock.t += seconds

    @rule()
    def tick(self) -> None:
        self.table.tick()
        if self.match.over:
            return
        if self.remote.connected:
            self.present_at, self.away_from = self.clock.t, None
        elif self.away_from is None:
            self.away_from = self.clock.t

    @rule()
    def claim(self) -> None:
        before = (list(self.match.moves), self.match.ending)
        gone_long = not self.match.over and not self.remote.connected and \
            self.away_from is not None and self.clock.t - self.away_from >= CLAIM_AFTER
        took = self.table.claim()
        if took:
            assert not self.claimed and self.clock.t - self.present_at >= CLAIM_AFTER
            assert self.match.over and self.match.outcome().winner == 0
            self.claimed = True
        else:
            assert (list(self.match.moves), self.match.ending) == before
            assert not gone_long, "gone long enough, yet the claim was refused"

    @invariant()
    def claimed_stays_over(self) -> None:
        assert not self.claimed or self.match.over


ClaimWait.TestCase.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
test_a_lan_game_is_claimed_only_after_the_other_player_has_been_gone_a_while = \
    ClaimWait.TestCase
