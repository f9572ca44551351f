"""The chain-counting Dots and Boxes search of ai/dots_chains.py (its model is described there),
compiled with numba: safe lines and small gifts while safe lines remain, the long chain rule's
guess where the search stops, then the loony endgame to the end, where opening a chain or loop
is one move and the reply is taking all or keeping control. Masks are uint64 (up to 63 lines);
the memo is a hash table in numpy arrays kept between searches.

Cached on disk like the other kernels. A recursive function loads from numba's cache only if
every call to it matches its declared types: a literal argument (fight(..., -127, 127, ...))
makes a second, literal-typed version whose address the cached code cannot find (the crash of
numba issue 6061), so full windows are passed as WIDE.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ai.dots_kernel import board_arrays
from game.rules.dots import Geometry

U = np.uint64
U0, U1 = U(0), U(1)
HASH = U(0x9E3779B97F4A7C15)

# ctl, the search's control block shared with the Python side
STOP, ABORTED, CALLS, HORIZON, WEIGHT = range(5)
CTL_SIZE = 8

FIGHT_BITS = 21
FIGHT_SHIFT = U(64 - FIGHT_BITS)
FIGHT_SLOTS = 1 << FIGHT_BITS
EXACT, LOWER, UPPER = 1, 2, 3
TOUCHED = 1 << 18  # the value rests on a horizon guess somewhere below
LOONY_DEPTH = 120  # a loony node is searched to the end: its value holds at every depth
NO_MOVE = -1000  # a root line the model does not consider
MAX_PLY = 64
WIDE = np.int64(127)  # a full window; typed int64, not a literal (see fight's calls)

FIGHT_SIG = ("int64(uint64, int64, int64, int64, int64, uint64, int64[:, ::1], uint64[::1], "
             "int64[:, ::1], uint64[::1], uint64[::1], int64[::1], int64[::1], int64[:, ::1], "
             "int64[:, :, ::1], uint64[:, ::1], int64[::1])")


# Without numba's reference counts (_nrt=False; it makes no array), as ai/ataxx_kernel.py's
# negamax: each call counted its 12 arrays up and down (about a tenth of the search's time).
@njit(FIGHT_SIG, cache=True, nogil=True, _nrt=False)
def fight(mask, depth, alpha, beta, ply, full, line_boxes, box_sides, box_lines, bits, keys,
          info, ctl, scratch, moves, masks, out):
    """The margin of the free boxes the side to move secures in the model, searched `depth`
    turns deep while safe lines remain (the long chain rule's guess beyond), to the end once
    none remain. mask has no box on offer. At ply 0 every line's value goes to out (NO_MOVE
    outside the model; exact for the best lines, an upper bound for the others). Stopped by
    ctl[STOP]: ctl[ABORTED] is set and the value means nothing."""
    if mask == full:
        return 0
    root = ply == 0
    slot = np.int64((mask * HASH) >> FIGHT_SHIFT)
    tt_move = -1
    if keys[slot] == mask and info[slot] != 0:
        e = info[slot]
        v = (e & 255) - 128
        d = (e >> 8) & 255
        f = (e >> 16) & 3
        tt_move = ((e >> 24) & 255) - 1
        if not root and d >= depth and (f == EXACT or (f == LOWER and v >= beta)
                                        or (f == UPPER and v <= alpha)):
            if e & TOUCHED:
                ctl[HORIZON] += 1
            return v
    if ctl[STOP] != 0:
        ctl[ABORTED] = 1
        return 0
    ctl[CALLS] += 1
    n_lines = line_boxes.shape[0]
    n_boxes = box_sides.shape[0]
    for b in range(n_boxes):
        d = 0
        for j in range(4):
            if mask & bits[box_lines[b, j]] == U0:
                d += 1
        scratch[ply, b] = d
    n_moves = 0
    for line in range(n_lines):
        if mask & bits[line] == U0:
            b0, b1 = line_boxes[line, 0], line_boxes[line, 1]
            if (b0 < 0 or scratch[ply, b0] >= 3) and (b1 < 0 or scratch[ply, b1] >= 3):
                moves[ply, n_moves, 0] = line
                moves[ply, n_moves, 1] = 0
                moves[ply, n_moves, 2] = 0
                masks[ply, n_moves] = mask | bits[line]
                n_moves += 1
    loony = n_moves == 0
    if not loony and depth <= 0:
        # The long chain rule: the side to move ends in control if undrawn lines - free
        # boxes + long chains - 1 is even (every line passes the turn but the box-taking
        # ones, and a double-cross, one per long chain but the last, takes two boxes).
        ctl[HORIZON] += 1
        parity = 0
        for line in range(n_lines):
            if mask & bits[line] == U0:
                parity += 1
        seen = U0
        for b in range(n_boxes):
            if scratch[ply, b] > 0:
                parity -= 1
            if scratch[ply, b] != 2 or (seen >> U(b)) & U1:
                continue
            seen |= U1 << U(b)
            n = 1
            loop = False
            for j in range(4):
                line = box_lines[b, j]
                if mask & bits[line] != U0:
                    continue
                prev = b
                while True:
                    a = line_boxes[line, 0]
                    nb = line_boxes[line, 1] if a == prev else a
                    if nb < 0:
                        break
                    if (seen >> U(nb)) & U1:
                        loop = loop or nb == b
                        break
                    if scratch[ply, nb] != 2:
                        break
                    seen |= U1 << U(nb)
                    n += 1
                    nxt = -1
                    for jj in range(4):
                        l2 = box_lines[nb, jj]
                        if l2 != line and mask & bits[l2] == U0:
                            nxt = l2
                    prev = nb
                    line = nxt
            if not loop and n >= 3:
                parity += 1
        return ctl[WEIGHT] if (parity - 1) & 1 == 0 else -ctl[WEIGHT]
    here = LOONY_DEPTH if loony else depth
    below = LOONY_DEPTH if loony else depth - 1
    touched0 = ctl[HORIZON]
    alpha0 = alpha
    best = -127
    best_line = -1
    if root:
        for line in range(n_lines):
            out[line] = NO_MOVE
    # The rest of the moves: lines that give boxes away. The opponent takes all it is
    # offered; declining the last of it costs the taker `decl` (4: a chain's two boxes; 8: a
    # loop's four). While safe lines remain only gifts of one or two boxes are tried, and a pair
    # only in the middle (the half-hearted gift gives the taker a choice more).
    for line in range(n_lines):
        if mask & bits[line] != U0:
            continue
        if not loony:
            b0, b1 = line_boxes[line, 0], line_boxes[line, 1]
            if (b0 < 0 or scratch[ply, b0] >= 3) and (b1 < 0 or scratch[ply, b1] >= 3):
                continue
        m = mask | bits[line]
        fronts = 0
        k = 0
        dbl = False
        for t in range(2):
            cur = line_boxes[line, t]
            if cur >= 0 and scratch[ply, cur] == 2:
                fronts += 1
            while cur >= 0:
                free = box_sides[cur] & ~m
                if free == U0 or free & (free - U1) != U0:
                    break
                last = -1
                for j in range(4):
                    if bits[box_lines[cur, j]] == free:
                        last = box_lines[cur, j]
                m |= free
                a = line_boxes[last, 0]
                nxt = line_boxes[last, 1] if a == cur else a
                k += 1
                if nxt >= 0 and m & box_sides[nxt] == box_sides[nxt]:
                    k += 1
                    dbl = True
                    break
                cur = nxt
        decl = 0
        if fronts == 1 and k >= 2:
            decl = 4
        elif fronts == 2:
            if dbl and k >= 4:
                decl = 8
            elif not dbl and k >= 3:
                decl = 4
        if not loony and (k > 2 or decl != 0):
            continue
        moves[ply, n_moves, 0] = line
        moves[ply, n_moves, 1] = k
        moves[ply, n_moves, 2] = decl
        masks[ply, n_moves] = m
        n_moves += 1
    # The memo's move first, then the two killers (lines that cut off at this ply before).
    killer = n_boxes
    for first in (scratch[ply, killer + 1], scratch[ply, killer], tt_move):
        if first < 0:
            continue
        for i in range(n_moves):
            if moves[ply, i, 0] == first:
                if i > 0:
                    line, k, decl, m = moves[ply, i, 0], moves[ply, i, 1], moves[ply, i, 2], \
                        masks[ply, i]
                    for j in range(i, 0, -1):
                        moves[ply, j, 0] = moves[ply, j - 1, 0]
                        moves[ply, j, 1] = moves[ply, j - 1, 1]
                        moves[ply, j, 2] = moves[ply, j - 1, 2]
                        masks[ply, j] = masks[ply, j - 1]
                    moves[ply, 0, 0], moves[ply, 0, 1], moves[ply, 0, 2] = line, k, decl
                    masks[ply, 0] = m
                break
    for i in range(n_moves):
        line, k, decl, m = moves[ply, i, 0], moves[ply, i, 1], moves[ply, i, 2], masks[ply, i]
        v = 0
        for attempt in range(2):
            # The first line with the whole window, the others with a null window
            # (principal variation search), searched again if they beat it.
            full_window = i == 0 or attempt == 1
            if root:
                lo, hi = best - 1, (127 if full_window else best)
            else:
                lo, hi = alpha, (beta if full_window else alpha + 1)
            if decl != 0:
                w = fight(m, below, -WIDE, WIDE, ply + 1, full, line_boxes, box_sides,
                          box_lines, bits, keys, info, ctl, scratch, moves, masks, out)
                v = -max(k + w, k - decl - w)
                break
            v = -k - fight(m, below, -hi - k, -lo - k, ply + 1, full, line_boxes, box_sides,
                           box_lines, bits, keys, info, ctl, scratch, moves, masks, out)
            if ctl[ABORTED] != 0:
                return 0
            if full_window or v < hi or (not root and v >= beta):
                break
        if ctl[ABORTED] != 0:
            return 0
        if root:
            out[line] = v
        if v > best:
            best = v
            best_line = line
        if v > alpha:
            alpha = v
        if not root and alpha >= beta:
            if scratch[ply, killer] != line:
                scratch[ply, killer + 1] = scratch[ply, killer]
                scratch[ply, killer] = line
            break
    flag = EXACT
    if not root:
        if best <= alpha0:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
    entry = (best + 128) | (here << 8) | (flag << 16) | ((best_line + 1) << 24)
    if ctl[HORIZON] != touched0:
        entry |= TOUCHED
    keys[slot] = mask
    info[slot] = entry
    return best


class FightTables:
    """One board's geometry as arrays and the chain search's memo (kept between searches)."""

    def __init__(self, geo: Geometry):
        self.line_boxes, self.box_sides = board_arrays(geo)
        self.box_lines = np.array([[s for s in range(geo.lines) if sides >> s & 1]
                                   for sides in geo.box_sides], dtype=np.int64)
        self.bits = np.array([1 << line for line in range(geo.lines)], dtype=np.uint64)
        self.full = U((1 << geo.lines) - 1)
        self.keys = np.zeros(FIGHT_SLOTS, dtype=np.uint64)
        self.info = np.zeros(FIGHT_SLOTS, dtype=np.int64)
        self.ctl = np.zeros(CTL_SIZE, dtype=np.int64)
        self.scratch = np.full((MAX_PLY + 1, len(geo.box_sides) + 2), -1, dtype=np.int64)
        self.moves = np.zeros((MAX_PLY + 1, geo.lines, 3), dtype=np.int64)
        self.masks = np.zeros((MAX_PLY + 1, geo.lines), dtype=np.uint64)
        self.out = np.full(geo.lines, NO_MOVE, dtype=np.int64)

    def _run(self, mask: int, depth: int, ply: int) -> int:
        return int(fight(U(mask), depth, -WIDE, WIDE, ply, self.full, self.line_boxes,
                         self.box_sides, self.box_lines, self.bits, self.keys, self.info,
                         self.ctl, self.scratch, self.moves, self.masks, self.out))

    def value(self, mask: int, depth: int) -> int:
        """fight() from this mask (no box on offer): any number with ctl[ABORTED] if stopped."""
        return self._run(mask, depth, 1)

    def root(self, mask: int, depth: int) -> np.ndarray:
        """Every line's value for the side to move (no box on offer) in self.out; meaningless
        with ctl[ABORTED]."""
        self._run(mask, depth, 0)
        return self.out


def warm() -> None:
    """Compiles the search on a 1x2 board."""
    from game.rules.dots import geometry
    small = FightTables(geometry(1, 2))
    small.value(0, 2)
    small.root(0, 2)
