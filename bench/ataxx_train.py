"""Learns the Ataxx evaluation's pattern tables from self-play positions (issue 22).

    python bench/ataxx_datagen.py --games 12000 --out /tmp/ataxx_data.npz
    python bench/ataxx_train.py --data /tmp/ataxx_data.npz [--data MORE.npz]
        [--out ai/data/ataxx_patterns.npz] [--steps 400] [--mix 0.5] [--l2 1e-6]

The model is logistic: the chance that the side to move wins is sigmoid(z), where z is the
sum of its 25 windows' pattern values (two tables per class, blended by the empties left as in
ai/ataxx_patterns.py) and of material, exposed stones and mobility weighted as the kernel does,
plus a constant (the move in hand). The target mixes how the game ended (1, 1/2, 0) with the
search's own score turned into a chance (--mix: the share of the result). K, the evaluation
points per unit of z, is fitted first on the old evaluation's scores, so the learned values keep
its scale (a stone about 100 points) and the search's margins stay meaningful. Trained by
full-batch Adam in numpy; the last tenth of the positions is held out and its loss printed
beside the old evaluation's.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ai import ataxx_patterns as pat  # noqa: E402
from game.rules.ataxx import ALL, FILE_A, FILE_G  # noqa: E402

DENSE = pat.TERMS
U1, U7 = np.uint64(1), np.uint64(7)
NOT_A, NOT_G, FULL = np.uint64(ALL & ~FILE_A), np.uint64(ALL & ~FILE_G), np.uint64(ALL)


def spread(b: np.ndarray) -> np.ndarray:
    row = b | ((b & NOT_A) >> U1) | ((b & NOT_G) << U1)
    return (row | (row << U7) | (row >> U7)) & FULL


def count(b: np.ndarray) -> np.ndarray:
    return np.bitwise_count(b).astype(np.float64)


def dense_features(own: np.ndarray, opp: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """(positions, 4): the kernel's material, front, mobility and the constant."""
    empty = FULL & ~(own | opp | gaps)
    near = spread(empty)
    return np.stack([count(own) - count(opp),
                     count(near & opp) - count(near & own),
                     count(spread(own) & empty) - count(spread(opp) & empty),
                     np.ones(len(own))], axis=1)


def old_eval(dense: np.ndarray) -> np.ndarray:
    """The hand-set evaluation the kernel played with before (100, 4, 3, 20)."""
    return dense @ np.array([100.0, 4.0, 3.0, 20.0])


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(z, -30, 30)))


def loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_k(score: np.ndarray, y: np.ndarray) -> float:
    """The points per logit unit that best turn the old scores into results."""
    ks = np.exp(np.linspace(np.log(20), np.log(2000), 200))
    return float(min(ks, key=lambda k: loss(sigmoid(score / k), y)))


def load(paths: list[str]) -> dict[str, np.ndarray]:
    parts = [np.load(p) for p in paths]
    return {k: np.concatenate([d[k] for d in parts]) for k in parts[0].files}


class Model:
    """z = dense @ w + sum over windows of (a * open[idx] + (1 - a) * end[idx])."""

    def __init__(self, idx: np.ndarray, a: np.ndarray, dense: np.ndarray):
        self.idx, self.a, self.dense = idx, a, dense
        self.size = pat.CLASSES * pat.CELLS

    def z(self, params: np.ndarray) -> np.ndarray:
        tables = params[:2 * self.size]
        w = params[2 * self.size:]
        open_, end = tables[:self.size], tables[self.size:]
        a = self.a[:, None]
        return self.dense @ w + (a * open_[self.idx] + (1 - a) * end[self.idx]).sum(1)

    def grad(self, params: np.ndarray, g: np.ndarray) -> np.ndarray:
        """The gradient of sum(g * z) over params."""
        flat = self.idx.ravel()
        ga = np.repeat(g * self.a, pat.WINDOWS)
        gb = np.repeat(g * (1 - self.a), pat.WINDOWS)
        return np.concatenate([np.bincount(flat, ga, self.size),
                               np.bincount(flat, gb, self.size),
                               self.dense.T @ g])


def train(model: Model, y: np.ndarray, steps: int, l2: float, lr: float,
          start: np.ndarray, check=None) -> np.ndarray:
    params = start.copy()
    m = np.zeros_like(params)
    v = np.zeros_like(params)
    n = len(y)
    for step in range(1, steps + 1):
        p = sigmoid(model.z(params))
        g = model.grad(params, (p - y) / n)
        g[:-len(DENSE)] += 2 * l2 * params[:-len(DENSE)]
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        params -= lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-10)
        if check is not None and (step % 50 == 0 or step == steps):
            check(step, params, loss(p, y))
    return params


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", required=True)
    ap.add_argument("--out", default=pat.DATA)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--mix", type=float, default=0.5, help="the game result's share of the target")
    ap.add_argument("--l2", type=float, default=1e-6)
    ap.add_argument("--lr", type=float, default=0.01)
    args = ap.parse_args()
    t0 = time.monotonic()
    d = load(args.data)
    keep = np.abs(d["score"]) < 90_000  # a found win or loss says nothing about the evaluation
    d = {k: v[keep] for k, v in d.items()}
    dense = dense_features(d["own"], d["opp"], d["gaps"])
    result = (d["result"].astype(np.float64) + 1) / 2
    k = fit_k(old_eval(dense), result)
    y = args.mix * result + (1 - args.mix) * sigmoid(d["score"] / k)
    empties = np.bitwise_count(FULL & ~(d["own"] | d["opp"] | d["gaps"])).astype(np.float64)
    idx = pat.indices(d["own"], d["opp"], canonical=True)
    a = pat.empty_weight(empties)
    n = len(y)
    cut = n * 9 // 10
    print(f"{n} positions ({cut} to learn from), K = {k:.0f} points a logit "
          f"({time.monotonic() - t0:.0f} s)", flush=True)
    learn = Model(idx[:cut], a[:cut], dense[:cut])
    held = Model(idx[cut:], a[cut:], dense[cut:])
    base = loss(sigmoid(old_eval(dense[cut:]) / k), y[cut:])
    start = np.zeros(2 * learn.size + len(DENSE))
    start[-len(DENSE):] = np.array([100.0, 4.0, 3.0, 20.0]) / k

    def check(step: int, params: np.ndarray, train_loss: float) -> None:
        held_loss = loss(sigmoid(held.z(params)), y[cut:])
        print(f"step {step}: loss {train_loss:.4f}, held out {held_loss:.4f} (old evaluation "
              f"{base:.4f}) ({time.monotonic() - t0:.0f} s)", flush=True)

    params = train(learn, y[:cut], args.steps, args.l2, args.lr, start, check)
    points = params * k
    tables = np.round(points[:2 * learn.size] * pat.SCALE).astype(np.int32)
    tables = pat.expand(tables.reshape(pat.PHASES, pat.CLASSES, pat.CELLS))
    weights = np.round(points[2 * learn.size:]).astype(np.int64)
    np.savez_compressed(args.out, tables=tables, weight_names=np.array(DENSE),
                        weights=weights)
    print(f"weights {dict(zip(DENSE, weights.tolist()))}; tables in "
          f"[{tables.min() / pat.SCALE:.0f}, {tables.max() / pat.SCALE:.0f}] points -> {args.out}")


if __name__ == "__main__":
    main()
