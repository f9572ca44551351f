"""2048 as the original game (docs/protocol.md "g2048"), with packed boards and row tables for
search.

A state holds the sixteen tile values (row-major, row 0 at the top, 0 for empty), the score
and the state of the spawn generator (splitmix64), so that (options, seed, moves) replays bit
for bit. Reaching 2048 wins, and the player may keep going: the game ends only when no move
changes the board; the outcome's winner is seat 0 if a 2048 tile was ever made, else None.

For search, a board packs into a 64-bit integer: cell i = 4 * row + col is the nibble at bits
4 * i holding the tile's exponent (0 empty, 1 for a 2, ... 15 for 32768). ``tables()`` gives
the 16-bit row lookup tables as numpy arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from game.i18n import N_, Text
from game.rules import (
    Option,
    Outcome,
    RulesError,
    Termination,
    no_setup_pending,
    normalize_with,
    opens_nothing_dealt,
    seats_hide_nothing,
)

ID = "g2048"
TITLE = "2048"
TAGLINE = "Slide and merge to 2048."
PLAYERS = 1
SEAT_NAMES: tuple[str, ...] = ("player",)
SEATS_NAMED_BY_TURN = False
HIDDEN = False
hides_between_seats = seats_hide_nothing
SETUP = False
CHANCE = True
UAI = False
setup_pending = no_setup_pending
opens_deal = opens_nothing_dealt  # a new tile falls in the open
OPTIONS: tuple[Option, ...] = ()
SIZE = 4
WIN_TILE = 2048
DIRECTIONS = ("up", "down", "left", "right")
FOUR_ONE_IN = 10  # a spawned tile is a 4 once in this many draws, else a 2
FOUR_PROBABILITY = 1 / FOUR_ONE_IN

RULES_TEXT = """
# Goal
Slide the tiles and join equal numbers to make a 2048 tile. You may keep going after that for
a bigger tile and a higher score.

# Moves
Each move (arrow keys, W A S D, or a drag with the mouse) slides every tile as far as it goes
up, down, left or right. Two equal tiles that meet join into one tile with their sum, which is
added to your score. A tile joins at most once per move, and the tiles nearest the side you
move toward join first: a row 2 2 2 2 moved left gives 4 4, and 2 2 4 4 gives 4 8.

# New tiles
After every move a new tile appears on a random empty cell: a 2 nine times in ten, else a 4.
A move that changes nothing is not allowed.

# The end
The game is over when no move changes the board. You have won if you made a 2048 tile.

# Hints for play
Keep your biggest tile in a corner and the other large tiles in a row beside it, in order.
Use mostly two or three directions; leave the fourth for emergencies.
"""

_MASK64 = (1 << 64) - 1
# For each direction, the four lines of cell indices, each listed from the side moved toward.
_LINES = {
    "left": tuple(tuple(4 * r + c for c in range(4)) for r in range(4)),
    "right": tuple(tuple(4 * r + c for c in reversed(range(4))) for r in range(4)),
    "up": tuple(tuple(4 * r + c for r in range(4)) for c in range(4)),
    "down": tuple(tuple(4 * r + c for r in reversed(range(4))) for c in range(4)),
}


@dataclass(frozen=True)
class State:
    """A 2048 position: tiles (16 values, row-major), score, and the spawn generator's state."""

    cells: tuple[int, ...]
    score: int = 0
    rng: int = 0


# --- the spawn generator
def _splitmix(rng: int) -> tuple[int, int]:
    """One splitmix64 step: (next generator state, 64-bit output)."""
    rng = (rng + 0x9E3779B97F4A7C15) & _MASK64
    z = rng
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return rng, z ^ (z >> 31)


def _spawn(cells: list[int], rng: int) -> int:
    """Put a 2 or, with FOUR_PROBABILITY, a 4 on a uniformly chosen empty cell; returns the new
    rng state."""
    empty = [i for i, v in enumerate(cells) if v == 0]
    if not empty:
        return rng
    rng, pick = _splitmix(rng)
    rng, kind = _splitmix(rng)
    # (2**64 mod n) / 2**64 is the bias of the modulo: far below anything measurable.
    cells[empty[pick % len(empty)]] = 4 if kind % FOUR_ONE_IN == 0 else 2
    return rng


# --- sliding
def slide_line(line: list[int]) -> tuple[list[int], int]:
    """Slide one line toward its index 0; returns (new line, points gained)."""
    tiles = [v for v in line if v]
    out: list[int] = []
    gained = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(2 * tiles[i])
            gained += 2 * tiles[i]
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(line) - len(out)), gained


def slide(cells: tuple[int, ...], direction: str) -> tuple[tuple[int, ...], int]:
    """The tiles after sliding in direction (no spawn) and the points gained."""
    new = list(cells)
    gained = 0
    for line in _LINES[direction]:
        values, points = slide_line([cells[i] for i in line])
        gained += points
        for i, v in zip(line, values):
            new[i] = v
    return tuple(new), gained


def slide_paths(cells: tuple[int, ...], direction: str) -> list[tuple[int, int, int, bool]]:
    """Where each tile goes: (from cell, to cell, value before, merged) for every tile.

    Both tiles of a merge are listed with merged True; the boards use this to animate."""
    paths: list[tuple[int, int, int, bool]] = []
    for line in _LINES[direction]:
        slot, last_value, last_open = -1, 0, False
        for i in line:
            v = cells[i]
            if not v:
                continue
            if last_open and v == last_value:
                paths[-1] = paths[-1][:3] + (True,)
                paths.append((i, line[slot], v, True))
                last_open = False
            else:
                slot += 1
                paths.append((i, line[slot], v, False))
                last_value, last_open = v, True
    return paths


# --- the contract
def normalize_options(options: dict | None) -> dict:
    return normalize_with(OPTIONS, options)


def new_game(options: dict | None, seed: int) -> State:
    """An empty board with two tiles drawn from seed."""
    normalize_options(options)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RulesError(f"seed must be an integer, not {seed!r}")
    cells = [0] * 16
    rng = seed & _MASK64
    rng = _spawn(cells, rng)
    rng = _spawn(cells, rng)
    return State(tuple(cells), 0, rng)


def from_rows(rows: Any, score: int = 0, seed: int = 0) -> State:
    """A state with these tiles, 4 rows of 4 (for tests, puzzles, views and the bot);
    RulesError if malformed."""
    if (not isinstance(rows, (list, tuple)) or len(rows) != SIZE
            or any(not isinstance(r, (list, tuple)) or len(r) != SIZE for r in rows)):
        raise RulesError("a 2048 board is 4 rows of 4 tiles")
    cells = tuple(v for row in rows for v in row)
    for v in cells:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0 or (v and v & (v - 1)) \
                or v == 1:
            raise RulesError(f"{v!r} is not a tile (0, or a power of two from 2)")
    return State(cells, int(score), seed & _MASK64)


def reseed(state: State, seed: int) -> State:
    """The same tiles with the spawn generator redrawn (undo must not reveal the next spawn)."""
    return State(state.cells, state.score, seed & _MASK64)


def to_move(state: State) -> int | None:
    return 0 if legal_moves(state) else None


def legal_moves(state: State) -> list[str]:
    """The directions that change the board."""
    return [d for d in DIRECTIONS if slide(state.cells, d)[0] != state.cells]


def apply(state: State, move: str) -> State:
    """Slide, score, then spawn one tile; RulesError if the move changes nothing."""
    move = move_from_wire(move)
    cells, gained = slide(state.cells, move)
    if cells == state.cells:
        raise RulesError(f"moving {move} changes nothing")
    new = list(cells)
    rng = _spawn(new, state.rng)
    return State(tuple(new), state.score + gained, rng)


def best_tile(state: State) -> int:
    return max(state.cells)


def outcome(state: State) -> Outcome | None:
    """None while a move is possible; then winner 0 if 2048 was made, else None."""
    if legal_moves(state):
        return None
    best = best_tile(state)
    return Outcome(0 if best >= WIN_TILE else None, (state.score,), Termination.NO_MOVES,
                   Text(N_("best tile {n}"), {"n": best}))


def score(state: State) -> tuple[int]:
    return (state.score,)


def legal_moves_from_view(view: dict, options: dict) -> list[str]:
    """The directions that change the board the view shows."""
    if not isinstance(view, dict):
        raise RulesError("a 2048 view is a mapping with 'board'")
    return legal_moves(from_rows(view.get("board"), 0))


def view(state: State, seat: int | None) -> dict:
    """docs/protocol.md VIEW plus "best_tile" (the game has no hidden information)."""
    rows = [list(state.cells[4 * r:4 * r + 4]) for r in range(SIZE)]
    return {"board": rows, "score": state.score, "best_tile": best_tile(state)}


def move_to_wire(move: str) -> str:
    return move_from_wire(move)


def move_from_wire(wire: object) -> str:
    if not isinstance(wire, str) or wire not in DIRECTIONS:
        raise RulesError(f"a 2048 move is one of {', '.join(DIRECTIONS)}, not {wire!r}")
    return wire


# --- packed boards for search
def pack(cells: tuple[int, ...] | list[int]) -> int:
    """The 64-bit packed form of 16 tile values (exponents in nibbles; capped at 2**15)."""
    board = 0
    for i, v in enumerate(cells):
        if v:
            board |= min(v.bit_length() - 1, 15) << (4 * i)
    return board


def unpack(board: int) -> tuple[int, ...]:
    """The 16 tile values of a packed board."""
    out = []
    for i in range(16):
        e = (board >> (4 * i)) & 0xF
        out.append(1 << e if e else 0)
    return tuple(out)


@dataclass(frozen=True)
class Tables:
    """Row lookup tables indexed by a 16-bit row (nibble 0 = the cell nearest the left/top).

    left/right: the row after the slide; col_up/col_down: the same result with nibble k moved
    to bit 16 * k, ready to be shifted into a column; rev: the row with its nibbles reversed."""

    left: np.ndarray
    right: np.ndarray
    col_up: np.ndarray
    col_down: np.ndarray
    rev: np.ndarray


def _nibbles(rows: np.ndarray) -> list[np.ndarray]:
    return [(rows >> (4 * k)) & 0xF for k in range(4)]


def _slide_left_exponents(rows: np.ndarray) -> np.ndarray:
    """Slide every 16-bit row of exponents toward nibble 0, all rows at once."""
    n = _nibbles(rows)
    # Compact: gather the non-empty nibbles in order.
    tiles = np.zeros((len(rows), 4), dtype=np.int64)
    count = np.zeros(len(rows), dtype=np.int64)
    for k in range(4):
        here = n[k] != 0
        tiles[here, count[here]] = n[k][here]
        count += here
    out = np.zeros((len(rows), 4), dtype=np.int64)
    src = np.zeros(len(rows), dtype=np.int64)
    dst = np.zeros(len(rows), dtype=np.int64)
    idx = np.arange(len(rows))
    for _ in range(4):
        live = src < count
        a = tiles[idx, np.minimum(src, 3)]
        b = np.where(src + 1 < count, tiles[idx, np.minimum(src + 1, 3)], -1)
        merge = live & (a == b)
        value = np.where(merge, np.minimum(a + 1, 15), a)
        out[idx[live], dst[live]] = value[live]
        dst += live
        src += np.where(merge, 2, live.astype(np.int64))
    return out[:, 0] | (out[:, 1] << 4) | (out[:, 2] << 8) | (out[:, 3] << 12)


def _spread(rows: np.ndarray) -> np.ndarray:
    n = [v.astype(np.uint64) for v in _nibbles(rows)]
    return n[0] | (n[1] << np.uint64(16)) | (n[2] << np.uint64(32)) | (n[3] << np.uint64(48))


@cache
def tables() -> Tables:
    """The row tables, built once (about 0.1 s) with numpy."""
    rows = np.arange(65536, dtype=np.int64)
    n = _nibbles(rows)
    rev = n[3] | (n[2] << 4) | (n[1] << 8) | (n[0] << 12)
    left = _slide_left_exponents(rows)
    right = rev[left[rev]]
    return Tables(left.astype(np.uint64), right.astype(np.uint64), _spread(left),
                  _spread(right), rev.astype(np.uint64))
