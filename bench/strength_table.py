"""A strength table of the built-in levels of every game, measured with the arena.

    python bench/strength_table.py [--games N] [--jobs J] [--time-ms T] [--only ataxx,dots]

For each available game with a bot: each level against the next one down (easy-random,
normal-easy, hard-normal) and each level against random, N games each with seats swapped
(Ataxx over its openings). Prints a Markdown table with W-D-L, the score and the Elo
difference with its 95% margin. Single-player games (2048) get a second table: each level's
mean score over the same N seeds. Replays go to a temporary folder unless --out is given.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from ai import elo  # noqa: E402
from ai.agent import playable_games  # noqa: E402
from game import registry  # noqa: E402
from players import arena  # noqa: E402

PAIRS = (("easy", "random"), ("normal", "easy"), ("hard", "normal"),
         ("normal", "random"), ("hard", "random"))
LEVELS = ("random", "easy", "normal", "hard")


def _fmt(x: float, signed: bool = False) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return ("+inf" if x > 0 else "-inf") if signed else "inf"
    return f"{x:+.0f}" if signed else f"{x:.0f}"


def two_player_rows(game: str, args: argparse.Namespace) -> list[str]:
    rows = []
    for a, b in PAIRS:
        t = time.monotonic()
        run = arena.run(game, f"builtin:{a}", f"builtin:{b}", args.games, args.jobs,
                        args.time_ms, args.seed, args.out, None, sys.stderr)
        w, d, l = run.wdl()
        e = elo.estimate(w, d, l)
        errors = sum(1 for r in run.results if r.error)
        note = f" ({errors} errors)" if errors else ""
        rows.append(f"| {game} | {a} | {b} | {w + d + l}{note} | {w}-{d}-{l} | "
                    f"{100 * e.score:.0f}% | {_fmt(e.elo, True)} ± {_fmt(e.margin)} | "
                    f"{time.monotonic() - t:.0f} s |")
    return rows


def one_player_rows(game: str, args: argparse.Namespace) -> list[str]:
    rows = []
    for level in LEVELS[1:]:
        run = arena.run(game, f"builtin:{level}", "builtin:random", args.games, args.jobs,
                        args.time_ms, args.seed, args.out, None, sys.stderr)
        mean_a, mean_b, n = run.means()
        w, d, l = run.wdl()
        rows.append(f"| {game} | {level} | {mean_a:.0f} | {mean_b:.0f} | {n} | {w}-{d}-{l} |")
    return rows


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--time-ms", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", default="", help="comma-separated game ids")
    p.add_argument("--out", default="")
    args = p.parse_args()
    args.out = args.out or tempfile.mkdtemp(prefix="strength-replays-")
    games = [g for g in playable_games() if not args.only or g in args.only.split(",")]
    two = [g for g in games if registry.get(g).players == 2]
    one = [g for g in games if registry.get(g).players == 1]
    print(f"{args.games} games a pairing, {args.time_ms} ms a move, {args.jobs} jobs; "
          f"replays in {args.out}\n")
    if two:
        print("| game | A | B | games | A's W-D-L | A's score | Elo A−B (95%) | time |")
        print("|---|---|---|---|---|---|---|---|")
        for game in two:
            for row in two_player_rows(game, args):
                print(row, flush=True)
    if one:
        print("\n| game | level | mean score | random's mean | seeds | level higher-equal-lower |")
        print("|---|---|---|---|---|---|")
        for game in one:
            for row in one_player_rows(game, args):
                print(row, flush=True)
    if not games:
        print("no game with a bot is available yet")


if __name__ == "__main__":
    main()
