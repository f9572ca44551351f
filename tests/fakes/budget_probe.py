"""A bot that answers with the time its budget leaves it (tests/test_worker.py)."""

import random

from ai.base import Budget


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> float:
    return budget.remaining()
