"""The Jungle bot: iterative-deepening alpha-beta (principal variation search) with a
transposition table, a capture quiescence search and move ordering (hash move, den entries,
captures by most valuable victim, killers, history).

The evaluation, kept incrementally as pieces move, counts material by rank and how far each
animal has to go to the enemy den, measured along the board as that animal travels it (round
the rivers for most, through them for the rat, across them for the lion and tiger). On top it
scores threats on the dens: an animal next to the enemy den (always in an enemy trap) wins next
move unless it is taken, so the side to move wins at once with one, and the other side's is
nearly a loss. The bot sees only its view; repetitions come from the view's history.
"""

from __future__ import annotations

import math
import random
from collections import deque

from ai.base import NO_KERNELS, NO_OPENING_OPTION, Appraisal, Budget, Deadline, no_setup
from game.rules import jungle as rules
from game.rules.jungle import DENS, JUMPS, SIZE, STEPS, WATER, moves_on

OPENING_OPTION = NO_OPENING_OPTION
OPENING_PLIES = 2  # the game has no chance: vary arena openings with two random plies
KERNELS = NO_KERNELS
choose_setup = no_setup

WIN = 100_000
INF = 10 * WIN
VALUES = {
    "standard": {"E": 1000, "L": 900, "T": 800, "P": 480, "D": 330, "W": 270, "C": 220,
                 "R": 460},
    "wolf_over_dog": {"E": 1000, "L": 900, "T": 800, "P": 480, "W": 330, "D": 270, "C": 220,
                      "R": 460},
}
# Bonus by distance (in moves) to the enemy den; 0 is the den itself (never reached in search).
ADVANCE = (0, 120, 70, 45, 32, 24, 18, 13, 9, 6, 4, 2, 1, 0)
# How much each animal's advance counts: the big ones must also stay back and defend.
ADVANCE_WEIGHT = {"E": 0.5, "L": 0.8, "T": 0.8, "P": 1.0, "D": 1.0, "W": 1.0, "C": 0.8, "R": 0.7}
CONTEMPT = 40
DEN_THREAT = 3000  # an enemy animal next to our den, not to move: we must take it or lose
LEVEL_DEPTH = {"easy": 2, "normal": 4, "hard": 60}
PIECES = "ELTPDWCRelptdwcr"
EXACT, LOWER, UPPER = 0, 1, 2


def _distances(seat: int, kind: str) -> list[int]:
    """Moves an animal of this kind and seat needs from each square to the enemy den."""
    target, own = DENS[1 - seat], DENS[seat]
    dist = [99] * SIZE
    dist[target] = 0
    queue = deque([target])
    while queue:  # moves are symmetric, so searching back from the den is searching forward
        sq = queue.popleft()
        nxt = [t for t in STEPS[sq] if kind == "R" or t not in WATER]
        if kind in "LT":
            nxt += [t for t, _ in JUMPS[sq]]
        for t in nxt:
            if t != own and dist[t] == 99:
                dist[t] = dist[sq] + 1
                queue.append(t)
    return dist


def _tables(ranks: str) -> dict[str, list[int]]:
    """Per piece letter, its value on each square, positive for seat 0, negative for seat 1."""
    out = {}
    for p in PIECES:
        seat = rules.owner(p)
        kind = p.upper()
        dist = _distances(seat, kind)
        sign = 1 if seat == 0 else -1
        out[p] = [sign * (VALUES[ranks][kind] + int(ADVANCE_WEIGHT[kind] *
                                                   ADVANCE[min(d, len(ADVANCE) - 1)]))
                  for d in dist]
    return out


TABLES = {r: _tables(r) for r in rules.RANKS_OF}
_rng = random.Random(20240617)
ZOBRIST = {p: [_rng.getrandbits(64) for _ in range(SIZE)] for p in PIECES}
SIDE = _rng.getrandbits(64)
DEN_NEIGHBOURS = tuple(tuple(STEPS[d]) for d in DENS)


def pack(depth: int, value: int, flag: int, move: tuple[int, int]) -> int:
    """A table entry as one int."""
    return ((value + INF) << 20) | (depth << 14) | (flag << 12) | (move[0] << 6) | move[1]


def unpack(entry: int) -> tuple[int, int, int, tuple[int, int]]:
    return ((entry >> 14) & 63, (entry >> 20) - INF, (entry >> 12) & 3,
            ((entry >> 6) & 63, entry & 63))


class Searcher:
    def __init__(self, board: list[str], turn: int, options: dict, budget: Budget,
                 seen: dict[int, int] | None = None, quiet: int = 0):
        self.board = board
        self.turn = turn
        self.ranks, self.traps = options["ranks"], options["traps"]
        self.quiet_limit = options["quiet_limit"]
        self.table = TABLES[self.ranks]
        self.budget = budget
        self.now = budget.now  # the one clock the search reads: the budget's
        # stop a little early: unwinding the search and answering take time too
        self.stop_at = budget.deadline - min(0.05, 0.1 * budget.seconds)
        self.nodes = 0
        self.root_seat = turn
        self.partial: tuple | None = None
        self.tt: dict[int, int] = {}  # packed ints: the collector never walks them
        self.killers: list[list] = [[None, None] for _ in range(128)]
        self.history: dict[tuple[int, int], int] = {}
        self.count = [sum(1 for p in board if p != "." and p < "a"),
                      sum(1 for p in board if p >= "a")]
        self.score = sum(self.table[p][sq] for sq, p in enumerate(board) if p != ".")
        self.hash = 0
        for sq, p in enumerate(board):
            if p != ".":
                self.hash ^= ZOBRIST[p][sq]
        if turn:
            self.hash ^= SIDE
        # positions met before (from the game) and on the current path: a return is a draw
        self.seen = dict(seen or {})
        self.quiet = quiet
        self.values = VALUES[self.ranks]

    def check(self) -> None:
        """Raise Deadline once time is up or the search is cancelled."""
        if self.now() >= self.stop_at or self.budget.cancel.is_set():
            raise Deadline

    def draw_value(self) -> int:
        """A draw, for the side to move: a little worse than even for the side that searches,
        so that it plays on rather than repeat."""
        return -CONTEMPT if self.turn == self.root_seat else CONTEMPT

    # --- make / unmake
    def make(self, move: tuple[int, int]) -> str:
        a, b = move
        board, table = self.board, self.table
        p, q = board[a], board[b]
        self.score += table[p][b] - table[p][a]
        z = ZOBRIST[p]
        self.hash ^= z[a] ^ z[b] ^ SIDE
        if q != ".":
            self.score -= table[q][b]
            self.hash ^= ZOBRIST[q][b]
            self.count[q >= "a"] -= 1
        board[b], board[a] = p, "."
        self.turn ^= 1
        return q

    def unmake(self, move: tuple[int, int], q: str) -> None:
        a, b = move
        board, table = self.board, self.table
        p = board[b]
        board[a], board[b] = p, q
        self.score -= table[p][b] - table[p][a]
        z = ZOBRIST[p]
        self.hash ^= z[a] ^ z[b] ^ SIDE
        if q != ".":
            self.score += table[q][b]
            self.hash ^= ZOBRIST[q][b]
            self.count[q >= "a"] += 1
        self.turn ^= 1

    # --- evaluation
    def den_entry(self, seat: int) -> bool:
        """Whether seat has an animal next to the enemy den (it can step in: nothing blocks)."""
        board = self.board
        for sq in DEN_NEIGHBOURS[1 - seat]:
            p = board[sq]
            if p != "." and rules.owner(p) == seat:
                return True
        return False

    def evaluate(self) -> int:
        """From the side to move's point of view; the side to move cannot enter the den now
        (the search checks that first)."""
        s = self.score if self.turn == 0 else -self.score
        if self.den_entry(1 - self.turn):
            s -= DEN_THREAT
        return s

    # --- search
    def ordered(self, moves: list[tuple[int, int]], hash_move, ply: int) -> list:
        board, values = self.board, self.values
        target = DENS[1 - self.turn]
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        hist = self.history

        def key(m):
            if m == hash_move:
                return -10_000_000
            if m[1] == target:
                return -9_000_000
            q = board[m[1]]
            if q != ".":
                return -1_000_000 - 10 * values[q.upper()] + values[board[m[0]].upper()] // 100
            if m == killers[0] or m == killers[1]:
                return -500_000
            return -hist.get(m, 0)

        moves.sort(key=key)
        return moves

    def quiesce(self, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 255:
            self.check()
        if self.den_entry(self.turn):
            return WIN - ply
        stand = self.evaluate()
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        board = self.board
        caps = [m for m in moves_on(board, self.turn, self.ranks, self.traps)
                if board[m[1]] != "."]
        if not caps:
            return stand
        values = self.values
        caps.sort(key=lambda m: -values[board[m[1]].upper()])
        best = stand
        for m in caps:
            q = self.make(m)
            if self.count[self.turn] == 0:
                v = WIN - ply - 1  # took the last animal
            else:
                v = -self.quiesce(-beta, -alpha, ply + 1)
            self.unmake(m, q)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        return best

    def negamax(self, depth: int, alpha: int, beta: int, ply: int, quiet: int) -> int:
        self.nodes += 1
        if not self.nodes & 255:
            self.check()
        if self.den_entry(self.turn):
            return WIN - ply
        if ply and (self.seen.get(self.hash, 0) or quiet >= self.quiet_limit):
            return self.draw_value()  # a repetition or the move limit
        if depth <= 0:
            return self.quiesce(alpha, beta, ply)
        alpha0 = alpha
        entry = self.tt.get(self.hash)
        hash_move = None
        if entry is not None:
            e_depth, e_value, e_flag, hash_move = unpack(entry)
            if e_depth >= depth and ply:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        moves = moves_on(self.board, self.turn, self.ranks, self.traps)
        if not moves:
            return -WIN + ply  # no move: lost
        self.ordered(moves, hash_move, ply)
        best, best_move = -INF, moves[0]
        key = self.hash
        self.seen[key] = self.seen.get(key, 0) + 1
        try:
            for i, m in enumerate(moves):
                capture = self.board[m[1]] != "."
                q = self.make(m)
                nq = 0 if capture else quiet + 1
                if capture and self.count[self.turn] == 0:
                    v = WIN - ply - 1  # took the last animal
                elif i == 0:
                    v = -self.negamax(depth - 1, -beta, -alpha, ply + 1, nq)
                else:
                    v = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1, nq)
                    if alpha < v < beta:
                        v = -self.negamax(depth - 1, -beta, -alpha, ply + 1, nq)
                self.unmake(m, q)
                if v > best:
                    best, best_move = v, m
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            if not capture and ply < len(self.killers):
                                k = self.killers[ply]
                                if k[0] != m:
                                    k[0], k[1] = m, k[0]
                                self.history[m] = self.history.get(m, 0) + depth * depth
                            break
        finally:
            self.seen[key] -= 1
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = pack(depth, best, flag, best_move)
        return best

    def root(self, moves: list[tuple[int, int]], depth: int, prev_best) -> tuple:
        """The best move at this depth and its value; prev_best is searched first."""
        self.ordered(moves, prev_best, 0)
        alpha, beta = -INF, INF
        best, best_move = -INF, moves[0]
        key = self.hash
        self.seen[key] = self.seen.get(key, 0) + 1
        try:
            for i, m in enumerate(moves):
                capture = self.board[m[1]] != "."
                q = self.make(m)
                nq = 0 if capture else self.quiet + 1
                if m[1] == DENS[self.turn] or (capture and self.count[self.turn] == 0):
                    v = WIN
                elif i == 0:
                    v = -self.negamax(depth - 1, -beta, -alpha, 1, nq)
                else:
                    v = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, nq)
                    if v > alpha:
                        v = -self.negamax(depth - 1, -beta, -alpha, 1, nq)
                self.unmake(m, q)
                if v > best:
                    best, best_move = v, m
                    alpha = max(alpha, v)
                    self.partial = (best_move, best)
        finally:
            self.seen[key] -= 1
        self.tt[key] = pack(depth, best, EXACT, best_move)
        return best_move, best


def searcher_for(view: dict, budget: Budget) -> tuple[Searcher, list[tuple[int, int]]]:
    """A searcher set up from the view alone, and the legal moves as (from, to) pairs."""
    options = rules.normalize_options(view.get("options"))
    board = list(rules.parse_board(view["board"]))
    turn = view["to_move"]
    seen: dict[int, int] = {}
    history = view.get("history", [])
    probe = Searcher(board, turn, options, budget)
    for item in history[:-1]:  # the current position is counted by the search itself
        text, _, t = item.rpartition(" ")
        h = Searcher(list(rules.parse_board(text)), int(t), options, budget).hash
        seen[h] = seen.get(h, 0) + 1
    legal = [(rules.parse_square(m[:2]), rules.parse_square(m[2:]))
             for m in rules.legal_moves_from_view(view, options)]
    probe.seen = seen
    probe.quiet = int(view.get("quiet_plies", 0))
    return probe, legal


def search(view: dict, budget: Budget, max_depth: int = 60) -> tuple[str, int, int]:
    """(best move, its value, the depth completed) within the budget."""
    s, legal = searcher_for(view, budget)
    if not legal:
        raise ValueError("no legal move in this view")
    best, value, done = legal[0], 0, 0
    for depth in range(1, max_depth + 1):
        s.partial = None
        try:
            best, value = s.root(list(legal), depth, best)
        except Deadline:
            if s.partial is not None:  # the deeper search already found this move best so far
                best, value = s.partial
            break
        done = depth
        if abs(value) >= WIN - 100 or s.now() >= s.stop_at:
            break
    return rules.move_name(best), value, done


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> str:
    legal = legal or rules.legal_moves_from_view(view, view.get("options", {}))
    if len(legal) == 1:
        return legal[0]
    move, _, _ = search(view, budget, LEVEL_DEPTH.get(level, 60))
    return move if move in legal else rng.choice(legal)


def greedy_move(view: dict, legal: list, rng: random.Random) -> str:
    """One ply: the move whose position (material and advance) is best, ties at random."""
    s, moves = searcher_for(view, Budget(60))
    sign = 1 if s.turn == 0 else -1
    best, top = [], -INF
    for m in moves:
        if m[1] == DENS[1 - s.turn]:
            return rules.move_name(m)
        q = s.make(m)
        v = sign * s.score
        s.unmake(m, q)
        if v > top:
            best, top = [m], v
        elif v == top:
            best.append(m)
    return rules.move_name(rng.choice(best))


# --- judging a position (the review, ai/review.py)
REVIEW_SCALE = 400.0  # a search score (a dog 330, a lion 900) this far ahead: a 73% win chance


def win_chance(value: float) -> float:
    """The side to move's win chance for a search value: logistic, certain at a proved end."""
    if value >= WIN - 100:
        return 1.0
    if value <= -WIN + 100:
        return 0.0
    return 1.0 / (1.0 + math.exp(-value / REVIEW_SCALE))


def appraise(view: dict, moves: list, budget: Budget, limit: int) -> Appraisal:
    """Hard's judgement of the view (ai.base.Bot.appraise); `limit` is plies of search. Each
    asked move is searched at the root to the depth the whole root finished, with its line."""
    s, legal = searcher_for(view, budget)
    if not legal:
        raise ValueError("no legal move in this view")
    best, value, done = legal[0], 0, 0
    for depth in range(1, (limit or LEVEL_DEPTH["hard"]) + 1):
        try:
            best, value = s.root(list(legal), depth, best)
        except Deadline:  # the search left its board mid-move: a new one, the table kept
            table, (s, _) = s.tt, searcher_for(view, budget)
            s.tt = table
            break
        done = depth
        if abs(value) >= WIN - 100 or s.now() >= s.stop_at:
            break
    # the asked moves are searched to the same depth, whatever the clock says
    s.stop_at = float("inf")
    if done == 0:  # not one iteration in time: one ply
        best, value = s.root(list(legal), 1, best)
        done = 1
    scores = []
    for wire in moves:
        move = (rules.parse_square(wire[:2]), rules.parse_square(wire[2:]))
        v = value if move == best else s.root([move], done, move)[1]
        scores.append(win_chance(v))
        if budget.cancel.is_set():
            raise Deadline
    return Appraisal(win_chance(value), tuple(scores), rules.move_name(best),
                     tuple(rules.move_name(m) for m in _line(s, best, done)),
                     abs(value) >= WIN - 100)


def _line(s: Searcher, first: tuple[int, int], depth: int) -> list[tuple[int, int]]:
    """The principal variation from the table, from `first` on, as far as it is known."""
    line, undo = [first], [(first, s.make(first))]
    try:
        while len(line) < depth:
            entry = s.tt.get(s.hash)
            if entry is None:
                break
            move = unpack(entry)[3]
            if move not in moves_on(s.board, s.turn, s.ranks, s.traps):
                break
            line.append(move)
            undo.append((move, s.make(move)))
    finally:
        for move, q in reversed(undo):
            s.unmake(move, q)
    return line
