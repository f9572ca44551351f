"""Fox Hunt's hunter: the exact chance of a fox on every square, and a probe chosen from it.

The chance is counted, not guessed. Unknown squares fall into classes by which probes see them;
a placement of the remaining foxes is then a count per class, and the number of placements is
a sum of products of binomials over the counts that meet every probe's number. A dynamic
programme over the classes (the state: each probe's number still to fill, the foxes left) counts
them exactly, and a forward pass gives each class's expected foxes. Only if that programme grows
beyond MAX_STATES does the estimate fall back to sampling random placements (said in the
result's `exact`); bench/foxhunt_probes.py measures how often that happens.

The hunter probes a square that is surely a fox when there is one; otherwise, among the likeliest
squares, the one whose probe promises the most foxes over this probe and the next (its chance,
plus the expected best chance after its answer).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from ai.base import (
    NO_KERNELS,
    NO_OPENING_OPTION,
    NO_OPENING_PLIES,
    Appraisal,
    Budget,
    Deadline,
    no_setup,
)
from game.rules import foxhunt as rules

OPENING_OPTION = NO_OPENING_OPTION
OPENING_PLIES = NO_OPENING_PLIES
KERNELS = NO_KERNELS
choose_setup = no_setup
MAX_STATES = 200_000  # programme states before the estimate samples instead
SURE = 1 - 1e-9
NEAR = 0.9  # the lookahead weighs squares at least this share as likely as the likeliest
LOOKAHEAD = {"easy": 0, "normal": 3, "hard": 8}


TRUSTED_SAMPLES = 400  # placements sampled before a chance is told (within about 5 points)


@dataclass
class Posterior:
    """P(fox) per square (0 on probed squares), the number of placements still possible, and
    whether the figures are exact (else sampled)."""

    probs: list[float]
    placements: float
    exact: bool
    samples: int = 0

    @property
    def known(self) -> bool:
        """Whether the chances can be told: counted, or sampled often enough. A hard field's
        rejection sampling keeps a handful of placements in a second, or none (the chances
        then fall back to even)."""
        return self.exact or self.samples >= TRUSTED_SAMPLES


def posterior(size: int, foxes: int, probes: list, budget: Budget | None = None) -> Posterior:
    """The chance of a fox on each square given the probes and their answers."""
    found = {c for c, a in probes if a == rules.FOX}
    empties = [(c, a) for c, a in probes if a != rules.FOX]
    probed = {c for c, _ in probes}
    unknown = [c for c in range(size * size) if c not in probed]
    need = [a - len(rules.sight(size, c) & found) for c, a in empties]
    left = foxes - len(found)
    probs = [0.0] * (size * size)
    if left == 0 or any(n < 0 for n in need):
        return Posterior(probs, 1.0 if left == 0 and not any(need) else 0.0, True)
    sights = [rules.sight(size, c) for c, _ in empties]
    classes: dict[tuple[int, ...], list[int]] = {}
    for cell in unknown:
        sig = tuple(i for i, seen in enumerate(sights) if cell in seen)
        classes.setdefault(sig, []).append(cell)
    try:
        marginals, total = _count(_ordered(classes), tuple(need), left, budget)
    except _TooBig:
        return _sampled(size, probs, unknown, empties, need, left, budget)
    for (_, cells), expected in zip(_ordered(classes), marginals):
        for cell in cells:
            probs[cell] = expected / len(cells) if total else 0.0
    return Posterior(probs, total, True)


def _ordered(classes: dict[tuple[int, ...], list[int]]) -> list:
    """The classes in an order that keeps few probes open at once (the programme's states are
    the counts of the open probes): next, the class that opens the fewest new probes and closes
    the most."""
    todo = dict(classes)
    uses: dict[int, int] = {}
    for sig in todo:
        for p in sig:
            uses[p] = uses.get(p, 0) + 1
    opened: set[int] = set()
    out = []
    while todo:
        sig = min(todo, key=lambda g: (sum(p not in opened for p in g),
                                       -sum(uses[p] == 1 for p in g), -len(todo[g])))
        out.append((sig, todo.pop(sig)))
        opened.update(sig)
        for p in sig:
            uses[p] -= 1
    return out


class _TooBig(Exception):
    """The exact programme outgrew MAX_STATES."""


def _count(classes: list, need: tuple[int, ...], left: int,
           budget: Budget | None) -> tuple[list[float], float]:
    """Expected foxes per class and the number of placements (the dynamic programme). A state
    packs every probe's number still to fill in 4 bits of one integer."""
    sizes = [len(cells) for _, cells in classes]
    sigs = [sig for sig, _ in classes]
    last = {}
    for i, sig in enumerate(sigs):
        for p in sig:
            last[p] = i
    closing = [[p for p in sig if last[p] == i] for i, sig in enumerate(sigs)]
    masks = [sum(1 << (4 * p) for p in sig) for sig in sigs]
    room_after = [sum(sizes[i:]) for i in range(len(sizes) + 1)]
    binom = [[comb(n, k) for k in range(n + 1)] for n in range(max(sizes, default=0) + 1)]
    memo: dict[tuple[int, int, int], float] = {}
    # States entered, in both passes: the budget is read at the first and every 1024th after.
    # (Read when the memo's size was a multiple of 1024, it was missed whenever returns added
    # states without entering one: tens of thousands of states could go by unread.)
    steps = 0

    def step() -> None:
        nonlocal steps
        if budget is not None and not steps & 1023:
            budget.check()
        steps += 1

    def counts(i: int, rem: int, k: int) -> range:
        """How many foxes class i may take in this state."""
        top = min(sizes[i], k)
        for p in sigs[i]:
            top = min(top, rem >> (4 * p) & 15)
        shut = {rem >> (4 * p) & 15 for p in closing[i]}
        if shut:
            n = shut.pop()
            return range(n, n + 1) if not shut and n <= top else range(0)
        low = max(0, k - room_after[i + 1])
        return range(low, top + 1)

    def ways(i: int, rem: int, k: int) -> float:
        """Placements of k foxes in classes i.. meeting rem."""
        if i == len(sizes):
            return 1.0 if k == 0 and rem == 0 else 0.0
        key = (i, rem, k)
        got = memo.get(key)
        if got is not None:
            return got
        if len(memo) > MAX_STATES:
            raise _TooBig
        step()
        row, mask = binom[sizes[i]], masks[i]
        total = 0.0
        for n in counts(i, rem, k):
            total += row[n] * ways(i + 1, rem - n * mask, k - n)
        memo[key] = total
        return total

    start = sum(n << (4 * p) for p, n in enumerate(need))
    total = ways(0, start, left)
    expected = [0.0] * len(sizes)
    if not total:
        return expected, 0.0
    layer = {(start, left): 1.0}
    for i in range(len(sizes)):
        nxt: dict[tuple[int, int], float] = {}
        row, mask = binom[sizes[i]], masks[i]
        for (rem, k), reach in layer.items():
            step()
            for n in counts(i, rem, k):
                after = (rem - n * mask, k - n)
                rest = ways(i + 1, *after)
                if rest:
                    expected[i] += n * reach * row[n] * rest
                    nxt[after] = nxt.get(after, 0.0) + reach * row[n]
        layer = nxt
    return [e / total for e in expected], total


def _sampled(size: int, probs: list[float], unknown: list[int], empties: list, need: list[int],
             left: int, budget: Budget | None, cap: int = 200_000) -> Posterior:
    """Marginals from random placements that agree with every answer (rejection sampling)."""
    rng = random.Random(len(unknown) * 31 + left)
    sights = [rules.sight(size, c) for c, _ in empties]
    hits = dict.fromkeys(unknown, 0)
    kept = 0
    for tries in range(cap):
        if budget is not None and not tries & 255 and budget.expired():
            break
        pick = rng.sample(unknown, left)
        if all(len(s.intersection(pick)) == n for s, n in zip(sights, need)):
            kept += 1
            for cell in pick:
                hits[cell] += 1
    for cell in unknown:
        probs[cell] = hits[cell] / kept if kept else left / len(unknown)
    return Posterior(probs, float("nan"), False, kept)


def _after(size: int, foxes: int, probes: list, cell: int, ans: Any,
           budget: Budget | None) -> Posterior:
    return posterior(size, foxes, probes + [(cell, ans)], budget)


def promise(size: int, foxes: int, probes: list, cell: int, p_fox: float,
            budget: Budget | None) -> float:
    """Expected foxes from probing cell now and the likeliest square after its answer."""
    value = p_fox
    if p_fox > 0:
        value += p_fox * max(_after(size, foxes, probes, cell, rules.FOX, budget).probs)
    if p_fox < SURE:
        weights, best = [], []
        for j in range(foxes + 1):
            post = _after(size, foxes, probes, cell, j, budget)
            if post.placements and post.exact:
                weights.append(post.placements)
                best.append(max(post.probs))
        total = sum(weights)
        if total:
            value += (1 - p_fox) * sum(w * b for w, b in zip(weights, best)) / total
    return value


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> int:
    size, foxes, probes = rules.parse_view(view)
    try:
        post = posterior(size, foxes, probes, budget)
    except Deadline:  # out of time before the count was done: any square no zero rules out
        zeros = [rules.sight(size, c) for c, a in probes if a == 0]
        return rng.choice([c for c in legal if not any(c in z for z in zeros)] or legal)
    open_cells = [c for c in legal if post.probs[c] > 0] or legal
    ranked = sorted(open_cells, key=lambda c: (-post.probs[c], c))
    top = post.probs[ranked[0]]
    if top >= SURE or LOOKAHEAD.get(level, 0) == 0:
        return ranked[0]
    # the lookahead only chooses among squares nearly as likely as the likeliest: measured on
    # 8x8 fields, a wider choice bought nothing (13.55 probes against 13.6)
    close = [c for c in ranked[:LOOKAHEAD[level]] if post.probs[c] >= NEAR * top]
    best, best_value = ranked[0], -1.0
    for cell in close:
        try:
            value = promise(size, foxes, probes, cell, post.probs[cell], budget)
        except Deadline:
            break
        if value > best_value + 1e-12:
            best, best_value = cell, value
    return best


def hint(view: dict, seconds: float = 3.0) -> Posterior:
    """The heat map for the board's hint (runs on a worker thread): exact if the count finishes
    in time, else sampled for a moment more."""
    size, foxes, probes = rules.parse_view(view)
    try:
        return posterior(size, foxes, probes, Budget(seconds))
    except Deadline:
        found = {c for c, a in probes if a == rules.FOX}
        probed = {c for c, _ in probes}
        empties = [(c, a) for c, a in probes if isinstance(a, int)]  # the rest say FOX
        need = [a - len(rules.sight(size, c) & found) for c, a in empties]
        unknown = [c for c in range(size * size) if c not in probed]
        return _sampled(size, [0.0] * (size * size), unknown, empties, need,
                        foxes - len(found), Budget(0.5))


# --- judging a position (the review, ai/review.py)
# Misses still to come per nat of uncertainty (the log of the placements left): the hunters'
# measured means (README: 21.6 probes on 10x10 with 8 foxes, 13.6 on 8x8 with 5) over the
# log of the placements of a fresh field.
REVIEW_MISSES_PER_NAT = 0.53


def probes_left(post: Posterior, left: int, unknown: int) -> float:
    """Expected probes still needed: one per fox left and the misses the uncertainty costs;
    exact (one per fox) once a single placement is left."""
    if left <= 0:
        return 0.0
    placements = post.placements if post.exact and post.placements >= 1 else comb(unknown, left)
    return left + REVIEW_MISSES_PER_NAT * math.log(max(placements, 1.0))


def probe_cost(size: int, foxes: int, probes: list, cell: int, post: Posterior,
               budget: Budget | None) -> float:
    """Expected probes still needed when `cell` is probed next: this probe, then the rest
    weighed over its answers (a fox, or each number) by their exact chances."""
    found = sum(1 for _, a in probes if a == rules.FOX)
    left = foxes - found
    unknown = size * size - len(probes) - 1
    p_fox = post.probs[cell]
    total = 1.0
    if p_fox > 0:
        after = _after(size, foxes, probes, cell, rules.FOX, budget)
        total += p_fox * probes_left(after, left - 1, unknown)
    if p_fox < SURE:
        branches = [(post_j.placements, probes_left(post_j, left, unknown))
                    for post_j in (_after(size, foxes, probes, cell, j, budget)
                                   for j in range(foxes + 1))
                    if post_j.exact and post_j.placements]
        weight = sum(w for w, _ in branches)
        if weight:
            total += (1 - p_fox) * sum(w * r for w, r in branches) / weight
        else:
            total += (1 - p_fox) * probes_left(post, left, unknown)
    return total


REVIEW_EXACT_PLACEMENTS = 12  # placements left at which a review searches the hunt exactly
REVIEW_ENUMERATE = 20_000  # fox sets it may try while listing those placements


def placements_left(size: int, foxes: int, probes: list, post: Posterior
                    ) -> list[frozenset[int]] | None:
    """Every placement of the foxes that agrees with the probes (the cells of all of them,
    found or not), or None if there are more than REVIEW_EXACT_PLACEMENTS or too many to try."""
    if not post.exact or post.placements > REVIEW_EXACT_PLACEMENTS:
        return None
    found = {c for c, a in probes if a == rules.FOX}
    left = foxes - len(found)
    cells = [c for c, p in enumerate(post.probs) if p > 0]
    if comb(len(cells), left) > REVIEW_ENUMERATE:
        return None
    empties = [(rules.sight(size, c), a) for c, a in probes if a != rules.FOX]
    out = []
    for pick in combinations(cells, left):
        foxes_at = found.union(pick)
        if all(len(seen & foxes_at) == a for seen, a in empties):
            out.append(frozenset(foxes_at))
    return out if len(out) == post.placements else None


class ExactHunt:
    """The least expected number of probes that finds every fox, over a few placements left
    (each the set of every fox's cell): a probe splits them by its answer (a fox, or a
    number). Exact, memoised on (placements left, foxes found)."""

    def __init__(self, size: int, budget: Budget):
        self.size, self.budget = size, budget
        self.memo: dict[tuple[frozenset, frozenset], float] = {}

    def answer(self, placement: frozenset[int], cell: int) -> Any:
        if cell in placement:
            return rules.FOX
        return len(rules.sight(self.size, cell) & placement)

    def cost(self, live: frozenset[frozenset[int]], found: frozenset[int]) -> float:
        """Expected probes still needed, playing best."""
        if len(live) == 1:
            return float(len(next(iter(live)) - found))
        key = (live, found)
        got = self.memo.get(key)
        if got is None:
            self.budget.check()
            got = min(self.first(live, found, c) for c in range(self.size * self.size)
                      if c not in found)
            self.memo[key] = got
        return got

    def first(self, live: frozenset[frozenset[int]], found: frozenset[int], cell: int
              ) -> float:
        """Expected probes still needed when `cell` is probed next, then best play (inf for a
        probe that can tell nothing, unless asked at the root: see probe)."""
        groups: dict[Any, set[frozenset[int]]] = {}
        for placement in live:
            groups.setdefault(self.answer(placement, cell), set()).add(placement)
        if len(groups) == 1 and rules.FOX not in groups:
            return math.inf
        return 1.0 + sum(len(group) / len(live) * self.cost(
            frozenset(group), found | {cell} if answer == rules.FOX else found)
            for answer, group in groups.items())

    def probe(self, live: frozenset[frozenset[int]], found: frozenset[int], cell: int
              ) -> float:
        """As first, and a probe that tells nothing costs itself and leaves the rest."""
        value = self.first(live, found, cell)
        return 1.0 + self.cost(live, found) if value == math.inf else value


def _estimate(size: int, foxes: int, probes: list, budget: Budget) -> Posterior:
    """The chances of a fox: counted if the count finishes within the budget, else sampled for
    as long again (hint's way, in a review's time)."""
    try:
        return posterior(size, foxes, probes, budget)
    except Deadline:
        found = {c for c, a in probes if a == rules.FOX}
        probed = {c for c, _ in probes}
        empties = [(c, a) for c, a in probes if a != rules.FOX]
        need = [a - len(rules.sight(size, c) & found) for c, a in empties]
        unknown = [c for c in range(size * size) if c not in probed]
        return _sampled(size, [0.0] * (size * size), unknown, empties, need,
                        foxes - len(found), budget.sub(budget.seconds))


def appraise(view: dict, moves: list, budget: Budget, limit: int) -> Appraisal:
    """Hard's judgement of the hunter's view (ai.base.Bot.appraise): the expected final score
    (probes made and still needed; fewer is better) with Hard's probe, and with each asked
    probe. The chances of a fox are counted exactly; what the rest of the hunt costs is the
    measured estimate of probes_left, exact when few placements are left (the hunt searched
    to its end, ExactHunt). A probe's details give its chance of a fox. `limit` is not used."""
    size, foxes, probes = rules.parse_view(view)
    legal = rules.legal_moves_from_view(view, {})
    post = _estimate(size, foxes, probes, budget.share(1 / 3))
    if budget.cancel.is_set():
        raise Deadline
    best = choose(view, legal, budget.share(1 / 2), "hard", random.Random(len(probes)))
    left = foxes - sum(1 for _, a in probes if a == rules.FOX)
    unknown = size * size - len(probes)
    rest = probes_left(post, left, unknown)
    if not post.known:  # no chance to tell, nor a probe to judge by them: all alike, untold
        made = len(probes) + 1 + rest
        return Appraisal(made, tuple(made for _ in moves), best, (best,), False,
                         tuple({} for _ in moves), {"probes_left": rest}, "probes", -1)
    cells = [best] + list(moves)
    exact = False
    try:
        listed = placements_left(size, foxes, probes, post)
        if listed is not None:  # few placements left: the hunt searched exactly
            hunt = ExactHunt(size, budget)
            live, found = frozenset(listed), frozenset(c for c, a in probes if a == rules.FOX)
            rest = hunt.cost(live, found)
            best = min((c for c in legal if hunt.first(live, found, c) < math.inf),
                       key=lambda c: (hunt.first(live, found, c), c), default=best)
            cells[0] = best
            costs = [hunt.probe(live, found, c) for c in cells]
            exact = True
        else:
            costs = [probe_cost(size, foxes, probes, c, post, budget) for c in cells]
    except Deadline:  # out of time: a probe costs one, less the fox it may find
        if budget.cancel.is_set():
            raise
        costs = [1 + rest - post.probs[c] for c in cells]
        exact = False
    made = len(probes)
    return Appraisal(made + costs[0], tuple(made + c for c in costs[1:]), best, (best,), exact,
                     tuple({"fox": post.probs[c]} for c in moves),
                     {"placements": post.placements, "probes_left": rest,
                      "best": {"fox": post.probs[best]}}, "probes", -1)
