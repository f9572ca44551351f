"""The rules contract every game module in this package follows, declared as `Rules` below.

A rules module (``game/rules/<id>.py``) is pure: no pygame, no I/O, no threads. States are
values: equal states compare equal and hash alike. Moves are their wire values (small
JSON/msgpack-safe values), so a move needs no translation on its way to a file, a peer or an
agent; move_from_wire only checks its shape. Chance comes from the seed carried in the state,
so a game replays bit for bit from (options, seed, moves, reseeds).

Optional capabilities are declared values, never probed: a game without a setup phase or
without hidden chance takes `no_setup_pending`, `no_reseed` and `opens_nothing_dealt` from
here (SETUP = False, CHANCE = False), the defaults' one place.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from game.i18n import Text


class RulesError(ValueError):
    """A malformed or illegal move, option or text form. Nothing was changed. Its str() is
    English; `text`, where one is given, says it in the player's language."""

    text: Text | None = None


class Termination(enum.Enum):
    """Why a game ended, in the manner of python-chess's Termination."""

    SCORE = "score"  # the natural end, decided by the score (boxes, stones, tiles)
    NO_PIECES = "no pieces"  # a side lost its last piece or stone
    NO_MOVES = "no moves"  # the side to move has no legal move
    ALL_FOUND = "all found"  # every hidden thing was found (planes' heads)
    TARGET = "target"  # the goal was reached or can no longer be (2048's tile)
    MOVE_LIMIT = "move limit"  # too many moves without progress
    REPETITION = "repetition"  # the same position too often
    RESIGNATION = "resignation"
    AGREED_DRAW = "agreed draw"
    TIME = "time"  # a seat did not answer in time
    ILLEGAL_MOVE = "illegal move"  # a seat played a move the rules refuse
    FAILURE = "failure"  # a seat's program failed (died, lied, flooded)
    DISCONNECT = "disconnect"  # the other player's link was lost and the game claimed

    @property
    def text(self) -> str:
        return _TEXTS[self]


_TEXTS = {
    Termination.SCORE: "game over", Termination.NO_PIECES: "no pieces left",
    Termination.NO_MOVES: "no legal move", Termination.ALL_FOUND: "everything found",
    Termination.TARGET: "target reached", Termination.MOVE_LIMIT: "move limit reached",
    Termination.REPETITION: "position repeated", Termination.RESIGNATION: "resigned",
    Termination.AGREED_DRAW: "draw agreed", Termination.TIME: "out of time",
    Termination.ILLEGAL_MOVE: "illegal move", Termination.FAILURE: "a program failed",
    Termination.DISCONNECT: "the loser left",
}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning seat (None for a draw, or a one-player game not won), the
    real score per seat, why it ended, and the words that say so for this game."""

    winner: int | None
    score: tuple[int, ...]
    termination: Termination
    detail: Text | None = None

    @property
    def words(self) -> Text:
        """Why it ended, as data: the game's own words, else the Termination's."""
        return self.detail or Text(self.termination.text)

    @property
    def reason(self) -> str:
        """Why it ended, in English (logs, --headless lines, the arena)."""
        return self.words.english()


@dataclass(frozen=True)
class Option:
    """One setup choice: a key in the options dict, its label and the values offered."""

    key: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    default: Any

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


def no_setup_pending(state: Any) -> bool:
    """The default for games without a setup phase (SETUP = False)."""
    return False


def seats_hide_nothing(options: dict) -> bool:
    """The default for games whose seats see the same (HIDDEN = False, or hidden from all)."""
    return False


def seats_hide_their_views(options: dict) -> bool:
    """For games where each seat's view hides something from the other seat."""
    return True


def no_reseed(state: Any, seed: int) -> Any:
    """The default for games without hidden chance (CHANCE = False): nothing to redraw."""
    return state


def opens_nothing_dealt(state: Any, move: Any) -> bool:
    """The default for games that deal nothing face down: no move turns up a hidden deal."""
    return False


@runtime_checkable
class Rules(Protocol):
    """What a game's rules module provides. The contract test checks every registered game."""

    ID: str
    TITLE: str  # the name shown to players
    TAGLINE: str  # one short line for the title menu
    PLAYERS: int  # 1 or 2
    SEAT_NAMES: tuple[str, ...]  # what each seat is called ("x", "o"; "red", "blue")
    SEATS_NAMED_BY_TURN: bool  # the seat names say who moves first ("first", "second")
    HIDDEN: bool  # whether a seat's view hides something
    SETUP: bool  # a setup phase: while setup_pending(state) the seat to move gives a setup
    CHANCE: bool  # unrevealed chance that undo redraws with reseed (so undo reveals nothing)
    UAI: bool  # the game speaks UAI (a FEN view), so UAI engines can take a seat
    OPTIONS: tuple[Option, ...]  # the choices the setup scene offers
    RULES_TEXT: str  # the rules page, paragraphs separated by blank lines

    def normalize_options(self, options: dict | None) -> dict:
        """Defaults filled in; RulesError if bad."""

    def new_game(self, options: dict | None, seed: int) -> Any: ...

    def to_move(self, state: Any) -> int | None:
        """The seat to move; None once the game is over."""

    def legal_moves(self, state: Any) -> list: ...

    def apply(self, state: Any, move: Any) -> Any:
        """A new state; RulesError if the move is illegal."""

    def score(self, state: Any) -> tuple[int, ...]:
        """The score per seat now, mid-game included."""

    def outcome(self, state: Any) -> Outcome | None:
        """None while the game runs."""

    def view(self, state: Any, seat: int | None) -> dict:
        """What that seat may know (docs/protocol.md); None is the whole truth, never a bot's."""

    def legal_moves_from_view(self, view: dict, options: dict) -> list:
        """The legal moves of the seat to move, from its view alone."""

    def move_to_wire(self, move: Any) -> Any: ...

    def move_from_wire(self, wire: Any) -> Any:
        """The move from its wire value; RulesError on a bad value."""

    def setup_pending(self, state: Any) -> bool: ...

    def reseed(self, state: Any, seed: int) -> Any:
        """The state with what is still unrevealed drawn again from seed."""

    def opens_deal(self, state: Any, move: Any) -> bool:
        """Whether the move turns up chance dealt face down and not known before (a Banqi flip
        while two kinds of piece are left face down). Such a result was never part of a game
        that did not play the move, and a record's deal under squares never opened may be a
        stand-in (a LAN deal neither side knew): the review shows such a move unopened."""

    def hides_between_seats(self, options: dict) -> bool:
        """Whether, with these options, one seat's view hides something from the other (then
        two people at one computer hand it over between turns)."""


def rules_members() -> Sequence[str]:
    """Every member name the contract declares (for the contract test)."""
    return [n for n in Rules.__annotations__] + [
        n for n, v in vars(Rules).items() if callable(v) and not n.startswith("_")]
