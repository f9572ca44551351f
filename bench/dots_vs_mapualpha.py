"""Dots and Boxes Hard against MapuAlpha (qndks/dotsandboxes-mapualpha, C++ through pybind11) on
5x5 boxes at equal time per move, seats alternating game by game.

    python bench/dots_vs_mapualpha.py --engine /work/ext/mapualpha/agents/MapuAlpha \\
        [--games 20] [--seconds 1.0] [--jobs 1] [--tag NAME] [--results PATH] [--guess N]

--engine is the folder holding the built module MapuAlpha*.so (or the .so itself); the engine is
built outside this repository and never committed. Its own time manager shares 24 s over a
game; for equal time per move it is built with that call replaced by a fixed time read from the
environment variable MAPU_MOVE_MS (one line of its main.cpp: `c_timeLimitMs =
getenv("MAPU_MOVE_MS") ? atof(getenv("MAPU_MOVE_MS")) : timeManager...;`), which this bench
sets. Each finished game is appended to the results file (JSON lines) and a rerun with the same
tag and seconds plays only the games still missing, so a match can be spread over sessions.
Prints W-D-L and an Elo estimate with its 95% interval (ai/elo.py) for Hard.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ai import dots as bot  # noqa: E402
from ai import dots_chains, dots_solver  # noqa: E402
from ai.base import Budget  # noqa: E402
from ai.elo import summary_line  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import dots as rules  # noqa: E402

SIZE = 5  # the engine is compiled for 5x5 boxes
H_LINES = (SIZE + 1) * SIZE


def load_engine(path: str):
    """The MapuAlpha module from its folder or its .so file."""
    p = Path(path)
    if p.is_dir():
        found = sorted(p.glob("MapuAlpha*.so"))
        if not found:
            raise SystemExit(f"no MapuAlpha*.so in {p}")
        p = found[0]
    spec = importlib.util.spec_from_file_location("MapuAlpha", p)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def board_lines(mask: int) -> list:
    """The engine's board: [x][y][z], z 0 a horizontal line from dot (x, y), z 1 a vertical one."""
    board = [[[0, 0] for _ in range(SIZE + 1)] for _ in range(SIZE + 1)]
    for line in range(2 * H_LINES):
        if mask >> line & 1:
            if line < H_LINES:
                r, c = divmod(line, SIZE)
                board[c][r][0] = 1
            else:
                r, c = divmod(line - H_LINES, SIZE + 1)
                board[c][r][1] = 1
    return board


def engine_line(xyz) -> int:
    x, y, z = (int(v) for v in xyz)
    return y * SIZE + x if z == 0 else H_LINES + y * (SIZE + 1) + x


_ENGINE = None


def _init(engine_path: str, seconds: float, guess: int | None) -> None:
    global _ENGINE
    os.environ["MAPU_MOVE_MS"] = str(int(seconds * 1000))
    if guess is not None:
        dots_chains.GUESS = guess
    _ENGINE = load_engine(engine_path)
    dots_solver.KERNEL.load()
    dots_chains.KERNEL.load()


def play(job: tuple[int, float, str]) -> dict:
    """One game; Hard has seat game % 2 (seat 0 moves first)."""
    game, seconds, level = job
    rng = random.Random(game)
    ours = game % 2
    s = rules.new_game({"rows": SIZE, "cols": SIZE})
    slowest, over, ours_time = 0.0, 0, 0.0
    engine_slowest = 0.0
    start = time.time()
    while rules.outcome(s) is None:
        legal = rules.legal_moves(s)
        t = time.perf_counter()
        if s.turn == ours:
            move = bot.choose(rules.view(s, ours), legal, Budget(seconds), level, rng)
            spent = time.perf_counter() - t
            slowest, ours_time = max(slowest, spent), ours_time + spent
            over += spent > seconds
        else:
            move = engine_line(_ENGINE.choose_move(board_lines(s.mask)))
            engine_slowest = max(engine_slowest, time.perf_counter() - t)
            if move not in legal:
                raise RuntimeError(f"engine played an illegal line {move} in game {game}")
        s = rules.apply(s, move)
    out = rules.outcome(s)
    result = 0.5 if out.winner is None else float(out.winner == ours)
    return {"game": game, "hard_seat": ours, "score": list(out.score), "result": result,
            "lines": list(s.drawn), "hard_slowest": round(slowest, 3), "hard_over": over,
            "engine_slowest": round(engine_slowest, 3), "seconds": round(time.time() - start)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--engine", required=True, help="folder of the built MapuAlpha module")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--level", default="hard")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--tag", default="hard", help="names the Hard version the games belong to")
    p.add_argument("--guess", type=int, default=None,
                   help="an experiment: boxes the long chain rule's guess is worth (default: "
                        "ai/dots_chains.GUESS); give it its own --tag")
    p.add_argument("--results", default=str(ROOT / "bench/results/dots_vs_mapualpha.jsonl"))
    args = p.parse_args()
    path = Path(args.results)
    path.parent.mkdir(parents=True, exist_ok=True)
    key = {"tag": args.tag, "level": args.level, "move_seconds": args.seconds}
    done: dict[int, dict] = {}
    if path.exists():
        for row in path.read_text().splitlines():
            rec = json.loads(row)
            if all(rec.get(k) == v for k, v in key.items()):
                done[rec["game"]] = rec
    todo = [(g, args.seconds, args.level) for g in range(args.games) if g not in done]
    print(f"{len(done)} games on file for {key}, {len(todo)} to play", flush=True)
    if todo:
        setup = (args.engine, args.seconds, args.guess)
        with workers.pool(args.jobs, initializer=_init, initargs=setup) as pool:
            for rec in pool.imap_unordered(play, todo):
                rec.update(key)
                with path.open("a") as f:
                    f.write(json.dumps(rec) + "\n")
                done[rec["game"]] = rec
                ours = rec["hard_seat"]
                print(f"game {rec['game']}: Hard as {'first' if ours == 0 else 'second'} "
                      f"{rec['score'][ours]}-{rec['score'][1 - ours]} "
                      f"({'win' if rec['result'] == 1 else 'draw' if rec['result'] else 'loss'}),"
                      f" slowest move {rec['hard_slowest']} s, {rec['seconds']} s", flush=True)
    games = [done[g] for g in sorted(done) if g < args.games]
    w = sum(r["result"] == 1 for r in games)
    d = sum(r["result"] == 0.5 for r in games)
    lost = len(games) - w - d
    first = [r for r in games if r["hard_seat"] == 0]
    print(summary_line(f"Dots 5x5 {args.level} ({args.tag})",
                       f"MapuAlpha at {args.seconds:g} s a move", w, d, lost))
    print(f"as first player {sum(r['result'] for r in first):g}/{len(first)}, as second "
          f"{sum(r['result'] for r in games if r['hard_seat'] == 1):g}/{len(games) - len(first)};"
          f" Hard's slowest move {max((r['hard_slowest'] for r in games), default=0)} s, "
          f"moves over budget {sum(r['hard_over'] for r in games)}")


if __name__ == "__main__":
    main()
