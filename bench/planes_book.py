"""Hard's book for Bomb the Planes: its shot at every position it can reach while more than
SEARCH_TO_END_BELOW layouts remain, searched far longer than a second allows: a --depth lookahead
(--top-depth above --top-above layouts) while more than --search-below layouts remain, then a
search to the last head over the --width likeliest cells per shot. And the exact expected shots
to find every head over all 66,816 layouts with that book and, below it, one search to the end
from each position the book leaves (about as wide as a second allows; the game searches again
at every shot, as wide as its time allows).

    python bench/planes_book.py [--depth 4] [--top-depth 5 --top-above 5000]
                                [--search-below 800] [--width 3] [--jobs 2] [--write]

Without --write it prints the figures only; with it, it also replaces ai/data/planes_book.json.
With --improve K it starts from the book on disk and improves it, children first: at each
position above --search-below it weighs the K next best shots by a two-shot estimate, each by
its exact value with the lookahead and the search below it, and keeps the least; then it walks
the new book afresh for its figure. About an hour on two cores for K = 2.

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
from bench import workers  # noqa: E402
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
    with more than SEARCH_TO_END_BELOW layouts left; returns the expected shots still needed.
    Above --search-below it plays `chosen`'s shot where it has one, else the lookahead's."""

    def __init__(self, depth: int, search_below: int, width: int, top_depth: int = 0,
                 top_above: int = 0, chosen: dict[str, int] | None = None):
        _, self.codes = rules.layouts(SIZE, PLANES)
        self.depth, self.search_below, self.width = depth, search_below, width
        self.top_depth, self.top_above = top_depth, top_above
        self.chosen = dict(chosen or {})
        self.shots: dict[str, int] = {}
        self.values: dict[str, float] = {}  # positions already walked, for transpositions

    def walk(self, index: np.ndarray, history: list, found: int, cell: int | None = None,
             cutoff: float = math.inf) -> float:
        """With `cell`, that shot first. Stops once the value cannot be under `cutoff` and
        returns a value no less than it."""
        n = len(index)
        if found == PLANES:
            return 0.0
        key = bot.book_key(history)
        if cell is None and key in self.values:
            return self.values[key]
        if n <= self.search_below and cell is None:
            value = self.search(index, history, found)
        else:
            cell = self.choose(index, history, found) if cell is None else cell
            self.shots[key] = cell
            kids = list(branches(self.codes, index, history, found, cell))
            bounds = [len(b) / n * (PLANES - heads) for b, _, heads in kids]  # a shot a head
            value = 1.0 + sum(bounds)
            for (branch, after, heads), bound in zip(kids, bounds):
                if value >= cutoff:
                    return value
                value += len(branch) / n * self.walk(branch, after, heads) - bound
        if cell is None or cell == self.chosen.get(key):
            self.values[key] = value
        return value

    def choose(self, index: np.ndarray, history: list, found: int) -> int:
        """The chosen shot, or the lookahead's."""
        key = bot.book_key(history)
        if key not in self.chosen:
            depth = (self.top_depth if len(index) > self.top_above and self.top_depth
                     else self.depth)
            self.chosen[key] = bot.lookahead(self.codes[index], {c for c, _ in history},
                                             PLANES - found, depth, Budget(math.inf))[1]
        return self.chosen[key]

    def search(self, index: np.ndarray, history: list, found: int) -> float:
        """A search to the last head, recording its shots above SEARCH_TO_END_BELOW."""
        n = len(index)
        width = self.width if n > bot.SEARCH_TO_END_BELOW else end_width(n)
        search = bot.Exact(self.codes, PLANES, Budget(math.inf), width)
        value, cell = search.cost(tuple(int(i) for i in index), found,
                                  frozenset(c for c, _ in history))
        if n > bot.SEARCH_TO_END_BELOW:
            self.shots[bot.book_key(history)] = cell
            self.record_below(search, index, history, found, cell)
        return value

    def record_below(self, search: bot.Exact, index: np.ndarray, history: list, found: int,
                     cell: int) -> None:
        """The search's own shots after `cell`, while more than SEARCH_TO_END_BELOW remain."""
        for branch, then, after in branches(self.codes, index, history, found, cell):
            if len(branch) > bot.SEARCH_TO_END_BELOW and after < PLANES:
                _, next_cell = search.memo[(tuple(int(i) for i in branch), after)]
                self.shots[bot.book_key(then)] = next_cell
                self.record_below(search, branch, then, after, next_cell)

    def improve(self, index: np.ndarray, history: list, found: int, alternatives: int) -> float:
        """Policy improvement, children first: at each position above --search-below, the
        exact value of the chosen shot against that of the `alternatives` next best (each
        followed by the lookahead and the search below); the least is chosen."""
        n = len(index)
        if found == PLANES or n <= self.search_below:
            return self.walk(index, history, found)
        cell = self.choose(index, history, found)
        best = 1.0 + sum(len(branch) / n * self.improve(branch, after, heads, alternatives)
                         for branch, after, heads in branches(self.codes, index, history,
                                                              found, cell))
        key = bot.book_key(history)
        self.values[key] = best
        for other in self.ranked(index, history, found, cell)[:alternatives]:
            value = self.walk(index, history, found, other, cutoff=best)
            if value < best:
                print(f"  [{key}] {n} layouts: {other} instead of {cell}, "
                      f"{best:.4f} -> {value:.4f}", flush=True)
                best, self.chosen[key], self.values[key] = value, other, value
        return best

    def ranked(self, index: np.ndarray, history: list, found: int, cell: int) -> list[int]:
        """The lookahead's LOOK_WIDTH cells but `cell`, best first by a two-shot lookahead."""
        live, shot, left = self.codes[index], {c for c, _ in history}, PLANES - found
        costs = bot.one_ply(live, shot, left)
        order = [int(c) for c in np.argsort(costs, kind="stable")[:bot.LOOK_WIDTH]
                 if costs[c] < math.inf and c != cell]
        return sorted(order, key=lambda c: bot.shot_cost(live, shot, left, c, 2,
                                                         Budget(math.inf)))


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


def subtree(settings: tuple, chosen: dict[str, int], cell: int, answer: int,
            alternatives: int) -> tuple[float, dict[str, int], dict[str, int]]:
    """In a worker: the root's branch after `cell` gets answer number `answer`; improved first
    if `alternatives`. Returns its value, the shots chosen and the book's shots in it."""
    builder = Builder(*settings, chosen=chosen)
    index = np.arange(len(builder.codes))
    for branch, history, found in branches(builder.codes, index, [], 0, cell):
        if history[-1][1] == rules.ANSWERS[answer]:
            if alternatives:
                builder.improve(branch, history, found, alternatives)
                builder = Builder(*settings, chosen=builder.chosen)  # walks afresh, for the book
            return builder.walk(branch, history, found), builder.chosen, builder.shots
    raise ValueError(f"no layout answers {rules.ANSWERS[answer]} at {cell}")


def root_walk(settings: tuple, chosen: dict[str, int], alternatives: int, jobs: int
              ) -> tuple[float, dict[str, int], dict[str, int]]:
    """(expected shots, shots chosen, book) from the first shot, the root's branches in
    `jobs` processes; with `alternatives`, the policy is improved first, the root last."""
    builder = Builder(*settings, chosen=chosen)
    n = len(builder.codes)
    cell = builder.choose(np.arange(n), [], 0)
    column = builder.codes[:, cell]
    tasks = [(settings, builder.chosen, cell, k, alternatives) for k in range(3)
             if (column == k).any()]
    with workers.pool(jobs, "fork") as pool:
        parts = pool.starmap(subtree, tasks)
        value = 1.0 + sum((column == k).sum() / n * part[0] for (*_, k, _), part in
                          zip(tasks, parts))
        for part in parts:
            builder.chosen.update(part[1])
        if alternatives:
            others = builder.ranked(np.arange(n), [], 0, cell)[:alternatives]
            values = pool.starmap(root_alternative, [(settings, builder.chosen, other, value)
                                                     for other in others])
            for other, other_value in zip(others, values):
                print(f"  [] {n} layouts: {other} instead of {cell}: {other_value:.4f} "
                      f"against {value:.4f}", flush=True)
            if min(values, default=math.inf) < value:
                builder.chosen[""] = others[values.index(min(values))]
                return root_walk(settings, builder.chosen, 0, jobs)
    shots = {"": cell}
    for part in parts:
        shots.update(part[2])
    return value, builder.chosen, shots


def root_alternative(settings: tuple, chosen: dict[str, int], cell: int, cutoff: float
                     ) -> float:
    """In a worker: the value of `cell` as the first shot, or one no less than cutoff."""
    builder = Builder(*settings, chosen=chosen)
    return builder.walk(np.arange(len(builder.codes)), [], 0, cell, cutoff)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--depth", type=int, default=4, help="shots the lookahead sees")
    p.add_argument("--top-depth", type=int, default=0, help="a deeper lookahead, above...")
    p.add_argument("--top-above", type=int, default=0, help="...this many layouts")
    p.add_argument("--search-below", type=int, default=800, help="layouts")
    p.add_argument("--width", type=int, default=3, help="cells per shot searched to the end")
    p.add_argument("--improve", type=int, default=0, metavar="K",
                   help="improve the book on disk: weigh K other shots at each position")
    p.add_argument("--jobs", type=int, default=1, help="processes")
    p.add_argument("--write", action="store_true", help="replace ai/data/planes_book.json")
    p.add_argument("--replanning", action="store_true",
                   help="instead, the exact figures of Hard with the book on disk")
    args = p.parse_args()
    if args.replanning:
        report_replanning()
        return
    began = time.monotonic()
    settings = (args.depth, args.search_below, args.width, args.top_depth, args.top_above)
    made_by = (f"python bench/planes_book.py --depth {args.depth} --top-depth {args.top_depth} "
               f"--top-above {args.top_above} --search-below {args.search_below} "
               f"--width {args.width}")
    chosen = {}
    if args.improve:
        chosen = bot.book(SIZE, PLANES)
        made_by = f"{book_made_by()}, then {made_by} --improve {args.improve}"
    value, _, shots = root_walk(settings, chosen, args.improve, args.jobs)
    print(f"{made_by}: book of {len(shots)} positions; expected shots to find every "
          f"head over all {len(rules.layouts(SIZE, PLANES)[1]):,} layouts: {value:.4f}; "
          f"{time.monotonic() - began:.0f} s", flush=True)
    if args.write:
        data = {"size": SIZE, "planes": PLANES, "above": bot.SEARCH_TO_END_BELOW,
                "made_by": made_by + " --write", "expected_shots": round(value, 4),
                "shots": shots}
        atomic_write(bot.BOOK, (json.dumps(data, indent=0, sort_keys=True) + "\n").encode())
        print(f"wrote {bot.BOOK}")


def book_made_by() -> str:
    """The command that made the book on disk."""
    try:
        made_by = str(json.loads(bot.BOOK.read_text(encoding="utf-8"))["made_by"])
        return made_by.removesuffix(" --write")
    except (OSError, ValueError, KeyError, TypeError):
        return "a missing book"


if __name__ == "__main__":
    main()
