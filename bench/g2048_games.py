"""2048 bot strength: N whole games from fixed seeds at a per-move time budget.

    python bench/g2048_games.py --games 20 --ms 100 --jobs 2 [--level hard] [--first-seed 1]
                                [--results FILE] [--evaluation ntuple --weights FILE]
                                [--max-moves N] [--depth N] [--starts FILE] [--late-tile T]

Prints one line per finished game and the running totals after each (so a run cut short still
says what it measured): the rates of reaching 2048 to 32768 (each with its Wilson 95%
interval), mean and median score, and the median and 99th percentile of the time per
decision. With --results, each finished game is appended to FILE (a JSON line) and a later run
with the same settings plays only the seeds not yet in it, so a long run can be done in parts;
the totals cover every game in the file.
The default --evaluation is the heuristic (Hard before it had a network); --evaluation ntuple,
Hard's own, puts the n-tuple network at the compiled search's leaves (--weights: a
file ai.g2048_ntuple.save wrote, of any size, or a checkpoint of bench/g2048_ntuple_train.py;
ai/data's file by default); --max-moves cuts games short (they count with what they had);
--depth N searches N chance levels (cut 1e-4) with no clock instead of --ms (equal trees).
--starts FILE (boards holding 16384, from bench/g2048_ntuple_train.py --collect) plays seed
k's game from the file's k-th board instead of an empty one, to measure the late game alone
(the score counts from there). --late-tile T hands the game, from the first board holding T,
to the heuristic searching to nneonneo's depth rule with no clock (a trial of that late
phase: each game records its processor time in all and in that phase). Every game keeps every
100th board, for bench/g2048_equal_time.py. With --results, a game in progress also keeps its
place every 100 moves in FILE.seedN.SETTINGS.partial (written whole or not at all), and a later
run at the same settings goes on from there: a game of 32768 takes well over an hour and a half at
270 ms a move, and one cut short would otherwise be lost and, being long, leave the rates low.
Such a game records how many times it was taken up again ("resumed").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from ai import elo  # noqa: E402
from ai import g2048 as bot  # noqa: E402
from ai import g2048_ntuple as ntuple  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import g2048 as rules  # noqa: E402

TILES = (2048, 4096, 8192, 16384, 32768)
FIXED_CUT = 1e-4  # --depth's cut on the probability of reaching a chance node (nneonneo's)


def network_weights(path: str | None) -> np.ndarray | None:
    """Dense weights from a saved network (any size) or a training checkpoint; ai/data's
    file if path is None."""
    if path is None:
        return ntuple.load()
    with np.load(path, allow_pickle=False) as data:
        if "net" in data:
            return data["net"]
    return ntuple.load(path, max_bytes=1 << 40)


def start_board(path: str, seed: int) -> int:
    """The (seed - 1)-th board of a --starts file (cycling)."""
    with np.load(path, allow_pickle=False) as data:
        boards = data["boards"]
    if len(boards) == 0 or np.any(boards == 0):
        raise SystemExit(f"{path}: no boards, or an empty one")
    return int(boards[(seed - 1) % len(boards)])


def depth_rule(cells: tuple[int, ...]) -> int:
    """nneonneo's depth, in our chance levels: max(3, distinct tiles - 2) slides below the
    root's."""
    return max(3, len({v for v in cells if v}) - 2) + 1


def late_move(state: rules.State, legal: list[str]) -> str:
    """The late phase's move: the heuristic to nneonneo's depth rule, with no clock."""
    dirs = [rules.DIRECTIONS.index(m) for m in legal]
    return rules.DIRECTIONS[bot.search(rules.pack(state.cells), dirs, Budget(3600),
                                       depth_rule(state.cells), FIXED_CUT, network=False)]


Job = tuple[int, float, str, str, str | None, int, int, str | None, int, str | None]


def progress_path(results: str | None, job: Job) -> str | None:
    """Where the game of this job keeps its place, beside the results file: named by its seed
    and its settings, so two runs at other settings on one file keep theirs apart."""
    if not results:
        return None
    settings = hashlib.sha256(json.dumps(list(job[1:-1])).encode()).hexdigest()[:8]
    return f"{results}.seed{job[0]}.{settings}.partial"


def save_progress(path: str, job: Job, state: rules.State, rng: random.Random, kept: dict) -> None:
    """The game's place, written to a temporary file and renamed over the last one."""
    place = dict(kept, job=list(job[:-1]), cells=list(state.cells), score=state.score,
                 rules_rng=state.rng, bot_rng=rng.getstate())
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(place, f)
    os.replace(path + ".tmp", path)


def load_progress(path: str | None, job: Job) -> tuple[rules.State, tuple, dict] | None:
    """The board, the bot's random state and what was kept, where a game of this job was
    left (another job's place, or a damaged file's, is not taken up)."""
    if not path or not os.path.exists(path):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            place = json.load(f)
        if place["job"] != list(job[:-1]):
            raise ValueError("another game's place")
        if len(place["cells"]) != 16:
            raise ValueError("not a 4x4 board")
        state = rules.State(tuple(int(v) for v in place["cells"]), int(place["score"]),
                            int(place["rules_rng"]))
        version, inner, gauss = place["bot_rng"]
        random.Random().setstate((version, tuple(inner), gauss))
        kept = {k: place[k] for k in ("times", "late", "boards", "seconds", "cpu")}
        kept["resumed"] = int(place["resumed"]) + 1
    except (OSError, ValueError, KeyError, TypeError):
        print(f"{path}: not this game's place, it starts over", flush=True)
        return None
    return state, (version, tuple(inner), gauss), kept


def play_game(job: Job) -> dict:
    """One game from seed at ms a move (or to a fixed depth); its score, best tile, moves and
    decision times. From the first board holding late_tile on (0: never) the heuristic plays,
    to nneonneo's depth rule with no clock. A game with a place to keep (the job's last
    field) goes on from it and keeps it every 100 moves."""
    seed, ms, level, evaluation, weights, max_moves, depth, starts, late_tile, keep = job
    if evaluation != "heuristic":
        net = network_weights(weights)
        if bot.KERNEL.load() is None or net is None:
            raise SystemExit(f"no network ({weights}) or no numba ({bot.KERNEL.error})")
        bot.use_evaluation(evaluation, weights=net)
    else:  # Hard's own is the network: the heuristic has to be asked for
        bot.use_evaluation("heuristic")
    bot.heuristic_table()
    rules.tables()
    state = rules.new_game(None, seed)
    if starts:
        state = rules.reseed(rules.State(rules.unpack(start_board(starts, seed))), state.rng)
    rng = random.Random(seed)
    kept: dict = {"times": [], "late": [], "boards": [], "seconds": 0.0, "cpu": 0.0,
                  "resumed": 0}
    place = load_progress(keep, job)
    if place is not None:
        state, rng_state, kept = place
        rng.setstate(rng_state)
    times: list[float] = kept["times"]
    late: list[float] = kept["late"]  # processor time of each move of the late phase
    sampled: list[int] = kept["boards"]  # every 100th board, to time another program on them
    began = time.monotonic() - kept["seconds"]
    cpu = time.process_time() - kept["cpu"]
    while len(times) < max_moves:
        legal = rules.legal_moves(state)
        if not legal:
            break
        t = time.monotonic()
        if late_tile and rules.best_tile(state) >= late_tile:
            c = time.process_time()
            move = late_move(state, legal)
            late.append(time.process_time() - c)
        elif depth:  # no clock: the same tree whatever the machine's load
            dirs = [rules.DIRECTIONS.index(m) for m in legal]
            move = rules.DIRECTIONS[bot.search(rules.pack(state.cells), dirs, Budget(3600),
                                               depth, FIXED_CUT)]
        else:
            move = bot.choose(rules.view(state, 0), legal, Budget(ms / 1000), level, rng)
        times.append(time.monotonic() - t)
        if len(times) % 100 == 0:
            sampled.append(rules.pack(state.cells))
        state = rules.apply(state, move)
        if keep and len(times) % 100 == 0:
            kept.update(seconds=time.monotonic() - began, cpu=time.process_time() - cpu)
            save_progress(keep, job, state, rng, kept)
    return {"seed": seed, "score": state.score, "best": rules.best_tile(state),
            "moves": len(times), "over": not rules.legal_moves(state),
            "decisions": histogram(times), "seconds": time.monotonic() - began,
            "cpu": time.process_time() - cpu, "late_moves": len(late), "late_cpu": sum(late),
            "boards": sampled, "resumed": kept["resumed"]}


def histogram(times: list[float]) -> list[list[int]]:
    """Decision times as [tenths of a millisecond, how many] pairs, shortest first."""
    return sorted([k, v] for k, v in Counter(round(t * 10_000) for t in times).items())


def percentile(counts: Counter, q: float) -> float:
    """The q-quantile, in ms, of the times counted in tenths of a ms."""
    rank = min(sum(counts.values()) - 1, int(q * sum(counts.values())))
    seen = 0
    for tenths in sorted(counts):
        seen += counts[tenths]
        if seen > rank:
            return tenths / 10
    raise ValueError("no decisions")


def summary(games: list[dict]) -> str:
    """The running totals over the games finished so far."""
    n = len(games)
    rates = "  ".join(f"{tile}: {k / n:.0%} ({lo:.0%}-{hi:.0%})"
                      for tile in TILES
                      for k in [sum(g["best"] >= tile for g in games)]
                      for lo, hi in [elo.rate_interval(k, n)])
    scores = [g["score"] for g in games]
    times: Counter = Counter()
    for g in games:
        times.update({tenths: count for tenths, count in g["decisions"]})
    return (f"games {n}  reached {rates}  score mean {statistics.mean(scores):,.0f} "
            f"median {statistics.median(scores):,.0f}  decision median "
            f"{percentile(times, 0.5):.1f} ms p99 {percentile(times, 0.99):.1f} ms"
            f" max {max(times) / 10:.1f} ms  moves {times.total()}")


def load_results(path: str | None, key: dict) -> list[dict]:
    """The games already in a results file that were played at these settings (key)."""
    if not path or not os.path.exists(path):
        return []
    games = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                game = json.loads(line)
            except ValueError:
                continue  # a line cut short when an earlier run was stopped
            if isinstance(game, dict) and all(game.get(k) == v for k, v in key.items()):
                games.append(game)
    return games


def append_result(path: str | None, game: dict) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(game) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--ms", type=float, default=100.0, help="time budget per move")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    parser.add_argument("--level", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--results", help="a JSON-lines file to add finished games to")
    parser.add_argument("--evaluation", default="heuristic", choices=("heuristic", "ntuple"))
    parser.add_argument("--weights", help="the network for --evaluation ntuple")
    parser.add_argument("--max-moves", type=int, default=10**9)
    parser.add_argument("--depth", type=int, default=0,
                        help="search this many chance levels (the root's slides included) "
                             "with no clock, instead of --ms and --level")
    parser.add_argument("--starts", help="play from these boards (a --collect file)")
    parser.add_argument("--late-tile", type=int, default=0,
                        help="from the first board holding this tile, the heuristic plays to "
                             "nneonneo's depth rule with no clock")
    args = parser.parse_args(argv)
    if args.starts:
        start_board(args.starts, 1)  # an unreadable or empty file stops here, not in a worker
    seeds = range(args.first_seed, args.first_seed + args.games)
    settings: dict = {"ms": args.ms, "level": args.level}
    if args.evaluation != "heuristic":  # earlier files' games have neither key
        settings.update(evaluation=args.evaluation, weights=args.weights)
    if args.max_moves < 10**9:
        settings.update(max_moves=args.max_moves)
    if args.depth:
        settings.update(depth=args.depth, ms=None, level=None)
    if args.starts:
        settings.update(starts=args.starts)
    if args.late_tile:
        settings.update(late_tile=args.late_tile)
    done = [g for g in load_results(args.results, settings) if g["seed"] in seeds
            and g.get("evaluation", "heuristic") == args.evaluation
            and g.get("max_moves", 10**9) == args.max_moves
            and g.get("depth", 0) == args.depth and g.get("starts") == args.starts
            and g.get("late_tile", 0) == args.late_tile]
    played = {g["seed"] for g in done}
    jobs: list[Job] = [(seed, args.ms, args.level, args.evaluation, args.weights,
                        args.max_moves, args.depth, args.starts, args.late_tile, None)
                       for seed in seeds if seed not in played]
    jobs = [job[:-1] + (progress_path(args.results, job),) for job in jobs]
    how = f"depth {args.depth}, no clock" if args.depth else \
        f"{args.ms:g} ms a move, level {args.level}"
    print(f"2048: {args.games} games, seeds {seeds[0]}..{seeds[-1]}, {how}, "
          f"evaluation {args.evaluation}"
          f"{'' if args.weights is None else ' ' + args.weights}"
          f"{'' if args.starts is None else ', from the boards of ' + args.starts}, "
          f"at most {args.max_moves} moves, {args.jobs} process(es); {len(done)} already in "
          f"the results", flush=True)
    with workers.pool(args.jobs) as pool:
        for game in pool.imap_unordered(play_game, jobs):
            game.update(settings)
            append_result(args.results, game)
            keep = next(job[-1] for job in jobs if job[0] == game["seed"])
            if keep and os.path.exists(keep):
                os.remove(keep)
            done.append(game)
            print(f"seed {game['seed']}: score {game['score']:,} best {game['best']} "
                  f"moves {game['moves']}{'' if game['over'] else ' (cut)'} in "
                  f"{game['seconds']:.0f} s, processor {game['cpu']:.0f} s"
                  + (f", taken up again {game['resumed']} time(s)" if game["resumed"] else "")
                  + (f", late phase {game['late_moves']} moves in {game['late_cpu']:.0f} s"
                     if args.late_tile else ""), flush=True)
            print("  " + summary(done), flush=True)
    if done:
        print("final: " + summary(done), flush=True)


if __name__ == "__main__":
    main()
