"""Calibrate the review's marks (ai/review.py): how much Hard's own moves lower Hard's expected
result, judged by the review, over Hard-vs-Hard games; the thresholds are set above nearly all
of them, so that a marked move is one Hard itself would rarely play.

    python bench/review_calibrate.py --games 4 --seconds 0.1 [--review 0.12] [--game ataxx,dots]
                                     [--write]

Per game it prints the drop distribution (quantiles of every judged ply of Hard's, the two
random moves that open each game aside, and the share of plies with no drop) and the
thresholds it proposes:
  inaccuracy = max(floor, q90), mistake = max(2 * inaccuracy, q97),
  blunder = max(3 * inaccuracy, q99, 1.5 * mistake)
with the floors of FLOORS (lichess's steps for a win chance, docs/review.md). --write stores them
in ai/data/review_thresholds.json with the figures they came from.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import compiled  # noqa: E402
from ai.base import Budget, decide, decide_setup  # noqa: E402
from ai.review import QUICK, THRESHOLDS, Review, Settings  # noqa: E402
from game import registry  # noqa: E402
from game.match import Match  # noqa: E402

# The smallest inaccuracy per unit. A win chance: lichess's (10 points of its -100..100 scale);
# Fox Hunt: a quarter of a probe; 2048: a tenth of the chance to survive.
FLOORS = {"win chance": 0.05, "probes": 0.25, "survival": 0.10}
# Games are cut here (2048 runs to thousands of moves; the first plies judge as well).
MAX_PLIES = 240
RANDOM_PLIES = 2  # random moves after the setup, so that no two games are the same
# 3x3 is solved: Hard's moves there drop nothing, in win chance or in boxes given up
OPTIONS: dict[str, dict] = {"dots": {"rows": 4, "cols": 4}}


def hard_game(game_id: str, seed: int, seconds: float) -> tuple[Match, int]:
    """A game of Hard against itself (every seat), cut at MAX_PLIES, after a setup by Hard and
    RANDOM_PLIES random moves that vary the games; and the first ply Hard played after them."""
    match = Match(game_id, OPTIONS.get(game_id), seed)
    rng = random.Random(seed)
    first = None
    while not match.over and len(match.moves) < MAX_PLIES:
        seat = match.to_move()
        view = match.view(seat)
        if match.setup_pending():
            match.play(decide_setup(game_id, view, "hard", Budget(seconds), rng))
            continue
        if first is None:
            first = len(match.moves) + RANDOM_PLIES
        if len(match.moves) < first:
            match.play(rng.choice(match.legal_moves()))
        else:
            match.play(decide(game_id, view, match.legal_moves(), "hard", Budget(seconds), rng))
    return match, first or 0


def quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def propose(drops: list[float], unit: str) -> dict[str, float]:
    floor = FLOORS.get(unit, 0.05)
    inaccuracy = max(floor, quantile(drops, 0.90))
    mistake = max(2 * inaccuracy, quantile(drops, 0.97))
    blunder = max(3 * inaccuracy, quantile(drops, 0.99), 1.5 * mistake)
    return {"inaccuracy": round(inaccuracy, 4), "mistake": round(mistake, 4),
            "blunder": round(blunder, 4)}


def calibrate(game_id: str, games: int, seconds: float, review: float) -> dict:
    drops: list[float] = []
    unit = "win chance"
    took = 0.0
    for seed in range(games):
        match, first = hard_game(game_id, 1000 + seed, seconds)
        job = Review(match, Settings(review), first=first)
        began = time.monotonic()
        for _ in job.run():
            pass
        took += time.monotonic() - began
        assert job.result is not None
        unit = job.result["unit"]
        drops += [e["drop"] for e in job.result["plies"] if e["kind"] == "move"]
        print(f"  {game_id} game {seed + 1}: {len(match.moves)} plies, "
              f"review {time.monotonic() - began:.1f} s", flush=True)
    qs = {f"q{int(q * 1000) / 10:g}": round(quantile(drops, q), 4)
          for q in (0.5, 0.9, 0.95, 0.97, 0.99, 0.995)}
    return {"unit": unit, "plies": len(drops), "games": games, "hard_seconds": seconds,
            "review_seconds": review, "zero_share": round(
                sum(1 for d in drops if d <= 1e-9) / max(len(drops), 1), 4),
            "max": round(max(drops, default=0.0), 4), "quantiles": qs,
            "review_time": round(took, 1), **propose(drops, unit)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=0.1, help="Hard's time a move")
    parser.add_argument("--review", type=float, default=QUICK.seconds, help="the review's time a "
                                                                    "position (quick)")
    parser.add_argument("--game", default="all")
    parser.add_argument("--write", action="store_true", help="store the thresholds")
    args = parser.parse_args(argv)
    compiled.warm_up()
    games = registry.available() if args.game == "all" else args.game.split(",")
    found = {}
    for game_id in games:
        found[game_id] = calibrate(game_id, args.games, args.seconds, args.review)
        print(game_id, json.dumps(found[game_id]), flush=True)
    if args.write:
        try:
            data = json.loads(THRESHOLDS.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        data.setdefault("games", {}).update(found)
        data["made_by"] = "bench/review_calibrate.py " + " ".join(argv or sys.argv[1:])
        THRESHOLDS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n",
                              encoding="utf-8")
        print(f"written to {THRESHOLDS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
