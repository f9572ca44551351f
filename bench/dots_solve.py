"""The exact Dots and Boxes search's speed, pure Memo against the compiled kernel: the time to
solve positions with a given number of undrawn lines, each from an empty memo.

    python bench/dots_solve.py [--size 4x4] [--undrawn 14,16,18] [--positions 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import dots_solver as solver  # noqa: E402
from game.rules import dots as rules  # noqa: E402


def masks(geo: rules.Geometry, undrawn: int, count: int) -> list[int]:
    rng = random.Random(undrawn)
    out = []
    for _ in range(count):
        lines = list(range(geo.lines))
        rng.shuffle(lines)
        out.append(sum(1 << line for line in lines[:geo.lines - undrawn]))
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--size", default="4x4")
    p.add_argument("--undrawn", default="14,16,18")
    p.add_argument("--positions", type=int, default=5)
    args = p.parse_args()
    rows, cols = (int(n) for n in args.size.split("x"))
    geo = rules.geometry(rows, cols)
    kernel = solver.KERNEL.load()
    print(f"{args.size}, {args.positions} positions a line, each from an empty memo; load "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for undrawn in (int(n) for n in args.undrawn.split(",")):
        line = f"{undrawn} undrawn:"
        for name in ("pure", "compiled"):
            if name == "compiled" and kernel is None:
                line += f" compiled unavailable ({solver.KERNEL.error})"
                continue
            times, calls = [], 0
            for mask in masks(geo, undrawn, args.positions):
                memo = solver.Memo(geo) if name == "pure" else solver.CompiledMemo(geo, kernel)
                t = time.perf_counter()
                memo.value(mask)
                times.append(time.perf_counter() - t)
                calls += memo.calls
            line += (f" {name} median {1000 * statistics.median(times):.1f} ms (max "
                     f"{1000 * max(times):.1f}, {calls / sum(times) / 1000:.0f} k positions/s);")
        print(line, flush=True)


if __name__ == "__main__":
    main()
