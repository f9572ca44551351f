"""Probes to find every fox, over random fields, for each hunting policy.

    python bench/foxhunt_probes.py [--fields 1000] [--size 10] [--policies random,likeliest,
                                    normal,hard] [--seconds 1.0] [--jobs 2] [--seed 1]

Prints per policy: mean, p90 and max probes, decision time (mean and max), and how many of the
hunter's estimates fell back to sampling (the rest were exact counts). The same fields (seeds
seed..seed+fields-1) for every policy.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import foxhunt as bot  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import foxhunt as rules  # noqa: E402

LEVEL = {"likeliest": "easy", "normal": "normal", "hard": "hard"}


def hunt(args: tuple[str, int, int, float]) -> tuple[int, list[float], int, int]:
    """One field: (probes, decision times, estimates sampled, estimates in all)."""
    policy, size, seed, seconds = args
    state, rng = rules.new_game({"size": size}, seed), random.Random(seed)
    times, sampled, estimates = [], 0, 0
    while rules.to_move(state) is not None:
        legal = rules.legal_moves(state)
        view = rules.view(state, 0)
        started = time.perf_counter()
        if policy == "random":
            move = rng.choice(legal)
            times.append(time.perf_counter() - started)
        else:
            move = bot.choose(view, legal, Budget(seconds), LEVEL[policy], rng)
            times.append(time.perf_counter() - started)
            post = bot.hint(view, seconds)
            estimates += 1
            sampled += not post.exact
        state = rules.apply(state, move)
    return len(state.probes), times, sampled, estimates


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--fields", type=int, default=1000)
    p.add_argument("--size", type=int, default=10, choices=sorted(rules.FIELDS))
    p.add_argument("--policies", default="random,likeliest,normal,hard")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    print(f"{a.fields} fields of {a.size}x{a.size} with {rules.FIELDS[a.size]} foxes, "
          f"{a.seconds:g} s a decision, {a.jobs} jobs")
    with workers.pool(a.jobs, None) as pool:
        for policy in a.policies.split(","):
            jobs = [(policy, a.size, a.seed + k, a.seconds) for k in range(a.fields)]
            started = time.monotonic()
            results = pool.map(hunt, jobs)
            probes = sorted(r[0] for r in results)
            times = [t for r in results for t in r[1]]
            sampled, estimates = sum(r[2] for r in results), sum(r[3] for r in results)
            p90 = probes[int(0.9 * (len(probes) - 1))]
            print(f"{policy:>9}: mean {statistics.mean(probes):.2f} probes, p90 {p90}, "
                  f"max {probes[-1]}; decision mean {1000 * statistics.mean(times):.0f} ms, "
                  f"max {1000 * max(times):.0f} ms; sampled estimates {sampled} of {estimates}; "
                  f"{time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
