"""A game in progress, without a window: the match, its seats and their controllers, the seat
driver, the LAN link, the clocks, who may see what, and the rules around the moves (undo, resign,
draw, takeback, the end-of-game work, done once).

The play scene draws a Table and turns input into its calls; `--demo --headless`, the headless
LAN host and join and the arena drive the same Table with no window. Time comes from `now`, so a
test moves it by hand.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from game import replay, saves, stats
from game.clock import GameClock, control
from game.i18n import N_, Text, system_error
from game.match import CLAIM_AFTER, CLAIMED, Match, Seat, SeatKind
from game.rules import RulesError, Termination
from players.base import Controller, Decision
from players.driver import SeatDriver
from players.events import Event, EventKind, Question

REVEAL_SECONDS = 2.5  # hidden hot-seat: how long the mover sees their move's answer
WATCH_PAUSE = 0.6  # watching bots: seconds between two moves at speed 1
BOT_PACE = 0.7  # a person's move shows at least this long before a bot's answer lands
WATCH_SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
# The statistics' key for the player's opponent in each kind of seat (a bot's is its level).
OPPONENTS: dict[SeatKind, Callable[[Seat], str]] = {
    SeatKind.AI: lambda seat: str(seat.level),
    SeatKind.AGENT: lambda seat: stats.PROGRAM,
    SeatKind.REMOTE: lambda seat: stats.LAN,
    SeatKind.HUMAN: lambda seat: str(seat.kind),  # someone here whom no local input plays
}


def in_background(work: Callable[[], None]) -> None:
    """Disk work off the loop thread (a table's default for its replay)."""
    threading.Thread(target=work, name="table-io", daemon=True).start()


CHAT_KEPT = 50  # the chat lines a game keeps to be read again

OFFERS_OUT = {"draw": N_("Draw offered: waiting for {player} to answer"),
              "takeback": N_("Takeback asked: waiting for {player} to answer"),
              "rematch": N_("Rematch offered: waiting for {player} to answer")}
AFTER_THE_END = {"rematch"}  # the offers made once a game is over (the others only before)


class Remote(Protocol):
    """The LAN link as a table sees it (net.session.Session is one)."""

    match: Match
    seat: int
    peer_seat: int
    connected: bool
    offers: dict[str, Any]  # this side's offers out ("draw", "takeback", "rematch") -> ply

    @property
    def waiting(self) -> bool: ...
    def events(self) -> list[Event]: ...
    def submit(self, move: Any) -> None: ...
    def resign(self, reason: str = "") -> None: ...
    def offer_draw(self) -> bool: ...
    def request_takeback(self) -> bool: ...
    def chat(self, text: str) -> None: ...
    def settled(self) -> bool: ...
    def save_extra(self) -> dict: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class Sight:
    """What the board may show now: a view (None between two hidden hands), the legal moves
    of a local person to move, and whose eyes it is."""

    view: dict | None
    legal: list
    my_turn: bool
    viewer: int | None
    last_move: Any


class Table:
    """One game in progress at this computer (see the module's docstring)."""

    def __init__(self, match: Match, controllers: list[Controller], *,
                 remote: Remote | None = None, demo: bool = False, records: bool = True,
                 save_name: str | None = None, time_control: str = "none", pace: float = 0.0,
                 kept_clock: GameClock | None = None, helped: bool = False,
                 now: Callable[[], float] = time.monotonic,
                 io: Callable[[Callable[[], None]], None] = in_background):
        self.match = match
        self.io = io
        self.controllers = controllers
        self.remote = remote
        self.demo = demo
        self.records = records  # stats, replay and autosave (not for the arena's own games)
        self.now = now
        self.save_name = save_name or saves.autosave_name(match)
        self.humans = [i for i, c in enumerate(controllers) if c.local_human]
        self.helped = helped  # a bot moved for the person here (autoplay), kept in the save
        self.driver = SeatDriver(match, controllers, submit=self._submit, forfeit=self._forfeit)
        self.pending: Decision | None = None  # a bot's move waiting for an animation to end
        self.shown_viewer: int | None = None  # hidden hot-seat: who has the computer
        self.reveal_until: float | None = None  # hidden hot-seat: the mover sees the answer
        self.ended_at: float | None = None
        self.away_since: float | None = None  # over the LAN: since when the peer is gone
        self.started = now()
        self.paused = False
        self.watch_speed = 1.0
        self.pace = pace  # watching bots on a screen: seconds between two moves at speed 1
        self.wait_until = 0.0  # watching: no bot is asked before this time
        self.answer_after = 0.0  # no bot's move lands before this time (a person's shows)
        self.notices: list[str] = []  # messages from background saves and replays
        self.chat_log: list[Text] = []  # the LAN chat so far, both sides' lines, oldest first
        self.replay_due = False
        self.quitting = False  # the arcade is closing: what is left to write is written now
        self._ended: Match | None = None  # the match whose end-of-game work was done
        self._events: list[Event] = []
        self.clock = self._make_clock(time_control, kept_clock)
        self.time_control = self.clock.control.key if self.clock is not None else "none"

    # --- the clocks
    def _make_clock(self, time_control: str, kept: GameClock | None) -> GameClock | None:
        """Clocks for a two-player game with a person at this computer; none over the LAN
        (one side's clock cannot be trusted by the other), none for bots alone."""
        if (self.match.rules.PLAYERS != 2 or self.remote is not None or self.demo
                or not self.humans):
            return None
        if kept is not None:
            kept.now = self.now
            return kept
        chosen = control(time_control)
        return GameClock(chosen, now=self.now) if chosen is not None else None

    def clock_seat(self, covered: bool = False) -> int | None:
        """Whose clock runs now: the seat to move, unless the table is covered (a dialog),
        over, being set up, handing over, showing an answer, or animating a decided move."""
        m = self.match
        if (covered or m.over or self.revealing or self.needs_handover() or m.setup_pending()
                or self.pending is not None):
            return None
        return m.to_move()

    def save_extra(self) -> dict:
        """What a save keeps beside the match record: the clocks' time left; over the LAN,
        what this side needs to take the game up again (its seat, token and secrets)."""
        extra: dict = {"clock": self.clock.to_dict()} if self.clock is not None else {}
        if self.helped:
            extra["helped"] = True
        if self.remote is not None:
            extra.update(self.remote.save_extra())
        return extra

    # --- who sees what
    @property
    def hidden_hotseat(self) -> bool:
        """Two people at one screen and a game whose seats hide something from each other."""
        m = self.match
        return len(self.humans) > 1 and m.rules.HIDDEN and m.rules.hides_between_seats(m.options)

    @property
    def revealing(self) -> bool:
        """The mover is looking at the answer to their move before handing over."""
        return self.reveal_until is not None and not self.match.over

    def viewer(self) -> int | None:
        """The seat whose view the board shows; None shows everything (watching, game over)
        and, in a hidden hot-seat game, nobody's until a seat has taken the computer."""
        m = self.match
        if m.over and m.rules.HIDDEN:
            return None
        if len(self.humans) == 1:
            return self.humans[0]
        if not self.humans:
            return None
        if self.hidden_hotseat:
            return self.shown_viewer
        seat = m.to_move()
        return seat if seat is not None else self.humans[0]

    def needs_handover(self) -> bool:
        """Hidden hot-seat: the seat to move has not taken the computer yet."""
        if not self.hidden_hotseat or self.match.over or self.revealing:
            return False
        seat = self.match.to_move()
        return seat in self.humans and seat != self.shown_viewer

    def handover_seat(self) -> int | None:
        """The seat the computer is to be handed to now, if a hand-over is due."""
        return self.match.to_move() if self.needs_handover() else None

    def take_seat(self, seat: int) -> None:
        """Hidden hot-seat: the seat's player has the computer (pressed the hand-over key)."""
        if self.needs_handover() and seat == self.match.to_move():
            self.shown_viewer = seat
            self._emit(EventKind.REFRESH)

    def end_reveal(self) -> None:
        """The mover has seen their move's answer: the hand-over may come."""
        if self.reveal_until is not None:
            self.reveal_until = None
            self.shown_viewer = None
            self._emit(EventKind.REFRESH)

    def human_to_move(self) -> int | None:
        """The local person to move now, if it is one (and has the computer)."""
        seat = self.match.to_move()
        if seat is None or seat not in self.humans:
            return None
        if self.hidden_hotseat and self.shown_viewer != seat:
            return None
        if self._held():  # the move would be refused: the board offers none
            return None
        return seat

    def sight(self) -> Sight:
        """What the board may be given now; nothing of either hand during a hand-over."""
        m = self.match
        if self.needs_handover():
            self.shown_viewer = None
        viewer = self.viewer()
        mover = self.human_to_move()
        hidden_now = self.hidden_hotseat and viewer is None and not m.over
        view = None if hidden_now else m.view(viewer)
        legal = m.legal_moves() if mover is not None and view is not None else []
        # the last move as played: only where no seat hides anything (the view says what the
        # viewer saw of it: a move under Banqi's fog is not the viewer's to know)
        hides = m.rules.HIDDEN and m.rules.hides_between_seats(m.options) and not m.over
        last = m.moves[-1] if m.moves and not hides else None
        return Sight(view, legal, mover is not None, viewer, last)

    def views_seen(self, seat: int, start: int) -> list[dict]:
        """The views `seat` had of the positions from `start` plies up to, not including, the
        present one: for a board that keeps what its seat saw (Banqi's fog) and was not shown
        them (a game continued, tried again, taken up over the LAN, two plies in one frame).
        Only the seat the board shows now may have them."""
        m = self.match
        if seat != self.viewer():
            return []
        return [m.view_at(ply, seat) for ply in range(max(0, start), len(m.moves))]

    def offer_out(self, kind: str) -> bool:
        """Whether this side's offer of `kind` ("draw", "takeback", "rematch") waits for an
        answer."""
        return self.remote is not None and kind in self.remote.offers

    def offers_out(self) -> list[Text]:
        """This side's LAN offers still waiting for an answer, for the panel (or, once the game
        is over, the result card): the notice that one went out fades long before a person
        answers it."""
        r = self.remote
        if r is None or not r.connected:
            return []
        who = self.match.seat_words(r.peer_seat)
        return [Text(words, {"player": who}) for kind, words in OFFERS_OUT.items()
                if self.offer_out(kind) and (kind in AFTER_THE_END) == self.match.over]

    # --- what a player may do
    def can_undo(self) -> bool:
        """A finished game is final: undo and takeback only while it is in progress (and a
        takeback only while the other player is there to be asked)."""
        m = self.match
        if not self.humans or self.demo or not m.moves or m.over or self.peer_away \
                or self.offer_out("takeback"):
            return False
        # against a bot or over the LAN, back to the person's own last turn: none yet, none
        return len(self.humans) > 1 or m.back_for(self.humans[0]) > 0

    def undo_needs_consent(self) -> int | None:
        """Hot-seat: the seat whose move an undo would take back, when it is not the one asking
        (it is that seat's own move to take back, so they are asked first); else None."""
        m = self.match
        if self.remote is not None or len(self.humans) < 2 or not self.can_undo():
            return None
        last = m.rules.to_move(m.states[-2])
        return last if last is not None and last != m.to_move() else None

    def undo(self) -> bool:
        """Take back the last move (against a bot: back to the person's last turn); over the
        LAN, ask the other player. True if anything was taken back or the LAN had it (asked,
        or said why not)."""
        if not self.can_undo():
            return False
        if self.remote is not None:
            if self.remote.request_takeback():  # a repeat while one is out is not sent, nor said
                self._notice(N_("Takeback requested"))
            return True
        self.cancel()
        self.reveal_until = None
        m = self.match
        taken = m.undo_for(self.humans[0]) if len(self.humans) == 1 else m.undo(1)
        self._emit(EventKind.REFRESH)
        self.autosave()
        return bool(taken)

    def resign_seat(self) -> int | None:
        """The seat a Resign at this computer gives up for (None if none may now)."""
        m = self.match
        if m.over or m.rules.PLAYERS != 2 or not self.humans:
            return None
        return self.humans[0] if len(self.humans) == 1 else m.to_move()

    def resign(self) -> None:
        seat = self.resign_seat()
        if seat is None:
            return
        self.cancel()
        if self.remote is not None:
            self.remote.resign()
        else:
            self.match.resign(seat)
        self._emit(EventKind.REFRESH)

    def offer_draw(self) -> None:
        if self.remote is not None and not self.match.over and self.remote.offer_draw():
            self._notice(N_("Draw offered"))

    def chat(self, text: str) -> None:
        if self.remote is not None:
            self.remote.chat(text)

    @property
    def peer_away(self) -> bool:
        """Over the LAN, the game not over and the other player's link down: it may be
        waited for or claimed."""
        r = self.remote
        return r is not None and not self.match.over and not r.connected

    def claim_in(self) -> float:
        """Seconds before the game may be claimed: 0 once the other player has been gone
        CLAIM_AFTER seconds on end, infinity while they are here (or the game is over)."""
        if not self.peer_away:
            return float("inf")
        since = self.away_since if self.away_since is not None else self.now()
        return max(0.0, CLAIM_AFTER - (self.now() - since))

    def claim(self) -> bool:
        """The other player has been gone long enough: this side takes the game. False (and
        nothing changes) if it may not be claimed yet."""
        r = self.remote
        if r is None or self.claim_in() > 0:
            return False
        self.match.resign(r.peer_seat, CLAIMED, Termination.DISCONNECT)
        self._emit(EventKind.REFRESH)
        return True

    def _watch_absence(self) -> None:
        """Note when the other player went (their absence runs on this table's clock)."""
        if not self.peer_away:
            self.away_since = None
        elif self.away_since is None:
            self.away_since = self.now()

    def play(self, move: Any, helped: bool = False) -> Text | None:
        """A local person's move, or one a bot made for them (`helped`: autoplay): played (or
        sent to the host), else why not; a refused move changes nothing."""
        if self.match.over or self.human_to_move() is None:
            return Text(N_("Not allowed: {reason}"), {"reason": Text(N_("wait for your turn"))})
        if self.remote is not None:
            try:
                self.remote.submit(move)
            except RulesError as exc:
                return Text(N_("Not allowed: {reason}"), {"reason": exc.text or str(exc)})
            self.helped |= helped
            return None
        mover = self.match.to_move()
        try:
            self.match.play(move)
        except RulesError as exc:
            return Text(N_("Not allowed: {reason}"), {"reason": str(exc)})
        if self.hidden_hotseat and self.match.to_move() not in (None, mover):
            self.reveal_until = self.now() + REVEAL_SECONDS
        self.helped |= helped
        self._moved(mover, move)
        return None

    # --- watching bots
    def toggle_pause(self) -> None:
        self.paused = not self.paused

    def step(self) -> None:
        """Paused: let the next bot move come now."""
        if self.paused:
            self.wait_until = 0.0
            self.advance(busy=False, force=True)

    def faster(self, step: int = 1) -> None:
        i = WATCH_SPEEDS.index(self.watch_speed) if self.watch_speed in WATCH_SPEEDS else 1
        self.watch_speed = WATCH_SPEEDS[max(0, min(len(WATCH_SPEEDS) - 1, i + step))
                                        if step < 0 else (i + step) % len(WATCH_SPEEDS)]

    # --- the loop
    def tick(self, busy: bool = False, covered: bool = False) -> list[Event]:
        """One step of the loop: the LAN's news, the clocks, the reveal, the bots and the end.
        `busy`: the board is still animating (a decided move waits); `covered`: a dialog is
        on top (the clocks stop). Returns what happened since the last tick."""
        if self.remote is not None:
            self._remote_events(self.remote)
            self._watch_absence()
        self._tick_clock(covered)
        until = self.reveal_until
        if until is not None and self.revealing and self.now() >= until:
            self.end_reveal()
        if not self.match.over and self.human_to_move() is None:
            self.advance(busy)
        if self.match.over:
            self._finish()
        while self.notices:
            self._notice(self.notices.pop(0))
        events, self._events = self._events, []
        return events

    def advance(self, busy: bool, force: bool = False) -> None:
        """Ask the seat to move (a bot, a program) and play its decision once the board is
        still; watching bots, at the chosen pace."""
        if self.match.over or self.needs_handover():
            return
        if self.pending is None:
            watching_waits = not self.humans and (
                self.paused and not force or self.now() < self.wait_until)
            self.pending = self.driver.poll(may_ask=not watching_waits and not self._held())
        if (self.pending is not None and not busy and not self._held()
                and self.now() >= self.answer_after):
            decision, self.pending = self.pending, None
            seat = self.match.to_move()
            if self.driver.apply(decision.move) and self.remote is None:
                self._moved(seat, decision.move)
                if not self.humans:
                    self.wait_until = self.now() + self.pace / self.watch_speed

    def _held(self) -> bool:
        """Over the LAN: this side's seat waits while its last move is out or the link is
        down (a bot does not ask, and a person is offered no move)."""
        r = self.remote
        return r is not None and (r.waiting or not r.connected)

    def _submit(self, move: Any) -> None:
        """Where the driver sends a decided move: the host, over the LAN, else the match."""
        if self.remote is not None:
            self.remote.submit(move)
        else:
            self.match.play(move)

    def _forfeit(self, seat: int, detail: Text, why: Termination) -> None:
        """A seat failed (a program died or lied, a bot broke): it loses, and it is said."""
        if self.remote is not None:
            self.remote.resign(detail.english())
        else:
            self.match.resign(seat, detail, why)
        self.pending = None
        self._notice(detail)
        self._emit(EventKind.REFRESH)

    def _moved(self, seat: int | None, move: Any) -> None:
        if self.clock is not None and seat is not None:
            self.clock.moved(seat)
        if seat in self.humans and self.human_to_move() is None:
            self.answer_after = self.now() + BOT_PACE  # the person sees their move land
        self._emit(EventKind.MOVED, move=move)
        self.autosave()

    def _tick_clock(self, covered: bool) -> None:
        if self.clock is None:
            return
        self.clock.run(self.clock_seat(covered))
        flagged = self.clock.flagged()
        if flagged is not None and not self.match.over:
            self.cancel()
            self.reveal_until = None
            self.match.resign(flagged, "", Termination.TIME)
            self.clock.run(None)
            self._emit(EventKind.REFRESH)

    def _remote_events(self, r: Remote) -> None:
        for event in r.events():
            if r.match is not self.match:  # a rematch or a resume rebuilt it
                if self.match.over and not r.match.over:
                    self._finish(final=True)  # a rematch: the old end is judged and final
                    self.started = self.now()  # a resume goes on with the same game's time
                self.match, self.ended_at = r.match, None
                self.driver.match = r.match
                self.cancel()
                self._emit(EventKind.NEW_MATCH)
            if event.kind is EventKind.NEW_MATCH:
                continue  # said above, once
            if event.kind in (EventKind.MOVED, EventKind.REFRESH, EventKind.NEW_MATCH):
                self.cancel()
                self.autosave()
            elif event.kind is EventKind.PEER_LOST:
                self.save_now_in_background()
            elif event.kind is EventKind.CHAT and event.text is not None:
                self.chat_log = [*self.chat_log, event.text][-CHAT_KEPT:]
            self._events.append(event)

    # --- the end, done once
    def _finish(self, final: bool = False) -> None:
        """The end's work, once; its statistic and replay once the end can no longer change
        (over the LAN: settled), or now if `final` (the match is being replaced)."""
        if self._ended is not self.match:
            self._ended = self.match
            self.ended_at = self.now()
            self.cancel()
            self.reveal_until = None
            self.replay_due = self.records and not self.demo  # the idle demo is nobody's game
            if self.records and self.humans and not self.demo:
                saves.remove(self.save_name)
            self._emit(EventKind.ENDED)
        # over the LAN a crossing end or a failed reveal could still change it
        if self.replay_due and (final or self.remote is None or self.remote.settled()):
            self.replay_due = False
            self._record_stats()
            self._write_replay()

    def counts(self) -> bool:
        """Whether the game is the player's own, for statistics and a best score: one person
        here, not the demo, and no move of it made by autoplay."""
        return not self.demo and len(self.humans) == 1 and not self.helped

    def stats_entry(self) -> tuple[str, str, str, int | None] | None:
        """(game, opponent, result, solo score) for the player's statistics; None when the game
        is not the player's own (see counts)."""
        m, out = self.match, self.match.outcome()
        if not self.counts() or out is None:
            return None
        me = self.humans[0]
        if m.rules.PLAYERS == 1:
            return m.game_id, stats.SOLO, "won" if out.winner == me else "lost", out.score[me]
        other = m.seats[1 - me]
        opponent = OPPONENTS[other.kind](other)
        result = "drawn" if out.winner is None else "won" if out.winner == me else "lost"
        return m.game_id, opponent, result, None

    def _record_stats(self) -> None:
        entry = self.stats_entry()
        if entry is not None:
            (stats.record if self.quitting else stats.record_in_background)(*entry)

    def _write_replay(self) -> None:
        match, duration, notices = self.match, self.now() - self.started, self.notices
        if not match.record_complete():  # its record would not rebuild it
            notices.append(Text(N_("Replay not saved: the other side never showed the whole "
                                   "game")).say())
            return

        def write() -> None:
            try:
                replay.save_replay(match, duration)
            except OSError as exc:
                notices.append(Text(N_("Replay not saved: {error}"),
                                    {"error": system_error(exc)}).say())

        if self.quitting:
            write()
        else:
            self.io(write)

    # --- saving and leaving
    def keeps_saves(self) -> bool:
        return bool(self.humans) and not self.demo and self.records

    def autosave(self) -> None:
        if self.keeps_saves() and not self.match.over:
            saves.save_in_background(self.match, self.save_name, self.notices, quiet=True,
                                     extra=self.save_extra())

    def save_now_in_background(self, name: str | None = None) -> None:
        """Keep the game as it is now (a lost link, leaving, Save)."""
        if self.keeps_saves() and not self.match.over:
            saves.save_in_background(self.match, name or self.save_name, self.notices,
                                     quiet=name is None, extra=self.save_extra())

    def save_on_quit(self) -> None:
        """The arcade is closing: write the save now, on this thread (nothing else will);
        an end still waiting to settle is recorded on this thread too, when close() comes."""
        self.quitting = True
        self.cancel()
        if self.keeps_saves() and not self.match.over:
            try:
                saves.save(self.match, self.save_name, extra=self.save_extra())
            except OSError:
                pass

    def cancel(self) -> None:
        """The position changed under the seats: forget what they were deciding."""
        self.driver.cancel()
        self.pending = None

    def close(self) -> None:
        """The table is left: the seats and the LAN link let go of their threads and sockets."""
        self.cancel()
        if self.remote is not None:
            self.remote.close()
            if self.replay_due:
                self._finish(final=True)  # left before the end settled: it is final now
        for c in self.controllers:
            c.close()

    # --- the events
    def _emit(self, kind: EventKind, **fields: Any) -> None:
        self._events.append(Event(kind, **fields))

    def _notice(self, text: str | Text) -> None:
        self._emit(EventKind.NOTICE, text=text if isinstance(text, Text) else Text(text))

    def ask(self, question: Question) -> None:
        self._emit(EventKind.ASK, question=question)


def play_out(match: Match, controllers: list[Controller], *, records: bool = False,
             idle: Callable[[], None] = lambda: time.sleep(0.002),
             on_event: Callable[[Event], None] = lambda event: None) -> Table:
    """Drive a game with no window until it ends (demo --headless, the arena, benches); its
    records written at once if asked. The seats are closed at the end."""
    table = Table(match, controllers, records=records, io=lambda work: work())
    try:
        while not match.over:
            for event in table.tick():
                on_event(event)
            if not match.over and table.pending is None:
                idle()
        for event in table.tick():
            on_event(event)
    finally:
        table.close()
    return table
