"""The Ataxx evaluation's network (issue 31): an NNUE of one hidden layer, for the standard
board (no blockers).

Inputs: each of the 36 2x2 windows of the board reads its four squares as empty, a stone of
x or a stone of o, one of 81 states, so 36 x 81 = 2916 inputs of which 36 are on. They feed
HIDDEN units (the accumulator) in absolute colours, so one accumulator serves both sides and is
updated incrementally by the compiled search as moves are made (a move changes the windows
round its squares only). The units go through SCReLU (clamped to 0..1, squared) to one output
per side to move: the side to move's win chance as a logit, times the file's K points a logit.

Quantized as integers for the kernel: accumulator weights and biases x QA in int16, output
weights x QB in int16, output biases x QA x QB. All in one int16 array of rows:
INPUTS feature rows, the bias row, then the two output rows (x to move, o to move); the two
output biases and K travel beside it. A side-relative network (inputs read with the side to
move as x, one output) is written in this form at twice its units, each output reading its
own half (absolute(), units()). Trained by bench/ataxx_nnue_train.py; the file is
ai/data/ataxx_nnue.npz. numpy only: the training script and the tests read positions the same
way as the kernel.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

SIZE = 7
WINDOWS = 36  # 6 x 6 windows of 2 x 2 squares
STATES = 81  # 3 ** 4
INPUTS = WINDOWS * STATES
HIDDEN = 128  # the training's default; a file may have another multiple of 8 up to 1024
QA, QB = 255, 64
BIAS_ROW = INPUTS
OUT_ROW = INPUTS + 1  # + 0 for x to move, + 1 for o to move
ROWS = INPUTS + 3
LIMIT = 1.98  # |weight| at most this, so 36 of them stay within an int16 accumulator
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "ataxx_nnue.npz")

# A window's corner square for each window (row * 7 + column, row and column 0..5), and the
# mask of those squares: a window is named by its lowest square.
CORNERS = np.array([r * SIZE + c for r in range(6) for c in range(6)], dtype=np.int64)
CORNER_MASK = sum(1 << int(s) for s in CORNERS)
WINDOW_OF = np.full(64, -1, dtype=np.int64)
WINDOW_OF[CORNERS] = np.arange(WINDOWS)
# QUAD[m]: the base-3 digits (1 each) of the 4-bit mask m, bit 0 the corner, bit 1 its right,
# bit 2 the square above (+7), bit 3 above right (+8).
QUAD = np.array([sum(3 ** k for k in range(4) if m >> k & 1) for m in range(16)],
                dtype=np.int64)


@dataclass(frozen=True)
class Net:
    """A quantized network as the kernel reads it."""

    rows: np.ndarray  # (ROWS, HIDDEN) int16
    out_bias: tuple[int, int]  # x QA x QB, x to move then o to move
    k: int  # evaluation points a logit


def quads(b: np.ndarray, corner: int) -> np.ndarray:
    """The 4-bit masks of the window at corner, for an array of bitboards."""
    c = np.uint64(corner)
    three, seven = np.uint64(3), np.uint64(SIZE)
    low = (b >> c) & three
    high = (b >> (c + seven)) & three
    return (low | (high << np.uint64(2))).astype(np.int64)


def features(x: np.ndarray, o: np.ndarray) -> np.ndarray:
    """(positions, WINDOWS) active input indices for the x and o bitboards."""
    x = np.asarray(x, dtype=np.uint64)
    o = np.asarray(o, dtype=np.uint64)
    out = np.empty((len(x), WINDOWS), dtype=np.int64)
    for w, corner in enumerate(CORNERS):
        out[:, w] = w * STATES + QUAD[quads(x, int(corner))] + 2 * QUAD[quads(o, int(corner))]
    return out


def evaluate(net: Net, x: int, o: int, x_to_move: bool) -> int:
    """The side to move's score in points, as the kernel computes it (tests, tools)."""
    acc = net.rows[BIAS_ROW].astype(np.int64) + net.rows[features(
        np.array([x], dtype=np.uint64), np.array([o], dtype=np.uint64))[0]].astype(
        np.int64).sum(0)
    acc = acc.astype(np.int16).astype(np.int64)  # the kernel's accumulator is int16
    head = 0 if x_to_move else 1
    c = np.clip(acc, 0, QA)
    total = int((c * c * net.rows[OUT_ROW + head].astype(np.int64)).sum())
    return (total // QA + net.out_bias[head]) * net.k // (QA * QB)


def _swapped_state(state: int) -> int:
    """A window's state with the colours exchanged (its base-3 digits 1 and 2 swapped)."""
    digits = [state // 3 ** k % 3 for k in range(4)]
    return sum((0, 2, 1)[d] * 3 ** k for k, d in enumerate(digits))


# SWAPPED[i]: the input i reads with x and o exchanged.
SWAPPED = np.array([w * STATES + _swapped_state(s) for w in range(WINDOWS) for s in range(STATES)],
                   dtype=np.int64)


def absolute(w: np.ndarray, b: np.ndarray, head: np.ndarray, head_bias: float | int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A side-relative network (inputs read with the side to move as x, one output) as the
    absolute-colour network the kernel plays, of twice its units: the first half reads the
    board as it is and feeds the x-to-move output, the second reads it with the colours
    exchanged and feeds the o-to-move output. Both give the relative network's score."""
    zeros = np.zeros_like(head)  # of head's type: an integer network stays integer
    return (np.concatenate([w, w[SWAPPED]], axis=1), np.concatenate([b, b]),
            np.stack([np.concatenate([head, zeros]), np.concatenate([zeros, head])]),
            np.array([head_bias, head_bias]))


def units(net: Net) -> tuple[tuple[int, int], tuple[int, int]]:
    """For each output (x to move, o to move), the first unit it reads and the last + 1: all
    of them in an absolute network, its half in a relative one written by absolute()."""
    spans = []
    for head in range(2):
        used = np.flatnonzero(net.rows[OUT_ROW + head])
        spans.append((int(used[0]), int(used[-1]) + 1) if used.size else (0, 0))
    return spans[0], spans[1]


def floats(net: Net) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The float network a quantized one came from, to the rounding (w, b, out, out_bias)."""
    rows = net.rows.astype(np.float64)
    return (rows[:INPUTS] / QA, rows[BIAS_ROW] / QA, rows[OUT_ROW:] / QB,
            np.array(net.out_bias, dtype=np.float64) / (QA * QB))


def quantize(w: np.ndarray, b: np.ndarray, out: np.ndarray, out_bias: np.ndarray,
             k: float) -> Net:
    """A float network (w: INPUTS x HIDDEN, b: HIDDEN, out: 2 x HIDDEN, out_bias: 2) as
    integers."""
    rows = np.empty((ROWS, w.shape[1]), dtype=np.int16)
    rows[:INPUTS] = np.round(np.clip(w, -LIMIT, LIMIT) * QA)
    rows[BIAS_ROW] = np.round(np.clip(b, -LIMIT, LIMIT) * QA)
    rows[OUT_ROW:] = np.round(np.clip(out, -LIMIT, LIMIT) * QB)
    bias = tuple(int(round(float(v) * QA * QB)) for v in out_bias)
    return Net(rows, (bias[0], bias[1]), int(round(k)))


def save(net: Net, path: str) -> None:
    tmp = path + ".tmp.npz"
    np.savez_compressed(tmp, rows=net.rows, out_bias=np.array(net.out_bias, dtype=np.int64),
                        k=np.int64(net.k))
    os.replace(tmp, path)


def load(path: str = DATA) -> Net | None:
    """The network of path; None if there is no file. A file of the wrong shape raises."""
    if not os.path.exists(path):
        return None
    with np.load(path) as data:
        rows = np.ascontiguousarray(data["rows"], dtype=np.int16)
        out_bias = [int(v) for v in data["out_bias"]]
        k = int(data["k"])
    hidden = rows.shape[1] if rows.ndim == 2 else 0
    if rows.shape[0] != ROWS or not 8 <= hidden <= 1024 or hidden % 8 or len(out_bias) != 2 \
            or not 1 <= k <= 10_000:
        raise ValueError(f"{path}: a network of shape {rows.shape}, {len(out_bias)} biases, "
                         f"K {k}")
    return Net(rows, (out_bias[0], out_bias[1]), k)
