"""Fits the Hard hunter's leaf estimate (ai.planes.LEAF): shots still needed as a + b log3 n,
where n is the number of layouts left, one line per number of heads still to find.

    python bench/planes_leaf_fit.py [--games 2000] [--seed 5]

Plays the Normal hunter against uniformly random layouts, and at every position records the
layouts left, the heads still to find and the shots it then took; prints the least-squares
lines next to the ones in ai/planes.py.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import planes as bot  # noqa: E402
from game.rules import planes as rules  # noqa: E402


def positions(truth: np.ndarray, codes: np.ndarray, rng: random.Random
              ) -> list[tuple[int, int, int]]:
    """(layouts left, heads to find, shots still taken) at each shot of the Normal hunter."""
    live, shot, left, seen = codes, set(), 3, []
    while left:
        seen.append((len(live), left))
        scores = bot.information_scores(live, shot, bot.HEAD_BONUS)
        cell = int(rng.choice(list(np.flatnonzero(scores >= scores.max() - 1e-9))))
        live = live[live[:, cell] == truth[cell]]
        shot.add(cell)
        left -= truth[cell] == 2
    return [(n, h, len(seen) - i) for i, (n, h) in enumerate(seen)]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=5)
    args = p.parse_args()
    _, codes = rules.layouts(10, 3)
    rng = random.Random(args.seed)
    rows = []
    for game in range(args.games):
        rows += positions(codes[rng.randrange(len(codes))], codes, random.Random(game))
    data = np.array(rows, dtype=float)
    for left in (3, 2, 1):
        mine = data[data[:, 1] == left]
        design = np.c_[np.ones(len(mine)), np.log(mine[:, 0]) / math.log(3)]
        (a, b), *_ = np.linalg.lstsq(design, mine[:, 2], rcond=None)
        print(f"{left} heads to find: {a:.3f} + {b:.3f} log3 n over {len(mine)} positions "
              f"(in use: {bot.LEAF[left][0]} + {bot.LEAF[left][1]} log3 n)")


if __name__ == "__main__":
    main()
