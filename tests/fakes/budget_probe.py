"""A bot that answers with the time its budget leaves it (tests/test_worker.py)."""

import random

from ai.base import Budget


class FixedClock:
    """A clock that stands still, picklable to the bot process."""

    def __init__(self, t: float):
        self.t = t

    def __call__(self) -> float:
        return self.t


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> float:
    return budget.remaining()
