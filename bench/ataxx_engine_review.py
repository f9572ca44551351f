"""Where our Ataxx games against an engine were lost: the engine, as referee, scores every
position of the finished games of bench/ataxx_vs_engine.py's results, and each move's cost is
how far it moved the mover's win chance (the score through a logistic of SCALE points, so a
proved end counts as certain, not as its huge score). The costs are summed by the empty
squares left when the move was made, for our moves and the engine's.

    python bench/ataxx_engine_review.py --engine ENGINE --tag TAG [--seed S] [--time-ms MS]
        [--nodes 100000] [--lost-only]

A referee that is one of the players favours itself; its scores are a proxy, not the truth. The
engine is asked `go nodes N` from each position (its table kept along a game).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.ataxx_engine_depth import Engine  # noqa: E402
from bench.ataxx_vs_engine import RESULTS, load  # noqa: E402
from game.rules import ataxx as rules  # noqa: E402

SCORE = re.compile(r"\bscore (-?\d+)\b")
PHASES = ((35, "over 35 empty"), (25, "26-35 empty"), (15, "16-25 empty"), (8, "9-15 empty"),
          (0, "up to 8 empty"))
SCALE = 250.0  # referee points a logit (ai.ataxx.REVIEW_SCALE's, for 100 points a stone)


def chance(score: int) -> float:
    """The side to move's win chance for a referee score."""
    return 1.0 / (1.0 + math.exp(-max(-5000.0, min(5000.0, score)) / SCALE))


def phase(empty: int) -> str:
    return next(name for least, name in PHASES if empty > least or least == 0)


def referee_score(engine: Engine, fen: str, nodes: int) -> int | None:
    """The engine's score of fen for the side to move (its last info line's)."""
    engine.send("position fen " + fen)
    engine.send(f"go nodes {nodes}")
    found = [SCORE.search(line) for line in engine.lines_until("bestmove")]
    scores = [int(m.group(1)) for m in found if m]
    return scores[-1] if scores else None


def move_costs(engine: Engine, row: dict, nodes: int) -> list[tuple[bool, int, float]]:
    """(our move?, empty squares before it, the win chance it cost its mover) for each move
    after the opening of a finished game, while the game is on."""
    pos = rules.new_game({"layout": row["layout"]})
    opening = row["opening"].split()
    for move in opening:
        pos = rules.apply(pos, move)
    engine.send("uainewgame")
    seen: list[tuple[int, int, int]] = []  # (score for the side to move, empty, mover seat)
    for move in row["moves"].split():
        if rules.outcome(pos) is not None:
            break
        score = referee_score(engine, rules.to_fen(pos), nodes)
        if score is None:
            break
        empty = 49 - sum(rules.score(pos))
        seen.append((score, empty, pos.turn))
        pos = rules.apply(pos, move)
    costs = []
    for (before, empty, seat), (after, _, _) in zip(seen, seen[1:]):
        # after any move, a pass too, the other side is to move: its score, negated, is the mover's
        costs.append((seat == row["ours"], empty, chance(before) - (1.0 - chance(after))))
    return costs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--engine", required=True, help="the referee's UAI command line")
    p.add_argument("--tag", required=True, help="our bot's version in the results file")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--time-ms", type=int, default=None)
    p.add_argument("--nodes", type=int, default=100_000, help="the referee's nodes a position")
    p.add_argument("--lost-only", action="store_true", help="only the games we lost")
    p.add_argument("--results", default=RESULTS)
    args = p.parse_args()
    rows = [r for r in load(args.results) if r["tag"] == args.tag and r["score"] is not None
            and (args.seed is None or r["seed"] == args.seed)
            and (args.time_ms is None or r["time_ms"] == args.time_ms)
            and (not args.lost_only or r["score"] == 0.0)]
    if not rows:
        raise SystemExit("no finished game matches")
    engine = Engine(args.engine)
    totals: dict[tuple[bool, str], list[float]] = defaultdict(list)
    try:
        for i, row in enumerate(rows):
            costs = move_costs(engine, row, args.nodes)
            ours = [c for o, _, c in costs if o]
            worst = max(((c, e) for o, e, c in costs if o), default=(0.0, 0))
            print(f"game {i + 1:3d} score {row['score']} stones {row['stones']}: our moves cost "
                  f"{sum(ours):.2f} in all, the worst {worst[0]:.2f} at {worst[1]} empty",
                  flush=True)
            for o, e, c in costs:
                totals[(o, phase(e))].append(c)
    finally:
        engine.close()
    print(f"{len(rows)} games; the win chance a move cost its mover, by the empty squares left:")
    for _, name in PHASES:
        line = []
        for o, who in ((True, "ours"), (False, "engine's")):
            c = totals[(o, name)]
            mean = sum(c) / len(c) if c else 0.0
            line.append(f"{who} {len(c)} moves, mean {mean:.3f}, sum {sum(c):.2f}")
        print(f"  {name:14s} " + "; ".join(line))


if __name__ == "__main__":
    main()
