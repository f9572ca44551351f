"""Banqi Hard as it is in the working tree (A) against Hard as it was at a git revision (B):
the same deals, each played with A in both seats, the compiled search on both sides, the same
budget a move. A paired match: a change is kept only if A gains.

    python bench/banqi_ab.py [--old HEAD] [--pairs 20] [--seconds 0.2] [--jobs 2] [--seed 500]

B's ai/banqi.py and ai/banqi_kernel.py are read with `git show REV:...` into a temporary folder
and imported under other names (banqi_old, banqi_kernel_old).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ai import elo  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import banqi as rules  # noqa: E402


def old_folder(rev: str) -> str:
    """A folder holding the revision's bot and kernel as banqi_old and banqi_kernel_old."""
    folder = os.path.join(tempfile.gettempdir(), f"banqi_ab_{rev.replace('/', '_')}")
    os.makedirs(folder, exist_ok=True)
    for name, out in (("banqi", "banqi_old"), ("banqi_kernel", "banqi_kernel_old")):
        text = subprocess.run(["git", "show", f"{rev}:ai/{name}.py"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout
        text = text.replace('Kernel("ai.banqi_kernel")', 'Kernel("banqi_kernel_old")')
        path = os.path.join(folder, out + ".py")
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)
    return folder


def play(job: tuple[str, int, int, float]) -> tuple[float, int, float, str]:
    """One game, A in seat a_seat: (A's points, plies, A's slowest decision, how it ended)."""
    folder, seed, a_seat, seconds = job
    sys.path.insert(0, folder)
    import banqi_old  # noqa: PLC0415

    from ai import banqi  # noqa: PLC0415
    banqi.KERNEL.load()
    banqi_old.KERNEL.load()
    rng = random.Random(seed)
    s = rules.new_game({"variant": "taiwan"}, seed)
    slowest, plies = 0.0, 0
    while rules.outcome(s) is None:
        side = banqi if s.turn == a_seat else banqi_old
        t = time.perf_counter()
        move = side.choose(rules.view(s, s.turn), rules.legal_moves(s), Budget(seconds),
                           "hard", rng)
        if s.turn == a_seat:
            slowest = max(slowest, time.perf_counter() - t)
        s = rules.apply(s, move)
        plies += 1
    out = rules.outcome(s)
    points = 0.5 if out.winner is None else float(out.winner == a_seat)
    return points, plies, slowest, out.termination.value


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--old", default="HEAD", help="B's git revision")
    p.add_argument("--pairs", type=int, default=20)
    p.add_argument("--seconds", type=float, default=0.2)
    p.add_argument("--seed", type=int, default=500)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    folder = old_folder(args.old)
    work = [(folder, args.seed + i, seat, args.seconds) for i in range(args.pairs)
            for seat in (0, 1)]
    start = time.time()
    with workers.pool(args.jobs) as pool:
        results = pool.map(play, work)
    w = sum(r[0] == 1 for r in results)
    d = sum(r[0] == 0.5 for r in results)
    n = len(results)
    ends: dict[str, int] = {}
    for r in results:
        ends[r[3]] = ends.get(r[3], 0) + 1
    print(elo.summary_line("working tree", args.old, w, d, n - w - d))
    print(f"{args.pairs} deals x both seats at {args.seconds:g} s; endings {ends}; mean "
          f"{sum(r[1] for r in results) / n:.0f} plies; A's slowest move "
          f"{max(r[2] for r in results):.2f} s; load {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores ({time.time() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
