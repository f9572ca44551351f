"""Race for three: the test game with three seats, for what the match must not assume about
the number of players (taking turns in order; whoever takes the last counter wins)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from game.i18n import Text
from game.rules import Outcome, RulesError, Termination
from tests.fakes.race import (  # noqa: F401 - the rest of the contract is race's
    CHANCE,
    HIDDEN,
    KERNELS,
    OPENING_OPTION,
    OPENING_PLIES,
    OPTIONS,
    SETUP,
    UAI,
    Board,
    appraise,
    choose,
    choose_setup,
    hides_between_seats,
    legal_moves_from_view,
    move_from_wire,
    move_to_wire,
    normalize_options,
    setup_pending,
)

ID = "trio"
TITLE = "Race for three"
TAGLINE = "Take the last counter, three at the table."
PLAYERS = 3
SEAT_NAMES = ("first", "second", "third")
SEATS_NAMED_BY_TURN = False
RULES_TEXT = "# Race for three\n\nTake one, two or three counters in turn."


@dataclass(frozen=True)
class State:
    pile: int
    turn: int
    coin: int
    taken: tuple[int, int, int] = (0, 0, 0)


def new_game(options, seed):
    return State(normalize_options(options)["pile"], 0, random.Random(seed).randint(0, 99))


def to_move(state):
    return None if state.pile == 0 else state.turn


def legal_moves(state):
    return [n for n in (1, 2, 3) if n <= state.pile] if state.pile else []


def apply(state, move):
    if move not in legal_moves(state):
        raise RulesError(f"cannot take {move!r} from a pile of {state.pile}")
    taken = list(state.taken)
    taken[state.turn] += move
    return State(state.pile - move, (state.turn + 1) % 3, state.coin, tuple(taken))


def outcome(state):
    if state.pile:
        return None
    return Outcome((state.turn - 1) % 3, state.taken, Termination.SCORE,
                   Text("took the last counter"))


def score(state):
    return state.taken


def view(state, seat):
    v = {"pile": state.pile, "to_move": state.turn, "score": list(state.taken)}
    if seat is None:
        v["coin"] = state.coin
    return v


def reseed(state, seed):
    return State(state.pile, state.turn, random.Random(seed).randint(0, 99), state.taken)
