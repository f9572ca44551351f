"""Dots and Boxes on R x C boxes (docs/protocol.md "dots"), lines numbered as OpenSpiel does.

Horizontal lines come first, row * C + col for row 0..R; then vertical lines,
(R+1) * C + row * (C+1) + col for row 0..R-1, col 0..C. A position is the set of drawn lines
(a bitmask, with the order they were drawn), the box owners and the side to move.
"""

from __future__ import annotations

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
    seats_hide_nothing,
)

ID = "dots"
TITLE = "Dots and Boxes"
TAGLINE = "Close boxes, keep control."
PLAYERS = 2
SEAT_NAMES: tuple[str, ...] = ("red", "blue")
SEATS_NAMED_BY_TURN = False
HIDDEN = False
hides_between_seats = seats_hide_nothing
SETUP = False
CHANCE = False
UAI = False
setup_pending = no_setup_pending
opens_deal = opens_nothing_dealt
reseed = no_reseed
SIZES = tuple((n, str(n)) for n in range(1, 6))
OPTIONS: tuple[Option, ...] = (
    Option("rows", "Rows of boxes", SIZES, 3),
    Option("cols", "Columns of boxes", SIZES, 3),
    Option("first_reply_rule", "First reply rule", ((False, "Off"), (True, "On")), False),
)

RULES_TEXT = """
# Goal
Own more boxes than your opponent when every line is drawn.

# Moves
Players take turns drawing one line between two neighbouring dots. Whoever draws the fourth
side of a box owns it and must draw again; a line that closes two boxes scores both.

# The first reply rule (optional)
The second player's first line may not be a mirror image or rotation of the first player's
first line, which stops the copy-cat strategy on symmetric boards. Where every line left is
such a mirror (a board of one box), the rule does not apply.

# Hints for play
Avoid drawing the third side of a box. Late in the game every move gives boxes away: give the
fewest. When you take a long chain, you can leave the last two boxes to your opponent
(a "double-cross") to keep control of the rest.
"""


class Geometry(NamedTuple):
    """The lines and boxes of one board size."""

    rows: int
    cols: int
    lines: int
    box_sides: tuple[int, ...]  # per box, the bitmask of its four sides
    line_boxes: tuple[tuple[int, ...], ...]  # per line, the boxes it borders
    symmetry: tuple[tuple[int, ...], ...]  # each symmetry as a permutation of lines


@cache
def geometry(rows: int, cols: int) -> Geometry:
    h_count = (rows + 1) * cols
    lines = h_count + rows * (cols + 1)
    box_sides = []
    line_boxes: list[list[int]] = [[] for _ in range(lines)]
    for r in range(rows):
        for c in range(cols):
            sides = (r * cols + c, (r + 1) * cols + c, h_count + r * (cols + 1) + c,
                     h_count + r * (cols + 1) + c + 1)
            box = r * cols + c
            box_sides.append(sum(1 << s for s in sides))
            for s in sides:
                line_boxes[s].append(box)
    return Geometry(rows, cols, lines, tuple(box_sides), tuple(tuple(b) for b in line_boxes),
                    _symmetries(rows, cols))


def line_ends(rows: int, cols: int, line: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two dots (row, col) a line joins."""
    h_count = (rows + 1) * cols
    if line < h_count:
        r, c = divmod(line, cols)
        return (r, c), (r, c + 1)
    r, c = divmod(line - h_count, cols + 1)
    return (r, c), (r + 1, c)


def line_between(rows: int, cols: int, a: tuple[int, int], b: tuple[int, int]) -> int:
    (r1, c1), (r2, c2) = sorted((a, b))
    if r1 == r2 and c2 == c1 + 1:
        return r1 * cols + c1
    if c1 == c2 and r2 == r1 + 1:
        return (rows + 1) * cols + r1 * (cols + 1) + c1
    raise ValueError("dots are not neighbours")


def _symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """The board's own rotations and reflections, as maps of dots (r, c) -> (r', c')."""
    R, C = rows, cols
    maps = [lambda r, c: (r, c), lambda r, c: (R - r, C - c),
            lambda r, c: (R - r, c), lambda r, c: (r, C - c)]
    if rows == cols:
        maps += [lambda r, c: (c, r), lambda r, c: (C - c, R - r),
                 lambda r, c: (c, R - r), lambda r, c: (C - c, r)]
    lines = (R + 1) * C + R * (C + 1)
    perms = []
    for f in maps:
        perms.append(tuple(line_between(R, C, f(*line_ends(R, C, i)[0]),
                                        f(*line_ends(R, C, i)[1])) for i in range(lines)))
    return tuple(perms)


def symmetry_class(rows: int, cols: int, line: int) -> frozenset[int]:
    """The lines a symmetry of the board maps this line to."""
    return frozenset(p[line] for p in geometry(rows, cols).symmetry)


def completed(geo: Geometry, mask: int, line: int) -> int:
    """How many boxes drawing `line` onto `mask` completes."""
    new = mask | 1 << line
    return sum(1 for b in geo.line_boxes[line] if new & geo.box_sides[b] == geo.box_sides[b])


class State(NamedTuple):
    rows: int
    cols: int
    drawn: tuple[int, ...]  # line numbers in the order drawn
    mask: int
    owners: tuple[int, ...]  # per box: -1 free, else the seat that owns it
    turn: int
    first_reply_rule: bool

    @property
    def scores(self) -> tuple[int, int]:
        return (self.owners.count(0), self.owners.count(1))


# --- the rules contract
def normalize_options(options: dict | None) -> dict:
    return normalize_with(OPTIONS, options)


def new_game(options: dict | None = None, seed: int = 0) -> State:
    o = normalize_options(options)
    rows, cols = o["rows"], o["cols"]
    return State(rows, cols, (), 0, (-1,) * (rows * cols), 0, o["first_reply_rule"])


def to_move(state: State) -> int | None:
    return None if state.mask == (1 << geometry(state.rows, state.cols).lines) - 1 \
        else state.turn


def _forbidden(state: State) -> frozenset[int]:
    """Lines the first reply rule forbids right now: none when it would forbid every line left
    (on one box every line mirrors the first)."""
    if not state.first_reply_rule or len(state.drawn) != 1 or state.turn != 1:
        return frozenset()
    banned = symmetry_class(state.rows, state.cols, state.drawn[0])
    undrawn = {i for i in range(geometry(state.rows, state.cols).lines) if not state.mask >> i & 1}
    return frozenset() if undrawn <= banned else banned


def legal_moves(state: State) -> list[int]:
    geo = geometry(state.rows, state.cols)
    banned = _forbidden(state)
    return [i for i in range(geo.lines) if not state.mask >> i & 1 and i not in banned]


def apply(state: State, move: int) -> State:
    move = move_from_wire(move)
    geo = geometry(state.rows, state.cols)
    if not 0 <= move < geo.lines:
        raise RulesError(f"line {move} is not on a {state.rows}x{state.cols} board "
                         f"(0..{geo.lines - 1})")
    if state.mask >> move & 1:
        raise RulesError(f"line {move} is already drawn")
    if move in _forbidden(state):
        raise RulesError(f"line {move} mirrors the first line (first reply rule)")
    mask = state.mask | 1 << move
    owners = list(state.owners)
    scored = False
    for b in geo.line_boxes[move]:
        if mask & geo.box_sides[b] == geo.box_sides[b]:
            owners[b] = state.turn
            scored = True
    turn = state.turn if scored else 1 - state.turn
    return State(state.rows, state.cols, state.drawn + (move,), mask, tuple(owners), turn,
                 state.first_reply_rule)


def outcome(state: State) -> Outcome | None:
    if to_move(state) is not None:
        return None
    s = state.scores
    winner = None if s[0] == s[1] else (0 if s[0] > s[1] else 1)
    return Outcome(winner, s, Termination.SCORE, Text(N_("all lines drawn")))


def score(state: State) -> tuple[int, int]:
    """Boxes closed per seat."""
    return state.scores


def legal_moves_from_view(view: dict, options: dict) -> list[int]:
    return legal_moves(state_from_view(view))


def view(state: State, seat: int | None) -> dict:
    return {"rows": state.rows, "cols": state.cols, "lines": list(state.drawn),
            "scores": list(state.scores), "to_move": state.turn,
            "first_reply_rule": state.first_reply_rule}


def state_from_view(view: dict) -> State:
    """Rebuild the position a view shows (open information: the view is the whole state)."""
    try:
        state = new_game({"rows": view["rows"], "cols": view["cols"],
                          "first_reply_rule": bool(view.get("first_reply_rule", False))})
        for line in view["lines"]:
            state = apply(state, line)
    except (KeyError, TypeError, AttributeError) as exc:
        raise RulesError(f"not a dots view: {exc}") from exc
    return state


def move_to_wire(move: int) -> int:
    return move


def move_from_wire(wire) -> int:
    if type(wire) is not int:
        raise RulesError(f"a dots move is a line number, not {wire!r}")
    return wire
