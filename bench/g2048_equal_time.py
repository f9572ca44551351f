"""2048: the processor time a move of ours and of another program, on the same boards.

    python bench/g2048_equal_time.py --lib PATH/2048.so --results FILE [--ms 35]
                                     [--late-tile 16384] [--every 1]

Reads the boards bench/g2048_games.py sampled from its games (every 100th move of each game
in FILE; --every N keeps one in N of them) and times on each board, in this one process and
one after the other, the other program's find_best_move (its own depth rule) and ours as those
games played: Hard with the network at --ms a move, or, from the first board holding
--late-tile, the heuristic to nneonneo's depth rule with no clock. Prints, for each program,
the mean and median processor time a move over the boards, in all and before and after the
late tile: the figures to set beside "equal time a move" (a program that thinks longer on
harder boards has a mean well above its median).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from g2048_games import late_move  # noqa: E402  (bench/ is its folder)
from g2048_vs import _other  # noqa: E402

from ai import g2048 as bot  # noqa: E402
from ai.base import Budget  # noqa: E402
from game.rules import g2048 as rules  # noqa: E402


def sampled_boards(path: str, every: int) -> list[int]:
    """The boards the games of a results file sampled, one in `every`."""
    boards: list[int] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                game = json.loads(line)
            except ValueError:
                continue  # a line cut short when a run was stopped
            kept = game.get("boards", []) if isinstance(game, dict) else []
            boards += [b for b in kept if isinstance(b, int) and 0 < b < 1 << 64]
    return boards[::every]


def ours(state: rules.State, ms: float, late_tile: int, rng: random.Random) -> str:
    """Our move as bench/g2048_games.py --late-tile plays it."""
    legal = rules.legal_moves(state)
    if late_tile and rules.best_tile(state) >= late_tile:
        return late_move(state, legal)
    return bot.choose(rules.view(state, 0), legal, Budget(ms / 1000), "hard", rng)


def line(name: str, times: list[float]) -> str:
    if not times:
        return f"{name}: no boards"
    return (f"{name}: {len(times)} boards, mean {1000 * statistics.mean(times):.1f} ms, "
            f"median {1000 * statistics.median(times):.1f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lib", required=True, help="the other program's shared library")
    parser.add_argument("--results", required=True, help="a bench/g2048_games.py results file")
    parser.add_argument("--ms", type=float, default=35.0)
    parser.add_argument("--late-tile", type=int, default=16384)
    parser.add_argument("--every", type=int, default=1)
    args = parser.parse_args(argv)
    out = os.fdopen(os.dup(1), "w", buffering=1)  # kept: _other silences standard output
    other = _other(os.path.abspath(args.lib))
    if bot.use_evaluation("ntuple") != "ntuple" or bot.KERNEL.load() is None:
        raise SystemExit("no network or no numba: not Hard as the arcade plays it")
    rng = random.Random(1)
    times: dict[tuple[str, bool], list[float]] = {}
    for board in sampled_boards(args.results, args.every):
        state = rules.State(rules.unpack(board))
        if not rules.legal_moves(state):
            continue
        late = bool(args.late_tile) and rules.best_tile(state) >= args.late_tile
        began = time.thread_time()
        other.find_best_move(board)
        times.setdefault(("other", late), []).append(time.thread_time() - began)
        began = time.thread_time()
        ours(state, args.ms, args.late_tile, rng)
        times.setdefault(("ours", late), []).append(time.thread_time() - began)
    for name in ("other", "ours"):
        every = times.get((name, False), []) + times.get((name, True), [])
        print(line(f"{name}, all", every), file=out)
        print(line(f"{name}, before {args.late_tile}", times.get((name, False), [])), file=out)
        print(line(f"{name}, from {args.late_tile}", times.get((name, True), [])), file=out)


if __name__ == "__main__":
    main()
