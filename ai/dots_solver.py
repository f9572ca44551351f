"""Exact Dots and Boxes values: a retrograde table over every line set (numpy), and a memoised
search for positions small enough to search, compiled (ai/dots_kernel.py, through ai.compiled)
when numba is there; the pure Memo is its reference.

A value is the best margin of the boxes still free that the side to move can secure (boxes it
takes minus boxes the opponent takes, from here to the end), with both sides playing perfectly.
`python -m ai.dots_solver --build PATH` builds the 3x3 table into PATH (a compressed .npz).
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import threading
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ai.base import Budget, Deadline
from ai.compiled import Kernel
from game.rules.dots import Geometry, completed, geometry
from game.storage import atomic_write, cache_dir

TABLE_VERSION = 1
KERNEL = Kernel("ai.dots_kernel")


def popcounts(n_bits: int) -> np.ndarray:
    """The number of set bits of every integer below 2**n_bits (uint8)."""
    counts = np.zeros(1, dtype=np.uint8)
    for _ in range(n_bits):
        counts = np.concatenate([counts, counts + 1])
    return counts


def solve(rows: int, cols: int) -> np.ndarray:
    """The value of every line set of a rows x cols board, indexed by the set's bitmask."""
    geo = geometry(rows, cols)
    n = geo.lines
    value = np.zeros(1 << n, dtype=np.int8)
    levels = popcounts(n)
    order = np.argsort(levels, kind="stable").astype(np.uint32)
    bounds = np.concatenate([[0], np.cumsum(np.bincount(levels, minlength=n + 1))])
    sides = [np.uint32(s) for s in geo.box_sides]
    for k in range(n - 1, -1, -1):
        masks = order[bounds[k]:bounds[k + 1]]
        best = np.full(len(masks), -127, dtype=np.int8)
        for line in range(n):
            bit = np.uint32(1 << line)
            free = np.nonzero((masks & bit) == 0)[0]
            new = masks[free] | bit
            gained = np.zeros(len(free), dtype=np.int8)
            for b in geo.line_boxes[line]:
                gained += ((new & sides[b]) == sides[b]).astype(np.int8)
            after = value[new]
            val = np.where(gained > 0, gained + after, -after).astype(np.int8)
            best[free] = np.maximum(best[free], val)
        value[masks] = best
    return value


def save_table(table: np.ndarray, path: Path | str) -> None:
    """Write the table compressed, atomically."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, value=table, version=np.int32(TABLE_VERSION))
    atomic_write(path, buffer.getvalue())


def load_table(path: Path | str, lines: int) -> np.ndarray | None:
    """The table at path, or None if it is missing, damaged or of another size."""
    try:
        with np.load(path) as data:
            table = data["value"]
            if int(data["version"]) != TABLE_VERSION or table.shape != (1 << lines,) \
                    or table.dtype != np.int8:
                return None
            return table
    except (OSError, ValueError, KeyError, EOFError):
        return None


class Memo:
    """Exact values by memoised search (small boards, late positions)."""

    def __init__(self, geo: Geometry):
        self.geo = geo
        self.full = (1 << geo.lines) - 1
        self.cache: dict[int, int] = {}
        self.calls = 0

    def value(self, mask: int, budget: Budget | None = None) -> int:
        if mask == self.full:
            return 0
        got = self.cache.get(mask)
        if got is not None:
            return got
        self.calls += 1
        if not self.calls & 1023:
            if budget is not None:
                budget.check()
            if len(self.cache) > 3_000_000:
                self.cache.clear()
        best = -127
        for line in range(self.geo.lines):
            if mask >> line & 1:
                continue
            new = mask | 1 << line
            c = completed(self.geo, mask, line)
            v = c + self.value(new, budget) if c else -self.value(new, budget)
            if v > best:
                best = v
        self.cache[mask] = best
        return best

    def values(self, masks: list[int], budget: Budget | None = None) -> list[int]:
        """value() of each mask."""
        return [self.value(mask, budget) for mask in masks]


class CompiledMemo:
    """Memo's values from the compiled search; its memo is kept for the board size."""

    def __init__(self, geo: Geometry, kernel: Any):
        self.geo = geo
        self.kernel = kernel
        self.tables = kernel.Tables(geo)
        self.lock = threading.Lock()  # one search at a time in the shared tables

    @property
    def calls(self) -> int:
        return int(self.tables.ctl[self.kernel.CALLS])

    def value(self, mask: int, budget: Budget | None = None) -> int:
        """As Memo.value; Deadline once the budget is spent."""
        return self.values([mask], budget)[0]

    def values(self, masks: list[int], budget: Budget | None = None) -> list[int]:
        """value() of each mask under one watcher (starting a thread can take long on a
        loaded machine); Deadline once the budget is spent."""
        k, ctl = self.kernel, self.tables.ctl
        with self.lock:
            if budget is not None and budget.expired():
                raise Deadline
            ctl[k.STOP] = ctl[k.ABORTED] = 0
            done = threading.Event()
            if budget is not None:
                threading.Thread(target=_watch, args=(budget, ctl, k.STOP, done), daemon=True,
                                 name="dots-deadline").start()
            got = []
            try:
                for mask in masks:
                    got.append(self.tables.value(mask))
                    if ctl[k.ABORTED]:
                        raise Deadline
            finally:
                done.set()
            return got


def _watch(budget: Budget, ctl: Any, stop: int, done: threading.Event) -> None:
    """Raises the kernel's stop flag once the budget expires, until the search is done."""
    while not done.wait(0.004):
        if budget.expired():
            ctl[stop] = 1
            return


@cache
def _pure_memo(rows: int, cols: int) -> Memo:
    return Memo(geometry(rows, cols))


@cache
def _compiled_memo(rows: int, cols: int, kernel: Any) -> CompiledMemo:
    return CompiledMemo(geometry(rows, cols), kernel)


def memo_for(rows: int, cols: int) -> Memo | CompiledMemo:
    """The shared exact search for this board: compiled once the kernel is ready."""
    kernel = KERNEL.get()
    if kernel is not None and geometry(rows, cols).lines <= 63:
        return _compiled_memo(rows, cols, kernel)
    return _pure_memo(rows, cols)


class Table:
    """The 3x3 table, loaded from the cache or built once in the background."""

    def __init__(self, rows: int = 3, cols: int = 3):
        self.rows, self.cols = rows, cols
        self.lines = geometry(rows, cols).lines
        self.table: np.ndarray | None = None
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.error: str | None = None

    def path(self) -> Path:
        return cache_dir() / f"dots-{self.rows}x{self.cols}-v{TABLE_VERSION}.npz"

    def get(self, start: bool = True) -> np.ndarray | None:
        """The table if it is ready; otherwise starts building it (once) and returns None."""
        with self.lock:
            if self.table is not None:
                return self.table
            if self.thread is None and start:
                self.thread = threading.Thread(target=self._load_or_build, daemon=True,
                                               name="dots-table")
                self.thread.start()
        return None

    def _load_or_build(self) -> None:
        path = self.path()
        table = load_table(path, self.lines)
        if table is None:
            # A separate process: the build must not take the loop thread's GIL.
            root = Path(__file__).resolve().parent.parent
            run = subprocess.run([sys.executable, "-m", "ai.dots_solver", "--build", str(path),
                                  "--rows", str(self.rows), "--cols", str(self.cols)],
                                 cwd=root, capture_output=True, text=True,
                                 env=dict(os.environ))
            table = load_table(path, self.lines)
            if table is None:
                self.error = run.stderr.strip()[-300:] or "table build failed"
                return
        with self.lock:
            self.table = table

    def wait(self, timeout: float | None = None) -> np.ndarray | None:
        """Block until ready (scripts and tests only)."""
        self.get()
        if self.thread is not None:
            self.thread.join(timeout)
        return self.table


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True, help="where to write the table")
    p.add_argument("--rows", type=int, default=3)
    p.add_argument("--cols", type=int, default=3)
    args = p.parse_args()
    if geometry(args.rows, args.cols).lines > 26:
        raise SystemExit("board too large for a full table")
    save_table(solve(args.rows, args.cols), args.build)


if __name__ == "__main__":
    main()
