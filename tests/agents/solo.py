"""A tiny one-player game with chance for the arena's single-player path: add 1 or 2 to a
total until it passes a target drawn from the seed; the score is the total, so adding 2 scores
higher. Also its bot: level hard adds 2, others add at random."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ai.base import NO_KERNELS, NO_OPENING_OPTION, NO_OPENING_PLIES, no_appraisal, no_setup
from game.i18n import Text
from game.rules import (
    Outcome,
    RulesError,
    Termination,
    no_reseed,
    no_setup_pending,
    normalize_with,
    opens_nothing_dealt,
    seats_hide_nothing,
)

ID = "solo"
TITLE = "Solo"
PLAYERS = 1
SEAT_NAMES = ("player",)
SEATS_NAMED_BY_TURN = False
TAGLINE = "Pass the target."
HIDDEN = False
hides_between_seats = seats_hide_nothing
SETUP = False
CHANCE = False
UAI = False
setup_pending = no_setup_pending
reseed = no_reseed
opens_deal = opens_nothing_dealt
OPTIONS = ()
RULES_TEXT = "# Solo\n\nAdd one or two until the total passes the target."


@dataclass(frozen=True)
class State:
    target: int
    total: int = 0


def normalize_options(options):
    return normalize_with(OPTIONS, options)


def new_game(options, seed):
    return State(random.Random(seed).randint(5, 9))


def to_move(state):
    return None if state.total > state.target else 0


def legal_moves(state):
    return [] if state.total > state.target else [1, 2]


def apply(state, move):
    if move not in legal_moves(state):
        raise RulesError(f"cannot add {move!r}")
    return State(state.target, state.total + move)


def outcome(state):
    if state.total <= state.target:
        return None
    return Outcome(0, score(state), Termination.TARGET, Text("passed the target"))


def score(state):
    return (state.total,)


def view(state, seat):
    return {"target": state.target, "total": state.total, "score": state.total}


def move_to_wire(move):
    return move


def move_from_wire(wire):
    if type(wire) is not int:
        raise RulesError(f"a move is a whole number, not {wire!r}")
    return wire


OPENING_OPTION = NO_OPENING_OPTION  # the bot contract (ai.base.Bot)
OPENING_PLIES = NO_OPENING_PLIES
KERNELS = NO_KERNELS
appraise = no_appraisal
choose_setup = no_setup


def choose(view, legal, budget, level, rng):
    return 2 if level == "hard" else rng.choice(legal)


def legal_moves_from_view(view, options):
    return [] if view["total"] > view["target"] else [1, 2]
