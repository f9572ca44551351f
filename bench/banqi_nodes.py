"""The Banqi Hard search's speed, pure Python against the compiled kernel: nodes per second and
the depth finished in the time, on the same mid-game positions (random games of the rules,
from the side to move's view, determinized as the bot does).

    python bench/banqi_nodes.py [--positions 20] [--seconds 1.0] [--variant taiwan]
    python bench/banqi_nodes.py --profile      (where the pure search's time goes, cProfile)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import banqi as bot  # noqa: E402
from ai.base import Budget, Deadline  # noqa: E402
from game.rules import banqi as rules  # noqa: E402

HARD_DEPTH = 6  # where Hard stopped before issue 31 (now it deepens until its budget ends)


def positions(count: int, variant: str) -> list[dict]:
    """Views of the side to move after 20 to 60 random plies."""
    rng = random.Random(1)
    out = []
    while len(out) < count:
        s = rules.new_game({"variant": variant}, rng.randrange(1 << 30))
        for _ in range(rng.randrange(20, 60)):
            if rules.outcome(s) is not None:
                break
            s = rules.apply(s, rng.choice(rules.legal_moves(s)))
        if rules.outcome(s) is None and s.colors[s.turn] is not None:
            out.append(rules.view(s, s.turn))
    return out


def run(view: dict, seconds: float, kernel: object) -> tuple[int, int, float, float]:
    """(nodes, depth finished, seconds, seconds to finish depth HARD_DEPTH or inf) of the
    bot's deepening on one view."""
    budget = Budget(seconds)
    rng = random.Random(0)
    board = bot.determinize(view, rng)
    colour = view["colors"][view["to_move"]]
    pool = Counter({k: n for k, n in view["hidden"].items() if n})
    legal = rules.legal_moves_from_view(view, {})
    searcher = bot.Searcher(view["variant"], budget, kernel)
    done = bot.threading.Event()
    if kernel is not None:
        bot.threading.Thread(target=bot._watch, args=(budget, searcher.ctl, kernel.STOP, done),
                             daemon=True).start()
    start = time.perf_counter()
    reached, to_hard = 0, float("inf")
    try:
        for depth in range(1, 64):
            try:
                searcher.root(board, colour, pool, legal, depth)
            except Deadline:
                break
            reached = depth
            if depth == HARD_DEPTH:
                to_hard = time.perf_counter() - start
            if budget.expired():
                break
    finally:
        done.set()
    return searcher.nodes, reached, time.perf_counter() - start, to_hard


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--variant", default="taiwan")
    p.add_argument("--profile", action="store_true")
    args = p.parse_args()
    views = positions(args.positions, args.variant)
    if args.profile:
        import cProfile
        import pstats
        profile = cProfile.Profile()
        profile.runcall(lambda: [run(v, args.seconds, None) for v in views])
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)
        return
    kernel = bot.KERNEL.load()
    print(f"{len(views)} positions, {args.seconds:g} s each, {args.variant}; "
          f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name, k in (("pure", None), ("compiled", kernel)):
        if name == "compiled" and k is None:
            print(f"compiled: unavailable ({bot.KERNEL.error})")
            continue
        results = [run(v, args.seconds, k) for v in views]
        nodes = sum(r[0] for r in results)
        took = sum(r[2] for r in results)
        depths = sorted(r[1] for r in results)
        hard = sorted(r[3] for r in results)
        print(f"{name:9s}: {nodes / took / 1000:8.1f} k nodes/s, depth finished median "
              f"{depths[len(depths) // 2]} (min {depths[0]}, max {depths[-1]}); depth "
              f"{HARD_DEPTH} finished in {sum(r < 1e9 for r in hard)}/{len(hard)}, median "
              f"{hard[len(hard) // 2]:.3f} s, slowest {hard[-1]:.3f} s", flush=True)


if __name__ == "__main__":
    main()
