"""The Ataxx bot: iterative-deepening negamax alpha-beta (principal variation search) with a
transposition table, ordered moves and an evaluation of material, safety and mobility (plus,
compiled, the learned 3x3 patterns of ai/ataxx_patterns.py; on the standard board, the network
of ai/ataxx_nnue.py in their place). It reads only the FEN of its view.

The search runs compiled (ai/ataxx_kernel.py, through ai.compiled) when numba is there and
warmed up; until then, or without numba, the pure-Python search below plays the move.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable
from typing import Any

from ai.base import Appraisal, Budget, Deadline, no_setup
from ai.compiled import Kernel
from game.rules import ataxx as rules
from game.rules.ataxx import ALL, FAR, NEAR, Position, has_move, make, moves_of, spread, squares

WIN = 100_000
EXACT, LOWER, UPPER = 0, 1, 2
TT_LIMIT = 1_500_000

# Arena openings: a pair of games per blocker layout, then the same layouts after two
# random plies.
OPENING_OPTION = "layout"
OPENING_PLIES = 2
choose_setup = no_setup
ASPIRATION = 60  # half-width of the first window around the last iteration's score
# Switches of the compiled search, each on only if bench/ataxx_selfplay.py showed it helps
# (README): futility did (+117 ± 81 Elo at 25k nodes a move); null move (+12 ± 56), both LMRs
# (-58 ± 86; log-shaped -4 ± 74, and worse on top of futility) and partial (+10 ± 80) did not
# with the hand-set evaluation. With the learned one, log-shaped LMR does (+84 ± 76 at 25k
# nodes, +145 ± 98 at 100 ms) and null move still does not (-89 ± 75 at 25k nodes).
LMR = 3  # late-move reductions: 0 none, 1 one or two plies, 2 log-shaped (Zataxx's), 3 rounded
NULL_MOVE = False
FUTILITY = True  # reverse futility and futility pruning near the leaves
PARTIAL = False  # an unfinished iteration's move, once it beat the previous best
# The learned pattern evaluation (ai/ataxx_patterns.py) against the hand-set one: +370 ± 121 Elo
# at 25k nodes a move (40 pairs), +241 ± 129 at 100 ms a move (20 pairs), pattern cost included;
# its second generation (trained on games of the first too) +147 ± 73 over the first (25k nodes).
LEARNED = True
# Issue 31's selectivity, each a switch of the kernel's control block (ai/ataxx_kernel.py),
# on only once bench/ataxx_selfplay.py showed a gain (README):
LMP = 64  # up to this depth a jump that takes nothing is not searched past a node's 2nd move
TT_SCHEME = 0  # 0: one slot, always replaced; 1: two-slot buckets keeping the deeper entry
IIR = 3  # from this depth (0: never) a node without a table move is searched a ply shallower
# History by side with bonus and malus, read by the late-move reductions: +70 ± 92 Elo at 100k
# nodes a move and +76 ± 92 at 200k (30 pairs each, standard board), together +73 ± 65.
HIST = True
SINGULAR = True  # singular extensions, multicut and negative extensions (the kernel's)
MARGINS = 100  # the futility margins, in percent of the kernel's
WIDEN = True  # a failed aspiration window widens step by step instead of opening at once
# The network (ai/ataxx_nnue.py) evaluates standard-board positions in place of the patterns.
NNUE = True


class Search:
    """One search: its counters, its deadline, and a transposition table it may share.
    best_move runs the compiled kernel when it is ready (unless compiled=False), else the pure
    search of this class."""

    def __init__(self, budget: Budget, table: dict | None = None, max_depth: int = 64,
                 compiled: bool = True):
        self.compiled = compiled
        self.budget = budget
        self.table = table if table is not None else {}
        self.nodes = 0
        self.max_depth = max_depth
        self.depth_reached = 0
        self.history: dict[tuple[int, int], int] = {}

    # --- evaluation, from the side to move
    def evaluate(self, pos: Position) -> int:
        own, enemy = pos.own(), pos.enemy()
        empty = ALL & ~(own | enemy | pos.gaps)
        material = own.bit_count() - enemy.bit_count()
        # Stones touching empty squares can be taken next move; the side to move's exposure
        # matters less (it moves first).
        enemy_front = (spread(empty) & enemy).bit_count()
        own_front = (spread(empty) & own).bit_count()
        mobility = (spread(own) & empty).bit_count() - (spread(enemy) & empty).bit_count()
        return 100 * material + 4 * (enemy_front - own_front) + 3 * mobility + 20

    def terminal(self, pos: Position, ply: int) -> int:
        own, enemy = pos.own().bit_count(), pos.enemy().bit_count()
        if pos.halfmove >= rules.DRAW_HALFMOVES and own and enemy:
            return 0
        if own == enemy:
            return 0
        margin = own - enemy
        return (WIN - ply + margin) if margin > 0 else (-WIN + ply + margin)

    # --- move ordering
    def ordered(self, pos: Position, tt_move: Any) -> list[tuple[int, int]]:
        moves = moves_of(pos)
        if len(moves) == 1:
            return moves
        enemy, own = pos.enemy(), pos.own()
        history = self.history

        def key(m: tuple[int, int]) -> int:
            frm, to = m
            if m == tt_move:
                return -1_000_000
            gain = (NEAR[to] & enemy).bit_count() * 10
            if frm < 0:
                gain += 10
            else:
                gain -= (NEAR[frm] & own).bit_count() * 3  # a jump leaves a hole behind
            return -(gain * 1000 + history.get(m, 0))

        moves.sort(key=key)
        return moves

    # --- the search
    def negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 1023:
            self.budget.check()
        if rules.game_over(pos):
            return self.terminal(pos, ply)
        if depth <= 0:
            return self.evaluate(pos)
        key = (pos.x, pos.o, pos.turn)
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth and pos.halfmove < rules.DRAW_HALFMOVES - 10:
                if e_flag == EXACT:
                    return e_score
                if e_flag == LOWER and e_score >= beta:
                    return e_score
                if e_flag == UPPER and e_score <= alpha:
                    return e_score
        original_alpha = alpha
        best, best_move = -WIN * 2, None
        for i, (frm, to) in enumerate(self.ordered(pos, tt_move)):
            child = make(pos, frm, to)
            if i == 0:
                score = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            else:
                score = -self.negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self.negamax(child, depth - 1, -beta, -score, ply + 1)
            if score > best:
                best, best_move = score, (frm, to)
            if score > alpha:
                alpha = score
            if alpha >= beta:
                self.history[(frm, to)] = self.history.get((frm, to), 0) + depth * depth
                break
        if best > 0 and best_move == (-1, -1) and can_shuffle(make(pos, -1, -1)):
            best = 0  # as in the kernel: the opponent holds a draw by jumping to and fro
        flag = EXACT if original_alpha < best < beta else (LOWER if best >= beta else UPPER)
        if len(self.table) > TT_LIMIT:
            self.table.clear()
        self.table[key] = (depth, best, flag, best_move)
        return best

    def root(self, pos: Position, depth: int, order: list) -> tuple[tuple[int, int], int]:
        alpha, beta = -WIN * 2, WIN * 2
        best_move, best = order[0], -WIN * 2
        for i, (frm, to) in enumerate(order):
            child = make(pos, frm, to)
            if i == 0:
                score = -self.negamax(child, depth - 1, -beta, -alpha, 1)
            else:
                score = -self.negamax(child, depth - 1, -alpha - 1, -alpha, 1)
                if score > alpha:
                    score = -self.negamax(child, depth - 1, -beta, -alpha, 1)
            if score > best:
                best, best_move = score, (frm, to)
                alpha = max(alpha, score)
        return best_move, best

    def best_move(self, pos: Position, on_depth=None) -> tuple[tuple[int, int], int, int]:
        """Iterative deepening: the best move of the deepest finished iteration, its score and
        that depth. on_depth(depth, score, move, nodes) is called after each iteration."""
        kernel = KERNEL.get() if self.compiled else None
        if kernel is not None:
            fast = CompiledSearch(kernel, self.budget, self.max_depth)
            found = fast.best_move(pos, on_depth)
            self.nodes, self.depth_reached = fast.nodes, fast.depth_reached
            return found
        order = self.ordered(pos, None)
        if len(order) == 1:
            return order[0], 0, 0
        best, score = order[0], 0
        for depth in range(1, self.max_depth + 1):
            try:
                best, score = self.root(pos, depth, order)
            except Deadline:
                break
            self.depth_reached = depth
            if on_depth is not None:
                on_depth(depth, score, best, self.nodes)
            order.remove(best)
            order.insert(0, best)
            if abs(score) >= WIN - 1000 or self.budget.expired():
                break
        return best, score, self.depth_reached


class CompiledSearch:
    """The same search compiled: iterative deepening with aspiration windows driven from here,
    each iteration one call into the kernel, which runs without the GIL and stops when a
    watcher thread raises its stop flag (deadline or cancel)."""

    def __init__(self, kernel: Any, budget: Budget, max_depth: int = 64,
                 node_limit: int = 0, lmr: int = LMR, null_move: bool = NULL_MOVE,
                 weights: dict[int, int] | None = None, tables: Any = None,
                 partial: bool = PARTIAL, futility: bool = FUTILITY, learned: bool = LEARNED,
                 lmp: int = LMP, tt_scheme: int = TT_SCHEME, iir: int = IIR,
                 hist: bool = HIST, widen: bool = WIDEN, nnue: bool = NNUE,
                 aspiration: int = ASPIRATION, singular: bool = SINGULAR,
                 margins: int = MARGINS):
        self.k = kernel
        self.budget = budget
        self.max_depth = min(max_depth, kernel.MAX_PLY - 8)
        self.node_limit = node_limit
        self.lmr = lmr
        self.null_move = null_move
        self.partial = partial
        self.futility = futility
        self.learned = learned
        self.switches = {kernel.LMP: int(lmp), kernel.TT_SCHEME: int(tt_scheme),
                         kernel.IIR: int(iir), kernel.HIST: int(hist),
                         kernel.SINGULAR: int(singular), kernel.MARGINS: int(margins)}
        self.widen = widen
        self.aspiration = aspiration
        self.nnue = nnue
        self.weights = weights or {}  # ctl slot -> weight, over the kernel's WEIGHTS
        self.own_tables = tables  # a bench's side keeps its own; the bot shares the pool
        self.nodes = 0
        self.depth_reached = 0

    def best_move(self, pos: Position, on_depth: Callable | None = None
                  ) -> tuple[tuple[int, int], int, int]:
        """As Search.best_move: the deepest finished iteration's move, score and depth."""
        moves = moves_of(pos)
        if len(moves) == 1:
            return moves[0], 0, 0
        if self.own_tables is not None:
            return self._deepen(self.k, self.own_tables, pos, moves, on_depth)
        k, tables = self.k, _take_tables(self.k)
        try:
            return self._deepen(k, tables, pos, moves, on_depth)
        finally:
            _give_back(tables)

    def _deepen(self, k: Any, tables: Any, pos: Position, moves: list,
                on_depth: Callable | None) -> tuple[tuple[int, int], int, int]:
        tables.new_search(self.learned)
        ctl = tables.ctl
        ctl[k.NODE_LIMIT] = self.node_limit
        ctl[k.LMR] = int(self.lmr)
        ctl[k.FUTILITY] = int(self.futility)
        ctl[k.NULL_MOVE] = int(self.null_move)
        for slot, value in self.switches.items():
            ctl[slot] = value
        for slot, weight in self.weights.items():
            ctl[slot] = weight
        if self.nnue and pos.gaps == 0:
            tables.use_network(pos.turn == 0)
        own, opp = pos.own(), pos.enemy()
        best, score = moves[0], 0
        done = threading.Event()
        watcher = threading.Thread(target=_watch, args=(self.budget, ctl, k.STOP, done),
                                   daemon=True, name="ataxx-deadline")
        watcher.start()
        try:
            for depth in range(1, self.max_depth + 1):
                if self.budget.expired():
                    break
                found = self._iteration(tables, pos, own, opp, depth, score)
                if found is None:
                    break
                move, score, finished = found
                if move in moves and (finished or self.partial):
                    best = move
                if not finished:
                    break
                self.depth_reached = depth
                if on_depth is not None:
                    on_depth(depth, score, best, self.nodes)
                if abs(score) >= WIN - 1000:
                    break
        finally:
            done.set()
        return best, score, self.depth_reached

    def _iteration(self, tables: Any, pos: Position, own: int, opp: int, depth: int,
                   last: int) -> tuple[tuple[int, int], int, bool] | None:
        """One depth with aspiration windows: its move, score and whether it finished. Cut
        short, it gives the root move that already beat the previous best, else None."""
        k, ctl = self.k, tables.ctl
        inf = k.INF
        width = self.aspiration
        alpha, beta = (last - width, last + width) if depth >= 4 else (-inf, inf)
        delta = width
        while True:
            ctl[k.BEST] = k.NO_MOVE
            score = tables.search(own, opp, pos.gaps, pos.halfmove, depth, alpha, beta)
            self.nodes = int(ctl[k.NODES])
            if ctl[k.ABORTED]:
                found = int(ctl[k.BEST])
                return None if found == k.NO_MOVE else (_decode(found), last, False)
            if self.widen and abs(score) < WIN - 1000 and (score <= alpha or score >= beta):
                delta *= 2  # widen the failed side only: the other bound still holds
                if score <= alpha:
                    alpha = -inf if delta > 8 * width else max(-inf, score - delta)
                else:
                    beta = inf if delta > 8 * width else min(inf, score + delta)
            elif score <= alpha and alpha > -inf:
                alpha = -inf
            elif score >= beta and beta < inf:
                beta = inf
            else:
                return _decode(int(ctl[k.BEST])), score, True


def can_shuffle(pos: Position) -> bool:
    """The kernel's can_shuffle: whether the side to move, its opponent without a move, has a
    jump after which the opponent still has none, so that it may jump to and fro until the
    clone rule draws the game."""
    own, enemy = pos.own(), pos.enemy()
    empty = ALL & ~(pos.x | pos.o | pos.gaps)
    return any(not has_move(enemy & ~NEAR[to], (empty & ~(1 << to)) | (1 << frm))
               for frm in squares(own) for to in squares(FAR[frm] & empty))


def _decode(m: int) -> tuple[int, int]:
    return (-1, m) if m < 64 else ((m >> 6) - 1, m & 63)


def _watch(budget: Budget, ctl: Any, stop: int, done: threading.Event) -> None:
    """Raises the kernel's stop flag once the budget expires, until the search is done."""
    while not done.wait(0.004):
        if budget.expired():
            ctl[stop] = 1
            return


_ALL_TABLES: list = []  # every kernel table made; one per search running at once
_FREE_TABLES: list = []
_TABLES_LOCK = threading.Lock()


def _take_tables(kernel: Any) -> Any:
    """Kernel tables no other search is using (UAI runs each search on a new thread, so
    tables are pooled, not per thread): the last one freed, whose table still helps."""
    with _TABLES_LOCK:
        if _FREE_TABLES:
            return _FREE_TABLES.pop()
        tables = kernel.Tables()
        _ALL_TABLES.append(tables)
        return tables


def _give_back(tables: Any) -> None:
    with _TABLES_LOCK:
        _FREE_TABLES.append(tables)


def _prepare_tables(kernel: Any) -> None:
    """Pools a first set of tables with its memory written once: a new table's pages are
    mapped on first touch, which cost the first search of a process about 80 ms on this
    machine, most of a 100 ms move."""
    tables = _take_tables(kernel)
    tables.clear()
    _give_back(tables)


KERNEL = Kernel("ai.ataxx_kernel", prepare=_prepare_tables)
KERNELS = (KERNEL,)


class _SharedTable(dict):
    """The pure search's table; clearing it (UAI's uainewgame) clears the compiled ones too."""

    def clear(self) -> None:
        super().clear()
        for tables in list(_ALL_TABLES):
            tables.clear()


_TABLE: dict = _SharedTable()


def warm_up() -> Any:
    """Compiles or loads the kernel now (tests, bench); None without numba."""
    return KERNEL.load()


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> str:
    """The bot's move for the position in view["fen"]."""
    pos = rules.from_fen(view["fen"])
    if level == "easy":
        return _easy(pos, budget, rng)
    search = Search(budget, _TABLE)
    move, _, _ = search.best_move(pos)
    return rules.move_text(*move)


def _easy(pos: Position, budget: Budget, rng: random.Random) -> str:
    """A shallow search that often settles for a weaker move."""
    search = Search(budget, {}, max_depth=2, compiled=False)
    scored = []
    for frm, to in moves_of(pos):
        try:
            score = -search.negamax(make(pos, frm, to), 1, -WIN * 2, WIN * 2, 1)
        except Deadline:
            break
        scored.append((score, (frm, to)))
    if not scored:
        return rules.move_text(*moves_of(pos)[0])
    scored.sort(reverse=True)
    top = scored[0][0]
    near = [m for s, m in scored if s >= top - 150]
    pick = rng.choice(near) if rng.random() < 0.6 else rng.choice(scored)[1]
    return rules.move_text(*pick)


def analyse(fen: str, budget: Budget, compiled: bool = True) -> dict:
    """The search's figures for a position: best move, score, depth and nodes (UAI, bench)."""
    search = Search(budget, _TABLE, compiled=compiled)
    move, score, depth = search.best_move(rules.from_fen(fen))
    return {"move": rules.move_text(*move), "score": score, "depth": depth,
            "nodes": search.nodes}



# --- judging a position (the review, ai/review.py)
REVIEW_SCALE = 250.0  # a search score (100 a stone) this far ahead is a win chance of 73%


def win_chance(score: float) -> float:
    """The side to move's win chance for a search score: logistic, certain at a proved end."""
    if score >= WIN - 1000:
        return 1.0
    if score <= -WIN + 1000:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / REVIEW_SCALE))


def _searched(pos: Position, depth: int, budget: Budget) -> tuple[tuple[int, int], float, int]:
    """(best move, score, depth done) of a running game's pos, at most `depth` plies deep:
    Hard's search without its shortcut for a single move (a forced move still has a value).
    The score is the mean of the last two depths' (an odd depth flatters the side to move,
    an even one its opponent: the mean keeps a review's graph from see-sawing)."""
    scores: list[int] = []
    kernel = KERNEL.load()  # a review waits for the compiled search: it judges many positions
    if kernel is not None:
        fast = CompiledSearch(kernel, budget, depth)
        tables = _take_tables(kernel)
        try:
            best, score, done = fast._deepen(kernel, tables, pos, moves_of(pos),
                                             lambda d, sc, m, n: scores.append(sc))
        finally:
            _give_back(tables)
    else:
        search = Search(budget, _TABLE, max_depth=depth, compiled=False)
        order = search.ordered(pos, None)
        best, score, done = order[0], 0, 0
        for d in range(1, depth + 1):
            try:
                best, score = search.root(pos, d, order)
            except Deadline:
                break
            done = d
            scores.append(score)
            order.remove(best)
            order.insert(0, best)
            if abs(score) >= WIN - 1000 or budget.expired():
                break
    if len(scores) >= 2 and abs(scores[-1]) < WIN - 1000:
        return best, (scores[-1] + scores[-2]) / 2, done
    return best, score, done


def _value(pos: Position, depth: int, budget: Budget) -> float:
    """pos's score for its side to move, searched `depth` plies (0: the evaluation)."""
    if rules.game_over(pos):
        return Search(budget).terminal(pos, 0)
    if depth <= 0:
        return Search(budget).evaluate(pos)
    return _searched(pos, depth, budget)[1]


def appraise(view: dict, moves: list, budget: Budget, limit: int) -> Appraisal:
    """Hard's judgement of the FEN in view (ai.base.Bot.appraise); `limit` is plies of
    search. A move other than the best is searched a ply less deep than the root was."""
    pos = rules.from_fen(view["fen"])
    if rules.game_over(pos):
        raise ValueError("the game is over")
    best, score, done = _searched(pos, limit or 64, budget)
    if done == 0:  # not one iteration in time: one ply, whatever the clock says
        best, score, done = _searched(pos, 1, budget.sub(math.inf))
    later = budget.sub(math.inf)  # the asked moves are searched to the same depth
    scores = []
    for wire in moves:
        move = _normal(pos, rules.parse_move(wire))
        if move == best:
            scores.append(win_chance(score))
        else:
            scores.append(1.0 - win_chance(_value(make(pos, *move), done - 1, later)))
        if budget.cancel.is_set():
            raise Deadline
    return Appraisal(win_chance(score), tuple(scores), rules.move_text(*best),
                     (rules.move_text(*best),), abs(score) >= WIN - 1000)


def _normal(pos: Position, move: tuple[int, int]) -> tuple[int, int]:
    """"c4d4" from one's own stone is the clone "d4", as the rules read it."""
    frm, to = move
    if frm >= 0 and to >= 0 and NEAR[frm] >> to & 1 and pos.own() >> frm & 1:
        return (-1, to)
    return move
