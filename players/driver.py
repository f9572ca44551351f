"""The one seat driver: asks the seat to move for its decision, never blocking, and turns a
seat's failure into a forfeit. A table (players/table.py) drives its seats with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.i18n import N_, Text
from game.match import Match, Seat, SeatKind
from game.rules import RulesError, Termination
from game.text import clean_text
from players.base import Controller, Decision, HumanController, SeatFailure
from players.bot import AIController
from players.program import AgentController


def _remote(seat: Seat, seconds: float | None, seed: int | None) -> Controller:
    raise ValueError("this game was played over the LAN; it goes on only there")


# How each kind of seat gets its controller here: (seat, seconds a move, seed).
CONTROLLERS: dict[SeatKind, Callable[[Seat, float | None, int | None], Controller]] = {
    SeatKind.HUMAN: lambda seat, seconds, seed: HumanController(),
    SeatKind.AI: lambda seat, seconds, seed: AIController(seat.level, seconds, seed),
    SeatKind.AGENT: lambda seat, seconds, seed: AgentController(seat.command),
    SeatKind.REMOTE: _remote,  # the LAN session makes a peer's controller
}


def controller_for(seat: Seat, seconds: float | None = None, seed: int | None = None) -> Controller:
    """The controller for a local human, a built-in bot or an outside program (LAN seats are
    made by the LAN session)."""
    return CONTROLLERS[seat.kind](seat, seconds, seed)


Submit = Callable[[Any], Any]
Forfeit = Callable[[int, Text, Termination], None]


class SeatDriver:
    """Drives the seats of a match that are not local humans, one poll at a time.

    A decided move goes to `submit` (by default the match's own play; a LAN session sends it to
    the host instead), and a failed seat to `forfeit` (by default the match's resign)."""

    def __init__(self, match: Match, controllers: list[Controller], *,
                 submit: Submit | None = None, forfeit: Forfeit | None = None):
        self.match = match
        self.controllers = controllers
        self.submit: Submit = submit or (lambda move: self.match.play(move))
        self._forfeit: Forfeit = forfeit or (lambda seat, detail, why:
                                             self.match.resign(seat, detail, why))
        self._asked: tuple[int, int] | None = None  # (ply, seat) last asked to move
        self.failure = ""  # why the last seat to fail lost, "" if none has

    def waiting_on(self) -> int | None:
        """The seat whose controller must decide now, None if the game is over or a local
        human is to move."""
        seat = self.match.to_move()
        if seat is None or self.controllers[seat].local_human:
            return None
        return seat

    def poll(self, may_ask: bool = True) -> Decision | None:
        """Ask the seat to move (once per position, and only if may_ask) and return its decision
        when it comes. A seat that fails forfeits: the match records why and None is returned."""
        seat = self.waiting_on()
        if seat is None:
            return None
        ctrl = self.controllers[seat]
        key = (len(self.match.moves), seat)
        if self._asked != key:
            if not may_ask:
                return None
            ctrl.request(self.match, seat)
            self._asked = key
        try:
            return ctrl.poll()
        except SeatFailure as exc:  # the program's own words are for its author: English
            self.forfeit(seat, Text(N_("Lost through a failure: {why}"),
                                    {"why": clean_text(str(exc), 200)}), exc.termination)
            return None

    def apply(self, move: Any) -> bool:
        """Play the decided move; a move the rules refuse forfeits the seat. True if played."""
        seat = self.match.to_move()
        if seat is None:
            return False  # the game ended while the move was on its way
        try:
            self.submit(move)
        except RulesError as exc:
            self.forfeit(seat, Text(N_("{name} played an illegal move: {why}"), {
                "name": self.match.seat_words(seat), "why": clean_text(str(exc), 200)}),
                Termination.ILLEGAL_MOVE)
            return False
        return True

    def forfeit(self, seat: int, detail: Text, termination: Termination) -> None:
        self.failure = detail.english()
        self.cancel()
        self._forfeit(seat, detail, termination)

    def cancel(self) -> None:
        """The position changed under the seats (undo, a new game, a move from elsewhere)."""
        for c in self.controllers:
            c.cancel()
        self._asked = None

    def close(self) -> None:
        for c in self.controllers:
            c.close()
