"""Ataxx self-play positions for training the evaluation (bench/ataxx_train.py, issue 22, and
bench/ataxx_nnue_train.py, issue 31).

    python bench/ataxx_datagen.py --games 10000 --nodes 4000 --out /tmp/ataxx_data.npz
        [--jobs 2] [--seed 1] [--layout empty] [--random-plies 2 8] [--balanced 0]

Each game starts from a blocker layout (in turn, or always --layout) and --random-plies random
plies (2 to 8 unless told; Zataxx's data takes 14 to 17 for variety), drawn again while a search
of --nodes scores the result more than --balanced points from level (0: never), then the
compiled search plays both sides with --nodes a move (give or take half, so no two games run
alike), with the evaluation Hard plays (ai/ataxx.py). Every position after the random plies is
kept, from the side to move: its stones (own, opp), the blockers, the search's score, and how
the game ended for that side (+1, 0, -1) with the final stone margin. Positions where the side
to move has a single move are skipped (their search says nothing).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import ataxx  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import ataxx as rules  # noqa: E402


def opening(rng: random.Random, layout: str, plies: tuple[int, int], balanced: int,
            nodes: int, kernel, tables) -> rules.Position:
    """A start of `layout` after random plies, within `balanced` points of level if asked."""
    while True:
        pos = rules.new_game({"layout": layout})
        for _ in range(rng.randint(*plies)):
            if rules.game_over(pos):
                break
            pos = rules.make(pos, *rng.choice(rules.moves_of(pos)))
        if not balanced or rules.game_over(pos):
            return pos
        search = ataxx.CompiledSearch(kernel, Budget(3600), tables=tables, node_limit=nodes)
        if abs(search.best_move(pos)[1]) <= balanced:
            return pos


def play_game(job: tuple) -> list[tuple]:
    """One game's positions: (own, opp, gaps, score, result, margin)."""
    seed, nodes, layout, plies, balanced = job
    kernel = ataxx.warm_up()
    rng = random.Random(seed)
    layouts = [layout] if layout else list(rules.LAYOUTS)
    tables = [kernel.Tables(), kernel.Tables()]
    pos = opening(rng, layouts[seed % len(layouts)], plies, balanced, nodes, kernel, tables[0])
    seen: list[tuple] = []
    while not rules.game_over(pos):
        moves = rules.moves_of(pos)
        if len(moves) == 1:
            pos = rules.make(pos, *moves[0])
            continue
        search = ataxx.CompiledSearch(kernel, Budget(3600), tables=tables[pos.turn],
                                      node_limit=rng.randint(nodes // 2, nodes * 3 // 2))
        move, score, _ = search.best_move(pos)
        seen.append((pos.own(), pos.enemy(), pos.gaps, score, pos.turn))
        pos = rules.make(pos, *move)
    nx, no = rules.score(pos)
    margin_x = nx - no
    out = []
    for own, opp, gaps, score, turn in seen:
        margin = margin_x if turn == 0 else -margin_x
        out.append((own, opp, gaps, score, (margin > 0) - (margin < 0), margin))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--nodes", type=int, default=4000, help="nodes a move, on average")
    p.add_argument("--out", required=True, help="the .npz file to write")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--layout", choices=sorted(rules.LAYOUTS), default="",
                   help="every game on this board (default: each layout in turn)")
    p.add_argument("--random-plies", type=int, nargs=2, default=(2, 8), metavar=("LO", "HI"))
    p.add_argument("--balanced", type=int, default=0,
                   help="redraw an opening scored further than this from level (0: never)")
    args = p.parse_args()
    if ataxx.warm_up() is None:
        raise SystemExit(f"numba unavailable: {ataxx.KERNEL.error}")
    jobs = [(args.seed * 1_000_003 + g, args.nodes, args.layout, tuple(args.random_plies),
             args.balanced) for g in range(args.games)]
    rows: list[tuple] = []
    t0 = time.monotonic()
    with workers.pool(args.jobs) as pool:
        for g, game in enumerate(pool.imap_unordered(play_game, jobs, chunksize=4), 1):
            rows.extend(game)
            if g % 500 == 0:
                print(f"{g} games, {len(rows)} positions ({time.monotonic() - t0:.0f} s)",
                      flush=True)
    cols = list(zip(*rows))
    np.savez_compressed(args.out, own=np.array(cols[0], dtype=np.uint64),
                        opp=np.array(cols[1], dtype=np.uint64),
                        gaps=np.array(cols[2], dtype=np.uint64),
                        score=np.array(cols[3], dtype=np.int32),
                        result=np.array(cols[4], dtype=np.int8),
                        margin=np.array(cols[5], dtype=np.int8))
    print(f"{args.games} games, {len(rows)} positions in {time.monotonic() - t0:.0f} s "
          f"-> {args.out}")


if __name__ == "__main__":
    main()
