"""Jungle: the Hard bot against a greedy one-ply bot and a plain alpha-beta depth-3 bot.

Each pair of games starts from the same two random plies, once with Hard as red and once as
blue. A win is 1 point, a draw 1/2. Usage:
    python bench/jungle_vs.py [--pairs 10] [--seconds 1.0] [--jobs 2] [--opponent greedy|ab3|both]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import jungle as bot  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import jungle as rules  # noqa: E402

VALUE = {"E": 8, "L": 7, "T": 6, "P": 5, "D": 4, "W": 3, "C": 2, "R": 1}


def plain_eval(board, seat: int) -> int:
    """Material by rank (x100) and rows advanced toward the enemy den, for seat."""
    total = 0
    for sq, p in enumerate(board):
        if p == ".":
            continue
        owner = rules.owner(p)
        r, f = divmod(sq, rules.FILES)
        den_r, den_f = divmod(rules.DENS[1 - owner], rules.FILES)
        v = 100 * VALUE[p.upper()] - 3 * (abs(r - den_r) + abs(f - den_f))
        total += v if owner == seat else -v
    return total


def plain_ab(board, seat: int, depth: int, alpha: int, beta: int, opts: dict) -> int:
    """Plain negamax alpha-beta: no table, no ordering beyond the generator's."""
    if board[rules.DENS[seat]] != ".":
        return -100_000  # the enemy stands in our den
    if not any(p != "." and rules.owner(p) == seat for p in board):
        return -100_000
    if depth == 0:
        return plain_eval(board, seat)
    moves = rules.moves_on(board, seat, opts["ranks"], opts["traps"])
    if not moves:
        return -100_000
    best = -1_000_000
    for m in moves:
        v = -plain_ab(rules.after(board, m), 1 - seat, depth - 1, -beta, -alpha, opts)
        if v > best:
            best = v
            alpha = max(alpha, v)
            if alpha >= beta:
                break
    return best


def ab3_move(state: rules.State, rng: random.Random) -> str:
    opts = rules.options_of(state)
    moves = [(rules.parse_square(m[:2]), rules.parse_square(m[2:]))
             for m in rules.legal_moves(state)]
    rng.shuffle(moves)
    best, top = moves[0], -10_000_000
    for m in moves:
        v = -plain_ab(rules.after(state.board, m), 1 - state.turn, 2, -10_000_000, -top, opts)
        if v > top:
            best, top = m, v
    return rules.move_name(best)


def greedy(state: rules.State, rng: random.Random) -> str:
    return bot.greedy_move(rules.view(state, state.turn), rules.legal_moves(state), rng)


OPPONENTS = {"greedy": greedy, "ab3": ab3_move}


def play(job: tuple[str, int, int, float]) -> tuple[str, float, int, str, float]:
    """One game: (opponent, points for Hard, plies, how it ended, Hard's longest move)."""
    name, seed, hard_seat, seconds = job
    rng = random.Random(seed)
    state = rules.new_game(None, 0)
    for _ in range(2):
        state = rules.apply(state, rng.choice(rules.legal_moves(state)))
    longest = 0.0
    while rules.outcome(state) is None:
        if state.turn == hard_seat:
            t = time.monotonic()
            move = bot.choose(rules.view(state, state.turn), rules.legal_moves(state),
                              Budget(seconds), "hard", rng)
            longest = max(longest, time.monotonic() - t)
        else:
            move = OPPONENTS[name](state, rng)
        state = rules.apply(state, move)
    out = rules.outcome(state)
    points = 0.5 if out.winner is None else float(out.winner == hard_seat)
    return name, points, state.plies, out.termination.value, longest


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--opponent", choices=("greedy", "ab3", "both"), default="both")
    a = ap.parse_args()
    names = ("greedy", "ab3") if a.opponent == "both" else (a.opponent,)
    jobs = [(n, 1000 + i, seat, a.seconds) for n in names for i in range(a.pairs)
            for seat in (0, 1)]
    results: dict[str, list] = {n: [] for n in names}
    with workers.pool(a.jobs, None) as pool:
        for r in pool.imap_unordered(play, jobs):
            results[r[0]].append(r)
            print(f"{r[0]:6} points {r[1]:.1f} plies {r[2]:3} {r[3]:10} longest {r[4]:.2f}s",
                  flush=True)
    for n in names:
        rs = results[n]
        pts = sum(r[1] for r in rs)
        ends = {}
        for r in rs:
            ends[r[3]] = ends.get(r[3], 0) + 1
        print(f"Hard {a.seconds:g}s vs {n}: {pts:g}/{len(rs)} points "
              f"({100 * pts / len(rs):.1f}%), W/D/L {sum(r[1] == 1 for r in rs)}/"
              f"{sum(r[1] == 0.5 for r in rs)}/{sum(r[1] == 0 for r in rs)}, "
              f"mean plies {sum(r[2] for r in rs) / len(rs):.0f}, ends {ends}, "
              f"longest move {max(r[4] for r in rs):.2f}s")


if __name__ == "__main__":
    main()
