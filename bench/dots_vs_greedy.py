"""The Dots and Boxes bot against the greedy player, and the 3x3 table's build.

    python bench/dots_vs_greedy.py [--games 20] [--seconds 1.0] [--sizes 4x4,5x5] [--level hard]
    python bench/dots_vs_greedy.py --table      (build the 3x3 table: time and peak memory)

Greedy takes any box offered, otherwise avoids drawing a box's third side, otherwise plays at
random. Seats alternate game by game.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import dots as bot  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import dots as rules  # noqa: E402


def play(job: tuple[int, int, int, float, str]) -> tuple[int, int, float, float]:
    """One game: (our seat, our margin, our score 1/0.5/0, slowest decision in seconds)."""
    rows, cols, seed, seconds, level = job
    rng = random.Random(seed)
    ours = seed % 2
    s = rules.new_game({"rows": rows, "cols": cols})
    slowest = 0.0
    while rules.outcome(s) is None:
        legal = rules.legal_moves(s)
        if s.turn == ours:
            t = time.perf_counter()
            move = bot.choose(rules.view(s, ours), legal, Budget(seconds), level, rng)
            slowest = max(slowest, time.perf_counter() - t)
        else:
            move = bot.greedy_move(s, legal, rng)
        s = rules.apply(s, move)
    out = rules.outcome(s)
    margin = out.score[ours] - out.score[1 - ours]
    return ours, margin, 0.5 if out.winner is None else float(out.winner == ours), slowest


def versus_greedy(size: str, games: int, seconds: float, level: str, jobs: int) -> None:
    rows, cols = (int(n) for n in size.split("x"))
    work = [(rows, cols, seed, seconds, level) for seed in range(games)]
    start = time.time()
    with workers.pool(jobs) as pool:
        results = pool.map(play, work)
    points = sum(r[2] for r in results)
    wins = sum(r[2] == 1 for r in results)
    print(f"{size}: {level} at {seconds:g} s vs greedy: {wins} wins, "
          f"{points:.1f}/{games} points = {100 * points / games:.1f}%, "
          f"mean margin {sum(r[1] for r in results) / games:+.2f}, "
          f"slowest move {max(r[3] for r in results):.2f} s ({time.time() - start:.0f} s)")


def table() -> None:
    from ai.dots_solver import solve
    t = time.perf_counter()
    values = solve(3, 3)
    took = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"3x3 table: {len(values):,} line sets in {took:.1f} s, peak RSS {peak:.0f} MB, "
          f"value of the empty board {int(values[0])} (first player's margin)")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--sizes", default="4x4,5x5")
    p.add_argument("--level", default="hard")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--table", action="store_true")
    args = p.parse_args()
    if args.table:
        table()
        return
    for size in args.sizes.split(","):
        versus_greedy(size, args.games, args.seconds, args.level, args.jobs)


if __name__ == "__main__":
    main()
