"""What every bot shares: levels, the time budget, and the one entry point that picks a bot."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

LEVELS = ("random", "easy", "normal", "hard")
LEVEL_TITLES = {"random": "Random", "easy": "Easy", "normal": "Normal", "hard": "Hard"}
# Seconds a move at each level, unless the player's settings say otherwise.
DEFAULT_SECONDS = {"random": 0.0, "easy": 0.25, "normal": 0.5, "hard": 1.0}


class Budget:
    """A deadline a search must answer by, and a flag that cancels it early."""

    def __init__(self, seconds: float, cancel: threading.Event | None = None):
        self.seconds = max(0.0, float(seconds))
        self.start = time.monotonic()
        self.deadline = self.start + self.seconds
        self.cancel = cancel if cancel is not None else threading.Event()

    def expired(self) -> bool:
        return self.cancel.is_set() or time.monotonic() >= self.deadline

    def remaining(self) -> float:
        return 0.0 if self.cancel.is_set() else max(0.0, self.deadline - time.monotonic())

    def elapsed(self) -> float:
        return time.monotonic() - self.start


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return level


def bot_module(game_id: str):
    from game import registry
    return registry.get(game_id).ai_module()


def decide(game_id: str, view: dict, legal: list, level: str, budget: Budget,
           rng: random.Random) -> Any:
    """The move the built-in bot of this game and level plays from this view."""
    check_level(level)
    if level == "random" and legal:
        return rng.choice(legal)
    return bot_module(game_id).choose(view, legal, budget, level, rng)


def decide_setup(game_id: str, view: dict, level: str, budget: Budget,
                 rng: random.Random) -> Any:
    """The setup (for games with a setup phase) the built-in bot chooses."""
    check_level(level)
    return bot_module(game_id).choose_setup(view, budget, level, rng)
