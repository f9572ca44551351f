"""Banqi Hard against itself with another depth cap: the same deals, each side with both
colours (seats swapped), the compiled search on both sides.

    python bench/banqi_depth.py [--a 12] [--b 6] [--pairs 20] [--seconds 0.3] [--jobs 2]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import banqi as bot  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import banqi as rules  # noqa: E402


def play(job: tuple[int, int, int, int, float, str]) -> tuple[float, int, float]:
    """One game, A in seat a_seat: (A's points, plies, A's slowest decision)."""
    depth_a, depth_b, seed, a_seat, seconds, variant = job
    bot.KERNEL.load()
    rng = random.Random(seed)
    s = rules.new_game({"variant": variant}, seed)
    slowest, plies = 0.0, 0
    while rules.outcome(s) is None:
        bot.MAX_DEPTH = depth_a if s.turn == a_seat else depth_b
        t = time.perf_counter()
        move = bot.choose(rules.view(s, s.turn), rules.legal_moves(s), Budget(seconds), "hard",
                          rng)
        if s.turn == a_seat:
            slowest = max(slowest, time.perf_counter() - t)
        s = rules.apply(s, move)
        plies += 1
    out = rules.outcome(s)
    return (0.5 if out.winner is None else float(out.winner == a_seat)), plies, slowest


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--a", type=int, default=12)
    p.add_argument("--b", type=int, default=6)
    p.add_argument("--pairs", type=int, default=20)
    p.add_argument("--seconds", type=float, default=0.3)
    p.add_argument("--variant", default="taiwan")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    work = [(args.a, args.b, seed, seat, args.seconds, args.variant)
            for seed in range(args.pairs) for seat in (0, 1)]
    start = time.time()
    with workers.pool(args.jobs) as pool:
        results = pool.map(play, work)
    n = len(results)
    points = sum(r[0] for r in results)
    wins = sum(r[0] == 1 for r in results)
    draws = sum(r[0] == 0.5 for r in results)
    score = points / n
    var = sum((r[0] - score) ** 2 for r in results) / n
    err = 1.96 * math.sqrt(var / n)

    def elo(x: float) -> float:
        x = min(max(x, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / x - 1)

    print(f"depth {args.a} vs depth {args.b} at {args.seconds:g} s ({args.variant}), "
          f"{args.pairs} deals x both seats: {wins}-{draws}-{n - wins - draws}, "
          f"{100 * score:.1f}%, {elo(score):+.0f} ± {(elo(score + err) - elo(score - err)) / 2:.0f}"
          f" Elo; A's slowest move {max(r[2] for r in results):.2f} s, mean "
          f"{sum(r[1] for r in results) / n:.0f} plies; load {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores ({time.time() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
