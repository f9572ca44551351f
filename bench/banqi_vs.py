"""The Banqi bot against a random player and against a greedy player (capture the most valuable
piece it can, else flip, else a random move), seats alternating.

    python bench/banqi_vs.py [--games 100] [--seconds 1.0] [--level hard] [--fog] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import banqi as bot  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import banqi as rules  # noqa: E402


def play(job: tuple[str, int, float, str, bool, str]) -> tuple[float, float, int]:
    """One game: (our points, slowest decision, plies)."""
    opponent, seed, seconds, level, fog, variant = job
    rng = random.Random(seed)
    ours = seed % 2
    s = rules.new_game({"variant": variant, "fog": fog}, seed)
    slowest = 0.0
    while rules.outcome(s) is None:
        legal = rules.legal_moves(s)
        if s.turn == ours:
            t = time.perf_counter()
            move = bot.choose(rules.view(s, ours), legal, Budget(seconds), level, rng)
            slowest = max(slowest, time.perf_counter() - t)
        elif opponent == "greedy":
            move = bot.greedy_move(rules.view(s, s.turn), legal, rng)
        else:
            move = rng.choice(legal)
        s = rules.apply(s, move)
    out = rules.outcome(s)
    return (0.5 if out.winner is None else float(out.winner == ours)), slowest, len(
        s.history)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--level", default="hard")
    p.add_argument("--opponents", default="random,greedy")
    p.add_argument("--variant", default="taiwan")
    p.add_argument("--fog", action="store_true")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    for opponent in args.opponents.split(","):
        work = [(opponent, seed, args.seconds, args.level, args.fog, args.variant)
                for seed in range(args.games)]
        start = time.time()
        with workers.pool(args.jobs) as pool:
            results = pool.map(play, work)
        points = sum(r[0] for r in results)
        wins = sum(r[0] == 1 for r in results)
        draws = sum(r[0] == 0.5 for r in results)
        print(f"{args.level} at {args.seconds:g} s vs {opponent} ({args.variant}"
              f"{', fog' if args.fog else ''}): {wins} wins, {draws} draws, "
              f"{len(results) - wins - draws} losses of {len(results)}: "
              f"{100 * points / len(results):.1f}% of the points; slowest move "
              f"{max(r[1] for r in results):.2f} s ({time.time() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
