"""A tiny two-player game for testing the arcade's core without a real game: take 1-3 counters
from a pile; whoever takes the last one wins. A hidden 'coin' drawn from the seed stands in for
hidden chance (reseed redraws it), and seat views hide it, so hand-over and undo rules can be
tested."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import pygame

from ai.base import NO_KERNELS, NO_OPENING_OPTION, NO_OPENING_PLIES, no_appraisal, no_setup
from client.boards.base import BoardBase
from game.i18n import Text
from game.rules import (
    Option,
    Outcome,
    RulesError,
    Termination,
    no_setup_pending,
    normalize_with,
    opens_nothing_dealt,
    seats_hide_their_views,
)

ID = "race"
TITLE = "Race to the last"
TAGLINE = "Take the last counter."
PLAYERS = 2
SEAT_NAMES = ("first", "second")
SEATS_NAMED_BY_TURN = False
HIDDEN = True
hides_between_seats = seats_hide_their_views
SETUP = False
CHANCE = True
UAI = False
setup_pending = no_setup_pending
opens_deal = opens_nothing_dealt
OPTIONS = (Option("pile", "Pile", ((5, "5"), (7, "7"), (9, "9")), 7),)
RULES_TEXT = "# Race\n\nTake one, two or three counters. Whoever takes the last one wins."


@dataclass(frozen=True)
class State:
    pile: int
    turn: int
    coin: int
    taken: tuple[int, int] = (0, 0)


def normalize_options(options):
    return normalize_with(OPTIONS, options)


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
    return State(state.pile - move, 1 - state.turn, state.coin, tuple(taken))


def outcome(state):
    if state.pile:
        return None
    return Outcome(1 - state.turn, state.taken, Termination.SCORE, Text("took the last counter"))


def score(state):
    return state.taken


def legal_moves_from_view(view, options):
    if not isinstance(view, dict) or type(view.get("pile")) is not int:
        raise RulesError("a race view has its 'pile'")
    return [n for n in (1, 2, 3) if n <= view["pile"]]


def view(state, seat):
    v = {"pile": state.pile, "to_move": state.turn, "score": list(state.taken)}
    if seat is None:
        v["coin"] = state.coin
    return v


def move_to_wire(move):
    return move


def move_from_wire(wire):
    if type(wire) is not int:
        raise RulesError(f"a move is a whole number, not {wire!r}")
    return wire


def reseed(state, seed):
    return replace(state, coin=random.Random(seed).randint(0, 99))


class Board(BoardBase):
    """Keys 1-3 take counters; a click takes one."""

    def handle_event(self, event):
        if event.type == pygame.KEYDOWN and event.unicode in ("1", "2", "3"):
            return int(event.unicode)
        if event.type == pygame.MOUSEBUTTONDOWN and self.rect.collidepoint(event.pos):
            return 1
        return None

    def draw(self, surface):
        from client.ui import theme
        theme.text(surface, f"pile {self.view['pile']}", self.rect.center, 40, anchor="center")

    def status(self):
        return [f"Pile: {self.view['pile']}"]


OPENING_OPTION = NO_OPENING_OPTION  # the bot contract (ai.base.Bot)
OPENING_PLIES = NO_OPENING_PLIES
KERNELS = NO_KERNELS
appraise = no_appraisal
choose_setup = no_setup


def choose(view, legal, budget, level, rng):
    """Take the pile down to a multiple of four when possible."""
    best = view["pile"] % 4
    return best if best in legal else legal[0]
