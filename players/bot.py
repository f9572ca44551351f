"""A built-in bot as a seat: it runs on a worker thread and sees only its seat's view."""

from __future__ import annotations

import random

from ai.base import DEFAULT_SECONDS, check_level
from ai.worker import AIWorker
from game.match import Match
from players.base import Controller, Decision, SeatFailure


class AIController(Controller):
    """A built-in bot on a worker thread; it sees only its seat's view."""

    def __init__(self, level: str, seconds: float | None = None, seed: int | None = None):
        self.level = check_level(level)
        self.seconds = DEFAULT_SECONDS[self.level] if seconds is None else seconds
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
