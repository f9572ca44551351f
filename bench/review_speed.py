"""How long the review of a 60-ply game takes at the quick setting (ai/review.py QUICK): the aim
is about 10 s at most on the development machine.

    python bench/review_speed.py [--game all|ataxx,jungle] [--plies 60] [--hard 0.05]

Per game: a game of Hard against itself (`--hard` seconds a move), cut at `--plies` plies (a
setup counts as a ply but is not judged), then its quick review, timed with the compiled
searches already loaded. Prints the review's seconds, per ply mean and max, and the machine's
load average, which on a shared machine says much of the figure.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import compiled  # noqa: E402
from ai.base import Budget, decide, decide_setup  # noqa: E402
from ai.review import QUICK, Review, Settings, settles  # noqa: E402
from game import registry  # noqa: E402
from game.match import Match  # noqa: E402


def hard_game(game_id: str, plies: int, seconds: float, seed: int) -> Match:
    match = Match(game_id, None, seed)
    rng = random.Random(seed)
    while not match.over and len(match.moves) < plies:
        view = match.view(match.to_move())
        if match.setup_pending():
            match.play(decide_setup(game_id, view, "hard", Budget(seconds), rng))
        else:
            match.play(decide(game_id, view, match.legal_moves(), "hard", Budget(seconds), rng))
    return match


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="all")
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--hard", type=float, default=0.05, help="Hard's seconds a move")
    parser.add_argument("--seconds", type=float, default=QUICK.seconds,
                        help="the review's seconds a position (default: quick)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    compiled.warm_up()
    games = registry.available() if args.game == "all" else args.game.split(",")
    print(f"quick review: {args.seconds} s a position; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for game_id in games:
        match = hard_game(game_id, args.plies, args.hard, args.seed)
        job = Review(match, Settings(args.seconds))
        took, last = [], time.monotonic()
        began = last
        for _ in job.run():
            now = time.monotonic()
            took.append(now - last)
            last = now
        total = time.monotonic() - began
        judged = sum(1 for e in job.entries if e["kind"] == "move")
        print(f"{game_id:8} {len(match.moves):3} plies ({judged} judged"
              f"{', truth pass included' if match.rules.HIDDEN else ''}"
              f"{', settling pass included' if settles(match.rules) else ''}): {total:5.1f} s, "
              f"per step mean {sum(took) / max(len(took), 1):.3f} s, max {max(took):.3f} s",
              flush=True)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
