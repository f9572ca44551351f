"""The Bomb the Planes bot. It knows only its own shots and their answers, and reasons over every
layout still consistent with them (66,816 at the start, as numpy arrays of answer codes).

Hunting: Easy shoots the likeliest head. Normal and Hard choose the shot whose answer tells the
most (entropy of miss/body/head over the consistent layouts) plus a bonus for the chance of a
head; Hard searches the expected number of shots exactly once few layouts remain.
Hiding: a uniformly random layout; Hard prefers layouts whose heads sit where hunters look last.
"""

from __future__ import annotations

import math
import random

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
    counts = answer_counts(live).astype(np.float64)
    p = counts / len(live)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(p > 0, np.log(p) / math.log(3), 0.0)
    scores = -(p * logs).sum(axis=0) + head_bonus * p[2]
    scores[list(shot)] = -np.inf
    return scores


LOOK_WIDTH = 6  # cells looked at on each ply of the lookahead
LOG_COST = 1.0  # misses still to come per trit of uncertainty left (the leaf estimate)


def lookahead(live: np.ndarray, shot: set[int], depth: int, budget: Budget
              ) -> tuple[float, int]:
    """(expected non-head shots still needed, best cell), looking `depth` shots ahead over the
    most informative cells and estimating the rest from the uncertainty left."""
    scores = information_scores(live, shot, 1.5)
    order = np.argsort(-scores)[:LOOK_WIDTH]
    best = (math.inf, int(order[0]))
    n = len(live)
    for cell in order:
        if scores[cell] == -np.inf:
            continue
        if budget.expired() and best[0] < math.inf:
            break  # answer in time with the best cell weighed so far
        column = live[:, cell]
        cost = 0.0
        for k in (0, 1, 2):
            sub = live[column == k]
            m = len(sub)
            if not m:
                continue
            rest = LOG_COST * math.log(m, 3)
            if depth > 1 and m > 1 and not budget.expired():
                rest = min(rest, lookahead(sub, shot | {int(cell)}, depth - 1, budget)[0])
            cost += m / n * ((k != 2) + rest)
        if cost < best[0]:
            best = (cost, int(cell))
    return best


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
        _, cell = lookahead(live, shot, 2, budget)
        return cell
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
