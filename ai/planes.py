"""The Bomb the Planes bot. It knows only its own shots and their answers, and reasons over every
layout still consistent with them (66,816 at the start, as numpy arrays of answer codes).

Hunting: Easy shoots the likeliest head. Normal chooses the shot whose answer tells the most
(entropy of miss/body/head over the consistent layouts) plus a bonus for the chance of a head.
Hard weighs Normal's best few shots by rollouts: for true layouts sampled from the consistent
ones, how many shots Normal would need after each; it searches exactly once few layouts remain.
Hiding: a uniformly random layout; Hard prefers layouts whose heads sit where hunters look last.
"""

from __future__ import annotations

import math
import random
import threading
from functools import cache

import numpy as np

from ai.base import Budget
from game.rules import planes as rules

CODE = {"miss": 0, "body": 1, "head": 2}
HEAD_BONUS = 1.5  # how much a likely head is worth against information, in trits
EXACT_BELOW = 10  # consistent layouts at which Hard searches exactly


def consistent(size: int, planes: int, shots) -> np.ndarray:
    """Indices of the layouts that agree with every (cell, answer)."""
    _, codes = rules.layouts(size, planes)
    ok = np.ones(len(codes), dtype=bool)
    for cell, answer in shots:
        ok &= codes[:, cell] == CODE[answer]
    return np.nonzero(ok)[0]


def assist(view: dict) -> dict:
    """For the player's own shots: how many layouts remain, and per cell the chance of a head
    and of any part of a plane (exact, over all consistent layouts)."""
    size, planes = view["size"], view["planes"]
    _, codes = rules.layouts(size, planes)
    live = codes[consistent(size, planes, view["shots"])]
    n = len(live)
    if n == 0:
        zero = np.zeros(size * size)
        return {"count": 0, "head": zero, "plane": zero}
    return {"count": n, "head": (live == 2).sum(axis=0) / n, "plane": (live > 0).sum(axis=0) / n}


def answer_counts(live: np.ndarray) -> np.ndarray:
    """Per cell, how many live layouts answer miss, body, head (3 x cells)."""
    return np.stack([(live == k).sum(axis=0) for k in range(3)])


def information_scores(live: np.ndarray, shot: set[int], head_bonus: float) -> np.ndarray:
    """Entropy of each cell's answer in trits, plus head_bonus times its chance of a head;
    cells already shot score -inf."""
    return scores_of(answer_counts(live), shot, head_bonus)


def scores_of(counts: np.ndarray, shot: set[int], head_bonus: float) -> np.ndarray:
    """information_scores from the answer counts (3 x cells)."""
    p = counts / counts[:, 0].sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(p > 0, np.log(p) / math.log(3), 0.0)
    scores = -(p * logs).sum(axis=0) + head_bonus * p[2]
    scores[list(shot)] = -np.inf
    return scores


ROLLOUT_WIDTH = 8  # candidate shots weighed by rollouts
ROLLOUT_SAMPLES = 400  # true layouts sampled at most (all of them when fewer remain)
SMALL = 1500  # live layouts below which a list of indices is quicker than a bit set


@cache
def answer_bits(size: int, planes: int) -> np.ndarray:
    """Per cell and answer, the layouts that give that answer, as packed bits
    (cells x 3 x words; layout i is bit i % 64 of word i // 64)."""
    _, codes = rules.layouts(size, planes)
    words = (len(codes) + 63) // 64
    packed = np.zeros((codes.shape[1], 3, words * 8), dtype=np.uint8)
    for k in range(3):
        bits = np.packbits(np.ascontiguousarray((codes == k).T), axis=1, bitorder="little")
        packed[:, k, :bits.shape[1]] = bits
    return packed.view(np.uint64)


class Rollouts:
    """Plays the Normal hunter on from a position against sampled true layouts, to learn how
    many shots each first shot really costs. The hunter's decisions are memoised by the shots
    and answers that lead to them, so rollouts along the same path share the work. A set of
    live layouts is packed bits while large and an array of indices once small."""

    def __init__(self, size: int, planes: int):
        _, self.codes = rules.layouts(size, planes)
        self.bits = answer_bits(size, planes)
        self.planes = planes
        self.nodes: dict[frozenset, tuple[np.ndarray, int]] = {}

    def live_set(self, index: np.ndarray) -> np.ndarray:
        if len(index) <= SMALL:
            return index
        flags = np.zeros(self.bits.shape[2] * 64, dtype=bool)
        flags[index] = True
        return np.packbits(flags, bitorder="little").view(np.uint64)

    def counts(self, live: np.ndarray) -> np.ndarray:
        """Per cell, how many live layouts answer miss, body, head (3 x cells)."""
        if live.dtype != np.uint64:
            return answer_counts(self.codes[live])
        body_head = np.bitwise_count(self.bits[:, 1:, :] & live).sum(axis=2, dtype=np.int64)
        n = int(np.bitwise_count(live).sum())
        return np.stack([n - body_head.sum(axis=1), body_head[:, 0], body_head[:, 1]])

    def narrow(self, live: np.ndarray, cell: int, code: int) -> np.ndarray:
        """The live layouts that answer code at cell."""
        if live.dtype != np.uint64:
            return live[self.codes[live, cell] == code]
        sub = live & self.bits[cell, code]
        if int(np.bitwise_count(sub).sum()) > SMALL:
            return sub
        return np.flatnonzero(np.unpackbits(sub.view(np.uint8), bitorder="little"))

    def decision(self, key: frozenset, live: np.ndarray) -> tuple[np.ndarray, int]:
        """(live layouts, the Normal hunter's shot) at the position the shots in key reach."""
        node = self.nodes.get(key)
        if node is None:
            counts = self.counts(live)
            scores = scores_of(counts, {cell for cell, _ in key}, HEAD_BONUS)
            node = self.nodes[key] = (live, int(np.argmax(scores)))
        return node

    def shots(self, key: frozenset, live: np.ndarray, cell: int, truth: int) -> int:
        """Shots to find every head of layout truth: cell first, then the Normal hunter's."""
        found = sum(1 for _, code in key if code == 2)
        count = 0
        while True:
            code = int(self.codes[truth, cell])
            key = key | {(cell, code)}
            node = self.nodes.get(key)
            live = node[0] if node else self.narrow(live, cell, code)
            count += 1
            found += code == 2
            if found == self.planes:
                return count
            live, cell = self.decision(key, live)


_rollouts: dict[tuple[int, int], tuple[frozenset, Rollouts]] = {}
_rollouts_lock = threading.Lock()


def rollouts_for(size: int, planes: int, key: frozenset) -> Rollouts:
    """The memo of the game this position follows on from, or a new one."""
    last = _rollouts.get((size, planes))
    if last is None or not last[0] <= key or len(last[1].nodes) > 200_000:
        last = (key, Rollouts(size, planes))
    _rollouts[(size, planes)] = (key, last[1])
    return last[1]


def rollout_choice(size: int, planes: int, shots, live_index: np.ndarray, budget: Budget,
                   rng: random.Random) -> int:
    """The shot after which the Normal hunter needs the fewest shots on average, over true
    layouts sampled from the live ones (the same sample for every candidate)."""
    key = frozenset((cell, CODE[answer]) for cell, answer in shots)
    with _rollouts_lock:
        tree = rollouts_for(size, planes, key)
        live = tree.live_set(live_index)
        scores = scores_of(tree.counts(live), {cell for cell, _ in key}, HEAD_BONUS)
        order = np.argsort(-scores, kind="stable")[:ROLLOUT_WIDTH]
        candidates = [int(c) for c in order if scores[c] > -np.inf]
        truths = rng.sample(range(len(live_index)), min(len(live_index), ROLLOUT_SAMPLES))
        totals = np.zeros(len(candidates))
        for truth in (int(live_index[i]) for i in truths):
            row = [tree.shots(key, live, cell, truth) for cell in candidates
                   if not budget.expired()]
            if len(row) < len(candidates):
                break  # out of time: this sample is left out, so all have the same samples
            totals += row
        return candidates[int(np.argmin(totals))]


class Exact:
    """Expected shots to find every head, minimised over shots, for a small consistent set."""

    def __init__(self, codes: np.ndarray, planes: int, budget: Budget):
        self.codes, self.planes, self.budget = codes, planes, budget
        self.memo: dict = {}

    def cost(self, live: tuple[int, ...], found: int, shot: frozenset) -> tuple[float, int]:
        """(expected shots still needed, best cell) for these live layouts."""
        if found == self.planes:
            return 0.0, -1
        key = (live, shot)
        if key in self.memo:
            return self.memo[key]
        if self.budget.expired():
            raise TimeoutError
        rows = self.codes[list(live)]
        best = (math.inf, -1)
        for cell in self._candidates(rows, shot):
            column = rows[:, cell]
            total = 0.0
            for k in np.unique(column):
                branch = tuple(x for x, v in zip(live, column) if v == k)
                sub, _ = self.cost(branch, found + (k == 2), shot | {cell})
                total += len(branch) / len(live) * sub
            if 1 + total < best[0]:
                best = (1 + total, int(cell))
        self.memo[key] = best
        return best

    def _candidates(self, rows: np.ndarray, shot: frozenset) -> list[int]:
        """Cells worth a shot: a possible head, or an answer that splits the layouts."""
        useful = [c for c in np.nonzero((rows == 2).any(axis=0) |
                                        (rows.min(axis=0) != rows.max(axis=0)))[0]
                  if c not in shot]
        return useful


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> int:
    size, planes = view["size"], view["planes"]
    _, codes = rules.layouts(size, planes)
    shots = view["shots"]
    shot = {cell for cell, _ in shots}
    live_index = consistent(size, planes, shots)
    legal = legal or [c for c in range(size * size) if c not in shot]
    if len(live_index) == 0:
        return rng.choice(legal)  # the answers contradict every layout: a lying opponent
    live = codes[live_index]
    if level == "easy":
        heads = (live == 2).sum(axis=0).astype(float)
        heads[list(shot)] = -1
        top = np.flatnonzero(heads == heads.max())
        return int(rng.choice(list(top)))
    if level == "hard":  # a margin for the work after the last budget check
        budget = Budget(budget.remaining() * 0.8, budget.cancel)
    if level == "hard" and len(live_index) <= EXACT_BELOW:
        found = sum(1 for _, a in shots if a == "head")
        try:
            _, cell = Exact(codes, planes, budget).cost(tuple(int(i) for i in live_index),
                                                         found, frozenset(shot))
            if cell in legal:
                return cell
        except TimeoutError:
            pass
    if level == "hard":
        return rollout_choice(size, planes, shots, live_index, budget, rng)
    scores = information_scores(live, shot, HEAD_BONUS)
    top = np.flatnonzero(scores >= scores.max() - 1e-9)
    return int(rng.choice(list(top)))


def choose_setup(view: dict, budget: Budget, level: str, rng: random.Random) -> list:
    """A layout: uniform at random; at Hard, among the quarter of a sample whose heads sit on
    the cells hunters rate least likely."""
    size, planes = view["size"], view["planes"]
    index, codes = rules.layouts(size, planes)
    all_planes = rules.all_planes(size)
    if level == "hard":
        prior = (codes == 2).mean(axis=0)
        sample = np.array([rng.randrange(len(index)) for _ in range(400)])
        heat = ((codes[sample] == 2) * prior).sum(axis=1)
        calm = sample[np.argsort(heat)[:100]]
        pick = int(rng.choice(list(calm)))
    else:
        pick = rng.randrange(len(index))
    return [list(all_planes[p]) for p in index[pick]]
