"""A tiny two-player game with a setup phase, for the agent protocol's setup messages: each
seat hides a token in one of four cells (the setup), then they take turns guessing the other's
cell; the first to find it wins. Also its bot."""

from __future__ import annotations

from dataclasses import dataclass

from ai.base import NO_KERNELS, NO_OPENING_OPTION, NO_OPENING_PLIES, no_appraisal
from game.i18n import Text
from game.rules import (
    Outcome,
    RulesError,
    Termination,
    no_reseed,
    normalize_with,
    opens_nothing_dealt,
    seats_hide_their_views,
)

ID = "hide"
TITLE = "Hide"
PLAYERS = 2
SEAT_NAMES = ("first", "second")
SEATS_NAMED_BY_TURN = False
TAGLINE = "Hide a token, find theirs."
HIDDEN = True
hides_between_seats = seats_hide_their_views
SETUP = True
CHANCE = False
UAI = False
reseed = no_reseed
opens_deal = opens_nothing_dealt
OPTIONS = ()
RULES_TEXT = "# Hide\n\nHide a token in one of four cells; find the other's first."
CELLS = 4


@dataclass(frozen=True)
class State:
    hidden: tuple = (None, None)
    guesses: tuple = ((), ())
    turn: int = 0


def normalize_options(options):
    return normalize_with(OPTIONS, options)


def new_game(options, seed):
    normalize_options(options)
    return State()


def setup_pending(state):
    return None in state.hidden


def _found(state, seat):
    return state.hidden[1 - seat] in state.guesses[seat]


def outcome(state):
    for seat in (0, 1):
        if not setup_pending(state) and _found(state, seat):
            return Outcome(seat, score(state), Termination.ALL_FOUND, Text("found it"))
    return None


def score(state):
    return tuple(int(not setup_pending(state) and _found(state, seat)) for seat in (0, 1))


def legal_moves_from_view(view, options):
    mine = view["guesses"][view["to_move"]]
    return [c for c in range(CELLS) if c not in mine]


def to_move(state):
    return None if outcome(state) else state.turn


def legal_moves(state):
    if outcome(state):
        return []
    if setup_pending(state):
        return list(range(CELLS))
    return [c for c in range(CELLS) if c not in state.guesses[state.turn]]


def apply(state, move):
    if move not in legal_moves(state):
        raise RulesError(f"{move!r} is not a cell left to choose")
    seat = state.turn
    if setup_pending(state):
        hidden = tuple(move if s == seat else h for s, h in enumerate(state.hidden))
        return State(hidden, state.guesses, 1 - seat)
    guesses = tuple(g + (move,) if s == seat else g for s, g in enumerate(state.guesses))
    return State(state.hidden, guesses, 1 - seat)


def view(state, seat):
    v = {"guesses": [list(g) for g in state.guesses], "to_move": state.turn}
    if seat is None:
        v["hidden"] = list(state.hidden)
    else:
        v["mine"] = state.hidden[seat]
    return v


def move_to_wire(move):
    return move


def move_from_wire(wire):
    if type(wire) is not int:
        raise RulesError(f"a cell is a whole number, not {wire!r}")
    return wire


OPENING_OPTION = NO_OPENING_OPTION  # the bot contract (ai.base.Bot)
OPENING_PLIES = NO_OPENING_PLIES
KERNELS = NO_KERNELS
appraise = no_appraisal


def choose(view, legal, budget, level, rng):
    return rng.choice(legal)


def choose_setup(view, budget, level, rng):
    return rng.randrange(CELLS)
