"""Seat controllers: who chooses the moves of a seat, asked without ever blocking the loop.

The play scene, the demo and the arena drive every seat the same way:
    controller.request(match, seat)   the seat is to move: start choosing
    controller.poll() -> Decision | None   each frame, until a decision comes
    controller.cancel()               the position changed (undo, new game, quit)
    controller.close()                the match is over or left
A local human's moves come from the board instead, so HumanController never decides.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ai.base import DEFAULT_SECONDS
from ai.worker import AIWorker
from game.match import Match, Seat


class SeatFailure(Exception):
    """A seat that cannot go on (an outside program died, lied or timed out): it loses."""


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
        self.cancel()


class HumanController(Controller):
    """A person at this computer: the board turns their input into moves."""

    local_human = True


class AIController(Controller):
    """A built-in bot on a worker thread; it sees only its seat's view."""

    def __init__(self, level: str, seconds: float | None = None, seed: int | None = None):
        self.level = level
        self.seconds = DEFAULT_SECONDS[level] if seconds is None else seconds
        self.rng = random.Random(seed)
        self.worker = AIWorker()

    def request(self, match: Match, seat: int) -> None:
        view = match.view(seat)
        if match.setup_pending():
            self.worker.request_setup(match.game_id, view, self.level, self.seconds, self.rng)
        else:
            self.worker.request_move(match.game_id, view, match.legal_moves(), self.level,
                                     self.seconds, self.rng)

    def poll(self) -> Decision | None:
        done = self.worker.poll()
        if done is None:
            return None
        if done.error is not None:
            raise SeatFailure(f"the {self.level} bot failed: {done.error!r}") from done.error
        return Decision(done.value)

    def cancel(self) -> None:
        self.worker.cancel()

    @property
    def thinking(self) -> bool:
        return self.worker.busy


def controller_for(seat: Seat, seconds: float | None = None, seed: int | None = None) -> Controller:
    """The controller for a local human or a built-in bot (remote and agent seats are made by
    the LAN session and ai.agent_host)."""
    if seat.kind == "human":
        return HumanController()
    if seat.kind == "ai":
        return AIController(seat.level, seconds, seed)
    if seat.kind == "agent":
        from ai.agent_host import AgentController  # imported late: written for issue 9
        return AgentController(seat.command)
    if seat.kind == "remote":
        raise ValueError("this game was played over the LAN; it goes on only there")
    raise ValueError(f"no local controller for a {seat.kind} seat")


def play_out(match: Match, controllers: list[Controller], poll_interval: float = 0.002,
             on_move=None) -> None:
    """Drive a match with no window until it ends (demo --headless, arena, tests).

    A seat that fails (SeatFailure, or a move the rules refuse) resigns: the other seat wins.
    on_move(match, seat, move) is called after every move.
    """
    import time

    from game.rules import RulesError
    try:
        while not match.over:
            seat = match.to_move()
            ctrl = controllers[seat]
            ctrl.request(match, seat)
            decision = None
            while decision is None:
                try:
                    decision = ctrl.poll()
                except SeatFailure as exc:
                    match.resign(seat, str(exc))
                    break
                if decision is None:
                    time.sleep(poll_interval)
            if decision is None:
                break
            try:
                match.play(decision.move)
            except RulesError as exc:
                match.resign(seat, f"{match.seat_title(seat)} played an illegal move: {exc}")
                break
            if on_move is not None:
                on_move(match, seat, decision.move)
    finally:
        for c in controllers:
            c.close()
