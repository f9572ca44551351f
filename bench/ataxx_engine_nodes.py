"""Our compiled Ataxx search against a UAI engine at equal nodes a move (issue 31): the engine
gets `go nodes N`, ours a node limit of N, so neither side's speed counts, only what each does
with its nodes. With --depth D instead both search to depth D (`go depth D`): what each does
with a depth, whatever it costs. Openings as bench/ataxx_vs_engine.py's (3 or 4 random plies
from --seed, each played with both colours); W-D-L from our side with its Elo.

    python bench/ataxx_engine_nodes.py --engine ENGINE --nodes 20000 --pairs 12 --seed 5
        [--depth D] [--network NET.npz]

--network plays ours on another network file than the shipped one (for instance one made by
bench/ataxx_nnue_import.py), so that the same network can be put in both searches.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import ataxx, elo  # noqa: E402
from ai import ataxx_nnue as nnue  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench.ataxx_engine_depth import Engine  # noqa: E402
from bench.ataxx_vs_engine import opening  # noqa: E402
from game.rules import RulesError  # noqa: E402
from game.rules import ataxx as rules  # noqa: E402


def play(kernel, engine: Engine, moves: list, ours: int, nodes: int, depth: int,
         network: nnue.Net | None) -> tuple[float, tuple[int, int]]:
    """One game from the opening's moves; our score (1, 1/2, 0) and the stones (ours, theirs)."""
    pos = rules.new_game({"layout": "empty"})
    for move in moves:
        pos = rules.apply(pos, str(move))
    tables = kernel.Tables(network=network)
    engine.send("uainewgame")
    while rules.outcome(pos) is None:
        if pos.turn == ours:
            search = ataxx.CompiledSearch(kernel, Budget(3600), max_depth=depth or 64,
                                          node_limit=0 if depth else nodes, tables=tables)
            move, _, _ = search.best_move(pos)
            pos = rules.make(pos, *move)
        else:
            move = engine.best(rules.to_fen(pos), 0 if depth else nodes, depth)
            try:
                pos = rules.apply(pos, move)
            except RulesError:
                print(f"the engine played {move!r}, not a legal move here: it loses the game")
                count = rules.score(pos)
                return 1.0, (count[ours], count[1 - ours])
    out = rules.outcome(pos)
    assert out is not None
    score = 0.5 if out.winner is None else float(out.winner == ours)
    return score, (out.score[ours], out.score[1 - ours])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--engine", required=True, help="the UAI engine's command line")
    p.add_argument("--nodes", type=int, default=20000)
    p.add_argument("--depth", type=int, default=0, help="both to this depth instead of nodes")
    p.add_argument("--pairs", type=int, default=12)
    p.add_argument("--seed", type=int, default=1, help="makes the openings")
    p.add_argument("--network", help="ours on this network file (default: the shipped one)")
    args = p.parse_args()
    kernel = ataxx.KERNEL.load()
    if kernel is None:
        raise SystemExit(f"the compiled search is unavailable: {ataxx.KERNEL.error}")
    network = nnue.load(args.network) if args.network else None
    engine = Engine(args.engine)
    w = d = l = 0
    try:
        for pair in range(args.pairs):
            moves = opening("empty", args.seed, pair)
            for ours in (0, 1):
                score, stones = play(kernel, engine, moves, ours, args.nodes, args.depth,
                                     network)
                w, d, l = w + (score == 1.0), d + (score == 0.5), l + (score == 0.0)
                print(f"pair {pair + 1:3d} ours={'xo'[ours]} {stones}  {w}-{d}-{l}", flush=True)
    finally:
        engine.close()
    e = elo.estimate(w, d, l)
    limit = f"depth {args.depth}" if args.depth else f"{args.nodes} nodes a move"
    print(f"ours at {limit} against {args.engine}: W-D-L {w}-{d}-{l}, "
          f"score {e.score:.3f}, Elo {e.elo:+.0f} ± {e.margin:.0f}")


if __name__ == "__main__":
    main()
