"""Our Ataxx bot against an outside UAI engine on one board (the standard one unless asked):
random openings of 3 or 4 plies made from --seed (none stored in the repository), each played
with both colours, at the same time a move; W-D-L from our side, the score and the Elo
difference with its 95% interval. Finished games go to a results file, and a rerun with the
same settings plays only the games that are missing, so a match can be spread over runs.

    python bench/ataxx_vs_engine.py --engine "COMMAND" --time-ms 100 --games 12 --seed 31
        [--tag NAME] [--results FILE] [--layout empty] [--engine-time-ms T] [--grace-ms G]

The engine runs through players.program.UAIController (position fen / go movetime); our bot
through players.bot.AIController with --time-ms a move, the engine with --engine-time-ms (the
same unless given); players.table.play_out drives both. --grace-ms widens how late the engine may
answer before it forfeits: tiktaxx times its search by CPU clock (clock()), which on a loaded
machine runs slower than the wall clock. --tag names our bot's version in the results file
(rows of another tag, engine, board or time are kept but not counted).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import ataxx, elo, worker  # noqa: E402
from game.match import Match  # noqa: E402
from game.rules import ataxx as rules  # noqa: E402
from players import program as programs  # noqa: E402
from players.base import Decision  # noqa: E402
from players.bot import AIController  # noqa: E402
from players.program import UAIController  # noqa: E402
from players.table import play_out  # noqa: E402

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                       "ataxx_vs_engine.jsonl")


def opening(layout: str, seed: int, pair: int) -> list:
    """Pair `pair`'s opening: 3 or 4 random plies on the layout, from (seed, pair) alone."""
    rng = random.Random(f"ataxx-opening:{seed}:{pair}")
    match = Match(rules.ID, {"layout": layout}, 0)
    for _ in range(rng.choice((3, 4))):
        legal = match.legal_moves()
        if not legal or match.over:
            break
        match.play(rng.choice(legal))
    return list(match.moves)


class TimedBot(AIController):
    """Hard as the arcade plays it, timing each move from the request to the answer."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.times: list[float] = []
        self._asked = 0.0

    def request(self, match: Match, seat: int) -> None:
        self._asked = time.monotonic()
        super().request(match, seat)

    def poll(self) -> Decision | None:
        done = super().poll()
        if done is not None:
            self.times.append(time.monotonic() - self._asked)
        return done


def play(engine: str, time_ms: int, engine_ms: int, level: str, layout: str, moves: list,
         ours: int, seed: int) -> dict:
    """One game; its row for the results file (score 1, 1/2, 0 from our side; None if it did
    not finish)."""
    match = Match(rules.ID, {"layout": layout}, seed)
    for move in moves:
        match.play(move)
    bot = TimedBot(level, time_ms / 1000, seed=seed)
    program = UAIController(engine, engine_ms)
    ctrls = [bot, program] if ours == 0 else [program, bot]
    play_out(match, ctrls)  # closes both seats
    for c in ctrls:
        c.wait_closed(3.0)
    out = match.outcome()
    row: dict = {"plies": len(match.moves), "our_max": round(max(bot.times, default=0.0), 3),
                 "our_mean": round(sum(bot.times) / max(1, len(bot.times)), 3),
                 "moves": " ".join(str(m) for m in match.moves[len(moves):])}
    if out is None:
        return {**row, "score": None, "end": "unfinished", "stones": None}
    score = 0.5 if out.winner is None else float(out.winner == ours)
    return {**row, "score": score, "end": out.termination.value,
            "stones": [out.score[ours], out.score[1 - ours]]}


QUICK_PLIES = 8  # a side lost every stone this soon after the opening: the opening decided


def decided_by_opening(rows: list[dict]) -> set[int]:
    """The pairs whose two games both ended with a side wiped out within QUICK_PLIES of the
    opening (each colour then wins once, whoever plays it: 1-1 that says nothing of
    strength). The random openings hold a few (2 of the 8 pairs of one seed)."""
    quick: dict[int, int] = {}
    for r in rows:
        if r["end"] == "no pieces" and len(r.get("moves", "").split()) <= QUICK_PLIES:
            quick[r["pair"]] = quick.get(r["pair"], 0) + 1
    return {pair for pair, games in quick.items() if games == 2}


def wdl(rows: list[dict]) -> tuple[int, int, int]:
    """Our wins, draws and losses."""
    return (sum(r["score"] == 1.0 for r in rows), sum(r["score"] == 0.5 for r in rows),
            sum(r["score"] == 0.0 for r in rows))


def load(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


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
    p.add_argument("--layout", default="empty", choices=sorted(rules.LAYOUTS),
                   help="the board (empty: the standard one, no blockers)")
    p.add_argument("--seed", type=int, default=1, help="makes the openings")
    p.add_argument("--tag", default="hard", help="names our bot's version in the results file")
    p.add_argument("--results", default=RESULTS, help="JSON-lines file of finished games")
    args = p.parse_args()
    engine_ms = args.engine_time_ms or args.time_ms
    if args.grace_ms is not None:
        programs.GRACE_MS = args.grace_ms
    name = os.path.basename(args.engine.split()[0])
    same = {"tag": args.tag, "engine": name, "time_ms": args.time_ms, "engine_ms": engine_ms,
            "level": args.level, "layout": args.layout, "seed": args.seed}
    rows = [r for r in load(args.results)
            if all(r.get(k) == v for k, v in same.items()) and r["score"] is not None]
    pairs = (args.games + 1) // 2
    have = {(r["pair"], r["ours"]) for r in rows if r["pair"] < pairs}
    print(f"{len(have)} of {2 * pairs} games already in {args.results}", flush=True)
    ataxx.warm_up()  # build the cache once here; the bot process then only loads it
    worker.wait_for_bot_process()  # as the arcade starts it at launch, long before a move
    os.makedirs(os.path.dirname(args.results), exist_ok=True)
    for k in range(pairs):
        moves = opening(args.layout, args.seed, k)
        for ours in (0, 1):
            if (k, ours) in have:
                continue
            t = time.monotonic()
            row = {**same, "pair": k, "ours": ours, "opening": " ".join(moves),
                   **play(args.engine, args.time_ms, engine_ms, args.level, args.layout,
                          moves, ours, args.seed * 1000 + 2 * k + ours)}
            with open(args.results, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
            if row["score"] is not None:
                rows.append(row)
            print(f"game {2 * k + ours + 1:3d} {row['opening']} ours={'xo'[ours]} "
                  f"{row['stones']} {row['end']} score {row['score']}  "
                  f"(our slowest move {row['our_max']:.2f} s; {time.monotonic() - t:.0f} s)",
                  flush=True)
    counted = [r for r in rows if r["pair"] < pairs]
    print(f"{args.layout} board, openings of seed {args.seed}, ours {args.level} "
          f"[{args.tag}] at {args.time_ms} ms, {name} at {engine_ms} ms")
    print(elo.summary_line(args.tag, name, *wdl(counted)))
    if quick := decided_by_opening(counted):
        print(f"without the {len(quick)} pair(s) the opening decided (a side without stones "
              f"within {QUICK_PLIES} plies in both games): "
              + elo.summary_line(args.tag, name, *wdl([r for r in counted
                                                       if r["pair"] not in quick])))
    if counted:
        print(f"our slowest move {max(r['our_max'] for r in counted):.2f} s, mean "
              f"{sum(r['our_mean'] for r in counted) / len(counted):.3f} s")


if __name__ == "__main__":
    main()
