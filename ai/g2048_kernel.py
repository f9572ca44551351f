"""The 2048 expectimax compiled with numba: packed uint64 boards, row tables in numpy arrays,
chance nodes (a 2 or a 4 on every empty cell) and max nodes (the four slides), a cut on the
probability of reaching a node, and a transposition table kept for one whole search.
The leaves take ai.g2048's row heuristic or, when a Tables is given a network, the n-tuple
network of ai/g2048_ntuple.py (an afterstate's expected score to come: a max node then adds
each slide's points to the value of what follows it), read past 16384 on the board it values in
its place (ai.g2048_ntuple.downgraded).
Imported only through ai.compiled (which points numba's cache at the user's cache folder
first); ai/g2048.py drives it and falls back to its numpy search without numba.

A board is game.rules.g2048.pack's: cell 4 * row + col is the nibble at bits 4 * cell holding
the tile's exponent. Directions are numbered as game.rules.g2048.DIRECTIONS (up, down, left,
right). The slide tables come from the rules' own; the evaluation is ai.g2048's row table.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from ai import g2048_ntuple as ntuple
from game.rules import g2048 as rules

# ntuple_value reads these tuples with their cells written out
assert ntuple.TUPLES == ((0, 1, 2, 3, 4, 5), (4, 5, 6, 7, 8, 9), (0, 1, 2, 4, 5, 6),
                         (4, 5, 6, 8, 9, 10))

U = np.uint64
U0, U1, U2, U4, U12, U16, U24 = U(0), U(1), U(2), U(4), U(12), U(16), U(24)
ROW, NIBBLE = U(0xFFFF), U(0xF)
P4 = rules.FOUR_PROBABILITY
P2 = 1.0 - P4
TT_BITS = 20
TT_SHIFT = U(64 - TT_BITS)
HASH = U(0x9E3779B97F4A7C15)
DEPTH_BITS = 6  # a slot's tag: stamp << DEPTH_BITS | depth left

# ctl, the search's control block shared with the Python side
STOP, ABORTED, NODES, DEPTH_CUT, STAMP, HITS, DONE = range(7)
CTL_SIZE = 8


@njit(cache=True)
def transpose(x):
    """Cell (r, c) to (c, r)."""
    a = (x & U(0xF0F00F0FF0F00F0F)) | ((x & U(0x0000F0F00000F0F0)) << U12) \
        | ((x & U(0x0F0F00000F0F0000)) >> U12)
    return (a & U(0xFF00FF0000FF00FF)) | ((a & U(0x00FF00FF00000000)) >> U24) \
        | ((a & U(0x00000000FF00FF00)) << U24)


@njit(cache=True)
def slide(board, d, tabs):
    """The board after sliding in direction d (no spawn); tabs: slide_tables()."""
    out = U0
    if d >= 2:
        for k in range(4):
            s = U(16 * k)
            out |= tabs[d, (board >> s) & ROW] << s
        return out
    cols = transpose(board)
    for k in range(4):
        out |= tabs[d, (cols >> U(16 * k)) & ROW] << U(4 * k)
    return out


@njit(cache=True)
def points(board, d, gain):
    """The score a slide in direction d makes (gain: points of sliding a row toward nibble 0)."""
    lines = transpose(board) if d < 2 else board
    total = 0
    for k in range(4):
        row = (lines >> U(16 * k)) & ROW
        if d == 1 or d == 3:  # toward nibble 3: the reversed row slides toward nibble 0
            row = ((row & NIBBLE) << U12) | (((row >> U4) & NIBBLE) << U(8)) \
                | (((row >> U(8)) & NIBBLE) << U4) | (row >> U12)
        total += gain[row]
    return total


@njit(cache=True)
def gain_table(gain):
    """Fills gain[row] with the points of sliding each 16-bit row of exponents toward nibble 0."""
    for row in range(65536):
        last, total = 0, 0
        for k in range(4):
            e = (row >> (4 * k)) & 0xF
            if e == 0:
                continue
            if e == last:
                total += 1 << (min(e + 1, 15))
                last = 0
            else:
                last = e
        gain[row] = total


@njit(cache=True)
def evaluate(board, heur):
    """The row heuristic over the four rows and the four columns."""
    t = transpose(board)
    total = 0.0
    for k in range(4):
        s = U(16 * k)
        total += heur[(board >> s) & ROW] + heur[(t >> s) & ROW]
    return total


@njit(cache=True, inline="always")
def _nib(b, c):
    return np.int64((b >> U(4 * c)) & NIBBLE)


@njit(cache=True, inline="always")
def _tuple(b, c0, c1, c2, c3, c4, c5):
    """The index of 6 cells' exponents, c0 the most significant (constants once inlined)."""
    return (_nib(b, c0) << 20) | (_nib(b, c1) << 16) | (_nib(b, c2) << 12) \
        | (_nib(b, c3) << 8) | (_nib(b, c4) << 4) | _nib(b, c5)


@njit(cache=True, inline="always")
def _four(b, net):
    """The 4 tuples of ai.g2048_ntuple.TUPLES on one image of the board."""
    return net[_tuple(b, 0, 1, 2, 3, 4, 5)] + net[(1 << 24) | _tuple(b, 4, 5, 6, 7, 8, 9)] \
        + net[(2 << 24) | _tuple(b, 0, 1, 2, 4, 5, 6)] \
        + net[(3 << 24) | _tuple(b, 4, 5, 6, 8, 9, 10)]


@njit(cache=True)
def flip_rows(x):
    """Each row's cells in reverse order (a mirror left to right)."""
    return ((x & U(0x000F000F000F000F)) << U12) | ((x & U(0x00F000F000F000F0)) << U4) \
        | ((x >> U4) & U(0x00F000F000F000F0)) | ((x >> U12) & U(0x000F000F000F000F))


@njit(cache=True)
def flip_cols(x):
    """The rows in reverse order (a mirror top to bottom)."""
    return (x << U(48)) | ((x & U(0xFFFF0000)) << U16) | ((x >> U16) & U(0xFFFF0000)) \
        | (x >> U(48))


@njit(cache=True)
def ntuple_value(board, net):
    """The n-tuple network's value of a board (ai.g2048_ntuple.value): net's 4 tables of
    16 ** 6 weights end to end, read on the board's 8 images (the mirrors and the transpose
    generate them) with the tuples' cells as constants."""
    total = 0.0
    for k in range(2):
        b = board if k == 0 else transpose(board)
        h = flip_rows(b)
        total += _four(b, net) + _four(h, net) + _four(flip_cols(b), net) \
            + _four(flip_cols(h), net)
    return total


DOWNGRADE_FLOOR, DOWNGRADE_LOW = ntuple.DOWNGRADE_FLOOR, ntuple.DOWNGRADE_LOW
assert ntuple.DOWNGRADE_FROM == 14  # downgrade tests for it with the bits of 14 and 15


BIG_BITS = U(0x2222222222222222)  # shifted into place: a nibble of 14 or 15, 16384 or more
LANES, BYTES = U(0x0F0F0F0F0F0F0F0F), U(0x0101010101010101)


@njit(cache=True)
def downgrade(board):
    """The board the network values in place of this one (ai.g2048_ntuple.downgraded)."""
    while board & (board >> U1) & (board >> U2) & BIG_BITS:  # a tile of 16384 or more
        present = 0
        for c in range(16):
            present |= 1 << np.int64((board >> U(4 * c)) & NIBBLE)
        top = 15
        while (present >> top) & 1 == 0:
            top -= 1
        gap = DOWNGRADE_FLOOR
        while gap < top and (present >> gap) & 1:
            gap += 1
        if gap == top:  # none missing from 1024 up: the largest missing below
            gap = DOWNGRADE_FLOOR - 1
            while gap >= DOWNGRADE_LOW and (present >> gap) & 1:
                gap -= 1
            if gap < DOWNGRADE_LOW:
                return board
        # every nibble above gap loses one: in 8-bit lanes, e + 15 - gap carries into bit 4
        # exactly when e > gap
        add = U(15 - gap) * BYTES
        low = (((board & LANES) + add) >> U4) & BYTES
        high = ((((board >> U4) & LANES) + add) >> U4) & BYTES
        board = board - low - (high << U4)
    return board


@njit(cache=True)
def leaf(board, heur, net):
    """The evaluation: the network if one is given (net longer than 1), on the board it
    values in place of this one, else the heuristic."""
    if net.shape[0] > 1:
        return ntuple_value(downgrade(board), net)
    return evaluate(board, heur)


@njit(cache=True)
def spawns(board, boards, probs):
    """The chance children of a board: boards[i] with probability probs[i]; returns how many."""
    n_empty = 0
    for i in range(16):
        if (board >> U(4 * i)) & NIBBLE == U0:
            n_empty += 1
    n = 0
    for i in range(16):
        if (board >> U(4 * i)) & NIBBLE == U0:
            boards[n] = board | (U1 << U(4 * i))
            probs[n] = P2 / n_empty
            boards[n + 1] = board | (U2 << U(4 * i))
            probs[n + 1] = P4 / n_empty
            n += 2
    return n


# Without numba's reference counts (_nrt=False; it makes no array): with them every node
# counted its 7 arrays up on entry and down on return (atomic operations; ai/ataxx_kernel.py's
# negamax has the same note). The caller's tables keep the arrays alive.
@njit("float64(uint64, float64, int64, float64, uint64[:, ::1], float64[::1], float32[::1], "
      "int64[::1], uint64[::1], float64[::1], int64[::1])", cache=True, nogil=True, _nrt=False)
def chance(board, cprob, depth, cut, tabs, heur, net, gain, tt, tt_val, ctl):
    """The expected value of a board after a slide, before its spawn, `depth` slides deep;
    a node reached with probability below `cut`, or at depth 0, takes the evaluation.
    With a network (net longer than 1) a slide's value adds the points it makes (gain)."""
    if ctl[STOP] != 0:
        return 0.0
    if depth <= 0 or cprob < cut:
        if depth <= 0:
            ctl[DEPTH_CUT] = 1
        return leaf(board, heur, net)
    slot = (board * HASH) >> TT_SHIFT
    tag = np.int64(tt[2 * slot + 1])
    if tt[2 * slot] == board and (tag >> DEPTH_BITS) == ctl[STAMP] \
            and (tag & ((1 << DEPTH_BITS) - 1)) >= depth:
        ctl[HITS] += 1
        return tt_val[slot]
    ctl[NODES] += 1
    n_empty = 0
    for i in range(16):
        if (board >> U(4 * i)) & NIBBLE == U0:
            n_empty += 1
    cprob /= n_empty
    scored = net.shape[0] > 1
    total = 0.0
    for i in range(16):
        if (board >> U(4 * i)) & NIBBLE != U0:
            continue
        for tile in range(1, 3):
            p = P2 if tile == 1 else P4
            child = board | (U(tile) << U(4 * i))
            # a leaf is valued here: cheaper than a call with its 11 arguments
            at_leaf = depth <= 1 or cprob * p < cut
            if depth <= 1:
                ctl[DEPTH_CUT] = 1
            best = 0.0  # no move: the game is lost
            for d in range(4):
                after = slide(child, d, tabs)
                if after != child:
                    if at_leaf:
                        v = leaf(after, heur, net)
                    else:
                        v = chance(after, cprob * p, depth - 1, cut, tabs, heur, net, gain, tt,
                                   tt_val, ctl)
                    if scored:
                        v += points(child, d, gain)
                    if v > best:
                        best = v
            total += p * best
    if ctl[STOP] != 0:
        return 0.0  # unfinished: never stored
    value = total / n_empty
    tt[2 * slot] = board
    tt[2 * slot + 1] = U((ctl[STAMP] << DEPTH_BITS) | depth)
    tt_val[slot] = value
    return value


@njit(cache=True, nogil=True)
def root(board, order, depth, cut, tabs, heur, net, gain, tt, tt_val, ctl, values):
    """values[d]: the expectimax value of sliding in direction d, -1 where d changes nothing,
    the directions searched in `order`; if the stop flag cuts the search short, ctl[ABORTED]
    is set and ctl[DONE] says how many directions of `order` were finished."""
    for d in range(4):
        values[d] = -1.0
    for j in range(len(order)):
        d = order[j]
        after = slide(board, d, tabs)
        if after != board:
            v = chance(after, 1.0, depth, cut, tabs, heur, net, gain, tt, tt_val, ctl)
            if ctl[STOP] != 0:
                ctl[ABORTED] = 1
                return
            if net.shape[0] > 1:
                v += points(board, d, gain)
            values[d] = v
        ctl[DONE] = j + 1


class Tables:
    """One search's lookup tables, transposition table and control block; with `net` (the
    dense weights of ai.g2048_ntuple) the leaves take the network instead of `heur`."""

    def __init__(self, heur: np.ndarray, tt_bits: int = TT_BITS, net: np.ndarray | None = None):
        assert tt_bits == TT_BITS
        self.tabs = slide_tables()
        self.heur = np.ascontiguousarray(heur, dtype=np.float64)
        self.net = np.zeros(1, dtype=np.float32) if net is None else net
        assert self.net.dtype == np.float32 and self.net.ndim == 1
        self.gain = _gain()
        size = 1 << tt_bits
        self.tt = np.zeros(2 * size, dtype=np.uint64)  # per slot: board, stamp and depth
        self.tt_val = np.zeros(size, dtype=np.float64)
        self.ctl = np.zeros(CTL_SIZE, dtype=np.int64)
        self.values = np.zeros(4, dtype=np.float64)

    def new_search(self) -> None:
        """Forget the last search's table (a new stamp) and its counters."""
        stamp = int(self.ctl[STAMP]) + 1
        self.ctl[:] = 0
        self.ctl[STAMP] = stamp

    def search(self, board: int, depth: int, cut: float, order: tuple[int, ...] = (0, 1, 2, 3)
               ) -> tuple[np.ndarray, int]:
        """The value of each direction at this depth (-1: not a move, or not searched) and how
        many of `order` were searched before the stop flag (all of them if it was not raised)."""
        self.ctl[ABORTED] = 0
        self.ctl[DEPTH_CUT] = 0
        self.ctl[DONE] = 0
        root(U(board), np.array(order, dtype=np.int64), depth, cut, self.tabs, self.heur,
             self.net, self.gain, self.tt, self.tt_val, self.ctl, self.values)
        return self.values.copy(), int(self.ctl[DONE])

    def value(self, board: int, depth: int, cut: float) -> float:
        """The chance node's value of a board after a slide (tests)."""
        return float(chance(U(board), 1.0, depth, cut, self.tabs, self.heur, self.net,
                            self.gain, self.tt, self.tt_val, self.ctl))


_GAIN = np.zeros(65536, dtype=np.int64)


@cache
def _gain() -> np.ndarray:
    """The points of sliding each row toward nibble 0 (gain_table), filled once."""
    gain_table(_GAIN)
    return _GAIN


@cache
def slide_tables() -> np.ndarray:
    """The rules' row tables in one array indexed by direction: col_up, col_down, left, right."""
    t = rules.tables()
    return np.ascontiguousarray(np.stack([t.col_up, t.col_down, t.left, t.right]))


def slide_board(board: int, d: int) -> tuple[int, int]:
    """(board after sliding in direction d, points made), as the rules' slide."""
    after = slide(U(board), d, slide_tables())
    return int(after), int(points(U(board), d, _gain()))


def chance_children(board: int) -> list[tuple[int, float]]:
    """The spawns of a board with their probabilities."""
    boards = np.zeros(32, dtype=np.uint64)
    probs = np.zeros(32, dtype=np.float64)
    n = spawns(U(board), boards, probs)
    return [(int(b), float(p)) for b, p in zip(boards[:n], probs[:n])]


def evaluation(board: int, heur: np.ndarray) -> float:
    return float(evaluate(U(board), heur))


def downgraded(board: int) -> int:
    """The kernel's downgrade of a board (tests)."""
    return int(downgrade(U(board)))


def network_value(board: int, net: np.ndarray) -> float:
    """The n-tuple network's value of a board (net: ai.g2048_ntuple's dense weights)."""
    return float(ntuple_value(U(board), net))


def warm() -> None:
    """Compiles (or loads from the cache) every entry point with a tiny search."""
    _gain()
    board = rules.pack(rules.new_game(None, 1).cells)
    slide_board(board, 0)
    chance_children(board)
    heur = np.zeros(65536)
    evaluation(board, heur)
    tables = Tables(heur)
    tables.new_search()
    tables.search(board, 1, 0.01)
    tiny = np.zeros(ntuple.SIZE, dtype=np.float32)
    network_value(board, tiny)
    tables = Tables(heur, net=tiny)
    tables.new_search()
    tables.search(board, 1, 0.01)
