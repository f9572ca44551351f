"""2048's n-tuple network (Szubert & Jaśkowski; Yeh et al.'s four 6-tuples): the value of an
afterstate is the sum, over the 8 symmetries of the board and the 4 tuples, of one weight
looked up by the tile exponents under the tuple's cells. Learnt by TD(0) on afterstates in
bench/g2048_ntuple_train.py; searched with in ai/g2048_kernel.py (its leaf evaluation when a
network is given).

This module has no numba: the shapes, the symmetries, a reference evaluation in Python (the
kernel's is tested against it) and the weight file (only the entries training visited, as
float16, compressed; absent or unreadable means no network, and the bot keeps its heuristic).
Exponents are the packed board's nibbles, capped at 15 (32768) by game.rules.g2048.pack, so a
tuple's table has 16 ** 6 entries.
"""

from __future__ import annotations

import os
import zipfile
from functools import cache
from pathlib import Path

import numpy as np

TUPLES = ((0, 1, 2, 3, 4, 5), (4, 5, 6, 7, 8, 9), (0, 1, 2, 4, 5, 6), (4, 5, 6, 8, 9, 10))
TUPLE_BITS = 24  # 6 cells of 4 bits: one tuple's table
SIZE = len(TUPLES) << TUPLE_BITS
FILE = Path(__file__).with_name("data") / "g2048_ntuple.npz"
MAX_FILE_BYTES = 10 * 1024 * 1024
FORMAT = 1
# Tile-downgrading: a board holding 16384 or more is valued as the same board with every tile
# above its smallest missing one (1024 or more) halved, again while one is missing; when none is
# missing from 1024 up, above its largest missing one from 32 up (the whole chain from 16384
# down, where many games from 16384 ended). The merges a board allows are the same after
# it (equal tiles stay equal, the order stays), and its boards are those the network learnt: its
# training games rarely go past 16384.
DOWNGRADE_FROM = 14  # exponent: 16384
DOWNGRADE_FLOOR = 10  # the missing tile looked for, from 1024 up
DOWNGRADE_LOW = 5  # and failing that, down to 32


def symmetries() -> list[tuple[int, ...]]:
    """The 8 symmetries of the 4x4 board as cell maps (cell 4 * row + col to its image)."""
    maps = []
    for flip in (False, True):
        for turns in range(4):
            image = []
            for cell in range(16):
                r, c = divmod(cell, 4)
                if flip:
                    c = 3 - c
                for _ in range(turns):
                    r, c = c, 3 - r
                image.append(4 * r + c)
            maps.append(tuple(image))
    return maps


@cache
def cell_table() -> np.ndarray:
    """Per (symmetry, tuple), row 4 * s + t: the 6 cells read, most significant digit first."""
    rows = [[sym[c] for c in cells] for sym in symmetries() for cells in TUPLES]
    return np.array(rows, dtype=np.int64)


def features(board: int) -> list[int]:
    """The 32 weight indices a board reads (reference; the kernel computes the same)."""
    out = []
    for row, cells in enumerate(cell_table()):
        index = 0
        for c in cells:
            index = (index << 4) | ((board >> (4 * int(c))) & 0xF)
        out.append(((row % len(TUPLES)) << TUPLE_BITS) | index)
    return out


def downgraded(board: int) -> int:
    """The board the network values in place of this one (reference; the kernel's is tested
    against it)."""
    while True:
        exponents = [(board >> (4 * c)) & 0xF for c in range(16)]
        top = max(exponents)
        above = [k for k in range(DOWNGRADE_FLOOR, top) if k not in exponents]
        below = [k for k in range(DOWNGRADE_LOW, DOWNGRADE_FLOOR) if k not in exponents]
        gap = above[:1] or below[-1:]
        if top < DOWNGRADE_FROM or not gap:
            return board
        board = sum((e - (e > gap[0])) << (4 * c) for c, e in enumerate(exponents))


def value(board: int, weights: np.ndarray) -> float:
    """The network's value of a packed board (reference, in Python)."""
    return float(sum(float(weights[i]) for i in features(board)))


def save(path: str | os.PathLike, weights: np.ndarray, mantissa_bits: int = 10) -> int:
    """Writes the visited (non-zero) weights as float16 rounded down to mantissa_bits (of 10:
    fewer compress better), their indices as the gaps between them (small numbers, which
    compress), all compressed; returns the file's size."""
    index = np.flatnonzero(weights)
    top = float(np.abs(weights[index]).max()) if len(index) else 0.0
    # a power of two that brings every weight within float16's range (65504) without rounding
    scale = 2.0 ** max(0, int(np.ceil(np.log2(top / 32768.0)))) if top > 32768.0 else 1.0
    values = (weights[index] / scale).astype(np.float16)
    mask = np.uint16((0xFFFF << (10 - mantissa_bits)) & 0xFFFF)
    values = (values.view(np.uint16) & mask).view(np.float16)
    gaps = np.diff(index, prepend=0).astype(np.uint32)
    tmp = f"{path}.tmp.npz"
    np.savez_compressed(tmp, format=np.array(FORMAT), tuples=np.array(TUPLES, dtype=np.int64),
                        gap=gaps, value=values, scale=np.array(scale))
    os.replace(tmp, path)
    return os.path.getsize(path)


def load(path: str | os.PathLike = FILE, max_bytes: int | None = None) -> np.ndarray | None:
    """The dense float32 weights of a saved network (SIZE of them, 268 MB), or None if the file
    is missing, bigger than max_bytes (MAX_FILE_BYTES unless given), unreadable, of another
    shape, or too big for the memory there is."""
    try:
        if os.path.getsize(path) > (MAX_FILE_BYTES if max_bytes is None else max_bytes):
            return None
        with np.load(path, allow_pickle=False) as data:
            if int(data["format"]) != FORMAT or not np.array_equal(data["tuples"], TUPLES):
                return None
            gaps, values = data["gap"], data["value"]
            if gaps.shape != values.shape or gaps.ndim != 1 or gaps.dtype.kind != "u":
                return None
            index = np.cumsum(gaps, dtype=np.int64)
            if len(index) and int(index[-1]) >= SIZE:
                return None
            found = values.astype(np.float32) * np.float32(data["scale"])
            if not np.all(np.isfinite(found)):  # before the dense tables: the rest are 0
                return None
            weights = np.zeros(SIZE, dtype=np.float32)
            weights[index] = found
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile,
            MemoryError):  # MemoryError: a machine without room for the dense tables
        return None
    return weights
