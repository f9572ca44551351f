"""The Bomb the Planes bot. It knows only its own shots and their answers, and reasons over every
layout still consistent with them (66,816 at the start, as numpy arrays of answer codes).

Hunting: Easy shoots the likeliest head. Normal chooses the shot whose answer tells the most
(entropy of miss/body/head over the consistent layouts) plus a bonus for the chance of a head.
Hard plays from a book while many layouts remain (bench/planes_book.py searches each of those
positions offline); off the book it looks several shots ahead over the most promising cells, as
deep as its time allows, estimating the shots still needed beyond from the layouts left. Once
few layouts remain it searches to the last head over the best 2, 3, 4... cells per shot, as
wide as its time allows (every cell at the end: exact).
Hiding: a uniformly random layout; Hard prefers layouts whose heads sit where hunters look last.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np

from ai.base import NO_KERNELS, NO_OPENING_OPTION, NO_OPENING_PLIES, Appraisal, Budget, Deadline
from game.rules import planes as rules

OPENING_OPTION = NO_OPENING_OPTION
OPENING_PLIES = NO_OPENING_PLIES
KERNELS = NO_KERNELS
CODE = {answer: k for k, answer in enumerate(rules.ANSWERS)}
HEAD_BONUS = 1.5  # how much a likely head is worth against information, in trits
BOOK = Path(__file__).parent / "data" / "planes_book.json"  # made by bench/planes_book.py
SEARCH_TO_END_BELOW = 300  # consistent layouts at which Hard searches to the last head
WIDENING = (2, 3, 4, 6, 8, 100)  # cells weighed per shot by each round of that search


def consistent(size: int, planes: int, shots) -> np.ndarray:
    """Indices of the layouts that agree with every (cell, answer)."""
    by_cell = _by_cell(size, planes)
    ok = np.ones(by_cell.shape[1], dtype=bool)
    for cell, answer in shots:
        ok &= by_cell[cell] == CODE[answer]
    return np.nonzero(ok)[0]


@cache
def _by_cell(size: int, planes: int) -> np.ndarray:
    """The layouts' codes a cell to a row: each shot reads one row, not a strided column."""
    return np.ascontiguousarray(rules.layouts(size, planes)[1].T)


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
    miss, head = (live == 0).sum(axis=0), (live == 2).sum(axis=0)
    return np.stack([miss, len(live) - miss - head, head])


def information_scores(live: np.ndarray, shot: set[int], head_bonus: float) -> np.ndarray:
    """Entropy of each cell's answer in trits, plus head_bonus times its chance of a head;
    cells already shot score -inf."""
    p = answer_counts(live) / len(live)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(p > 0, np.log(p) / math.log(3), 0.0)
    scores = -(p * logs).sum(axis=0) + head_bonus * p[2]
    scores[list(shot)] = -np.inf
    return scores


# Estimated shots still needed with n layouts left and 3, 2 or 1 heads to find: a + b log3 n,
# fitted by least squares to the Normal hunter's games (bench/planes_leaf_fit.py).
LEAF = {3: (1.886, 1.084), 2: (1.570, 1.043), 1: (0.891, 0.991)}
LOOK_WIDTH = 6  # cells weighed on each ply of the lookahead: the best by the one-ply estimate
LOOK_DEPTH = 8  # the deepest lookahead Hard tries


LEAF_A = np.array([0.0] + [LEAF[k][0] for k in (1, 2, 3)])
LEAF_B = np.array([0.0] + [LEAF[k][1] for k in (1, 2, 3)])


def rest_estimate(n, left) -> np.ndarray:
    """Estimated shots still needed with n live layouts and `left` heads to find (numbers or
    arrays of one shape); exact when one layout is left (a shot per head)."""
    n, left = np.asarray(n, dtype=float), np.asarray(left)
    capped = np.clip(left, 1, 3)
    guess = (LEAF_A[capped] + np.maximum(left - 3, 0)
             + LEAF_B[capped] * np.log(np.maximum(n, 1)) / math.log(3))
    return np.where(left <= 0, 0.0, np.where(n <= 1, left, guess))


def one_ply(live: np.ndarray, shot: set[int], left: int) -> np.ndarray:
    """Per cell: one shot plus the estimated shots still needed after its answer, averaged
    over the answers; cells already shot, or whose answer is known and no head, cost inf."""
    counts = answer_counts(live).astype(float)
    n = len(live)
    cost = 1 + (counts * rest_estimate(counts, np.array([[left], [left], [left - 1]]))
                ).sum(axis=0) / n
    cost[(counts.max(axis=0) == n) & (counts[2] < n)] = np.inf
    cost[list(shot)] = np.inf
    return cost


def lookahead(live: np.ndarray, shot: set[int], left: int, depth: int, budget: Budget
              ) -> tuple[float, int]:
    """(expected shots still needed, best cell), looking `depth` shots ahead over the
    LOOK_WIDTH most promising cells and estimating beyond. Raises Deadline at the deadline."""
    costs = one_ply(live, shot, left)
    order = np.argsort(costs, kind="stable")[:LOOK_WIDTH]
    if depth == 1:
        return float(costs[order[0]]), int(order[0])
    best = (math.inf, int(order[0]))
    for cell in (int(c) for c in order if costs[c] < math.inf):
        total = shot_cost(live, shot, left, cell, depth, budget, best[0])
        if total < best[0]:
            best = (total, cell)
    return best


def shot_cost(live: np.ndarray, shot: set[int], left: int, cell: int, depth: int,
              budget: Budget, bound: float = math.inf) -> float:
    """Shooting `cell`, then the lookahead `depth` - 1 shots deep: the expected shots still
    needed; no less than `bound` once that is certain. Raises Deadline at the deadline."""
    n, column, total = len(live), live[:, cell], 1.0
    for k in (0, 1, 2):
        sub = live[column == k]
        m, rest = len(sub), left - (k == 2)
        if m == 0 or rest == 0:
            continue
        budget.check()
        if m == 1:
            total += rest / n
        else:
            deeper, _ = lookahead(sub, shot | {cell}, rest, depth - 1, budget)
            total += m / n * min(deeper, float(rest_estimate(m, rest)))
        if total >= bound:
            break  # already no better than the best cell so far
    return total


def deepening(live: np.ndarray, shot: set[int], left: int, budget: Budget) -> int:
    """The best cell of the deepest lookahead finished within the budget (two shots always)."""
    _, cell = lookahead(live, shot, left, 2, budget.sub(math.inf))
    for depth in range(3, LOOK_DEPTH + 1):
        try:
            _, cell = lookahead(live, shot, left, depth, budget)
        except Deadline:
            break
    return cell


class Exact:
    """Expected shots to find every head, minimised over shots (the `width` likeliest cells
    per shot; all of them: exact), to the last head. Branch and bound: cells in the order of
    the one-ply estimate, a cell dropped once its answers so far plus a lower bound on the
    rest cannot beat the best."""

    def __init__(self, codes: np.ndarray, planes: int, budget: Budget, width: int = 100):
        self.codes, self.planes, self.budget, self.width = codes, planes, budget, width
        self.memo: dict = {}
        self.bounds: dict = {}

    def cost(self, live: tuple[int, ...], found: int, shot: frozenset = frozenset()
             ) -> tuple[float, int]:
        """(expected shots still needed, best cell) for these live layouts. A shot cell's
        answer is the same in every live layout, so the value depends on the layouts and the
        heads found alone; heads known but not yet shot are shot last, a shot each."""
        if found == self.planes:
            return 0.0, -1
        key = (live, found)
        if key in self.memo:
            return self.memo[key]
        self.budget.check()
        rows = self.codes[list(live)]
        heads = rows == 2
        if (heads == heads[0]).all():
            known = [int(c) for c in np.flatnonzero(heads[0]) if c not in shot]
            best = (float(self.planes - found), known[0] if known else -1)
            self.memo[key] = best
            return best
        best = (math.inf, -1)
        for cell in self._candidates(rows, found):
            groups: dict[int, list[int]] = {}
            for x, k in zip(live, rows[:, cell].tolist()):
                groups.setdefault(k, []).append(x)
            branches = [(tuple(group), found + (k == 2)) for k, group in sorted(groups.items())]
            bounds = [len(b) / len(live) * self.lower_bound(b, f) for b, f in branches]
            total = 1.0 + sum(bounds)
            for (branch, f), bound in zip(branches, bounds):
                if total >= best[0]:
                    break
                value, _ = self.cost(branch, f, shot | {int(cell)})
                total += len(branch) / len(live) * value - bound
            if total < best[0]:
                best = (total, int(cell))
        self.memo[key] = best
        return best

    def lower_bound(self, live: tuple[int, ...], found: int) -> float:
        """A shot per head still to find, and no fewer than the trits needed to tell apart
        the head positions still possible."""
        if found == self.planes:
            return 0.0
        key = (live, found)
        if key not in self.bounds:
            heads = np.packbits(self.codes[list(live)] == 2, axis=1)
            p = np.array(list(Counter(map(bytes, heads)).values())) / len(live)
            self.bounds[key] = max(float(self.planes - found),
                                   float(-(p * np.log(p)).sum() / math.log(3)))
        return self.bounds[key]

    def _candidates(self, rows: np.ndarray, found: int) -> list[int]:
        """The `width` cells likeliest to be best among those whose answer splits the layouts;
        of cells with the same answers in every layout (the same shot, in effect), the first."""
        cost = one_ply(rows, set(), self.planes - found)
        split = rows.min(axis=0) != rows.max(axis=0)
        order = np.argsort(cost, kind="stable")
        seen: set[bytes] = set()
        cells: list[int] = []
        for cell in order[split[order]].tolist():
            column = rows[:, cell].tobytes()
            if column not in seen:
                seen.add(column)
                cells.append(cell)
                if len(cells) == self.width:
                    break
        return cells


def book_key(shots) -> str:
    """The shots and their answers in cell order, as the book's key: "34m 45b 55h"."""
    return " ".join(f"{cell}{answer[0]}" for cell, answer in sorted(shots))


@cache
def book(size: int, planes: int) -> dict[str, int]:
    """Hard's book: its shot at every position it can reach with more than
    SEARCH_TO_END_BELOW layouts left, searched offline; empty if missing or malformed."""
    try:
        data = json.loads(BOOK.read_text(encoding="utf-8"))
        if (data["size"], data["planes"]) != (size, planes):
            return {}
        return {str(key): int(cell) for key, cell in data["shots"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def hard_choice(codes: np.ndarray, planes: int, live_index: np.ndarray, shots,
                budget: Budget) -> int:
    """The widest search to the end that the budget allows when few layouts remain, else (or
    if even the narrowest fails) the deepest lookahead."""
    budget = budget.share(0.8)  # for the work after a check
    shot = {cell for cell, _ in shots}
    found = sum(1 for _, answer in shots if answer == "head")
    if len(live_index) <= SEARCH_TO_END_BELOW:
        cell = widening(codes, planes, tuple(int(i) for i in live_index), found,
                        frozenset(shot), budget.share(0.7))
        if cell is not None:
            return cell
    return deepening(codes[live_index], shot, planes - found, budget)


def widening(codes: np.ndarray, planes: int, live: tuple[int, ...], found: int,
             shot: frozenset, budget: Budget) -> int | None:
    """The best cell of the widest search to the last head finished within the budget."""
    cell = None
    for width in WIDENING:
        try:
            cell = Exact(codes, planes, budget, width).cost(live, found, shot)[1]
        except Deadline:
            break
    return cell


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> int:
    size, planes = view["size"], view["planes"]
    _, codes = rules.layouts(size, planes)
    shots = view["shots"]
    shot = {cell for cell, _ in shots}
    live_index = consistent(size, planes, shots)
    legal = legal or [c for c in range(size * size) if c not in shot]
    if len(live_index) == 0:
        return rng.choice(legal)  # the answers contradict every layout: a lying opponent
    # now or never: no hunt to plan for (a hunt's own view, a bench's, has no opponent)
    if level != "easy" and "incoming" in view and _they_end_next(view, codes) and \
            _finishing(view, codes) is not None:
        return _likeliest_head(codes[live_index], shot, legal, rng)
    if level == "hard":
        cell = book(size, planes).get(book_key(shots))
        if cell is None or cell not in legal:
            cell = hard_choice(codes, planes, live_index, shots, budget)
        return cell if cell in legal else rng.choice(legal)
    live = codes[live_index]
    if level == "easy":
        return _likeliest_head(live, shot, legal, rng)
    scores = information_scores(live, shot, HEAD_BONUS)
    top = np.flatnonzero(scores >= scores.max() - 1e-9)
    return int(rng.choice(list(top)))


def _likeliest_head(live: np.ndarray, shot: set, legal: list, rng: random.Random) -> int:
    """A legal cell most of the live layouts put a head on (ties at random)."""
    heads = (live == 2).sum(axis=0).astype(float)
    heads[list(shot)] = -1
    top = [c for c in np.flatnonzero(heads == heads[legal].max()) if c in legal]
    return int(rng.choice(top))


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


# --- judging a position (the review, ai/review.py)
# The race's spread: a hunt's shots still needed vary with a variance of about this much per
# shot expected (a Hard hunt of ~22 shots spreads about 3 either way), so a lead of a shot
# counts more late in the game than early.
REVIEW_VARIANCE = 0.4
THEIRS_SHARE = 1 / 3  # of a position's time for the opponent's hunt (no shot of it is asked)
REVIEW_EXACT_BELOW = 12  # layouts left at which a review searches to the last head (exact;
# measured: 0.1 s at 11 layouts, 2 s at 16, over 20 s at 25)


def shot_costs(view: dict, cells: list[int], budget: Budget, limit: int
               ) -> tuple[float, int, list[float], bool]:
    """The hunt of the view's own shots: (expected shots still needed with the best shot
    first, that shot, the same with each of `cells` first, exact). Exact by the search to the
    last head when few layouts are left, else Hard's lookahead `limit` shots deep (0: as deep
    as the budget allows, at least two)."""
    size, planes = view["size"], view["planes"]
    _, codes = rules.layouts(size, planes)
    shots = view["shots"]
    shot = {cell for cell, _ in shots}
    found = sum(1 for _, answer in shots if answer == "head")
    left = planes - found
    index = consistent(size, planes, shots)
    if len(index) == 0 or left <= 0:  # answers no layout agrees with (a lying peer), or won
        return float(left), (cells or [0])[0], [float(left)] * len(cells), False
    if len(index) <= REVIEW_EXACT_BELOW:
        exact = Exact(codes, planes, budget)
        live = tuple(int(i) for i in index)
        try:
            value, best = exact.cost(live, found, frozenset(shot))
            return value, best, [_first(exact, live, found, shot, c) for c in cells], True
        except Deadline:
            if budget.cancel.is_set():
                raise
    live = codes[index]
    book_cell = book(size, planes).get(book_key(shots))
    found_at: tuple[float, int, list[float]] | None = None
    for depth in range(2, max(2, limit or LOOK_DEPTH) + 1):  # one ply is the least it looks
        step = budget if found_at is not None else budget.sub(math.inf)
        try:
            value, best = lookahead(live, shot, left, depth, step)
            if book_cell is not None and book_cell not in shot:
                there = shot_cost(live, shot, left, book_cell, depth, step)
                if there <= value + 1e-9:
                    value, best = there, book_cell
            costs = [value if c == best else shot_cost(live, shot, left, c, depth, step)
                     for c in cells]
        except Deadline:
            if budget.cancel.is_set():
                raise
            break
        found_at = (value, best, costs)
        if budget.expired():
            break
    assert found_at is not None
    return found_at[0], found_at[1], found_at[2], False


def _first(exact: Exact, live: tuple[int, ...], found: int, shot: set[int], cell: int) -> float:
    """The exact expected shots still needed when `cell` is shot first, then best play."""
    if cell in shot:
        return math.inf
    groups: dict[int, list[int]] = {}
    for x, k in zip(live, exact.codes[list(live), cell].tolist()):
        groups.setdefault(k, []).append(x)
    total = 1.0
    for k, group in groups.items():
        value, _ = exact.cost(tuple(group), found + (k == 2), frozenset(shot | {cell}))
        total += len(group) / len(live) * value
    return total


def appraise(view: dict, moves: list, budget: Budget, limit: int) -> Appraisal:
    """Hard's judgement of a shot (ai.base.Bot.appraise), from the shooter's view: the race of
    the shots each side still needs, the shooter's own by its hunt (shot_costs) and the
    opponent's by the same hunt over the shots they have taken; a shot's details
    give its chance of a head and of any hit, over the layouts left."""
    size, planes = view["size"], view["planes"]
    _, codes = rules.layouts(size, planes)
    cells = [m[0] if isinstance(m, list) else m for m in moves]
    # Both hunts by the same measure: the opponent's by a cheaper one than the shooter's
    # favoured whoever was to move, and the graph of a game swung with every shot.
    theirs = shot_costs({"size": size, "planes": planes, "shots": view["incoming"]}, [],
                        budget.share(THEIRS_SHARE), limit)[0]
    mine, best, costs, exact = shot_costs(view, cells, budget, limit)

    # the logistic with the spread of the difference of the two hunts (sd * sqrt(3) / pi)
    scale = max(0.5, math.sqrt(REVIEW_VARIANCE * (mine + theirs)) * math.sqrt(3) / math.pi)

    # a tie in shots still needed goes to the shooter, who shoots first; under "equal turns"
    # the first player's tie is a draw, and the second draws one shot behind
    lead = 0.5 if not view["equal_turns"] else (1.0 if view["to_move"] == 1 else 0.0)

    def chance(cost: float) -> float:
        if not math.isfinite(cost):
            return 0.0
        return 1.0 / (1.0 + math.exp(-(theirs - cost + lead) / scale))

    live = codes[consistent(size, planes, view["shots"])]
    n = max(len(live), 1)
    def odds(cell: int) -> dict:
        return {"head": float((live[:, cell] == 2).sum() / n),
                "hit": float((live[:, cell] > 0).sum() / n)}

    details = tuple({**odds(c), "shots": cost} for c, cost in zip(cells, costs))
    finishing = _finishing(view, codes)  # a shot sure of the last head is no race: it ends it
    ending = _they_end_next(view, codes)  # nor is one the opponent's next shot is sure to end

    evening = _before_evening(view, codes, live)  # this shot and the evening shot decide

    def worth(cell: int, cost: float) -> float:
        if evening is not None:
            return float(evening[cell])
        if finishing is not None and odds(cell)["head"] == 1.0:
            return finishing
        if ending:  # only this shot's own chance of the last head is left
            return 0.0 if finishing is None else finishing * odds(cell)["head"]
        return chance(cost)

    called = {cell for cell, _ in view["shots"]}
    if evening is not None:
        best = int(np.argmax(evening))
    elif ending and finishing is not None:  # the best is the likeliest head now, not the hunt's
        best = _likeliest_head(live, called, [c for c in range(size * size) if c not in called],
                               random.Random(len(called)))
    return Appraisal(worth(int(best), mine), tuple(worth(c, k) for c, k in zip(cells, costs)),
                     int(best), (int(best),), exact, details,
                     {"layouts": len(live), "shots": mine, "theirs": theirs,
                      "best": odds(int(best))})


def _before_evening(view: dict, codes: np.ndarray, live: np.ndarray) -> np.ndarray | None:
    """The second player's shot under "equal turns" where the first's next shot is sure of its
    last head: the game comes down to this shot and the evening shot after it. Per cell, what
    they are worth: a win if this one finds the last head, a draw if the evening shot does,
    that shot taken at the likeliest head the answer leaves (None elsewhere; cells called, -1)."""
    if not (view["equal_turns"] and view["to_move"] == 1) or \
            _heads_left(view["planes"], view["incoming"]) != 1 or \
            _their_last_head(view, codes) != 1.0:
        return None
    left = _heads_left(view["planes"], view["shots"])
    called = [cell for cell, _ in view["shots"]]
    out = np.full(live.shape[1], -1.0)
    for cell in set(range(live.shape[1])) - set(called):
        out[cell] = 0.0
        for code in (0, 1, 2):  # the answer: miss, body, head
            part = live[live[:, cell] == code]
            still = left - (code == 2)
            if len(part) == 0 or still > 1:
                continue
            share = len(part) / max(len(live), 1)
            if still == 0:
                out[cell] += share  # the last head now: a win
                continue
            heads = (part == 2).mean(axis=0)
            heads[called + [cell]] = 0.0
            out[cell] += share * 0.5 * float(heads.max())
    return out


def _their_last_head(view: dict, codes: np.ndarray) -> float | None:
    """The opponent's chance that its next shot finds its last head, by the layouts of the
    shooter's planes its shots agree with (None while it needs more than one; 1.0 once it has
    found them all, which leaves only the second player's evening shot under "equal turns";
    0.0 if no layout agrees with its answers)."""
    size, planes, incoming = view["size"], view["planes"], view["incoming"]
    need = _heads_left(planes, incoming)
    if need != 1:
        return 1.0 if need == 0 else None
    live = codes[consistent(size, planes, incoming)]
    if len(live) == 0:
        return 0.0
    heads = (live == 2).mean(axis=0)
    heads[[cell for cell, _ in incoming]] = 0.0
    return float(heads.max())


def _they_end_next(view: dict, codes: np.ndarray) -> bool:
    """Whether the game ends with the opponent's next shot at the latest: it is sure of its
    last head (for the first player under "equal turns", whose last head leaves the second
    its evening shot, not so), or this shot is that evening shot."""
    theirs = _their_last_head(view, codes)
    evening = view["equal_turns"] and view["to_move"] == 1
    return theirs == 1.0 and (not evening or _heads_left(view["planes"], view["incoming"]) == 0)


def _heads_left(planes: int, shots) -> int:
    return planes - sum(1 for _, answer in shots if answer == "head")


def _finishing(view: dict, codes: np.ndarray) -> float | None:
    """What finding the last head now is worth to the shooter (None while more than one is
    left): a win; but under "equal turns" the first player's last head leaves the second its
    evening shot, a draw if that finds the second's last head (its chance by its own view, as
    the race takes the opponent's hunt), and the evening shot itself is worth a draw."""
    if _heads_left(view["planes"], view["shots"]) != 1:
        return None
    if not view["equal_turns"]:
        return 1.0
    theirs = _their_last_head(view, codes)
    if view["to_move"] == 1:
        return 0.5 if _heads_left(view["planes"], view["incoming"]) == 0 else 1.0
    return 1.0 if theirs is None else 1.0 - 0.5 * theirs
