"""2048: our bot against another program, game for game on the same spawn seeds.

    python bench/g2048_vs.py --lib PATH/2048.so --games 4 --ms 30 --jobs 2
                             [--mode time|depth] [--first-seed 1] [--max-moves N]
                             [--results FILE] [--evaluation ntuple --weights FILE]

Both play the arcade's own rules (game/rules/g2048.py): the same seed gives both the same
opening and the same spawn generator. Ours is the Hard bot at --ms a move (compiled when numba
is there); with --mode depth it searches instead to the other's own depth rule (max(3,
distinct tiles - 2) slides, cut 1e-4) with no clock: the same tree, so equal effort whatever
the machine's load.

The other is a shared library with nneonneo/2048-ai's C interface: init_tables() and
find_best_move(board) -> 0 up, 1 down, 2 left, 3 right, on the same packed board (4-bit
exponents, cell 4 * row + col at bit 4 * cell). Build it yourself outside this repository (no
code or build recipe of it lives here). It searches to its own depth, so set --ms to its
median time a move, which this prints. Its printing goes to /dev/null.

Prints one line a game, then per program: games, mean and median score, how often each best
tile was the best, the rates of reaching 2048..32768, moves a second, the median and 99th
percentile of the time a move, and the median processor time a move (the fair figure on a
loaded machine). --max-moves cuts long games short (they count with the tiles they had):
games to 16384 take thousands of moves. With --results, finished games are appended to FILE
and a later run with the same settings plays only what is missing. Ours evaluates with the
heuristic by default (Hard before it had a network); --evaluation ntuple, Hard's own, puts the
n-tuple network at our search's leaves (--weights as bench/g2048_games.py's).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import statistics
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from g2048_games import load_results, network_weights  # noqa: E402  (bench/ is its folder)

from ai import g2048 as bot  # noqa: E402
from ai.base import Budget  # noqa: E402
from bench import workers  # noqa: E402
from game.rules import g2048 as rules  # noqa: E402

TILES = (2048, 4096, 8192, 16384, 32768)
_LIB: dict = {}


def _other(path: str) -> ctypes.CDLL:
    """The other program's library, loaded once a process, its printing silenced, and its
    direction numbers checked against our slides."""
    if path not in _LIB:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)  # its find_best_move prints every board
        lib = ctypes.CDLL(path)
        lib.init_tables()
        lib.find_best_move.argtypes = [ctypes.c_uint64]
        lib.find_best_move.restype = ctypes.c_int
        lib.execute_move.argtypes = [ctypes.c_int, ctypes.c_uint64]
        lib.execute_move.restype = ctypes.c_uint64
        cells = rules.from_rows([[2, 0, 2, 4], [0, 4, 0, 8], [2, 2, 8, 8], [16, 0, 0, 2]]).cells
        for d, name in enumerate(rules.DIRECTIONS):
            if lib.execute_move(d, rules.pack(cells)) != rules.pack(rules.slide(cells, name)[0]):
                raise SystemExit(f"{path}: its move {d} is not our {name}")
        _LIB[path] = lib
    return _LIB[path]


def play_game(job: tuple[str, int, float, str, int, str, str | None]) -> dict:
    """One game of one program from seed; its score, best tile, moves and decision times."""
    program, seed, ms, lib_path, max_moves, evaluation, weights = job
    if program != "other" and evaluation != "heuristic":
        net = network_weights(weights)
        if bot.KERNEL.load() is None or net is None:
            raise SystemExit(f"no network ({weights}) or no numba ({bot.KERNEL.error})")
        bot.use_evaluation(evaluation, weights=net)
    elif program != "other":  # Hard's own is the network: the heuristic has to be asked for
        bot.use_evaluation("heuristic")
    if program == "ours-depth":
        if bot.KERNEL.load() is None:
            raise SystemExit(f"numba unavailable: {bot.KERNEL.error}")

        def pick(state: rules.State, legal: list[str]) -> str:
            distinct = len({v for v in state.cells if v})
            dirs = [rules.DIRECTIONS.index(m) for m in legal]
            d = bot.search(rules.pack(state.cells), dirs, Budget(3600), max(3, distinct - 2) + 1,
                           1e-4)
            return rules.DIRECTIONS[d]
    elif program == "ours":
        if bot.KERNEL.load() is None and bot.KERNEL.error is not None:
            print(f"numba unavailable ({bot.KERNEL.error}): the numpy search plays",
                  file=sys.stderr)
        bot.heuristic_table()
        rng = random.Random(seed)

        def pick(state: rules.State, legal: list[str]) -> str:
            return bot.choose(rules.view(state, 0), legal, Budget(ms / 1000), "hard", rng)
    else:
        lib = _other(lib_path)

        def pick(state: rules.State, legal: list[str]) -> str:
            return rules.DIRECTIONS[lib.find_best_move(rules.pack(state.cells))]
    state = rules.new_game(None, seed)
    times: list[float] = []
    cpu: list[float] = []
    illegal = 0
    began = time.monotonic()
    while len(times) < max_moves:
        legal = rules.legal_moves(state)
        if not legal:
            break
        t, c = time.monotonic(), time.thread_time()
        move = pick(state, legal)
        times.append(time.monotonic() - t)
        cpu.append(time.thread_time() - c)
        if move not in legal:
            illegal += 1
            move = legal[0]
        state = rules.apply(state, move)
    return {"program": program, "seed": seed, "score": state.score,
            "best": rules.best_tile(state), "moves": len(times), "illegal": illegal,
            "over": not rules.legal_moves(state), "think": sum(times),
            "cpu_median": statistics.median(cpu) if cpu else 0.0, "cpu": sum(cpu),
            "decisions": sorted([k, v] for k, v in
                                Counter(round(t * 10_000) for t in times).items()),
            "seconds": time.monotonic() - began}


def percentile(counts: Counter, q: float) -> float:
    """The q-quantile, in ms, of times counted in tenths of a ms."""
    total = sum(counts.values())
    rank, seen = min(total - 1, int(q * total)), 0
    for tenths in sorted(counts):
        seen += counts[tenths]
        if seen > rank:
            return tenths / 10
    raise ValueError("no decisions")


def summary(name: str, games: list[dict]) -> str:
    """One program's totals over its games so far."""
    n = len(games)
    scores = [g["score"] for g in games]
    best = Counter(g["best"] for g in games)
    bests = " ".join(f"{tile}x{best[tile]}" for tile in sorted(best))
    rates = " ".join(f"{tile}: {sum(g['best'] >= tile for g in games)}/{n}" for tile in TILES)
    times: Counter = Counter()
    for g in games:
        times.update({tenths: count for tenths, count in g["decisions"]})
    moves = sum(g["moves"] for g in games)
    cut = sum(not g["over"] for g in games)
    return (f"{name:>8}: games {n} ({cut} cut short)  score mean {statistics.mean(scores):,.0f}"
            f" median {statistics.median(scores):,.0f}  best tiles {bests}  reached {rates}"
            f"  moves/s {moves / max(1e-9, sum(g['think'] for g in games)):.1f}"
            f"  a move median {percentile(times, 0.5):.1f} ms p99 {percentile(times, 0.99):.1f}"
            f" ms  processor median {statistics.median(g['cpu_median'] for g in games) * 1000:.1f}"
            f" ms{processor_mean(games)}  illegal {sum(g['illegal'] for g in games)}")


def processor_mean(games: list[dict]) -> str:
    """The processor time a move over every move of the games that kept it (its mean: a
    program that thinks longer on harder boards spends well above its median)."""
    kept = [g for g in games if "cpu" in g]
    moves = sum(g["moves"] for g in kept)
    return f" mean {1000 * sum(g['cpu'] for g in kept) / moves:.1f} ms" if moves else ""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lib", required=True, help="the other program's shared library")
    parser.add_argument("--name", default="nneonneo", help="what to call it in the output")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--ms", type=float, default=30.0, help="our time budget a move")
    parser.add_argument("--mode", default="time", choices=("time", "depth"))
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=10**9)
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    parser.add_argument("--results", help="a JSON-lines file to add finished games to")
    parser.add_argument("--evaluation", default="heuristic", choices=("heuristic", "ntuple"))
    parser.add_argument("--weights", help="the network for --evaluation ntuple")
    args = parser.parse_args(argv)
    lib = os.path.abspath(args.lib)
    seeds = range(args.first_seed, args.first_seed + args.games)
    ours = "ours" if args.mode == "time" else "ours-depth"
    settings = {ours: {"program": ours, "ms": args.ms if ours == "ours" else None,
                       "max_moves": args.max_moves},
                args.name: {"program": args.name, "max_moves": args.max_moves}}
    if args.evaluation != "heuristic":  # earlier files' games have neither key
        settings[ours].update(evaluation=args.evaluation, weights=args.weights)
    done: dict[str, list[dict]] = {}
    jobs = []
    for name, key in settings.items():
        done[name] = [g for g in load_results(args.results, key) if g["seed"] in seeds
                      and g.get("evaluation", "heuristic") == key.get("evaluation",
                                                                        "heuristic")]
        have = {g["seed"] for g in done[name]}
        jobs += [(name, seed) for seed in seeds if seed not in have]
    jobs.sort(key=lambda j: (j[1], j[0]))  # both programs a seed at a time: the same load
    how = f"hard, {args.ms:g} ms a move" if ours == "ours" else "its depth rule, no clock"
    how += f", evaluation {args.evaluation}"
    print(f"2048: {ours} ({how}) against {args.name} ({lib}), seeds "
          f"{seeds[0]}..{seeds[-1]}, at most {args.max_moves} moves a game, {args.jobs} "
          f"process(es)", flush=True)
    work = [(name if name == ours else "other", seed, args.ms, lib, args.max_moves,
             args.evaluation, args.weights) for name, seed in jobs]
    with workers.pool(args.jobs) as pool:
        for (name, _), game in zip(jobs, pool.imap(play_game, work)):
            game.update(settings[name])
            done[name].append(game)
            if args.results:
                with open(args.results, "a", encoding="utf-8") as f:
                    f.write(json.dumps(game) + "\n")
            print(f"{name} seed {game['seed']}: score {game['score']:,} best {game['best']} "
                  f"moves {game['moves']}{'' if game['over'] else ' (cut)'} in "
                  f"{game['seconds']:.0f} s", flush=True)
    for name in settings:
        if done[name]:
            print(summary(name, done[name]), flush=True)


if __name__ == "__main__":
    main()
