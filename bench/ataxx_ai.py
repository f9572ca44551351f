"""Ataxx bot figures: nodes per second and depth in 1 s, and Hard against the PyPI `ataxx`
package's players.alphabeta at depth 2.

    python bench/ataxx_ai.py [--ms 500] [--games-per-layout 4] [--jobs 2]

Games start from each standard layout, with both colours; the package's alphabeta returns no
move when every move scores below alpha, and then plays its first legal move.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai.ataxx import analyse, choose  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import ataxx as rules  # noqa: E402

POSITIONS = {
    "start": rules.START_FEN,
    "cross start": rules.LAYOUTS["cross"],
    "middle game": "7/2xo3/1xxoo2/2oxx2/3o3/7/7 o 0 10",
    "crowded": "xxxoooo/xxoooo1/xx1ooxo/xxxxoo1/ooxx3/oo1x3/ooxx2x x 0 30",
}


def speed() -> None:
    for label, fen in POSITIONS.items():
        t = time.perf_counter()
        a = analyse(fen, Budget(1.0))
        dt = time.perf_counter() - t
        print(f"{label:12s} depth {a['depth']:2d}  nodes {a['nodes']:7d}  "
              f"{a['nodes'] / dt:8.0f} nodes/s  best {a['move']}")


def package_move(fen: str) -> str:
    import ataxx
    import ataxx.players
    board = ataxx.Board(fen)
    move = ataxx.players.alphabeta(board, -10_000, 10_000, 2)
    if move is None:
        move = board.legal_moves()[0]
    return str(move)


def play(job: tuple[str, int, int, float]) -> tuple[str, int, float]:
    """One game; returns (layout, ours_as_seat, our score 1/0.5/0)."""
    layout, seat, seed, seconds = job
    rng = random.Random(seed)
    pos = rules.new_game({"layout": layout})
    while rules.outcome(pos) is None:
        fen = rules.to_fen(pos)
        if pos.turn == seat:
            move = choose({"fen": fen}, rules.legal_moves(pos), Budget(seconds), "hard", rng)
        else:
            move = package_move(fen)
            move = rules.move_from_wire(move if move != "0000" else "0000")
        pos = rules.apply(pos, move)
    out = rules.outcome(pos)
    score = 0.5 if out.winner is None else float(out.winner == seat)
    return layout, seat, score


def match(ms: int, per_layout: int, jobs: int) -> None:
    try:
        import ataxx  # noqa: F401
    except ImportError:
        print("PyPI ataxx not installed: pip install ataxx to run the match")
        return
    work = [(layout, (g % 2), g, ms / 1000) for layout in rules.LAYOUTS
            for g in range(per_layout)]
    start = time.time()
    with workers.pool(jobs) as pool:
        results = pool.map(play, work)
    total = sum(s for _, _, s in results)
    for layout in rules.LAYOUTS:
        mine = [s for lay, _, s in results if lay == layout]
        print(f"{layout:8s} {sum(mine):4.1f}/{len(mine)}")
    print(f"Hard at {ms} ms vs ataxx.players.alphabeta depth 2: {total:.1f}/{len(results)} "
          f"= {100 * total / len(results):.1f}% ({time.time() - start:.0f} s)")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--ms", type=int, default=500)
    p.add_argument("--games-per-layout", type=int, default=4)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--skip-match", action="store_true")
    args = p.parse_args()
    speed()
    if not args.skip_match:
        match(args.ms, args.games_per_layout, args.jobs)


if __name__ == "__main__":
    main()
