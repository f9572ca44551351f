"""The Ataxx evaluation's learned part: 3x3 patterns (issue 22).

Every 3x3 window of the board (25 of them) reads its nine squares as own, opponent's or
neither (empty or blocker), a number below 3**9. Windows that a turn or mirror of the board
carries onto each other share one table (6 classes: corner, edge, edge middle, inner corner,
inner edge, centre), each window read in its class's orientation. A table holds one value for the
opening and one for the end; the evaluation blends them by the empty squares left. The values
are learned from self-play (bench/ataxx_train.py) and stored in ai/data/ataxx_patterns.npz.

Used by the compiled search (ai/ataxx_kernel.py) and by the training script, so both read a
position the same way; numpy only.
"""

from __future__ import annotations

import os

import numpy as np

SIZE = 7
WINDOWS = 25
CLASSES = 6
CELLS = 3 ** 9
PHASES = 2
EMPTY_SPAN = 45  # empties at which the opening table counts alone (the start has 45)
SCALE = 16  # stored values are evaluation points x SCALE
TERMS = ("material", "front", "mobility", "tempo")  # the hand-made terms, learned weights
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "ataxx_patterns.npz")

_CANONICAL = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]


def _transform(t: int, i: int, j: int, n: int) -> tuple[int, int]:
    """One of the 8 turns and mirrors of an n x n grid: bit 0 transposes, bit 1 flips the
    rows, bit 2 flips the columns."""
    if t & 1:
        i, j = j, i
    if t & 2:
        i = n - 1 - i
    if t & 4:
        j = n - 1 - j
    return i, j


def _windows() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per window: its lowest square's bit, its class and the turn that brings it there."""
    shift, cls, turn = [], [], []
    for r in range(5):
        for c in range(5):
            t = next(t for t in range(8) if _transform(t, r, c, 5) in _CANONICAL)
            shift.append(r * SIZE + c)
            cls.append(_CANONICAL.index(_transform(t, r, c, 5)))
            turn.append(t)
    return (np.array(shift, dtype=np.uint64), np.array(cls, dtype=np.int64),
            np.array(turn, dtype=np.int64))


def _ternary() -> np.ndarray:
    """TERNARY[t, m]: the base-3 digits (1 each) of the cells set in the 9-bit mask m (bit
    3 * row + column of the window), placed as turn t carries the window."""
    table = np.zeros((8, 512), dtype=np.int64)
    for t in range(8):
        for m in range(512):
            total = 0
            for k in range(9):
                if m >> k & 1:
                    i, j = _transform(t, k // 3, k % 3, 3)
                    total += 3 ** (3 * i + j)
            table[t, m] = total
    return table


def _canonical() -> np.ndarray:
    """CANONICAL[c, i]: the least index among the turns of pattern i that leave class c's
    window in place (the centre has 8, windows on a middle line or a diagonal 2), so that
    patterns one turn apart share a value."""
    digits = (np.arange(CELLS)[:, None] // 3 ** np.arange(9)) % 3
    out = np.empty((CLASSES, CELLS), dtype=np.int64)
    for c, (a, b) in enumerate(_CANONICAL):
        best = np.full(CELLS, CELLS, dtype=np.int64)
        for t in range(8):
            if _transform(t, a, b, 5) != (a, b):
                continue
            place = [3 * i + j for i, j in (_transform(t, k // 3, k % 3, 3) for k in range(9))]
            best = np.minimum(best, digits @ (3 ** np.array(place)))
        out[c] = best
    return out


SHIFT, CLASS, TURN = _windows()
TERNARY = _ternary()
CANONICAL = _canonical()


def rows(b: np.ndarray, shift: np.uint64) -> np.ndarray:
    """The 9-bit masks of the window at shift, for an array of bitboards."""
    seven, u7 = np.uint64(7), np.uint64(SIZE)
    return ((b >> shift) & seven) | (((b >> (shift + u7)) & seven) << np.uint64(3)) \
        | (((b >> (shift + u7 + u7)) & seven) << np.uint64(6))


def indices(own: np.ndarray, opp: np.ndarray, canonical: bool = False) -> np.ndarray:
    """(positions, WINDOWS) flat indices into a (CLASSES * CELLS) table, as the kernel reads
    them or, with canonical, each turned to its class's least (training's shared weights)."""
    out = np.empty((len(own), WINDOWS), dtype=np.int64)
    for w in range(WINDOWS):
        t = TURN[w]
        idx = TERNARY[t][rows(own, SHIFT[w]).astype(np.int64)] \
            + 2 * TERNARY[t][rows(opp, SHIFT[w]).astype(np.int64)]
        if canonical:
            idx = CANONICAL[CLASS[w]][idx]
        out[:, w] = CLASS[w] * CELLS + idx
    return out


def expand(tables: np.ndarray) -> np.ndarray:
    """Tables indexed by canonical patterns made readable by every pattern (the kernel's)."""
    return np.stack([tables[:, c, CANONICAL[c]] for c in range(CLASSES)], axis=1)


def empty_weight(empties: np.ndarray) -> np.ndarray:
    """How much the opening table counts, 0..1, by the empty squares left."""
    return np.minimum(empties, EMPTY_SPAN) / EMPTY_SPAN


def load(path: str = DATA) -> tuple[np.ndarray, dict[str, int]]:
    """The tables (PHASES, CLASSES, CELLS) as int32 and the evaluation's other weights; zero
    tables and no weights if the file is missing."""
    if not os.path.exists(path):
        return np.zeros((PHASES, CLASSES, CELLS), dtype=np.int32), {}
    with np.load(path) as data:
        tables = np.ascontiguousarray(data["tables"], dtype=np.int32)
        weights = {str(k): int(v) for k, v in zip(data["weight_names"], data["weights"])}
    if tables.shape != (PHASES, CLASSES, CELLS):
        raise ValueError(f"{path}: tables of shape {tables.shape}")
    if not set(weights) <= set(TERMS):
        raise ValueError(f"{path}: weights for unknown terms {sorted(set(weights) - set(TERMS))}")
    return tables, weights
