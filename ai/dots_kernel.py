"""The exact Dots and Boxes search compiled with numba: ai.dots_solver.Memo's memoised search
over line sets (uint64 masks, up to 63 lines), its memo a hash table in numpy arrays kept
between searches. Imported only through ai.compiled (which points numba's cache at the user's
cache folder first); ai/dots_solver.py drives it and keeps its pure Memo as the reference.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from game.rules.dots import Geometry

U = np.uint64
U0, U1 = U(0), U(1)
TT_BITS = 22
WAYS = 4  # a mask is stored in one of 4 neighbouring slots: few collisions evict a value
HASH = U(0x9E3779B97F4A7C15)
SHIFT = U(64 - TT_BITS)
SLOT_MASK = (1 << TT_BITS) - 1
NONE = -128  # the value slot of an empty entry

# ctl, the search's control block shared with the Python side
STOP, ABORTED, CALLS = range(3)
CTL_SIZE = 4


@njit("int64(uint64, uint64, int64[:, ::1], uint64[::1], uint64[::1], int8[::1], int64[::1])",
      cache=True, nogil=True)
def value(mask, full, line_boxes, box_sides, keys, vals, ctl):
    """Memo.value: the margin of the remaining boxes the side to move secures. Stopped by
    ctl[STOP], it sets ctl[ABORTED] and its value means nothing (nothing wrong is stored)."""
    if mask == full:
        return 0
    home = np.int64((mask * HASH) >> SHIFT)
    for w in range(WAYS):
        slot = (home + w) & SLOT_MASK
        if vals[slot] == NONE:
            break
        if keys[slot] == mask:
            return vals[slot]
    if ctl[STOP] != 0:
        ctl[ABORTED] = 1
        return 0
    ctl[CALLS] += 1
    best = -127
    for line in range(line_boxes.shape[0]):
        bit = U1 << U(line)
        if mask & bit:
            continue
        new = mask | bit
        c = 0
        for k in range(2):
            b = line_boxes[line, k]
            if b >= 0 and new & box_sides[b] == box_sides[b]:
                c += 1
        after = value(new, full, line_boxes, box_sides, keys, vals, ctl)
        if ctl[ABORTED] != 0:
            return 0
        v = c + after if c else -after
        if v > best:
            best = v
    slot = (home + WAYS - 1) & SLOT_MASK  # all taken: the last way is replaced
    for w in range(WAYS):
        if vals[(home + w) & SLOT_MASK] == NONE:
            slot = (home + w) & SLOT_MASK
            break
    keys[slot] = mask
    vals[slot] = best
    return best


def board_arrays(geo: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """A board's geometry as the kernels read it: each line's boxes (-1 for none) and each
    box's sides as a line mask."""
    if geo.lines > 63:
        raise ValueError("too many lines for a uint64 mask")
    line_boxes = np.full((geo.lines, 2), -1, dtype=np.int64)
    for line, boxes in enumerate(geo.line_boxes):
        line_boxes[line, :len(boxes)] = boxes
    return line_boxes, np.array(geo.box_sides, dtype=np.uint64)


class Tables:
    """One board's geometry as arrays and its memo (kept between searches: values are exact)."""

    def __init__(self, geo: Geometry):
        self.line_boxes, self.box_sides = board_arrays(geo)
        self.full = U((1 << geo.lines) - 1)
        self.keys = np.zeros(1 << TT_BITS, dtype=np.uint64)
        self.vals = np.full(1 << TT_BITS, NONE, dtype=np.int8)
        self.ctl = np.zeros(CTL_SIZE, dtype=np.int64)

    def value(self, mask: int) -> int:
        """The value, or any number with ctl[ABORTED] set if ctl[STOP] was raised."""
        return int(value(U(mask), self.full, self.line_boxes, self.box_sides, self.keys,
                         self.vals, self.ctl))


def warm() -> None:
    """Compiles (or loads from the cache) the search on a 1x2 board."""
    from game.rules.dots import geometry
    Tables(geometry(1, 2)).value(0)
