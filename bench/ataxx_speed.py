"""Ataxx search speed, before (pure Python) and after (numba kernel): the depth reached and
nodes per second in a fixed time from a few positions, and perft speed. Nodes per second are
given per wall-clock second and per second of this thread's CPU time (the figure a loaded
machine does not shrink; tiktaxx's own nps is also per CPU second).

    python bench/ataxx_speed.py [--seconds 1.0] [--nodes 1000000]

--nodes also prints the depth the compiled search finishes within that many nodes, with its
pruning switches as the bot plays them and all off: a figure the machine's load cannot move;
and the processor time those searches took as played, the best of --repeat runs (the same
trees every run: a speed figure that needs no clock on the search).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import ataxx  # noqa: E402
from ai.base import Budget  # noqa: E402
from game.rules import ataxx as rules  # noqa: E402

POSITIONS = {
    "start": rules.START_FEN,
    "cross start": rules.LAYOUTS["cross"],
    "middle game": "7/2xo3/1xxoo2/2oxx2/3o3/7/7 o 0 10",
    "crowded": "xxxoooo/xxoooo1/xx1ooxo/xxxxoo1/ooxx3/oo1x3/ooxx2x x 0 30",
}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--nodes", type=int, default=0)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    t = time.perf_counter()
    kernel = ataxx.warm_up()
    print(f"kernel: {'ready' if kernel else 'unavailable'} in {time.perf_counter() - t:.1f} s "
          f"{ataxx.KERNEL.error or ''}")
    for compiled in (False, True):
        if compiled and kernel is None:
            break
        print("after (numba)" if compiled else "before (pure Python)")
        for label, fen in POSITIONS.items():
            ataxx._TABLE.clear()
            t, cpu = time.perf_counter(), time.thread_time()
            a = ataxx.analyse(fen, Budget(args.seconds), compiled=compiled)
            dt, dcpu = time.perf_counter() - t, max(time.thread_time() - cpu, 1e-6)
            print(f"  {label:12s} depth {a['depth']:2d}  nodes {a['nodes']:9d}  "
                  f"{a['nodes'] / dt:10.0f} nodes/s  {a['nodes'] / dcpu:10.0f} per CPU s  "
                  f"best {a['move']}")
    if kernel is not None and args.nodes:
        off = {"lmr": 0, "null_move": False, "futility": False, "partial": False}
        tables = kernel.Tables()
        for name, kw in (("as played", {}), ("pruning off", off)):
            depths = []
            for fen in POSITIONS.values():
                tables.clear()
                search = ataxx.CompiledSearch(kernel, Budget(600), node_limit=args.nodes,
                                              tables=tables, **kw)
                depths.append(search.best_move(rules.from_fen(fen))[2])
            print(f"depth within {args.nodes} nodes, {name}: " + ", ".join(
                f"{label} {d}" for label, d in zip(POSITIONS, depths)))
        times = []
        for _ in range(args.repeat):
            cpu = 0.0
            for fen in POSITIONS.values():
                tables.clear()  # written through: no page is first touched inside the timing
                search = ataxx.CompiledSearch(kernel, Budget(600), node_limit=args.nodes,
                                              tables=tables)
                t = time.thread_time()
                search.best_move(rules.from_fen(fen))
                cpu += time.thread_time() - t
            times.append(cpu)
        print(f"{len(POSITIONS)} searches of {args.nodes} nodes as played: {min(times):.3f} s "
              f"of processor time (best of {args.repeat}; all: "
              + ", ".join(f"{t:.3f}" for t in times) + ")")
    pos = rules.from_fen(rules.START_FEN)
    t = time.perf_counter()
    n = rules.perft(pos, 4)
    print(f"perft 4 pure: {n} in {time.perf_counter() - t:.2f} s")
    if kernel is not None:
        t = time.perf_counter()
        n = kernel.perft_count(pos.x, pos.o, pos.gaps, 0, 6)
        print(f"perft 6 numba: {n} in {time.perf_counter() - t:.2f} s")


if __name__ == "__main__":
    main()
