"""The seat-controller interface: who chooses a seat's moves, asked without blocking the loop.

    controller.request(match, seat)   the seat is to move: start choosing
    controller.poll() -> Decision | None   each frame, until a decision comes
    controller.cancel()               the position changed (undo, new game, quit)
    controller.close()                the match is over or left
A local human's moves come from the board instead, so HumanController never decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.match import Match
from game.rules import Termination


class SeatFailure(Exception):
    """A seat that cannot go on (an outside program died, lied or timed out): it loses."""

    def __init__(self, message: str, termination: Termination = Termination.FAILURE):
        super().__init__(message)
        self.termination = termination


@dataclass
class Decision:
    move: Any


class Controller:
    """The interface; also what a seat whose moves come from elsewhere uses."""

    local_human = False

    def request(self, match: Match, seat: int) -> None:
        """Begin choosing a move (or a setup, while match.setup_pending()) for seat."""

    def poll(self) -> Decision | None:
        """The decision once made; raises SeatFailure if the seat failed."""
        return None

    def cancel(self) -> None:
        """Forget the request in progress."""

    def close(self) -> None:
        """The match is over or left: cancel and let go of what the controller holds."""
        self.cancel()

    def wait_closed(self, timeout: float = 5.0) -> None:
        """Block until close() has released everything (processes, threads); tools only."""

    @property
    def thinking(self) -> bool:
        """Whether a request is being worked on now (for the status line)."""
        return False


class HumanController(Controller):
    """A person at this computer: the board turns their input into moves."""

    local_human = True
