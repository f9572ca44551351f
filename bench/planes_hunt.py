"""Shots to find every head, over uniformly random layouts, for each hunting policy.

    python bench/planes_hunt.py [--layouts 200] [--policies easy,normal,hard,gini] [--seed 1]
                                [--jobs 2]

Prints, per policy: mean, p90 and max shots, and decision time (mean and max), also as running
totals every 100 layouts (so a run cut short still says what it measured); then the assist heat
map's update time after a shot.
"""

from __future__ import annotations

import argparse
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


def gini_choice(view: dict, rng: random.Random) -> int:
    """The Gini greedy: the shot maximising the Gini impurity of its answer."""
    size, planes = view["size"], view["planes"]
    _, codes = rules.layouts(size, planes)
    live = codes[bot.consistent(size, planes, view["shots"])]
    p = bot.answer_counts(live) / len(live)
    gini = 1 - (p ** 2).sum(axis=0) + 1e-6 * p[2]  # once all is known: shoot the heads
    for cell, _ in view["shots"]:
        gini[cell] = -1
    top = np.flatnonzero(gini >= gini.max() - 1e-12)
    return int(rng.choice(list(top)))


def hunt(job: tuple[str, int, int]) -> tuple[int, list[float]]:
    """Shots and decision times of a policy against one layout (job: policy, layout, seed)."""
    policy, layout_index, seed = job
    rng = random.Random(seed)
    index, codes = rules.layouts(10, 3)
    truth = codes[layout_index]
    shots: list[list] = []
    times = []
    while sum(1 for _, a in shots if a == "head") < 3:
        view = {"size": 10, "planes": 3, "shots": shots}
        t = time.perf_counter()
        if policy == "gini":
            cell = gini_choice(view, rng)
        else:
            cell = bot.choose(view, [], Budget(1.0), policy, rng)
        times.append(time.perf_counter() - t)
        shots.append([cell, ("miss", "body", "head")[truth[cell]]])
    return len(shots), times


def totals(policy: str, counts: list[int], times: list[float]) -> str:
    """Mean, p90 and max shots and the decision times of the hunts so far."""
    c = np.array(counts)
    return (f"{policy:7s} over {len(c)} layouts: mean {c.mean():.2f} shots, "
            f"p90 {np.percentile(c, 90):.0f}, max {c.max()}; decision mean "
            f"{1000 * np.mean(times):.0f} ms, max {1000 * max(times):.0f} ms")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--layouts", type=int, default=200)
    p.add_argument("--policies", default="easy,normal,hard,gini")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    args = p.parse_args()
    index, _ = rules.layouts(10, 3)
    rng = random.Random(args.seed)
    targets = [rng.randrange(len(index)) for _ in range(args.layouts)]
    for policy in args.policies.split(","):
        counts, times = [], []
        jobs = [(policy, target, i) for i, target in enumerate(targets)]
        with workers.pool(args.jobs) as pool:
            for n, t in pool.imap(hunt, jobs):
                counts.append(n)
                times += t
                if len(counts) % 100 == 0 and len(counts) < len(jobs):
                    print("  so far: " + totals(policy, counts, times), flush=True)
        print(totals(policy, counts, times), flush=True)
    shots = [[44, "miss"], [45, "body"], [35, "miss"]]
    t = time.perf_counter()
    bot.assist({"size": 10, "planes": 3, "shots": shots})
    print(f"assist heat map after 3 shots: {1000 * (time.perf_counter() - t):.0f} ms")


if __name__ == "__main__":
    main()
