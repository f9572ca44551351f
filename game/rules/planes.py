"""炸飞机 Bomb the Planes (docs/protocol.md "planes").

Each side hides `planes` planes on a size x size grid, then the sides take turns calling cells
of the other's grid; the owner's grid answers "miss", "body" or "head". Finding every head of
the other side wins. With the "equal_turns" option, when the first player finds the last head
the second player gets its remaining shot, and a draw is possible.

The game starts with a setup phase: seat 0 and then seat 1 play a SETUP value as their move
([[head_row, head_col, "up"|"down"|"left"|"right"], ...]). For a LAN peer, whose layout stays on
the peer's computer, the setup move is the string "hidden": that layout is unknown here, and a
shot at it is played as [cell, answer] with the answer the owner gave. At the end the owner
reveals the layout, and `check_layout` says whether it agrees with every answer it gave.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from game.i18n import N_, Text
from game.rules import (
    Option,
    Outcome,
    RulesError,
    Termination,
    no_reseed,
    normalize_with,
    opens_nothing_dealt,
    seats_hide_their_views,
)

ID = "planes"
TITLE = "炸飞机 Bomb the Planes"
TAGLINE = "Find the three hidden planes first."
PLAYERS = 2
SEAT_NAMES: tuple[str, ...] = ("red", "blue")
SEATS_NAMED_BY_TURN = False
HIDDEN = True
hides_between_seats = seats_hide_their_views
SETUP = True
CHANCE = False
UAI = False
reseed = no_reseed
opens_deal = opens_nothing_dealt  # the planes are placed, not dealt; the end shows them
DIRECTIONS = ("up", "down", "left", "right")
ANSWERS = ("miss", "body", "head")
HIDDEN_LAYOUT = "hidden"
OPTIONS: tuple[Option, ...] = (
    Option("equal_turns", "Equal turns", ((False, "Off"), (True, "On")), False),
)

RULES_TEXT = """
# Goal
Find all three heads (noses) of your opponent's hidden planes before they find yours.

# Setting up
Each player hides three planes on a 10 × 10 grid. A plane is ten cells: a nose, five cells of
wings, one of body and three of tail, pointing up, down, left or right. Planes lie inside the
grid and do not overlap.

# Playing
Players take turns calling one cell of the other's grid. The answer is "miss", "body" (some
part of a plane other than its nose) or "head". Whoever has found all three heads wins.

# Equal turns (optional)
When the first player finds the last head, the second player still gets the shot that evens
the count; if that shot finds their last head too, the game is drawn.
"""


# --- geometry
def plane_cells(row: int, col: int, direction: str) -> list[tuple[int, int]]:
    """The ten cells of a plane, its head first."""
    if direction == "up":
        rel = [(0, 0)] + [(1, d) for d in range(-2, 3)] + [(2, 0)] + [(3, d) for d in (-1, 0, 1)]
    elif direction == "down":
        rel = [(0, 0)] + [(-1, d) for d in range(-2, 3)] + [(-2, 0)] + [(-3, d)
                                                                        for d in (-1, 0, 1)]
    elif direction == "left":
        rel = [(0, 0)] + [(d, 1) for d in range(-2, 3)] + [(0, 2)] + [(d, 3) for d in (-1, 0, 1)]
    elif direction == "right":
        rel = [(0, 0)] + [(d, -1) for d in range(-2, 3)] + [(0, -2)] + [(d, -3)
                                                                        for d in (-1, 0, 1)]
    else:
        raise RulesError(f"a plane points up, down, left or right, not {direction!r}")
    return [(row + dr, col + dc) for dr, dc in rel]


def fits(size: int, row: int, col: int, direction: str) -> bool:
    return all(0 <= r < size and 0 <= c < size for r, c in plane_cells(row, col, direction))


@cache
def all_planes(size: int) -> tuple[tuple[int, int, str], ...]:
    """Every plane that fits on the board."""
    return tuple((r, c, d) for d in DIRECTIONS for r in range(size) for c in range(size)
                 if fits(size, r, c, d))


@cache
def plane_codes(size: int) -> np.ndarray:
    """Per plane, per cell: 0 empty, 1 body, 2 head (int8, planes x size*size)."""
    planes = all_planes(size)
    codes = np.zeros((len(planes), size * size), dtype=np.int8)
    for i, (r, c, d) in enumerate(planes):
        cells = plane_cells(r, c, d)
        for rr, cc in cells[1:]:
            codes[i, rr * size + cc] = 1
        codes[i, cells[0][0] * size + cells[0][1]] = 2
    return codes


@cache
def layouts(size: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Every layout of `count` non-overlapping planes: (plane indices per layout, the answer
    code of every cell per layout). On 10x10 with 3 planes: 66,816 layouts."""
    codes = plane_codes(size)
    occupied = (codes > 0).astype(np.int16)
    fits_with = (occupied @ occupied.T) == 0
    n = len(codes)
    combos: list[tuple[int, ...]] = [()]
    for _ in range(count):
        grown: list[tuple[int, ...]] = []
        for combo in combos:
            start = combo[-1] + 1 if combo else 0
            ok = np.ones(n, dtype=bool)
            ok[:start] = False
            for p in combo:
                ok &= fits_with[p]
            grown.extend(combo + (int(q),) for q in np.nonzero(ok)[0])
        combos = grown
    index = np.array(combos, dtype=np.int16).reshape(len(combos), count)
    return index, codes[index].sum(axis=1, dtype=np.int8)


def layout_cells(size: int, layout) -> dict[int, str]:
    """The answer of each occupied cell of a layout."""
    answers: dict[int, str] = {}
    for r, c, d in layout:
        cells = plane_cells(r, c, d)
        for i, (rr, cc) in enumerate(cells):
            answers[rr * size + cc] = "head" if i == 0 else "body"
    return answers


def check_setup(size: int, planes: int, setup) -> tuple[tuple[int, int, str], ...]:
    """A SETUP value as a tuple of planes; RulesError saying what is wrong with it."""
    if not isinstance(setup, (list, tuple)) or len(setup) != planes:
        raise RulesError(f"a layout is a list of {planes} planes [row, col, direction]")
    result: list[tuple[int, int, str]] = []
    used: set[int] = set()
    for plane in setup:
        if not isinstance(plane, (list, tuple)) or len(plane) != 3:
            raise RulesError(f"a plane is [row, col, direction], not {plane!r}")
        r, c, d = plane
        if type(r) is not int or type(c) is not int or d not in DIRECTIONS:
            raise RulesError(f"a plane is [row, col, direction], not {plane!r}")
        if not fits(size, r, c, d):
            raise RulesError(f"the plane at ({r}, {c}) pointing {d} leaves the board")
        cells = {rr * size + cc for rr, cc in plane_cells(r, c, d)}
        if cells & used:
            raise RulesError(f"the plane at ({r}, {c}) pointing {d} overlaps another")
        used |= cells
        result.append((r, c, d))
    return tuple(result)


def check_layout(size: int, planes: int, setup, answered) -> str | None:
    """None if a revealed layout is valid and agrees with every [cell, answer] given; else
    what is wrong (the LAN check of a peer's honesty)."""
    try:
        layout = check_setup(size, planes, setup)
    except RulesError as exc:
        return str(exc)
    truth = layout_cells(size, layout)
    for cell, answer in answered:
        if truth.get(cell, "miss") != answer:
            return f"cell {cell} was answered {answer!r} but the layout says " \
                   f"{truth.get(cell, 'miss')!r}"
    return None


# --- the state
class State(NamedTuple):
    size: int
    planes: int
    equal_turns: bool
    layouts: tuple  # per seat: a tuple of planes, HIDDEN_LAYOUT, or None before setup
    shots: tuple  # per seat: ((cell, answer), ...) its shots at the other side, in order
    turn: int


def normalize_options(options: dict | None) -> dict:
    options = dict(options or {})
    size, planes = options.pop("size", 10), options.pop("planes", 3)
    if (size, planes) != (10, 3):
        raise RulesError("the board is 10 x 10 with 3 planes")
    return {"size": 10, "planes": 3, **normalize_with(OPTIONS, options)}


def new_game(options: dict | None = None, seed: int = 0) -> State:
    o = normalize_options(options)
    return State(o["size"], o["planes"], o["equal_turns"], (None, None), ((), ()), 0)


def setup_pending(state: State) -> bool:
    return None in state.layouts


def heads_found(state: State, seat: int) -> int:
    return sum(1 for _, answer in state.shots[seat] if answer == "head")


def outcome(state: State) -> Outcome | None:
    if setup_pending(state):
        return None
    found = (heads_found(state, 0), heads_found(state, 1))
    done = [f == state.planes for f in found]
    n0, n1 = len(state.shots[0]), len(state.shots[1])
    if not any(done):
        return None
    if state.equal_turns and done[0] and not done[1] and n1 < n0:
        return None  # the second player still has the shot that evens the count
    if done[0] and done[1]:
        return Outcome(None, found, Termination.ALL_FOUND,
                       Text(N_("both found every head in {n} shots"), {"n": n0}))
    winner = 0 if done[0] else 1
    return Outcome(winner, found, Termination.ALL_FOUND,
                   Text(N_("{seat} found every head in {n} shots"),
                        {"seat": Text(SEAT_NAMES[winner]), "n": len(state.shots[winner])}))


def score(state: State) -> tuple[int, int]:
    """Heads found per seat."""
    return heads_found(state, 0), heads_found(state, 1)


def to_move(state: State) -> int | None:
    if setup_pending(state):
        return 0 if state.layouts[0] is None else 1
    return None if outcome(state) is not None else state.turn


def legal_moves(state: State) -> list:
    """The cells the side to move has not shot yet ([] in the setup phase: any valid layout)."""
    if setup_pending(state) or outcome(state) is not None:
        return []
    shot = {cell for cell, _ in state.shots[state.turn]}
    return [cell for cell in range(state.size * state.size) if cell not in shot]


def legal_moves_from_view(view: dict, options: dict) -> list[int]:
    """The cells the seat to move has not shot yet, from its view ([] outside the play phase)."""
    try:
        if view["phase"] != "play":
            return []
        shot = {cell for cell, _ in view["shots"]}
        size = int(view["size"])
    except (KeyError, TypeError, ValueError) as exc:
        raise RulesError(f"not a planes view: {exc}") from exc
    return [cell for cell in range(size * size) if cell not in shot]


def answer(state: State, target_seat: int, cell: int) -> str:
    """What the target's layout says about a cell."""
    return layout_cells(state.size, state.layouts[target_seat]).get(cell, "miss")


def apply(state: State, move) -> State:
    move = move_from_wire(move)
    seat = to_move(state)
    if seat is None:
        raise RulesError("the game is over")
    if setup_pending(state):
        layout: str | tuple[tuple[int, int, str], ...]
        if move == HIDDEN_LAYOUT:
            layout = HIDDEN_LAYOUT
        elif isinstance(move, list) and (not move or isinstance(move[0], list)):
            layout = check_setup(state.size, state.planes, move)
        else:
            raise RulesError("during setup a move is a layout [[row, col, direction], ...]")
        layouts = tuple(layout if i == seat else state.layouts[i] for i in range(2))
        return state._replace(layouts=layouts)
    cell, given = (move, None) if isinstance(move, int) else (move[0], move[1])
    if not 0 <= cell < state.size * state.size:
        raise RulesError(f"cell {cell} is off the board")
    if any(c == cell for c, _ in state.shots[seat]):
        raise RulesError(f"cell {cell} was shot already")
    target = 1 - seat
    if state.layouts[target] == HIDDEN_LAYOUT:
        if given is None:
            raise RulesError("a shot at a hidden layout needs the owner's answer")
        result = given
    else:
        if given is not None:
            raise RulesError("the answer comes from the layout, not the shooter")
        result = answer(state, target, cell)
    shots = list(state.shots)
    shots[seat] = shots[seat] + ((cell, result),)
    return state._replace(shots=tuple(shots), turn=target)


def _layout_wire(layout) -> list | str | None:
    if layout is None or layout == HIDDEN_LAYOUT:
        return layout
    return [list(p) for p in layout]


def view(state: State, seat: int | None) -> dict:
    over = outcome(state) is not None
    phase = "setup" if setup_pending(state) else ("over" if over else "play")
    me = 0 if seat is None else seat
    v = {"size": state.size, "planes": state.planes, "equal_turns": state.equal_turns,
         "phase": phase, "to_move": to_move(state),
         "shots": [[c, a] for c, a in state.shots[me]],
         "incoming": [[c, a] for c, a in state.shots[1 - me]]}
    if seat is None:
        v["layouts"] = [_layout_wire(lay) for lay in state.layouts]
    else:
        v["layout"] = _layout_wire(state.layouts[seat])
        if over:
            v["opponent_layout"] = _layout_wire(state.layouts[1 - seat])
    return v


def move_to_wire(move):
    return move


def move_from_wire(wire):
    """A cell number; [cell, answer] (a shot at a hidden layout); a layout; or "hidden"."""
    if type(wire) is int or wire == HIDDEN_LAYOUT:
        return wire
    if isinstance(wire, (list, tuple)):
        if len(wire) == 2 and type(wire[0]) is int and wire[1] in ANSWERS:
            return [wire[0], wire[1]]
        if all(isinstance(p, (list, tuple)) for p in wire):
            return [list(p) for p in wire]
    raise RulesError(f"not a planes move: {wire!r}")
