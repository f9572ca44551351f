"""The 2048 bot: expectimax over packed boards, compiled (ai/g2048_kernel.py, through
ai.compiled) when numba is there, else one whole tree level at a time in numpy.

The compiled search is nneonneo's expectimax, depth first with a transposition table, deepened
one slide at a time while the time the next depth is predicted to take fits in the budget; a
watcher thread stops it at the deadline and the deepest finished depth answers.

The tree alternates max nodes (the player picks a direction) and chance nodes (the board after
the slide, before the spawn: a 2 with p 0.9 or a 4 with p 0.1 on each empty cell, uniformly).
Each level is a numpy array of distinct boards: ``np.unique`` merges every board reached by more
than one path (the transposition table of a level), so each is expanded and valued once.
A chance node is expanded only while the probability of reaching it stays above a threshold
(nneonneo's cprob cut); the rest, and the deepest level, take the evaluation: nneonneo's
row-table heuristic (empty cells, merges, monotonicity, tile sums) over rows and columns.

Iterative deepening adds one level at a time to the arrays already built and backs the values
up again; it starts a level only if the time it predicts for it (from the previous level's
time per board) fits in what is left of the budget, and checks the budget between steps.

The compiled search can take instead, at its leaves, the n-tuple network learnt by
bench/g2048_ntuple_train.py (ai/g2048_ntuple.py, its file in ai/data): use_evaluation("ntuple")
switches to it, and back to the heuristic if the file is missing or unreadable. Hard plays with
HARD_EVALUATION, the network. Past 16384 the network values each leaf on its downgraded board
(ai.g2048_ntuple.downgraded): the late game its training games rarely reached.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from ai import g2048_ntuple as ntuple
from ai.base import NO_OPENING_OPTION, NO_OPENING_PLIES, Appraisal, Budget, Deadline, no_setup
from ai.compiled import Kernel
from game.rules import g2048 as rules

OPENING_OPTION = NO_OPENING_OPTION
OPENING_PLIES = NO_OPENING_PLIES
choose_setup = no_setup
DIRECTIONS = rules.DIRECTIONS  # the order of moves() rows
U = np.uint64
_M16 = U(0xFFFF)
_SHIFTS = tuple(U(16 * k) for k in range(4))
_COL_SHIFTS = tuple(U(4 * k) for k in range(4))
# Per level: (deepest level, cut on the probability of reaching a chance node). Easy and Normal
# evaluate with the heuristic; Hard with HARD_EVALUATION.
LEVELS = {"easy": (1, 1.0), "normal": (3, 1e-3), "hard": (12, 1e-5)}
GROWTH = 5.0  # how much longer the next depth takes, before two depths have been timed
# A depth is started if this share of the time predicted for it is left: its first moves
# finished can still change the answer.
START_SHARE = 0.4
KERNEL = Kernel("ai.g2048_kernel")
KERNELS = (KERNEL,)
MAX_CHILDREN = 3_000_000  # a level bigger than this is never started (memory)
MIN_LEVEL = 2000  # a level cut shorter than this many children is not worth starting
REST_SHARE = 2.5  # a level's last steps and back-up against its first steps, in time
PER_CHILD = 1.5e-6  # seconds per spawn child before a big level has been timed
# Seconds per spawn child (level and back-up), learnt from the big levels of every search so
# far: the first big level of a search is predicted from the machine's recent speed.
_speed = {"per_child": PER_CHILD}

# The leaf evaluation Hard's compiled search uses: "heuristic" (below) or "ntuple" (the network
# in ai/data). At 10 ms a move over 20 seeds the network reached 16384 in 90% of the games
# against the heuristic's 45% (README's benchmark table); on a machine too small for its
# 268 MB of dense weights, or without the file, Hard keeps the heuristic.
HARD_EVALUATION = "ntuple"
_EVALUATION: dict[str, Any] = {"name": HARD_EVALUATION, "net": None}

# nneonneo's heuristic weights (2048-ai, heuristic tuned by CMA-ES).
LOST_PENALTY = 200000.0
MONOTONICITY_POWER = 4.0
MONOTONICITY_WEIGHT = 47.0
SUM_POWER = 3.5
SUM_WEIGHT = 11.0
MERGES_WEIGHT = 700.0
EMPTY_WEIGHT = 270.0


@cache
def heuristic_table() -> np.ndarray:
    """The evaluation of every 16-bit row (or column), all 65536 at once."""
    rows = np.arange(65536, dtype=np.int64)
    line = [((rows >> (4 * k)) & 0xF).astype(np.float64) for k in range(4)]
    total = sum(r ** SUM_POWER for r in line)
    empty = sum((r == 0).astype(np.float64) for r in line)
    merges = np.zeros(65536)
    prev = np.zeros(65536)
    counter = np.zeros(65536)
    for r in line:
        filled = r != 0
        same = filled & (r == prev)
        ends = filled & ~same & (counter > 0)
        merges += np.where(ends, 1 + counter, 0)
        counter = np.where(same, counter + 1, np.where(filled, 0, counter))
        prev = np.where(filled, r, prev)
    merges += np.where(counter > 0, 1 + counter, 0)
    mono_left = np.zeros(65536)
    mono_right = np.zeros(65536)
    for a, b in zip(line, line[1:]):
        pa, pb = a ** MONOTONICITY_POWER, b ** MONOTONICITY_POWER
        mono_left += np.where(a > b, pa - pb, 0)
        mono_right += np.where(a > b, 0, pb - pa)
    return (LOST_PENALTY + EMPTY_WEIGHT * empty + MERGES_WEIGHT * merges
            - MONOTONICITY_WEIGHT * np.minimum(mono_left, mono_right) - SUM_WEIGHT * total)


def network(path: str | None = None) -> np.ndarray | None:
    """The n-tuple network's weights (ai/data's file unless path), None if there are none."""
    key = path or str(ntuple.FILE)
    if key not in _NETWORKS:
        _NETWORKS[key] = ntuple.load(key)
    return _NETWORKS[key]


_NETWORKS: dict[str, np.ndarray | None] = {}


def use_evaluation(name: str, path: str | None = None, weights: np.ndarray | None = None
                   ) -> str:
    """Sets the compiled search's leaf evaluation: "heuristic", or "ntuple" with `weights`
    (dense, as ai.g2048_ntuple.load gives) or the file at path (ai/data's by default);
    returns the one in use: "heuristic" if the network cannot be loaded."""
    if name not in ("heuristic", "ntuple"):
        raise ValueError(f"unknown evaluation {name!r}")
    net = None
    if name == "ntuple":
        net = weights if weights is not None else network(path)
        if net is None:
            name = "heuristic"
    _EVALUATION.update(name=name, net=net)
    return name


def _network_in_use() -> np.ndarray | None:
    """The network the search takes, None for the heuristic. Without use_evaluation (Hard
    with HARD_EVALUATION "ntuple"), ai/data's file is read on a thread of its own (a second
    or so) while the heuristic plays; a missing or broken file leaves the heuristic."""
    if _EVALUATION["name"] != "ntuple":
        return None
    if _EVALUATION["net"] is None and _EVALUATION.get("loader") is None:
        _EVALUATION["loader"] = threading.Thread(target=_load_network, daemon=True,
                                                 name="g2048-network")
        _EVALUATION["loader"].start()
    return _EVALUATION["net"]


def _load_network() -> None:
    net = network()
    if _EVALUATION["name"] == "ntuple" and _EVALUATION["net"] is None:
        _EVALUATION.update(name="ntuple" if net is not None else "heuristic", net=net)


# --- boards in batches
def transpose(x: np.ndarray) -> np.ndarray:
    """Transpose packed boards (cell (r, c) to (c, r))."""
    a = (x & U(0xF0F00F0FF0F00F0F)) | ((x & U(0x0000F0F00000F0F0)) << U(12)) \
        | ((x & U(0x0F0F00000F0F0000)) >> U(12))
    return (a & U(0xFF00FF0000FF00FF)) | ((a & U(0x00FF00FF00000000)) >> U(24)) \
        | ((a & U(0x00000000FF00FF00)) << U(24))


def _lines(x: np.ndarray) -> list[np.ndarray]:
    return [((x >> s) & _M16).astype(np.intp) for s in _SHIFTS]


def moves(boards: np.ndarray) -> np.ndarray:
    """The boards after each slide, shape (4, n) in DIRECTIONS order (no spawn)."""
    t = rules.tables()
    rows, cols = _lines(boards), _lines(transpose(boards))
    out = np.empty((4, len(boards)), dtype=np.uint64)
    out[0] = t.col_up[cols[0]]
    out[1] = t.col_down[cols[0]]
    out[2] = t.left[rows[0]]
    out[3] = t.right[rows[0]]
    for k in range(1, 4):
        out[0] |= t.col_up[cols[k]] << _COL_SHIFTS[k]
        out[1] |= t.col_down[cols[k]] << _COL_SHIFTS[k]
        out[2] |= t.left[rows[k]] << _SHIFTS[k]
        out[3] |= t.right[rows[k]] << _SHIFTS[k]
    return out


def evaluate(boards: np.ndarray) -> np.ndarray:
    """The heuristic value of each board (rows and columns through the table)."""
    h = heuristic_table()
    rows, cols = _lines(boards), _lines(transpose(boards))
    return h[rows[0]] + h[rows[1]] + h[rows[2]] + h[rows[3]] \
        + h[cols[0]] + h[cols[1]] + h[cols[2]] + h[cols[3]]


def empty_cells(boards: np.ndarray) -> np.ndarray:
    """A (n, 16) bool array: which cells of each board are empty."""
    cells = (boards[:, None] >> (U(4) * np.arange(16, dtype=np.uint64))) & U(0xF)
    return cells == 0


# --- the tree
def _nothing() -> np.ndarray:
    return np.empty(0, dtype=np.int64)


@dataclass
class Level:
    """One chance level: distinct after-slide boards, their values and how they were reached."""

    boards: np.ndarray
    heur: np.ndarray
    reach: np.ndarray  # summed probability of the paths reaching each board
    # Filled in when the level below is built (empty until then):
    expanded: np.ndarray = field(default_factory=_nothing)  # indices of the boards expanded
    spawn_parent: np.ndarray = field(default_factory=_nothing)  # per spawn child: in `expanded`
    spawn_prob: np.ndarray = field(default_factory=_nothing)
    spawn_node: np.ndarray = field(default_factory=_nothing)  # per spawn child: its max node
    max_count: int = 0
    slide_node: np.ndarray = field(default_factory=_nothing)  # per legal slide: its max node
    slide_dir: np.ndarray = field(default_factory=_nothing)
    slide_after: np.ndarray = field(default_factory=_nothing)  # per slide: its next-level board


@dataclass
class Tree:
    root: int
    root_dirs: list[int]
    root_after: np.ndarray  # per root move: its board in the first level
    levels: list[Level] = field(default_factory=list)


def _distinct(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    uniq, inverse = np.unique(boards, return_inverse=True)
    return uniq, inverse.reshape(-1)


def start_tree(board: int, dirs: list[int]) -> Tree:
    """The root's slides as the first chance level."""
    after = moves(np.array([board], dtype=np.uint64))[:, 0]
    boards = after[dirs]
    uniq, inverse = _distinct(boards)
    level = Level(uniq, evaluate(uniq), np.ones(len(uniq)))
    return Tree(board, dirs, inverse, [level])


def child_counts(level: Level, cut: float, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """The boards of a level worth growing (reach >= cut, most likely first), at most `limit`
    of them, and how many spawn children each would make."""
    candidates = np.flatnonzero(level.reach >= cut)
    if len(candidates) > limit:  # sorting a big deep level would cost more than the budget
        candidates = candidates[np.argpartition(-level.reach[candidates], limit)[:limit]]
    candidates = candidates[np.argsort(-level.reach[candidates], kind="stable")]
    return candidates, 2 * empty_cells(level.boards[candidates]).sum(axis=1)


def grow(tree: Tree, expanded: np.ndarray, budget: Budget | None = None) -> bool:
    """Add the next chance level below the deepest one, growing only the boards `expanded`.

    Gives up (False, the tree unchanged) if the budget runs out between its steps."""
    clock = budget.now if budget is not None else time.monotonic
    began = clock()
    last = tree.levels[-1]
    expanded = np.sort(expanded)
    empty = empty_cells(last.boards[expanded])
    parent, cell = np.nonzero(empty)
    n_empty = empty.sum(axis=1)[parent]
    bit = U(1) << (U(4) * cell.astype(np.uint64))
    base = last.boards[expanded][parent]
    kids = np.concatenate([base | bit, base | (bit << U(1))])
    prob = np.concatenate([(1 - rules.FOUR_PROBABILITY) / n_empty,
                           rules.FOUR_PROBABILITY / n_empty])
    parent = np.concatenate([parent, parent])
    nodes, node_of = _distinct(kids)
    if budget is not None and budget.expired():
        return False
    node_reach = np.bincount(node_of, last.reach[expanded][parent] * prob, len(nodes))
    slid = moves(nodes)
    legal = slid != nodes[None, :]
    d, m = np.nonzero(legal)
    # the steps left (and the back-up) take about REST_SHARE times as long as those done
    if budget is not None and budget.remaining() < REST_SHARE * (clock() - began):
        return False
    after, after_of = _distinct(slid[d, m])
    heur = evaluate(after)
    if budget is not None and budget.expired():
        return False
    reach = np.bincount(after_of, node_reach[m], len(after))
    last.expanded, last.spawn_parent, last.spawn_prob = expanded, parent, prob
    last.spawn_node, last.max_count = node_of, len(nodes)
    last.slide_node, last.slide_dir, last.slide_after = m, d, after_of
    tree.levels.append(Level(after, heur, reach))
    return True


def back_up(tree: Tree) -> np.ndarray:
    """Expectimax values of the root's moves (in tree.root_dirs order)."""
    value = tree.levels[-1].heur
    for level in reversed(tree.levels[:-1]):
        best = np.full((4, level.max_count), -np.inf)
        best[level.slide_dir, level.slide_node] = value[level.slide_after]
        node_value = best.max(axis=0)
        node_value[node_value == -np.inf] = 0.0  # no move: the game is lost
        expect = np.bincount(level.spawn_parent,
                             level.spawn_prob * node_value[level.spawn_node],
                             len(level.expanded))
        value = level.heur.copy()
        value[level.expanded] = expect
    return value[tree.root_after]


# --- the bot entry
def board_of(view: dict) -> int:
    """The packed board of a view (docs/protocol.md)."""
    rows = view.get("board") if isinstance(view, dict) else None
    return rules.pack(rules.from_rows(rows).cells)


def search(board: int, dirs: list[int], budget: Budget, max_depth: int, cut: float,
           stats: dict | None = None, compiled: bool = True, network: bool = True) -> int:
    """The best of dirs (DIRECTIONS indices) within the budget; returns a direction index.
    max_depth counts chance levels, the root's slides included (1: evaluate them only).
    stats gets the depth reached and the nodes expanded. network=False keeps the heuristic
    at the leaves whatever use_evaluation chose."""
    kernel = KERNEL.get() if compiled else None
    if kernel is not None:
        net = _network_in_use() if network else None
        return search_compiled(kernel, board, dirs, budget, max_depth, cut, stats, net)
    return search_levels(board, dirs, budget, max_depth, cut, stats)


def search_compiled(kernel: Any, board: int, dirs: list[int], budget: Budget, max_depth: int,
                    cut: float, stats: dict | None = None, net: np.ndarray | None = None) -> int:
    """search() in the compiled kernel: iterative deepening, one call into it a depth; net (the
    n-tuple network's weights) at the leaves, or the heuristic."""
    tables = _take_tables(kernel, net)
    try:
        tables.new_search()
        values, _ = tables.search(board, 0, cut)  # before the watcher starts: never stopped
        order = sorted(dirs, key=lambda d: -values[d])
        reached = 1
        # stopped a little early: the answer still has to reach the caller on a busy machine
        watch = _WATCHER.watch(budget, 0.002 + 0.05 * budget.seconds, tables.ctl, kernel.STOP)
        try:
            last = 0.0
            for depth in range(1, max_depth):
                began = budget.now()
                values, finished = tables.search(board, depth, cut, tuple(order))
                if finished < len(order):
                    # The last best was searched first: a finished rival that beats it at
                    # this depth is the better move already.
                    if finished >= 2:
                        order = sorted(order[:finished], key=lambda d: -values[d]) \
                            + order[finished:]
                    break
                order = sorted(order, key=lambda d: -values[d])
                reached = depth + 1
                took = budget.now() - began
                if not tables.ctl[kernel.DEPTH_CUT]:
                    break  # the cut on probability ended every line: deeper is the same tree
                growth = min(max(took / last, 1.5), 12.0) if last > 1e-4 else GROWTH
                if took * growth * START_SHARE > budget.remaining():
                    break
                last = took
        finally:
            _WATCHER.release(watch)
        best = order[0]
        if stats is not None:
            stats.update(depth=reached, nodes=int(tables.ctl[kernel.NODES]))
        return best
    finally:
        _give_back(tables)


class _Watcher:
    """One daemon thread for every search: it raises a search's stop flag at its deadline or on
    cancel. It wakes every POLL seconds, and keeps doing so a while between searches so that
    a search neither starts a thread nor wakes one: on a loaded machine each hand-over of the
    GIL can wait for the scheduler."""

    POLL = 0.005
    LINGER = 2.0  # seconds of polling after the last search before sleeping until the next

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._watched: dict[int, tuple[Budget, float, Any, int]] = {}
        self._thread: threading.Thread | None = None
        self._asleep = False

    def watch(self, budget: Budget, margin: float, ctl: Any, stop: int) -> int:
        """Sets ctl[stop] once budget has margin seconds left, or is cancelled."""
        with self._cond:
            key = id(ctl)
            self._watched[key] = (budget, margin, ctl, stop)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name="g2048-deadline")
                self._thread.start()
            elif self._asleep:
                self._cond.notify()
            return key

    def release(self, key: int) -> None:
        with self._cond:
            self._watched.pop(key, None)

    def _run(self) -> None:
        last = time.monotonic()
        with self._cond:
            while True:
                wait = self.POLL
                for key, (budget, margin, ctl, stop) in list(self._watched.items()):
                    left = budget.remaining() - margin
                    if left <= 0:
                        ctl[stop] = 1
                        del self._watched[key]
                    else:
                        wait = min(wait, left)
                if self._watched:
                    last = time.monotonic()
                self._asleep = time.monotonic() - last > self.LINGER
                self._cond.wait(None if self._asleep else wait)


_WATCHER = _Watcher()


_FREE_TABLES: list = []  # kernel tables not in use: one per search running at once
_TABLES_LOCK = threading.Lock()


def _take_tables(kernel: Any, net: np.ndarray | None = None) -> Any:
    """Kernel tables for a search, with the network `net` at the leaves or the heuristic."""
    with _TABLES_LOCK:
        for i, tables in enumerate(_FREE_TABLES):
            if (net is None and len(tables.net) == 1) or tables.net is net:
                return _FREE_TABLES.pop(i)
    return kernel.Tables(heuristic_table(), net=net)


def _give_back(tables: Any) -> None:
    with _TABLES_LOCK:
        _FREE_TABLES.append(tables)
        if len(_FREE_TABLES) > 4:  # evaluations switched: the oldest tables go
            del _FREE_TABLES[0]


def search_levels(board: int, dirs: list[int], budget: Budget, max_depth: int, cut: float,
                  stats: dict | None = None) -> int:
    """search() in numpy, without numba.

    Each new level grows the boards of the deepest level whose reach is at least `cut`, most
    likely first, as many as the time left allows (the rest keep their evaluation)."""
    tree = start_tree(board, dirs)
    best = dirs[int(np.argmax(back_up(tree)))]
    per_child = _speed["per_child"]
    margin = 0.002 + 0.15 * budget.seconds  # for the back-up and the machine's hiccups
    while len(tree.levels) < max_depth:
        affordable = (budget.remaining() - margin) / per_child
        # a board after a slide has an empty cell, so at least two spawn children
        candidates, counts = child_counts(tree.levels[-1], cut, max(0, int(affordable) // 2))
        if len(candidates) == 0:
            break
        total = np.cumsum(counts)
        take = int(np.searchsorted(total, min(affordable, MAX_CHILDREN), side="right"))
        if take == 0 or total[take - 1] < min(MIN_LEVEL, total[-1]):
            break
        began = budget.now()
        if not grow(tree, candidates[:take], budget):
            break
        values = back_up(tree)
        if budget.cancel.is_set():
            break
        best = dirs[int(np.argmax(values))]
        if total[take - 1] >= 20000:  # small levels cost mostly fixed overhead
            measured = (budget.now() - began) / total[take - 1]
            per_child = max(PER_CHILD / 4, 1.3 * measured)
            _speed["per_child"] = 0.7 * _speed["per_child"] + 0.3 * per_child
        if take < len(candidates):
            break
    if stats is not None:
        stats.update(depth=len(tree.levels), nodes=sum(len(lv.boards) for lv in tree.levels))
    return best


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> str:
    """The move to play: expectimax within the budget, as deep as the level allows."""
    if not legal:
        raise ValueError("no legal move")
    if len(legal) == 1:
        return legal[0]
    level = level if level in LEVELS else "hard"
    max_depth, cut = LEVELS[level]
    dirs = [DIRECTIONS.index(m) for m in DIRECTIONS if m in legal]
    best = search(board_of(view), dirs, budget, max_depth, cut, network=level == "hard")
    move = DIRECTIONS[best]
    return move if move in legal else rng.choice(legal)


# --- judging a position (the review, ai/review.py)
REVIEW_HORIZON = 5  # slides ahead over which the review counts the chance the board survives
REVIEW_CUT = 1e-4  # chance nodes less likely than this count as survived (the bot's own cut)
_ALIVE = np.full(65536, 0.125)  # eight rows and columns: a board still in play is worth 1


def appraise(view: dict, moves: list, budget: Budget, limit: int) -> Appraisal:
    """Hard's judgement of the board (ai.base.Bot.appraise). The expected result is the chance
    that the board is still in play REVIEW_HORIZON slides on, playing to survive, after the
    bot's choice and after each asked move; the details give each move's expectimax value as a
    share of the bot's choice's. `limit` caps the expectimax depth (0: Hard's)."""
    kernel = KERNEL.load()
    if kernel is None:
        raise ValueError("the 2048 review needs the compiled search (numba)")
    board = board_of(view)
    legal = [d for d in DIRECTIONS if kernel.slide_board(board, DIRECTIONS.index(d))[0] != board]
    if not legal:
        raise ValueError("no legal move")
    max_depth, cut = LEVELS["hard"]
    tables = _take_tables(kernel)
    try:
        tables.new_search()
        values, _ = tables.search(board, 0, cut)
        order = sorted(range(4), key=lambda d: -values[d])
        watch = _WATCHER.watch(budget, 0.0, tables.ctl, kernel.STOP)
        try:
            for depth in range(1, min(limit or max_depth, max_depth)):
                found, finished = tables.search(board, depth, cut, tuple(order))
                if finished < len(order):
                    break
                values = found
                order = sorted(order, key=lambda d: -values[d])
                if not tables.ctl[kernel.DEPTH_CUT]:
                    break
        finally:
            _WATCHER.release(watch)
    finally:
        _give_back(tables)
    if budget.cancel.is_set():
        raise Deadline
    alive = _survival_tables(kernel)
    alive.new_search()
    survive, _ = alive.search(board, REVIEW_HORIZON, REVIEW_CUT)
    best = max(legal, key=lambda d: values[DIRECTIONS.index(d)])
    top = values[DIRECTIONS.index(best)]
    asked = [DIRECTIONS.index(m) for m in moves]
    return Appraisal(float(survive[DIRECTIONS.index(best)]),
                     tuple(float(max(survive[d], 0.0)) for d in asked), best, (best,),
                     bool(survive[DIRECTIONS.index(best)] == 0.0),
                     tuple({"expectimax": float(values[d] / top) if top > 0 else 0.0}
                           for d in asked),
                     {"score": view.get("score", 0)}, "survival")


@cache
def _survival_tables(kernel: Any) -> Any:
    return kernel.Tables(_ALIVE)
