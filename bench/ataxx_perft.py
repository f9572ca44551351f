"""perft(5) from the Ataxx start position (4,752,668), ours and the PyPI `ataxx` package's.

    python bench/ataxx_perft.py [--depth 5] [--skip-package]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.rules import ataxx as rules  # noqa: E402


def timed(fn, depth: int) -> tuple[int, float]:
    t = time.perf_counter()
    n = fn(depth)
    return n, time.perf_counter() - t


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--depth", type=int, default=5)
    p.add_argument("--skip-package", action="store_true")
    args = p.parse_args()
    start = rules.from_fen(rules.START_FEN)
    n, ours = timed(lambda d: rules.perft(start, d), args.depth)
    print(f"ours:    perft({args.depth}) = {n:,} in {ours:.2f} s, {n / ours:,.0f} nodes/s")
    if args.skip_package:
        return
    try:
        import ataxx
    except ImportError:
        print("PyPI ataxx not installed (pip install ataxx) — no comparison")
        return
    board = ataxx.Board(rules.START_FEN)
    m, theirs = timed(board.perft, args.depth)
    print(f"package: perft({args.depth}) = {m:,} in {theirs:.2f} s, {m / theirs:,.0f} nodes/s")
    print(f"ours is {theirs / ours:.1f}x faster" + ("" if m == n else "  (COUNTS DIFFER)"))


if __name__ == "__main__":
    main()
