"""2048 bot strength: N whole games from fixed seeds at a per-move time budget.

    python bench/g2048_games.py --games 20 --ms 100 --jobs 2 [--level hard] [--first-seed 1]

Prints one line per finished game and the running totals after each (so a run cut short still
says what it measured): the rates of reaching 2048/4096/8192, mean and median score, and the
median and 99th percentile of the time per decision.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import g2048 as bot  # noqa: E402
from ai.base import Budget  # noqa: E402
from game.rules import g2048 as rules  # noqa: E402

TILES = (2048, 4096, 8192, 16384)


def play_game(job: tuple[int, float, str]) -> dict:
    """One game from seed at ms a move; its score, best tile, moves and decision times."""
    seed, ms, level = job
    bot.heuristic_table()
    rules.tables()
    state = rules.new_game(None, seed)
    rng = random.Random(seed)
    times: list[float] = []
    began = time.monotonic()
    while True:
        legal = rules.legal_moves(state)
        if not legal:
            break
        t = time.monotonic()
        move = bot.choose(rules.view(state, 0), legal, Budget(ms / 1000), level, rng)
        times.append(time.monotonic() - t)
        state = rules.apply(state, move)
    return {"seed": seed, "score": state.score, "best": rules.best_tile(state),
            "moves": len(times), "times": times, "seconds": time.monotonic() - began}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(games: list[dict]) -> str:
    """The running totals over the games finished so far."""
    n = len(games)
    rates = "  ".join(f"{tile}: {sum(g['best'] >= tile for g in games) / n:.0%}"
                      for tile in TILES)
    scores = [g["score"] for g in games]
    times = [t for g in games for t in g["times"]]
    return (f"games {n}  reached {rates}  score mean {statistics.mean(scores):,.0f} "
            f"median {statistics.median(scores):,.0f}  decision median "
            f"{1000 * statistics.median(times):.1f} ms p99 {1000 * percentile(times, 0.99):.1f} ms"
            f" max {1000 * max(times):.1f} ms  moves {len(times)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--ms", type=float, default=100.0, help="time budget per move")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    parser.add_argument("--level", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args(argv)
    jobs = [(args.first_seed + i, args.ms, args.level) for i in range(args.games)]
    print(f"2048: {args.games} games, seeds {args.first_seed}..{args.first_seed + args.games - 1}"
          f", {args.ms:g} ms a move, level {args.level}, {args.jobs} process(es)", flush=True)
    done: list[dict] = []
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for game in pool.imap_unordered(play_game, jobs):
            done.append(game)
            print(f"seed {game['seed']}: score {game['score']:,} best {game['best']} "
                  f"moves {game['moves']} in {game['seconds']:.0f} s", flush=True)
            print("  " + summary(done), flush=True)
    print("final: " + summary(done), flush=True)


if __name__ == "__main__":
    main()
