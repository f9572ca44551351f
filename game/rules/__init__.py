"""The rules contract every game module in this package follows.

A rules module (``game/rules/<id>.py``) is pure: no pygame, no I/O, no threads. It defines

    ID: str                      the game id ("ataxx", ...)
    TITLE: str                   the name shown to players
    PLAYERS: int                 1 or 2
    SEAT_NAMES: tuple[str, ...]  what each seat is called ("x", "o"; "red", "blue"; ...)
    HIDDEN: bool                 whether a seat's view hides something
    OPTIONS: tuple[Option, ...]  the choices the setup scene offers
    RULES_TEXT: str              the rules page, paragraphs separated by blank lines

    normalize_options(options: dict | None) -> dict     defaults filled in; RulesError if bad
    new_game(options: dict | None, seed: int) -> State
    to_move(state) -> int | None                        None once the game is over
    legal_moves(state) -> list[Move]
    apply(state, move) -> State                         a new state; RulesError if illegal
    outcome(state) -> Outcome | None                    None while the game runs
    view(state, seat: int | None) -> dict               what that seat may know (PROTOCOL.md
                                                        VIEW); seat None is the whole truth,
                                                        for replays and tests, never for a bot
    move_to_wire(move) -> wire; move_from_wire(wire) -> Move   (RulesError on a bad value)

and, where the game needs it,

    SETUP: bool = False          a setup phase: while setup_pending(state) the seat to_move
                                 gives a setup value (PROTOCOL.md SETUP) as its move
    reseed(state, seed) -> State redraw what is still unrevealed (used by undo so that taking
                                 a move back never reveals hidden chance for free)

States are values: equal states compare equal and hash alike. Moves are their wire values
(small JSON/msgpack-safe values), so a move needs no translation on its way to a file, a peer
or an agent; move_from_wire only checks its shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class RulesError(ValueError):
    """A malformed or illegal move, option or text form. Nothing was changed."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning seat (None for a draw), the score per seat, and why."""

    winner: int | None
    score: tuple[int, ...]
    reason: str = ""


@dataclass(frozen=True)
class Option:
    """One setup choice: a key in the options dict, its label and the values offered."""

    key: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    default: Any
    help: str = field(default="", compare=False)

    def check(self, value: Any) -> Any:
        """Return value if it is one of the choices, else raise RulesError."""
        for choice, _ in self.choices:
            if value == choice and type(value) is type(choice):
                return value
        raise RulesError(f"option {self.key!r}: {value!r} is not one of "
                         f"{[c for c, _ in self.choices]}")


def normalize_with(options_spec: tuple[Option, ...], options: dict | None) -> dict:
    """Fill in defaults and check every value against its Option; unknown keys are refused."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RulesError(f"options must be a mapping, not {type(options).__name__}")
    known = {o.key: o for o in options_spec}
    for key in options:
        if key not in known:
            raise RulesError(f"unknown option {key!r}")
    return {o.key: o.check(options.get(o.key, o.default)) for o in options_spec}
