"""Learns the Ataxx network (ai/ataxx_nnue.py) from self-play positions (issue 31).

    python bench/ataxx_datagen.py --layout empty --games 3000 --nodes 6000 --jobs 2 --out D.npz
    python bench/ataxx_nnue_train.py --data D.npz [--data MORE.npz ...]
        [--out ai/data/ataxx_nnue.npz] [--epochs 12] [--mix 0.5] [--lr 0.002] [--seed 1]
        [--checkpoint FLOAT.npz] [--hidden 128] [--relative] [--start NET.npz] [--test NET.npz ...]

Only positions of the standard board (no blockers) whose search found no forced end are kept.
The target mixes how the game ended (1, 1/2, 0 for the side to move) with the search's score
turned into a chance by K points a logit (--mix: the result's share), K fitted so the scores
best predict the results (bench/ataxx_train.fit_k). Each epoch shows every position once, in a
random turn or mirror of the board (8) and colour (the side to move as x or as o), so both
output heads learn from every game. The loss is the squared error of the win chance;
minibatches of --batch, Adam, the learning rate falling tenfold over the run (or to --lr-end),
weights kept within the int16 range the kernel needs (ai.ataxx_nnue.LIMIT). The last
twentieth of the positions (whole games, the files' order) is held out; its loss is printed
each epoch beside the search scores' own. The network is written quantized to --out and as floats to
--checkpoint (which a later run starts from, if it exists; else --start's quantized network).
With --relative the network reads every position with the side to move as x and has one
output; it is written in absolute colours at twice its units (ai.ataxx_nnue.absolute).
--test NET.npz (repeatable) trains nothing: it prints each network's loss on all the data, to
compare networks on positions none of them learned from.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import ataxx_nnue as nnue  # noqa: E402
from ai import ataxx_patterns as patterns  # noqa: E402
from ai.compiled import Kernel  # noqa: E402
from bench.ataxx_train import fit_k, load, sigmoid  # noqa: E402

_K = Kernel("ai.ataxx_kernel").load()  # points numba's cache at the arcade's folder first
if _K is None:
    raise SystemExit("numba unavailable")
from numba import njit  # noqa: E402

nn_state = _K.nn_state  # a window's input, read as the search reads it

# SQUARE_MAP[t, s]: where turn or mirror t (ai.ataxx_patterns._transform) carries square s.
SQUARE_MAP = np.array([[(lambda i, j: i * 7 + j)(*patterns._transform(t, s // 7, s % 7, 7))
                        for s in range(49)] for t in range(8)], dtype=np.int64)
CORNERS = nnue.CORNERS


@njit(cache=True)
def turned(b, t):
    out = np.uint64(0)
    for s in range(49):
        if (b >> np.uint64(s)) & np.uint64(1):
            out |= np.uint64(1) << np.uint64(SQUARE_MAP[t, s])
    return out


@njit(cache=True)
def inputs(x, o, f):
    """The 36 active inputs of (x, o) into f."""
    for w in range(36):
        f[w] = nn_state(x, o, CORNERS[w])


@njit(cache=True)
def forward(x, o, head, w, b, out, ob, f, acc):
    """The win chance of the side to move (head 0: x, 1: o); fills f and acc."""
    inputs(x, o, f)
    for h in range(acc.shape[0]):
        acc[h] = b[h]
    for j in range(36):
        for h in range(acc.shape[0]):
            acc[h] += w[f[j], h]
    z = ob[head]
    for h in range(acc.shape[0]):
        c = min(max(acc[h], 0.0), 1.0)
        z += out[head, h] * c * c
    return 1.0 / (1.0 + np.exp(-z))


F0, F1, F2 = np.float32(0.0), np.float32(1.0), np.float32(2.0)


@njit(cache=True)
def seed(n):
    """Seeds the generator the compiled code draws its turns and colours from (numpy's own
    seed does not reach it)."""
    np.random.seed(n)


@njit(cache=True, fastmath=True)
def epoch(own, opp, target, order, batch, w, b, out, ob, m, v, step, lr, relative):
    """One pass over order's positions in minibatches, each in a random turn and colour (or,
    relative, with the side to move as x); the mean loss. m and v are Adam's moments for the
    parameters flattened (w, b, out, ob). In float32 over rows from 0, so the loops over the
    units are vector code (4x faster than in float64 with each index checked)."""
    hidden = b.shape[0]
    nw = w.size
    gw = np.zeros_like(w)
    gb = np.zeros_like(b)
    gout = np.zeros_like(out)
    gob = np.zeros_like(ob)
    f = np.empty(36, dtype=np.int64)
    acc = np.empty(hidden, dtype=np.float32)
    da = np.empty(hidden, dtype=np.float32)
    touched = np.zeros(w.shape[0], dtype=np.bool_)  # gw's rows to clear after a step
    total = 0.0
    for start in range(0, order.shape[0] - batch + 1, batch):
        gb[:] = 0
        gout[:] = 0
        gob[:] = 0
        for i in range(start, start + batch):
            j = order[i]
            t = np.random.randint(8)
            a, c = turned(own[j], t), turned(opp[j], t)
            head = 0 if relative else np.random.randint(2)
            x, o = (a, c) if head == 0 else (c, a)
            inputs(x, o, f)
            acc[:] = b
            for k in range(36):
                row = w[f[k]]
                for h in range(hidden):
                    acc[h] += row[h]
            oh = out[head]
            z = F0
            for h in range(hidden):
                clipped = min(max(acc[h], F0), F1)
                z += oh[h] * clipped * clipped
            p = 1.0 / (1.0 + np.exp(-np.float64(z + ob[head])))
            err = p - target[j]
            total += err * err
            dz = np.float32(2.0 * err * p * (1.0 - p) / batch)
            gob[head] += dz
            go = gout[head]
            for h in range(hidden):
                clipped = min(max(acc[h], F0), F1)
                go[h] += dz * clipped * clipped
                da[h] = dz * oh[h] * F2 * acc[h] if F0 < acc[h] < F1 else F0
                gb[h] += da[h]
            for k in range(36):
                touched[f[k]] = True
                g = gw[f[k]]
                for h in range(hidden):
                    g[h] += da[h]
        step += 1
        adam(w.reshape(nw), gw.reshape(nw), m, v, 0, step, lr)
        adam(b, gb, m, v, nw, step, lr)
        adam(out.reshape(2 * hidden), gout.reshape(2 * hidden), m, v, nw + hidden, step, lr)
        adam(ob, gob, m, v, nw + 3 * hidden, step, lr)
        for r in range(w.shape[0]):
            if touched[r]:
                gw[r, :] = 0
                touched[r] = False
    return total / max(1, order.shape[0]), step


@njit(cache=True)
def adam(p, g, m, v, base, step, lr):
    b1, b2 = 0.9, 0.999
    c1, c2 = 1.0 - b1 ** step, 1.0 - b2 ** step
    for i in range(p.shape[0]):
        k = base + i
        m[k] = b1 * m[k] + (1.0 - b1) * g[i]
        v[k] = b2 * v[k] + (1.0 - b2) * g[i] * g[i]
        p[i] -= lr * (m[k] / c1) / (np.sqrt(v[k] / c2) + 1e-8)
        p[i] = min(max(p[i], -nnue.LIMIT), nnue.LIMIT)


@njit(cache=True)
def held_loss(own, opp, target, w, b, out, ob):
    """The mean squared error on positions as they are (x to move), no turns."""
    f = np.empty(36, dtype=np.int64)
    acc = np.empty(b.shape[0], dtype=np.float32)
    total = 0.0
    for j in range(own.shape[0]):
        p = forward(own[j], opp[j], 0, w, b, out, ob, f, acc)
        total += (p - target[j]) ** 2
    return total / max(1, own.shape[0])


def starting(path: str, relative: bool) -> tuple[np.ndarray, ...]:
    """The float parameters of a quantized network file, as a start. A relative start from an
    absolute network keeps its x-to-move output (by colour symmetry it scores the colours
    exchanged alike); from a relative one written in absolute colours, its first half."""
    net = nnue.load(path)
    if net is None:
        raise SystemExit(f"{path}: no such network")
    w, b, out, ob = nnue.floats(net)
    half = w.shape[1] // 2
    (_, end_x), (first_o, _) = nnue.units(net)
    if relative and end_x <= half <= first_o:
        w, b, out = w[:, :half], b[:half], out[:, :half]
    if relative:
        out = np.stack([out[0], np.zeros_like(out[0])])
        ob = np.array([ob[0], 0.0])
    return tuple(np.ascontiguousarray(a, dtype=np.float32) for a in (w, b, out, ob))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", required=True)
    ap.add_argument("--out", default=nnue.DATA)
    ap.add_argument("--checkpoint", default="")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--mix", type=float, default=0.5, help="the game result's share of the target")
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--lr-end", type=float, default=0.0,
                    help="the last epoch's learning rate (default a tenth of --lr)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=nnue.HIDDEN)
    ap.add_argument("--relative", action="store_true",
                    help="inputs read with the side to move as x, one output; written in "
                         "absolute colours at twice the units (ai.ataxx_nnue.absolute)")
    ap.add_argument("--start", default="",
                    help="a quantized network to start from when there is no checkpoint")
    ap.add_argument("--test", action="append", default=[],
                    help="no training: print this network's loss on all the data, and stop")
    args = ap.parse_args()
    t0 = time.monotonic()
    d = load(args.data)
    keep = (np.abs(d["score"]) < 90_000) & (d["gaps"] == 0)
    d = {k: v[keep] for k, v in d.items()}
    result = (d["result"].astype(np.float64) + 1) / 2
    k = fit_k(d["score"].astype(np.float64), result)
    target = (args.mix * result + (1 - args.mix) * sigmoid(d["score"] / k)).astype(np.float32)
    n = len(target)
    if args.test:
        print(f"{n} positions, K = {k:.0f} points a logit, the results' share {args.mix}")
        for path in args.test:
            w, b, out, ob = starting(path, relative=False)
            print(f"{path}: loss {held_loss(d['own'], d['opp'], target, w, b, out, ob):.5f}")
        return
    cut = n * 19 // 20
    base = float(np.mean((sigmoid(d["score"][cut:] / k) - target[cut:]) ** 2))
    print(f"{n} positions ({cut} to learn from), K = {k:.0f} points a logit; held-out loss of "
          f"the search scores {base:.5f}", flush=True)
    seed(args.seed)
    rng = np.random.default_rng(args.seed)
    if args.checkpoint and os.path.exists(args.checkpoint):
        with np.load(args.checkpoint) as c:
            w, b, out, ob = (c[name].astype(np.float32) for name in ("w", "b", "out", "ob"))
            if bool(c.get("relative", False)) != args.relative:
                raise SystemExit(f"{args.checkpoint}: --relative differs from the checkpoint's")
    elif args.start:
        w, b, out, ob = starting(args.start, args.relative)
    else:
        w = rng.uniform(-0.1, 0.1, (nnue.INPUTS, args.hidden)).astype(np.float32)
        b = np.full(args.hidden, 0.3, dtype=np.float32)
        out = rng.uniform(-0.1, 0.1, (2, args.hidden)).astype(np.float32)
        ob = np.zeros(2, dtype=np.float32)
    size = w.size + b.size + out.size + ob.size
    m = np.zeros(size, dtype=np.float32)
    v = np.zeros(size, dtype=np.float32)
    own, opp = d["own"][:cut], d["opp"][:cut]
    step, end_lr = 0, args.lr_end or args.lr / 10
    for e in range(args.epochs):
        lr = args.lr * (end_lr / args.lr) ** (e / max(1, args.epochs - 1))
        order = rng.permutation(cut)
        train, step = epoch(own, opp, target, order, args.batch, w, b, out, ob, m, v, step, lr,
                            args.relative)
        held = held_loss(d["own"][cut:], d["opp"][cut:], target[cut:], w, b, out, ob)
        print(f"epoch {e + 1}: lr {lr:.5f}, loss {train:.5f}, held out {held:.5f} "
              f"({time.monotonic() - t0:.0f} s)", flush=True)
        if args.checkpoint:
            np.savez(args.checkpoint, w=w, b=b, out=out, ob=ob, relative=args.relative)
    if args.relative:
        net = nnue.quantize(*nnue.absolute(w, b, out[0], float(ob[0])), k)
    else:
        net = nnue.quantize(w, b, out, ob, k)
    nnue.save(net, args.out)
    print(f"-> {args.out} ({os.path.getsize(args.out)} bytes)")


if __name__ == "__main__":
    main()
