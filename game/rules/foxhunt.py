"""Fox Hunt, the hidden-fox puzzle of the programmable calculators (docs/protocol.md "foxhunt").

Foxes hide on a size x size field, drawn from the seed. Probing a square without a fox answers
how many foxes lie on its row, its column and both its diagonals (the square itself excluded,
each fox counted once); probing a fox finds it. The game ends when every fox is found; the
score is the number of probes, fewer being better. Cells are numbered row * size + col.
"""

from __future__ import annotations

import random
from functools import cache
from typing import NamedTuple

from game.i18n import N_, Text
from game.rules import (
    Option,
    Outcome,
    RulesError,
    Termination,
    no_reseed,
    no_setup_pending,
    normalize_with,
    opens_nothing_dealt,
    seats_hide_their_views,
)

ID = "foxhunt"
TITLE = "Fox Hunt"
TAGLINE = "Find the hidden foxes in few probes."
PLAYERS = 1
SEAT_NAMES: tuple[str, ...] = ("hunter",)
SEATS_NAMED_BY_TURN = False
HIDDEN = True
hides_between_seats = seats_hide_their_views
SETUP = False
CHANCE = False  # the field is fixed by the seed; a probe's answer, once seen, stays true
UAI = False
setup_pending = no_setup_pending
opens_deal = opens_nothing_dealt  # the field is fixed by the seed: a probe answers the truth
reseed = no_reseed
FOX = "fox"
FIELDS = {10: 8, 8: 5}  # size -> foxes
OPTIONS: tuple[Option, ...] = (
    Option("size", "Field", ((10, "10 × 10, 8 foxes"), (8, "8 × 8, 5 foxes")), 10),
)

RULES_TEXT = """
# Goal
Foxes hide on the field: eight on the 10 × 10 field, five on the 8 × 8 one. Find them all with as
few probes as you can.

# Probing
Choose a square you have not probed. If a fox hides there, you have found it. If not, the
square shows how many foxes lie on its row, its column and both its diagonals, all together
(the square itself is not counted).

# The end
The hunt ends when the last fox is found. Your score is the number of probes: lower is better.
A found fox still counts in the numbers of the squares you probe later.

# Hint
The hint shows, for every square, the chance that a fox hides there given every answer you
have seen, and autoplay probes for you. It knows only what you know.
"""


class State(NamedTuple):
    size: int
    foxes: frozenset[int]
    probes: tuple[tuple[int, int | str], ...]  # (cell, count or "fox") in the order made


@cache
def sight(size: int, cell: int) -> frozenset[int]:
    """The squares on a cell's row, column and both diagonals, the cell itself excluded."""
    r, c = divmod(cell, size)
    seen = set()
    for other in range(size * size):
        orow, ocol = divmod(other, size)
        if other != cell and (orow == r or ocol == c or orow - ocol == r - c
                              or orow + ocol == r + c):
            seen.add(other)
    return frozenset(seen)


def normalize_options(options: dict | None) -> dict:
    """{"size", "foxes"}: the field's size chooses its foxes; "foxes" may be given
    (docs/protocol.md writes it) but must agree."""
    given = dict(options or {}) if isinstance(options, dict) else options
    foxes = given.pop("foxes", None) if isinstance(given, dict) else None
    out = normalize_with(OPTIONS, given)
    out["foxes"] = FIELDS[out["size"]]
    if foxes is not None and foxes != out["foxes"]:
        raise RulesError(f"a {out['size']}x{out['size']} field hides {out['foxes']} foxes, "
                         f"not {foxes!r}")
    return out


def new_game(options: dict | None = None, seed: int = 0) -> State:
    size = normalize_options(options)["size"]
    foxes = random.Random(seed).sample(range(size * size), FIELDS[size])
    return State(size, frozenset(foxes), ())


def answer(state: State, cell: int) -> int | str:
    """What probing cell shows: "fox", or the foxes in its sight."""
    if cell in state.foxes:
        return FOX
    return len(sight(state.size, cell) & state.foxes)


def found(state: State) -> int:
    return sum(1 for _, a in state.probes if a == FOX)


def to_move(state: State) -> int | None:
    return None if found(state) == len(state.foxes) else 0


def legal_moves(state: State) -> list[int]:
    if to_move(state) is None:
        return []
    probed = {cell for cell, _ in state.probes}
    return [cell for cell in range(state.size * state.size) if cell not in probed]


def apply(state: State, move: int) -> State:
    cell = move_from_wire(move)
    if to_move(state) is None:
        raise RulesError("every fox is found")
    if not 0 <= cell < state.size * state.size:
        raise RulesError(f"cell {cell} is off the {state.size}x{state.size} field")
    if any(c == cell for c, _ in state.probes):
        raise RulesError(f"cell {cell} was probed already")
    return state._replace(probes=state.probes + ((cell, answer(state, cell)),))


def score(state: State) -> tuple[int]:
    """Probes made (fewer is better)."""
    return (len(state.probes),)


def outcome(state: State) -> Outcome | None:
    if to_move(state) is not None:
        return None
    n = len(state.probes)
    return Outcome(0, (n,), Termination.ALL_FOUND, Text(N_("every fox found in {n} probes"),
                                                          {"n": n}))


def view(state: State, seat: int | None) -> dict:
    """docs/protocol.md VIEW; the whole truth (seat None) adds where the foxes are."""
    v = {"size": state.size, "foxes": len(state.foxes),
         "probes": [[cell, a] for cell, a in state.probes]}
    if seat is None:
        v["fox_cells"] = sorted(state.foxes)
    return v


def parse_view(view: dict) -> tuple[int, int, list[tuple[int, int | str]]]:
    """(size, foxes, probes) of a view, checked; the one reader of the view's text form."""
    try:
        size, foxes, probes = view["size"], view["foxes"], view["probes"]
        if size not in FIELDS or foxes != FIELDS[size] or not isinstance(probes, list):
            raise ValueError("bad size, foxes or probes")
        out = []
        for cell, a in probes:
            if type(cell) is not int or not 0 <= cell < size * size:
                raise ValueError(f"bad cell {cell!r}")
            if a != FOX and (type(a) is not int or not 0 <= a <= foxes):
                raise ValueError(f"bad answer {a!r}")
            out.append((cell, a))
    except (KeyError, TypeError, ValueError) as exc:
        raise RulesError(f"not a foxhunt view: {exc}") from exc
    return size, foxes, out


def legal_moves_from_view(view: dict, options: dict) -> list[int]:
    size, foxes, probes = parse_view(view)
    if sum(1 for _, a in probes if a == FOX) == foxes:
        return []
    probed = {cell for cell, _ in probes}
    return [cell for cell in range(size * size) if cell not in probed]


def move_to_wire(move: int) -> int:
    return move


def move_from_wire(wire) -> int:
    if type(wire) is not int:
        raise RulesError(f"a Fox Hunt move is a cell number, not {wire!r}")
    return wire
