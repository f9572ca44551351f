"""How much a review's graph swings with every move: the part of its steps that alternates in
sign from one ply to the next (each mover's view in turn), which a judgement that favours
whoever is to move shows even in a steady game.

    python bench/review_swing.py [--game planes] [--seeds 1 5] [--level hard] [--seconds 0.12]

Per seed: a game of the level against itself (0.05 s a move), its review at `--seconds` a
position, then the mean absolute step of the graph and the mean of the steps with every other
one turned over (the alternating part). Games of random moves zigzag for a true reason: each
move there loses something for its mover.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.base import Budget, decide, decide_setup  # noqa: E402
from ai.review import Settings, review  # noqa: E402
from game.match import Match  # noqa: E402


def played(game: str, seed: int, level: str) -> Match:
    """A whole game of `level` against itself."""
    rng = random.Random(seed)
    match = Match(game, None, seed)
    while not match.over:
        view = match.view(match.to_move())
        match.play(decide_setup(game, view, level, Budget(0.05), rng) if match.setup_pending()
                   else decide(game, view, match.legal_moves(), level, Budget(0.05), rng))
    return match


def swing(graph: list[float | None]) -> tuple[float, float]:
    """(mean absolute step, alternating part) of a graph's judged points."""
    points = [x for x in graph if x is not None]
    steps = [b - a for a, b in zip(points, points[1:])]
    turned = [d * (-1) ** i for i, d in enumerate(steps)]
    return statistics.mean(abs(d) for d in steps), abs(statistics.mean(turned))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="planes")
    parser.add_argument("--seeds", type=int, nargs=2, default=(1, 5))
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seconds", type=float, default=0.12)
    args = parser.parse_args()
    for seed in range(*args.seeds):
        doc = review(played(args.game, seed, args.level), Settings(args.seconds))
        step, alternating = swing(doc["graph"])
        judged = sum(x is not None for x in doc["graph"])
        print(f"seed {seed}: {judged} plies judged, mean step {step:.3f}, "
              f"alternating {alternating:.3f}", flush=True)


if __name__ == "__main__":
    main()
