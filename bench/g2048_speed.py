"""2048 search speed: the numpy search against the compiled kernel on the same positions.

    python bench/g2048_speed.py [--positions 30] [--seed 5] [--depth 3] [--ms 100]
                                [--weights FILE]

The positions are every tenth board of a game the Hard bot plays at 20 ms a move. Prints, for
each search: the processor time (fair on a loaded machine) to finish the same whole tree
(--depth chance levels below the root's slides, no probability cut), and, at --ms a move with
Hard's settings, the depth reached (chance levels, the root's included) and the time taken.
With --weights (a network file or a checkpoint, as bench/g2048_games.py's), a third row: the
compiled search with the n-tuple network at its leaves.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from g2048_games import network_weights  # noqa: E402  (bench/ is the script's folder)

from ai import g2048 as bot  # noqa: E402
from ai.base import Budget  # noqa: E402
from game.rules import g2048 as rules  # noqa: E402


def positions(count: int, seed: int) -> list[tuple[int, list[int]]]:
    """(packed board, legal directions) every tenth move of a game."""
    state = rules.new_game(None, seed)
    rng = random.Random(seed)
    out = []
    move = 0
    while len(out) < count:
        legal = rules.legal_moves(state)
        if not legal:
            break
        if move % 10 == 0 and len(legal) > 1:
            out.append((rules.pack(state.cells), [rules.DIRECTIONS.index(m) for m in legal]))
        move += 1
        state = rules.apply(state, bot.choose(rules.view(state, 0), legal, Budget(0.02),
                                              "hard", rng))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--ms", type=float, default=100.0)
    parser.add_argument("--weights", help="also the compiled search with this network")
    args = parser.parse_args(argv)
    if bot.KERNEL.load() is None:
        raise SystemExit(f"numba unavailable: {bot.KERNEL.error}")
    bot.heuristic_table()
    boards = positions(args.positions, args.seed)
    levels, cut = bot.LEVELS["hard"]
    print(f"{len(boards)} positions of seed {args.seed}; whole trees of {args.depth} levels "
          f"below the root's; then {args.ms:g} ms a move at Hard (cut {cut:g})")
    rows = [("numpy", False, None), ("compiled", True, None)]
    if args.weights:
        rows.append(("ntuple", True, network_weights(args.weights)))
    for name, compiled, net in rows:
        bot.use_evaluation("heuristic" if net is None else "ntuple", weights=net)
        whole, depths, took = [], [], []
        for board, dirs in boards:
            t = time.thread_time()
            bot.search(board, dirs, Budget(600), args.depth + 1, 0.0, None, compiled)
            whole.append(time.thread_time() - t)
            stats: dict = {}
            t = time.perf_counter()
            bot.search(board, dirs, Budget(args.ms / 1000), levels, cut, stats, compiled)
            took.append(time.perf_counter() - t)
            depths.append(stats["depth"])
        print(f"{name:>8}: whole tree (processor) median {statistics.median(whole) * 1000:.1f}"
              f" ms mean {statistics.mean(whole) * 1000:.1f} ms;  at {args.ms:g} ms depth median "
              f"{statistics.median(depths)} mean {statistics.mean(depths):.2f} max "
              f"{max(depths)}, time median {statistics.median(took) * 1000:.1f} ms", flush=True)


if __name__ == "__main__":
    main()
