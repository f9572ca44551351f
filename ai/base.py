"""What every bot shares: levels, the time budget and its one deadline exception, the bot
contract (`Bot`) with its defaults, and the one entry point that picks a bot. `Appraisal` is
what a bot says of a position when asked to judge it rather than play it (the review)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, runtime_checkable

from ai.compiled import Kernel
from game import registry
from game.match import Level

LEVELS = tuple(Level)  # weakest first, as menus offer them
LEVEL_TITLES = {Level.RANDOM: "Random", Level.EASY: "Easy", Level.NORMAL: "Normal",
                Level.HARD: "Hard"}
# Seconds a move at each level, unless the player's settings say otherwise.
DEFAULT_SECONDS = {Level.RANDOM: 0.0, Level.EASY: 0.25, Level.NORMAL: 0.5, Level.HARD: 1.0}


class Deadline(Exception):
    """A search ran out of time (or was cancelled): raised by Budget.check()."""


class CancelFlag(Protocol):
    """What cancels a search early: a threading.Event, or the bot process's shared generation
    (ai/worker.py)."""

    def is_set(self) -> bool: ...

    def set(self) -> None: ...


ANSWER_RESERVE_S = 0.025  # the answer's way back: to the loop and its frame, or down a pipe


def answer_reserve(seconds: float) -> float:
    """The part of a move's time kept for its answer's way back (a tenth of a short one)."""
    return min(ANSWER_RESERVE_S, seconds / 10)


class Budget:
    """A deadline a search must answer by, and a flag that cancels it early."""

    def __init__(self, seconds: float, cancel: CancelFlag | None = None,
                 now: Callable[[], float] = time.monotonic):
        self.seconds = max(0.0, float(seconds))
        self.now = now  # the clock the deadline is read on (tests move their own)
        self.deadline = now() + self.seconds
        self.cancel: CancelFlag = cancel if cancel is not None else threading.Event()

    def expired(self) -> bool:
        return self.cancel.is_set() or self.now() >= self.deadline

    def check(self) -> None:
        """Raise Deadline once the budget has expired."""
        if self.expired():
            raise Deadline

    def remaining(self) -> float:
        return 0.0 if self.cancel.is_set() else max(0.0, self.deadline - self.now())

    def sub(self, seconds: float) -> Budget:
        """A budget of `seconds` from now for part of the work (math.inf: only the cancel ends
        it), on this budget's clock and cancelled with it: the one way to derive a budget."""
        return Budget(seconds, self.cancel, self.now)

    def share(self, fraction: float) -> Budget:
        """sub() of `fraction` of the time left."""
        return self.sub(self.remaining() * fraction)


@runtime_checkable
class Bot(Protocol):
    """What a game's bot module (ai/<id>.py) provides. The contract test checks every game."""

    # An option whose every value starts a pair of arena games (None: the options as given).
    OPENING_OPTION: str | None
    # Random plies played after the first round of arena openings (0: none).
    OPENING_PLIES: int
    # The compiled searches the bot runs (NO_KERNELS: none): a review loads them before its
    # first position's time starts, not in it.
    KERNELS: tuple[Kernel, ...]

    def choose(self, view: dict, legal: list, budget: Budget, level: Level,
               rng: random.Random) -> Any:
        """The move to play from this view, legal one of `legal` (rebuilt from the view if
        empty), the best found before budget.expired()."""

    def choose_setup(self, view: dict, budget: Budget, level: Level, rng: random.Random) -> Any:
        """The setup to give while the game's setup phase is pending (SETUP games)."""

    def appraise(self, view: dict, moves: list, budget: Budget, limit: int) -> Appraisal:
        """Hard's judgement of this view for the seat to move: its expected result with best
        play, the expected result of each of `moves` (wire values), the best move and the line
        after it. `limit` bounds the search in the bot's own unit (0: only the budget), so a
        judgement can be made the same on every machine."""


@dataclass(frozen=True)
class Appraisal:
    """A position judged from the mover's view (docs/review.md). Values are the mover's expected
    result: a win chance in [0, 1] (a draw counts a half) in two-player games; in one-player
    games the game's own measure, named by `unit`, with `better` -1 where less is better.
    `scores[i]` is the value of `moves[i]` as asked; `details` adds figures per asked move
    (a shot's chance of a head), `figures` figures of the position (layouts left). Where the
    position is solved, moves that keep the same result have the same value: `given[i]` is
    then the share of the game's points `moves[i]` gives up against the best (empty: no such
    measure), which the review marks as it marks a fall in value."""

    value: float
    scores: tuple[float, ...]
    best: Any
    line: tuple = ()
    exact: bool = False
    details: tuple[dict, ...] = ()
    figures: dict = field(default_factory=dict)
    unit: str = "win chance"
    better: int = 1
    given: tuple[float, ...] = ()


# The defaults a bot module assigns when the game has no use for the member.
NO_OPENING_OPTION: str | None = None
NO_OPENING_PLIES = 0
NO_KERNELS: tuple[Kernel, ...] = ()


def no_setup(view: dict, budget: Budget, level: str, rng: random.Random) -> Any:
    """choose_setup of a game without a setup phase (its rules say SETUP = False)."""
    raise ValueError("this game has no setup phase")


def no_appraisal(view: dict, moves: list, budget: Budget, limit: int) -> Appraisal:
    """appraise of a bot that cannot judge positions (test games)."""
    raise ValueError("this game's bot cannot judge positions")


def bot_members() -> Sequence[str]:
    """Every member name the bot contract declares (for the contract test)."""
    return [n for n in Bot.__annotations__] + [
        n for n, v in vars(Bot).items() if callable(v) and not n.startswith("_")]


def check_level(level: str) -> Level:
    """The level named `level` (a Level is its own name); ValueError if there is none."""
    try:
        return Level(level)
    except ValueError:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}") from None


def bot_module(game_id: str) -> Bot:
    """The game's bot module (ai/<id>.py), which keeps the `Bot` contract."""
    return cast(Bot, registry.get(game_id).ai_module())


def opening_plan(game_id: str) -> tuple[str | None, int]:
    """How the arena varies the openings of this game: (the option whose every value starts a
    pair of games, or None; the random plies after the first round, 0 for none)."""
    bot = bot_module(game_id)
    return bot.OPENING_OPTION, bot.OPENING_PLIES


def ask_bot(bot: Bot, setup: bool, view: dict, legal: list, level: str, budget: Budget,
            rng: random.Random) -> Any:
    """What this bot module plays from this view at this level: a setup, or a move (a random
    one at the random level)."""
    level = check_level(level)
    if setup:
        return bot.choose_setup(view, budget, level, rng)
    if level is Level.RANDOM and legal:
        return rng.choice(legal)
    return bot.choose(view, legal, budget, level, rng)


def decide(game_id: str, view: dict, legal: list, level: str, budget: Budget,
           rng: random.Random) -> Any:
    """The move the built-in bot of this game and level plays from this view."""
    return ask_bot(bot_module(game_id), False, view, legal, level, budget, rng)


def decide_setup(game_id: str, view: dict, level: str, budget: Budget,
                 rng: random.Random) -> Any:
    """The setup (for games with a setup phase) the built-in bot chooses."""
    return ask_bot(bot_module(game_id), True, view, [], level, budget, rng)
