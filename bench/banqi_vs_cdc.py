"""Banqi Hard against an outside engine speaking the CDC protocol (the Taiwan computer dark chess
protocol of the TCG course: `id command args` on stdin, `=id answer` on stdout), e.g.
Splend1d/darkchess built outside the repository. Taiwan rules, seats alternating, deals from
--seed on; each finished game is appended to a results file and a rerun plays only the games
missing from it (keyed by the run's settings), then prints W-D-L and the Elo estimate.

    python bench/banqi_vs_cdc.py --engine /work/ext/darkchess/exec.final --games 20 \
        --seconds 1.0 [--engine-ms 1000] [--jobs 2] [--tag hard]

The engine's board is 4 files x 8 ranks: our square (rank r, file f) is its file "abcd"[r],
rank f + 1 (a transposition, so steps and cannon lines are the same). Its pieces are K G M R N C
P (upper case red). It times itself from `time_left`: given 60 s + 10 x --engine-ms it assigns
--engine-ms a move (never less than 1 s) and stops hard at twice that. When it answers something
that is not a legal move (it prefers to pass), it is given a quiet flip (a face-down square with
no face-up piece next to it, if there is one) and the pass is counted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import banqi as bot  # noqa: E402
from ai import elo  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from bench.engine_lines import EngineFailed, EngineLines  # noqa: E402
from game.rules import banqi as rules  # noqa: E402

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                       "banqi_vs_cdc.jsonl")
TO_CDC = {"K": "K", "A": "G", "E": "M", "R": "R", "N": "N", "C": "C", "P": "P"}
ENGINE_TIMEOUT = 60.0  # seconds: an engine silent this long ends the game unfinished
MAX_LINES = 1000  # lines before one answer (the engine's own chatter included)


def cdc_square(sq: int) -> str:
    return "abcd"[sq // rules.FILES] + str(sq % rules.FILES + 1)


def our_square(text: str) -> int | None:
    if len(text) != 2 or text[0] not in "abcd" or text[1] not in "12345678":
        return None
    return "abcd".index(text[0]) * rules.FILES + int(text[1]) - 1


def cdc_piece(p: str) -> str:
    letter = TO_CDC[p.upper()]
    return letter if p.isupper() else letter.lower()


class Engine(EngineLines):
    """One engine process for one game (it keeps state across games in globals), run as the
    arcade runs programs: one that falls silent for ENGINE_TIMEOUT, floods, garbles or ends
    raises EngineFailed, and nothing it started stays."""

    def __init__(self, command: str):
        super().__init__(command, silence_s=ENGINE_TIMEOUT, max_lines=MAX_LINES)

    def ask(self, cid: int, command: str) -> str:
        """Sends `cid command`, returns the answer after `=cid` (it also prints other lines)."""
        self.send(f"{cid} {command}")
        marks = (f"={cid}", f"?{cid}")
        lines = self.read_until(lambda line: line.startswith(marks), f"answering {command!r}")
        return lines[-1][len(marks[0]):].strip()


def quiet_flip(board, rng: random.Random) -> str | None:
    """A face-down square with no face-up piece beside it (else any face-down one)."""
    down = [sq for sq in range(32) if board[sq] == "?"]
    if not down:
        return None
    calm = [sq for sq in down if all(not board[n].isalpha() for n in rules.NEIGHBOURS[sq])]
    return rules.square_name(rng.choice(calm or down))


def material(state: rules.State, seat: int) -> int:
    """Seat's material minus the other's, in the bot's values (face-down pieces counted)."""
    values = bot.VALUES[state.variant]
    colour = state.colors[seat]
    total = 0
    for p in list(state.board) + [p for p in state.under if p]:
        if p.isalpha():
            total += values[p.upper()] * (1 if rules.colour_of(p) == colour else -1)
    return total


def play(job: tuple) -> dict:
    """One game: its record (our score, how it ended, passes, times)."""
    engine_cmd, seed, ours, seconds, engine_ms, level = job
    bot.KERNEL.load()
    rng = random.Random(seed)
    s = rules.new_game({"variant": "taiwan"}, seed)
    engine = Engine(engine_cmd)
    cid = 0
    passes = forced = 0
    our_times: list[float] = []
    engine_times: list[float] = []
    error = ""
    try:
        engine.ask(7, "reset_board")
        while rules.outcome(s) is None:
            legal = rules.legal_moves(s)
            if s.turn == ours:
                t = time.perf_counter()
                move = bot.choose(rules.view(s, ours), legal, Budget(seconds), level, rng)
                our_times.append(time.perf_counter() - t)
            else:
                colour = s.colors[s.turn] or "unknown"
                for side in ("red", "black"):
                    engine.ask(16, f"time_left {side} {60000 + 10 * engine_ms}")
                t = time.perf_counter()
                answer = engine.ask(12, f"genmove {colour}")
                engine_times.append(time.perf_counter() - t)
                parts = answer.split()
                move = None
                if len(parts) == 2:
                    a, b = our_square(parts[0]), our_square(parts[1])
                    if a is not None and b is not None:
                        move = rules.square_name(a) + ("" if a == b else rules.square_name(b))
                if move not in legal:
                    move = quiet_flip(s.board, rng)
                    if move is None:  # nothing to flip: its pass cannot be honoured
                        forced += 1
                        move = rng.choice(legal)
                    else:
                        passes += 1
            s = rules.apply(s, move)
            cid += 1
            if len(move) == 2:
                engine.ask(11, f"flip {cdc_square(rules.parse_square(move))} "
                               f"{cdc_piece(s.board[rules.parse_square(move)])}")
            else:
                engine.ask(10, f"move {cdc_square(rules.parse_square(move[:2]))} "
                               f"{cdc_square(rules.parse_square(move[2:]))}")
    except EngineFailed as failed:
        error = str(failed)
    finally:
        engine.close("5 quit")
    out = rules.outcome(s)
    if out is None:
        score, how = None, "unfinished: " + error
    else:
        score = 0.5 if out.winner is None else float(out.winner == ours)
        how = out.termination.value
    return {"seed": seed, "ours": ours, "seconds": seconds, "engine_ms": engine_ms,
            "level": level, "engine": os.path.basename(engine_cmd.split()[0]), "score": score,
            "end": how, "plies": cid, "material": material(s, ours) if s.colors[0] else 0,
            "passes": passes, "forced": forced,
            "our_max": round(max(our_times, default=0.0), 3),
            "our_mean": round(sum(our_times) / max(1, len(our_times)), 3),
            "engine_max": round(max(engine_times, default=0.0), 3),
            "engine_mean": round(sum(engine_times) / max(1, len(engine_times)), 3)}


def load(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def report(rows: list[dict], tag: str) -> None:
    done = [r for r in rows if r["score"] is not None]
    w = sum(r["score"] == 1 for r in done)
    d = sum(r["score"] == 0.5 for r in done)
    lost = len(done) - w - d
    print(elo.summary_line(tag, "cdc engine", w, d, lost))
    ends = Counter(r["end"] for r in done)
    behind = sum(1 for r in done if r["end"] == "repetition" and r["material"] < 0)
    ahead = sum(1 for r in done if r["end"] == "repetition" and r["material"] > 0)
    print(f"endings: {dict(ends)}; repetitions with Hard ahead {ahead}, behind {behind}; "
          f"the engine's passes given a quiet flip: {sum(r['passes'] for r in done)} in "
          f"{sum(1 for r in done if r['passes'])} games (no flip left: "
          f"{sum(r['forced'] for r in done)}); mean "
          f"{sum(r['plies'] for r in done) / max(1, len(done)):.0f} plies")
    if done:
        print(f"Hard's slowest move {max(r['our_max'] for r in done):.2f} s (mean "
              f"{sum(r['our_mean'] for r in done) / len(done):.2f}); the engine's slowest "
              f"{max(r['engine_max'] for r in done):.2f} s (mean "
              f"{sum(r['engine_mean'] for r in done) / len(done):.2f})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--engine", required=True, help="the engine's command line")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seconds", type=float, default=1.0, help="Hard's budget a move")
    p.add_argument("--engine-ms", type=int, default=1000, help="the engine's time a move")
    p.add_argument("--seed", type=int, default=31000, help="the first deal's seed")
    p.add_argument("--level", default="hard")
    p.add_argument("--tag", default="hard", help="names this bot version in the results file")
    p.add_argument("--results", default=RESULTS)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    if not args.engine.split() or shutil.which(args.engine.split()[0]) is None:
        raise SystemExit(f"no engine program at {args.engine!r}")
    rows = load(args.results)
    mine = [r for r in rows if r.get("tag") == args.tag and r["seconds"] == args.seconds
            and r["engine_ms"] == args.engine_ms and r["level"] == args.level
            and r["engine"] == os.path.basename(args.engine.split()[0])]
    have = {(r["seed"], r["ours"]) for r in mine if r["score"] is not None}
    work = [(args.engine, args.seed + i, i % 2, args.seconds, args.engine_ms, args.level)
            for i in range(args.games) if (args.seed + i, i % 2) not in have]
    print(f"{len(have)} games in {args.results}, {len(work)} to play", flush=True)
    os.makedirs(os.path.dirname(args.results), exist_ok=True)
    if work:
        with workers.pool(args.jobs) as pool:
            for r in pool.imap_unordered(play, work):
                r["tag"] = args.tag
                with open(args.results, "a") as f:
                    f.write(json.dumps(r) + "\n")
                if r["score"] is not None:
                    mine.append(r)
                print(f"seed {r['seed']} seat {r['ours']}: {r['score']} {r['end']} "
                      f"({r['plies']} plies, material {r['material']:+d}, passes "
                      f"{r['passes']})", flush=True)
    report([r for r in mine if r["seed"] < args.seed + args.games], args.tag)


if __name__ == "__main__":
    main()
