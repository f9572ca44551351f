"""Our Ataxx bot against an outside UAI engine: paired openings (each played with both colours),
W-D-L from our side and the Elo difference with its 95% margin.

    python bench/ataxx_vs_engine.py --engine "COMMAND" --time-ms 1000 --games 16 [--level hard]
        [--engine-time-ms 10]

The engine runs through players.program.UAIController (position fen / go movetime); our bot
through players.bot.AIController with --time-ms a move, the engine with --engine-time-ms (the
same unless given); players.table.play_out drives both. --grace-ms widens how late the engine may
answer before it forfeits: tiktaxx times its search by CPU clock (clock()), which on a loaded
machine runs slower than the wall clock.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import ataxx, elo  # noqa: E402
from game.match import Match  # noqa: E402
from game.rules import ataxx as rules  # noqa: E402
from players import program as programs  # noqa: E402
from players.arena import openings  # noqa: E402
from players.bot import AIController  # noqa: E402
from players.program import UAIController  # noqa: E402
from players.table import play_out  # noqa: E402


def play(engine: str, time_ms: int, engine_ms: int, level: str, options: dict, opening: list,
         ours: int, seed: int) -> tuple[float | None, str]:
    """One game; our score (1, 1/2, 0; None if unfinished) and a line about it."""
    match = Match(rules.ID, options, seed)
    for move in opening:
        match.play(move)
    bot = AIController(level, time_ms / 1000, seed=seed)
    program = UAIController(engine, engine_ms)
    ctrls = [bot, program] if ours == 0 else [program, bot]
    play_out(match, ctrls)  # closes both seats
    for c in ctrls:
        c.wait_closed(3.0)
    out = match.outcome()
    if out is None:
        return None, "unfinished"
    score = 0.5 if out.winner is None else float(out.winner == ours)
    return score, f"{out.score[0]}-{out.score[1]} {out.termination.value}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--engine", required=True, help="the UAI engine's command line")
    p.add_argument("--time-ms", type=int, default=1000, help="time a move, both sides")
    p.add_argument("--games", type=int, default=16, help="games (rounded up to pairs)")
    p.add_argument("--engine-time-ms", type=int, default=None,
                   help="the engine's time a move (default: --time-ms)")
    p.add_argument("--grace-ms", type=int, default=None,
                   help="how late past its time the engine may answer (default: the arcade's)")
    p.add_argument("--level", default="hard")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--first-pair", type=int, default=0,
                   help="skip the first pairs of openings (to add games to an earlier run)")
    args = p.parse_args()
    engine_ms = args.engine_time_ms or args.time_ms
    if args.grace_ms is not None:
        programs.GRACE_MS = args.grace_ms
    ataxx.warm_up()  # build the cache once here; the bot process then only loads it
    w = d = l = 0
    pairs = (args.games + 1) // 2
    plan = openings(rules.ID, {}, args.first_pair + pairs, args.seed)
    for k, (options, opening) in enumerate(plan[args.first_pair:], args.first_pair):
        for ours in (0, 1):
            t = time.monotonic()
            score, line = play(args.engine, args.time_ms, engine_ms, args.level, options,
                               opening, ours, args.seed * 1000 + 2 * k + ours)
            if score == 1.0:
                w += 1
            elif score == 0.5:
                d += 1
            elif score == 0.0:
                l += 1
            print(f"game {2 * k + ours + 1:3d} {options.get('layout', '')} {' '.join(opening)}"
                  f" ours={'xo'[ours]} {line} score {score}  ({time.monotonic() - t:.0f} s)",
                  flush=True)
    e = elo.estimate(w, d, l)
    print(f"ours {args.level} at {args.time_ms} ms vs {args.engine!r} at {engine_ms} ms: "
          f"W-D-L {w}-{d}-{l}, "
          f"score {e.score:.3f}, Elo {e.elo:+.0f} ± {e.margin:.0f}")


if __name__ == "__main__":
    main()
