"""2048's n-tuple network (ai/g2048_ntuple.py) learnt by TD(0) on afterstates, in numba.

    nice -n 19 python bench/g2048_ntuple_train.py --games 200000 --tc --alpha 1.0
        [--seed 1] [--chunk 5000] [--checkpoint PATH] [--export ai/data/g2048_ntuple.npz]
    python bench/g2048_ntuple_train.py --eval 200 [--checkpoint PATH | --weights FILE]
        [--eval-seed 7] [--collect BOARDS.npz] [--starts BOARDS.npz]
    python bench/g2048_ntuple_train.py --checkpoint LATE --promote PATH --starts BOARDS.npz ...

Each game is played greedily on r + V(afterstate) (Szubert & Jaśkowski's TD-afterstate); at
its end the afterstates are updated backwards, the last toward 0 and each earlier one toward
the next slide's points plus the next afterstate's updated value. A step moves V by --alpha
times the error, shared among the 32 weights a board reads; --tc scales each weight's share
by its temporal coherence |sum of errors| / sum of |errors| (Jaśkowski's TC learning).

Games are played in chunks of --chunk, each seeded from (--seed, chunk number), so a run
stopped and resumed from its checkpoint (written after each chunk, at most every
--save-every seconds, at the end, and when a file named as the checkpoint plus ".stop"
appears, which also ends the run) plays the same games. After each chunk it prints the
games played, the chunk's mean score and its rates of reaching 2048 to 32768.
--eval N plays N games from seeds the training never uses (--eval-seed picks which) without
learning (the network alone, greedy 1-ply) and prints the same figures; --collect writes the
first board holding 16384 of each that reached it. --starts plays every game (training or
eval) from a random one of such boards instead of an empty board, and --promote starts a new
checkpoint from another's weights and learning rates: a network for the late game alone,
Jaśkowski's multi-stage weight promotion and Yeh et al.'s stages.

--export writes the visited weights as float16 with --mantissa-bits kept
(ai.g2048_ntuple.save) and prints the file's size; ai.g2048 loads only a file of at most
10 MB, so weights training moved least are left out until the file is at most --export-mb (at
50,000 games, keeping half of them changed the greedy network's figures by less than 300
games' noise).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import g2048 as bot  # noqa: E402
from ai import g2048_ntuple as ntuple  # noqa: E402
from game import storage  # noqa: E402

_K = bot.KERNEL.load()  # points numba's cache at the arcade's folder, then compiles the kernel
if _K is None:
    raise SystemExit(f"numba unavailable: {bot.KERNEL.error}")

from numba import njit  # noqa: E402

from ai.g2048_kernel import ntuple_value, points, slide  # noqa: E402

U = np.uint64
TILES = (2048, 4096, 8192, 16384, 32768)
STAGED_BITS = U(0x2222222222222222)  # with the shifts in play: a tile of 16384 or more
MAX_MOVES = 1 << 18  # a game of 65536 (beyond the packed cap) takes about 30,000 moves
EVAL_SEED = 1 << 40  # eval games' seeds start here: training never reaches them


@njit(cache=True)
def spawn(board):
    """A 2 (p 0.9) or a 4 on a uniformly chosen empty cell."""
    empty = np.empty(16, dtype=np.int64)
    n = 0
    for i in range(16):
        if (board >> U(4 * i)) & U(0xF) == U(0):
            empty[n] = i
            n += 1
    if n == 0:
        return board
    cell = empty[np.random.randint(n)]
    tile = U(2) if np.random.random() < 0.1 else U(1)
    return board | (tile << U(4 * cell))


@njit(cache=True)
def update(board, delta, net, cells, tc, coh_e, coh_a):
    """Moves V(board) by about delta, shared among its weights; returns the new value."""
    step = delta / cells.shape[0]
    total = 0.0
    for row in range(cells.shape[0]):
        index = 0
        for k in range(cells.shape[1]):
            index = (index << 4) | np.int64((board >> U(4 * cells[row, k])) & U(0xF))
        j = ((row & 3) << 24) | index
        if tc:
            rate = 1.0
            if coh_a[j] > 0.0:
                rate = abs(coh_e[j]) / coh_a[j]
            net[j] += step * rate
            coh_e[j] += step
            coh_a[j] += abs(step)
        else:
            net[j] += step
        total += net[j]
    return total


@njit(cache=True)
def play(start, net, cells, tabs, gain, alpha, learn, tc, coh_e, coh_a, after, reward):
    """One game from `start` (a new game if 0), greedy on r + V(afterstate); learns at its
    end if `learn`. Returns (score, best exponent, moves, the first board holding 16384)."""
    board = start if start != U(0) else spawn(spawn(U(0)))
    staged = U(0)
    n = 0
    score = 0
    while n < after.shape[0]:
        # a nibble of 14 or 15 has bits 3, 2 and 1 set: test them all at bit 1's place
        if staged == U(0) and board & (board >> U(1)) & (board >> U(2)) & STAGED_BITS:
            staged = board
        best = -1e300
        best_after = U(0)
        best_r = 0
        for d in range(4):
            a = slide(board, d, tabs)
            if a == board:
                continue
            r = points(board, d, gain)
            v = r + ntuple_value(a, net)
            if v > best:
                best, best_after, best_r = v, a, r
        if best == -1e300:
            break
        after[n] = best_after
        reward[n] = best_r
        n += 1
        score += best_r
        board = spawn(best_after)
    top = 0
    for i in range(16):
        e = np.int64((board >> U(4 * i)) & U(0xF))
        if e > top:
            top = e
    if learn:
        target = 0.0
        for i in range(n - 1, -1, -1):
            v = ntuple_value(after[i], net)
            target = reward[i] + update(after[i], alpha * (target - v), net, cells, tc,
                                        coh_e, coh_a)
    return score, top, n, staged


@njit(cache=True)
def play_chunk(seed, games, starts, net, cells, tabs, gain, alpha, learn, tc, coh_e, coh_a,
               out, staged):
    """`games` games from one seed, each from a random one of `starts` if there are any;
    out[g] = (score, best exponent, moves), staged[g] its first board holding 16384 (or 0)."""
    np.random.seed(seed)
    after = np.zeros(MAX_MOVES, dtype=np.uint64)
    reward = np.zeros(MAX_MOVES, dtype=np.int64)
    for g in range(games):
        start = U(0)
        if starts.shape[0] > 0:
            start = starts[np.random.randint(starts.shape[0])]
        s, top, n, first = play(start, net, cells, tabs, gain, alpha, learn, tc, coh_e, coh_a,
                                after, reward)
        out[g, 0] = s
        out[g, 1] = top
        out[g, 2] = n
        staged[g] = first


def chunk_seed(seed: int, chunk: int) -> int:
    return (seed * 1_000_003 + chunk) % (1 << 31)


def summary(out: np.ndarray) -> str:
    """Mean score and the rates of reaching each tile over some games' results."""
    rates = "  ".join(f"{t}: {np.mean(out[:, 1] >= t.bit_length() - 1):.1%}" for t in TILES)
    return (f"score mean {out[:, 0].mean():,.0f}  reached {rates}  "
            f"moves {int(out[:, 2].sum()):,}")


class Trainer:
    """The weights (and TC's accumulators) with where training stands; saved and resumed."""

    def __init__(self, path: str, tc: bool, promote: str | None = None):
        self.path = path
        self.tc = tc
        self.chunks = 0
        self.games = 0
        self.history: list[dict] = []
        if os.path.exists(path):
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                self.net = data["net"].copy()
                self.tc = bool(meta["tc"])
                self.coh_e = data["coh_e"].copy() if self.tc else np.zeros(1, np.float32)
                self.coh_a = data["coh_a"].copy() if self.tc else np.zeros(1, np.float32)
            self.chunks, self.games, self.history = meta["chunks"], meta["games"], meta["history"]
            print(f"resumed {path}: {self.games:,} games in {self.chunks} chunks", flush=True)
        else:
            self.net = np.zeros(ntuple.SIZE, dtype=np.float32)
            size = ntuple.SIZE if tc else 1
            self.coh_e = np.zeros(size, dtype=np.float32)
            self.coh_a = np.zeros(size, dtype=np.float32)
            if promote:  # a later stage's network starts as the earlier one's (Jaśkowski)
                with np.load(promote, allow_pickle=False) as data:
                    self.net[:] = data["net"]
                    if tc and "coh_e" in data:  # and learns at the rates it had come to
                        self.coh_e[:], self.coh_a[:] = data["coh_e"], data["coh_a"]
                print(f"promoted the weights of {promote}", flush=True)

    def save(self) -> None:
        """Writes the checkpoint atomically (a stopped run resumes from the last one)."""
        meta = {"tc": self.tc, "chunks": self.chunks, "games": self.games,
                "history": self.history}
        tmp = self.path + ".tmp.npz"
        arrays = {"net": self.net, "meta": np.array(json.dumps(meta))}
        if self.tc:
            arrays.update(coh_e=self.coh_e, coh_a=self.coh_a)
        np.savez(tmp, **arrays)
        os.replace(tmp, self.path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="train until this many")
    parser.add_argument("--chunk", type=int, default=1000, help="games a chunk (and a line)")
    parser.add_argument("--alpha", type=float, default=0.4,
                        help="share of the error a step corrects (before TC)")
    parser.add_argument("--tc", action="store_true", help="temporal coherence learning rates")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoint", default=str(storage.cache_dir() / "g2048_ntuple.ckpt.npz"))
    parser.add_argument("--save-every", type=float, default=600.0, help="seconds")
    parser.add_argument("--export", help="write the visited weights here (float16, compressed)")
    parser.add_argument("--export-mb", type=float, default=9.5,
                        help="drop the least trained weights until the file is this small")
    parser.add_argument("--mantissa-bits", type=int, default=7, choices=range(1, 11))
    parser.add_argument("--eval", type=int, default=0, help="play N games without learning")
    parser.add_argument("--eval-seed", type=int, default=7, help="which games --eval plays")
    parser.add_argument("--weights", help="--eval a shipped weight file instead")
    parser.add_argument("--starts", help="games start from these boards (a --collect file)")
    parser.add_argument("--collect", help="write the first board holding 16384 of each "
                        "--eval game that reached it here")
    parser.add_argument("--promote", help="a new checkpoint starts with this one's weights")
    args = parser.parse_args(argv)
    starts = np.zeros(0, dtype=np.uint64)
    if args.starts:
        with np.load(args.starts, allow_pickle=False) as data:
            starts = data["boards"].astype(np.uint64)
        if len(starts) == 0 or np.any(starts == 0):
            raise SystemExit(f"{args.starts}: no boards, or an empty one")
        print(f"games start from the {len(starts):,} boards of {args.starts}", flush=True)
    cells, tabs, gain = ntuple.cell_table(), _K.slide_tables(), _K._gain()
    if args.weights:
        net = ntuple.load(args.weights, max_bytes=1 << 40)
        if net is None:
            raise SystemExit(f"{args.weights}: not a readable network")
        trainer = None
    else:
        os.makedirs(os.path.dirname(os.path.abspath(args.checkpoint)), exist_ok=True)
        trainer = Trainer(args.checkpoint, args.tc, args.promote)
        net = trainer.net
    if args.eval:
        out = np.zeros((args.eval, 3), dtype=np.int64)
        staged = np.zeros(args.eval, dtype=np.uint64)
        began = time.monotonic()
        none = np.zeros(1, dtype=np.float32)
        play_chunk(EVAL_SEED % (1 << 31) + args.eval_seed, args.eval, starts, net, cells, tabs,
                   gain, 0.0, False, False, none, none, out, staged)
        if args.collect:
            boards = staged[staged != 0]
            np.savez_compressed(args.collect, boards=boards)
            print(f"collected {len(boards):,} boards holding 16384 -> {args.collect}")
        after = f"{trainer.games:,} training games" if trainer else args.weights
        print(f"eval (greedy, no learning) {args.eval} games of {after}: {summary(out)}  "
              f"{time.monotonic() - began:.0f} s", flush=True)
    if trainer is not None and trainer.games < args.games:
        print(f"training to {args.games:,} games, alpha {args.alpha}, tc {trainer.tc}, "
              f"chunks of {args.chunk}", flush=True)
        saved = time.monotonic()
        while trainer.games < args.games:
            n = min(args.chunk, args.games - trainer.games)
            out = np.zeros((n, 3), dtype=np.int64)
            began = time.monotonic()
            play_chunk(chunk_seed(args.seed, trainer.chunks), n, starts, net, cells, tabs, gain,
                       args.alpha, True, trainer.tc, trainer.coh_e, trainer.coh_a, out,
                       np.zeros(n, dtype=np.uint64))
            took = time.monotonic() - began
            trainer.chunks += 1
            trainer.games += n
            line = {"games": trainer.games, "score": float(out[:, 0].mean()),
                    **{str(t): float(np.mean(out[:, 1] >= t.bit_length() - 1)) for t in TILES},
                    "seconds": round(took, 1)}
            trainer.history.append(line)
            print(f"games {trainer.games:,}  last {n}: {summary(out)}  {took:.0f} s", flush=True)
            stop = os.path.exists(args.checkpoint + ".stop")
            if time.monotonic() - saved > args.save_every or trainer.games >= args.games \
                    or stop:
                trainer.save()
                saved = time.monotonic()
            if stop:
                os.remove(args.checkpoint + ".stop")
                print(f"stopped by {args.checkpoint}.stop", flush=True)
                break
    if args.export:
        export(args.export, net, trainer.coh_a if trainer and trainer.tc else None,
               args.export_mb, args.mantissa_bits)


def export(path: str, net: np.ndarray, activity: np.ndarray | None, max_mb: float,
           mantissa_bits: int) -> None:
    """Writes the network; if the file is over max_mb, keeps only the weights training moved
    most (TC's sum of |steps|, else |weight|) and writes it again, until it fits."""
    rank = np.abs(net) if activity is None else activity
    visited = np.flatnonzero(net)
    keep = len(visited)
    weights = net
    while True:
        size = ntuple.save(path, weights, mantissa_bits)
        print(f"exported {np.count_nonzero(weights):,} of {len(visited):,} visited weights "
              f"({mantissa_bits} mantissa bits) to {path}: {size / 1e6:.2f} MB", flush=True)
        if size <= max_mb * 1e6 or keep < 1000:
            return
        keep = int(keep * max_mb * 1e6 / size * 0.97)
        top = visited[np.argpartition(-rank[visited], keep)[:keep]]
        weights = np.zeros_like(net)
        weights[top] = net[top]


if __name__ == "__main__":
    main()
