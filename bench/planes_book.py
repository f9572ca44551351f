"""Hard's book for Bomb the Planes: its shot at every position it can reach while more than
SEARCH_TO_END_BELOW layouts remain, searched far longer than a second allows: a --depth lookahead
(--top-depth above --top-above layouts) while more than --search-below layouts remain, then a
search to the last head over the --width likeliest cells per shot. And the exact expected shots
to find every head over all 66,816 layouts with that book and, below it, one search to the end
from each position the book leaves (about as wide as a second allows; the game searches again
at every shot, as wide as its time allows).

    python bench/planes_book.py [--depth 4] [--top-depth 5 --top-above 5000]
                                [--search-below 800] [--width 3] [--write]

Without --write it prints the figures only; with it, it also replaces ai/data/planes_book.json.

    python bench/planes_book.py --replanning

prints the exact expected shots of Hard made deterministic with the book on disk: below the
book, a search to the end at fixed widths by size at every shot; over all layouts and over the
1,000 of bench/planes_hunt.py.
It takes minutes and a few gigabytes: a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import planes as bot  # noqa: E402
from ai.base import Budget  # noqa: E402
from game.rules import planes as rules  # noqa: E402
from game.storage import atomic_write  # noqa: E402

SIZE, PLANES = 10, 3


def branches(codes: np.ndarray, index: np.ndarray, history: list, found: int, cell: int):
    """Each answer `cell` can get from these layouts: (its layouts, the history after it, the
    heads found after it)."""
    column = codes[index, cell]
    for k, answer in enumerate(rules.ANSWERS):
        if (column == k).any():
            yield index[column == k], history + [(cell, answer)], found + (k == 2)


def end_width(n: int) -> int:
    """Cells weighed per shot by a search to the end from n layouts: about what a second
    allows."""
    return 8 if n <= 20 else 4 if n <= 60 else 3 if n <= 150 else 2


class Builder:
    """Walks every answer from the first shot on, recording the book's shot at each position
    with more than SEARCH_TO_END_BELOW layouts left; returns the expected shots still needed."""

    def __init__(self, depth: int, search_below: int, width: int, top_depth: int = 0,
                 top_above: int = 0):
        _, self.codes = rules.layouts(SIZE, PLANES)
        self.depth, self.search_below, self.width = depth, search_below, width
        self.top_depth, self.top_above = top_depth, top_above
        self.shots: dict[str, int] = {}

    def walk(self, index: np.ndarray, history: list, found: int) -> float:
        n = len(index)
        if found == PLANES:
            return 0.0
        shot = frozenset(cell for cell, _ in history)
        if n <= self.search_below:
            width = self.width if n > bot.SEARCH_TO_END_BELOW else end_width(n)
            search = bot.Exact(self.codes, PLANES, Budget(math.inf), width)
            value, cell = search.cost(tuple(int(i) for i in index), found, shot)
            if n > bot.SEARCH_TO_END_BELOW:
                self.shots[bot.book_key(history)] = cell
                self.record_below(search, index, history, found, cell)
            return value
        live = self.codes[index]
        depth = self.top_depth if n > self.top_above and self.top_depth else self.depth
        _, cell = bot.lookahead(live, set(shot), PLANES - found, depth, Budget(math.inf))
        self.shots[bot.book_key(history)] = cell
        return 1.0 + sum(len(branch) / n * self.walk(branch, after, heads)
                         for branch, after, heads in branches(self.codes, index, history, found,
                                                              cell))

    def record_below(self, search: bot.Exact, index: np.ndarray, history: list, found: int,
                     cell: int) -> None:
        """The search's own shots after `cell`, while more than SEARCH_TO_END_BELOW remain."""
        for branch, then, after in branches(self.codes, index, history, found, cell):
            if len(branch) > bot.SEARCH_TO_END_BELOW and after < PLANES:
                _, next_cell = search.memo[(tuple(int(i) for i in branch), after)]
                self.shots[bot.book_key(then)] = next_cell
                self.record_below(search, branch, then, after, next_cell)


def replanning_shots(codes: np.ndarray) -> np.ndarray:
    """Each layout's shots to find every head by Hard made deterministic: the book on disk,
    and below it a search to the end at end_width at every shot, as the game searches again."""
    book = bot.book(SIZE, PLANES)
    shots = np.zeros(len(codes), dtype=np.int32)
    stack: list[tuple[np.ndarray, list, int]] = [(np.arange(len(codes)), [], 0)]
    while stack:
        index, history, found = stack.pop()
        n = len(index)
        if found == PLANES or n == 1:
            shots[index] = len(history) + PLANES - found
            continue
        if n > bot.SEARCH_TO_END_BELOW:
            cell = book[bot.book_key(history)]
        else:
            search = bot.Exact(codes, PLANES, Budget(math.inf), end_width(n))
            cell = search.cost(tuple(int(i) for i in index), found,
                               frozenset(c for c, _ in history))[1]
        stack.extend(branches(codes, index, history, found, cell))
    return shots


def report_replanning() -> None:
    """The exact figures of Hard made deterministic, over all layouts and planes_hunt's."""
    began = time.monotonic()
    index, codes = rules.layouts(SIZE, PLANES)
    shots = replanning_shots(codes)
    rng = random.Random(1)  # bench/planes_hunt.py's layouts
    sample = shots[[rng.randrange(len(index)) for _ in range(1000)]]
    print(f"Hard made deterministic, over all {len(codes):,} layouts: mean {shots.mean():.4f} "
          f"shots, p90 {np.percentile(shots, 90):.0f}, max {shots.max()}; over planes_hunt's "
          f"1,000 layouts: mean {sample.mean():.2f}; {time.monotonic() - began:.0f} s")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--depth", type=int, default=4, help="shots the lookahead sees")
    p.add_argument("--top-depth", type=int, default=0, help="a deeper lookahead, above...")
    p.add_argument("--top-above", type=int, default=0, help="...this many layouts")
    p.add_argument("--search-below", type=int, default=800, help="layouts")
    p.add_argument("--width", type=int, default=3, help="cells per shot searched to the end")
    p.add_argument("--write", action="store_true", help="replace ai/data/planes_book.json")
    p.add_argument("--replanning", action="store_true",
                   help="instead, the exact figures of Hard with the book on disk")
    args = p.parse_args()
    if args.replanning:
        report_replanning()
        return
    began = time.monotonic()
    builder = Builder(args.depth, args.search_below, args.width, args.top_depth, args.top_above)
    value = builder.walk(np.arange(len(builder.codes)), [], 0)
    made_by = (f"python bench/planes_book.py --depth {args.depth} --top-depth {args.top_depth} "
               f"--top-above {args.top_above} --search-below {args.search_below} "
               f"--width {args.width}")
    print(f"{made_by}: book of {len(builder.shots)} positions; expected shots to find every "
          f"head over all {len(builder.codes):,} layouts: {value:.4f}; "
          f"{time.monotonic() - began:.0f} s", flush=True)
    if args.write:
        data = {"size": SIZE, "planes": PLANES, "above": bot.SEARCH_TO_END_BELOW,
                "made_by": made_by + " --write", "expected_shots": round(value, 4),
                "shots": builder.shots}
        atomic_write(bot.BOOK, (json.dumps(data, indent=0, sort_keys=True) + "\n").encode())
        print(f"wrote {bot.BOOK}")


if __name__ == "__main__":
    main()
