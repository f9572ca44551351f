"""Nodes to a fixed depth: our compiled Ataxx search (one or more settings) against a UAI
engine's own count, on positions taken along the games of bench/ataxx_vs_engine.py's results
(issue 31). Depth for depth, a search that needs more nodes reaches less depth in the same time.

    python bench/ataxx_engine_depth.py --engine ENGINE --depth 10 [--tag nnue14] [--every 9]
        [--positions 30] [--setting "" --setting "margins=60" ...]

A setting is bench/ataxx_selfplay.py's comma-separated key=value text ("" is Hard as shipped).
The engine is asked `go depth D` from `position fen`, after `uainewgame`; its last `info` line's
nodes are its count. Ours: a fresh table a position, the same depth.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import ataxx  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench.ataxx_selfplay import setting  # noqa: E402
from bench.ataxx_vs_engine import RESULTS  # noqa: E402
from bench.engine_lines import EngineFailed, EngineLines  # noqa: E402
from game.rules import ataxx as rules  # noqa: E402
from players.program import UAI_MAX_LINES  # noqa: E402

INFO = re.compile(r"\bdepth (\d+)\b.*\bnodes (\d+)")


class Engine(EngineLines):
    """A UAI engine asked for its node count to a depth or its move at a node count (a bench's
    own reader of info lines): an engine that hangs, floods or ends stops the bench with a
    message, and nothing it started stays."""

    def __init__(self, command: str, silence_s: float = 120.0, max_lines: int = UAI_MAX_LINES):
        super().__init__(command, silence_s, max_lines)
        self.send("uai")
        self.lines_until("uaiok")

    def lines_until(self, word: str) -> list[str]:
        """The engine's lines up to the first that starts with word."""
        try:
            return super().read_until(lambda line: line.startswith(word), repr(word))
        except EngineFailed as failed:
            raise SystemExit(str(failed)) from None

    def nodes(self, fen: str, depth: int) -> int:
        self.send("uainewgame")
        self.send("position fen " + fen)
        self.send(f"go depth {depth}")
        found = [INFO.search(line) for line in self.lines_until("bestmove")]
        counts = [int(m.group(2)) for m in found if m and int(m.group(1)) <= depth]
        return counts[-1] if counts else 0

    def best(self, fen: str, nodes: int = 0, depth: int = 0) -> str:
        """The engine's move from fen, searched to `nodes` nodes (`go nodes`) or else to a
        depth (`go depth`); its table kept."""
        self.send("position fen " + fen)
        self.send(f"go nodes {nodes}" if nodes else f"go depth {depth}")
        return self.lines_until("bestmove")[-1].split()[1]


def positions(tag: str, every: int, limit: int) -> list[str]:
    """Every `every`-th position (past the opening) of the tag's standard-board games."""
    with open(RESULTS, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    rows = [r for r in rows if r["tag"] == tag and r.get("layout") == "empty"]
    fens: list[str] = []
    for r in rows:
        pos = rules.new_game({"layout": "empty"})
        opening = r["opening"].split()
        for i, move in enumerate(opening + r["moves"].split()):
            if i >= len(opening) and i % every == 0 and rules.outcome(pos) is None:
                fens.append(rules.to_fen(pos))
            pos = rules.apply(pos, move)
    return fens[:limit]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--engine", required=True)
    p.add_argument("--depth", type=int, default=10)
    p.add_argument("--tag", default="nnue14", help="the results file's games to sample")
    p.add_argument("--every", type=int, default=9)
    p.add_argument("--positions", type=int, default=30)
    p.add_argument("--setting", action="append", help="ours, as bench/ataxx_selfplay.py's")
    args = p.parse_args()
    kernel = ataxx.warm_up()
    if kernel is None:
        raise SystemExit(f"numba unavailable: {ataxx.KERNEL.error}")
    fens = positions(args.tag, args.every, args.positions)
    if not fens:
        raise SystemExit(f"no standard-board games tagged {args.tag!r} in {RESULTS}")
    names = args.setting or [""]
    settings = {name: setting(name, kernel) for name in names}  # a net= file is read once
    engine = Engine(args.engine)
    totals = {"engine": 0, **{name: 0 for name in names}}
    try:
        for fen in fens:
            row = {"engine": engine.nodes(fen, args.depth)}
            for name in names:
                kw = dict(settings[name])
                tables = kernel.Tables(evaluation=kw.pop("evaluation", None),
                                       network=kw.pop("network", None))
                search = ataxx.CompiledSearch(kernel, Budget(3600), max_depth=args.depth,
                                              tables=tables, **kw)
                search.best_move(rules.from_fen(fen))
                row[name] = search.nodes
            for key, n in row.items():
                totals[key] += n
            print(f"{fen:60s} " + "  ".join(f"{k or 'ours'} {n:8d}" for k, n in row.items()),
                  flush=True)
    finally:
        engine.close()
    base = max(1, totals["engine"])
    print(f"{len(fens)} positions to depth {args.depth}: " + ", ".join(
        f"{k or 'ours'} {n} ({n / base:.2f}x the engine's)" for k, n in totals.items()))


if __name__ == "__main__":
    main()
