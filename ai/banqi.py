"""The Banqi bot. It sees only its view: face-down pieces are the public pool, and under the fog
of war the enemy pieces it cannot see are placed at random among the clouded squares, drawn from
what the enemy must still have.

It deepens an alpha-beta search over moves and expectation over flips until its budget is spent:
a flip at the root is a chance node over every kind still face down (by the public counts);
deeper in the tree a side's option to flip is modelled as a pass, so a threat that needs one
more enemy move stays on the board, and the leaves search the captures out (quiescence). A
position met again since the last flip or capture is a draw, worth less than nothing to the side
ahead in material (contempt), so a won game is not let go by repetition. The evaluation counts
material (by variant), the best capture the side to move has, and mobility.

Below the root the search runs compiled (ai/banqi_kernel.py, through ai.compiled) when numba is
there: the same tree in the same order, so the same values, many times faster.
"""

from __future__ import annotations

import math
import random
import threading
from collections import Counter
from typing import Any

import numpy as np

from ai.base import NO_OPENING_OPTION, NO_OPENING_PLIES, Appraisal, Budget, Deadline, no_setup
from ai.compiled import Kernel
from game.rules import banqi as rules
from game.rules.banqi import colour_of, moves_on, parse_square

OPENING_OPTION = NO_OPENING_OPTION
OPENING_PLIES = NO_OPENING_PLIES
choose_setup = no_setup
VALUES = {
    "taiwan": {"K": 100, "A": 50, "E": 25, "R": 12, "N": 6, "C": 40, "P": 9},
    "china": {"K": 100, "A": 50, "E": 25, "R": 12, "N": 6, "C": 5, "P": 3},
}
KERNEL = Kernel("ai.banqi_kernel")
KERNELS = (KERNEL,)
MAX_DEPTH = 60  # the deepening goes on until the budget is spent (Easy: depth 1)
LOST = -1000.0  # no pieces, or none that can move (plus the plies to get there)
WON = 900.0  # a score beyond this is a win or a loss found
INF = 1e9
PASS = "pass"  # the search's stand-in for a flip below the root
CONTEMPT = 10.0  # what a draw costs the side ahead in material (and is worth to the side behind)
# Hard's transposition table, 2**bits positions: off (-1), as 2**18 it showed no gain in a
# paired match (bench/banqi_ab.py, 24 deals x both seats at 0.2 s: 24-2-22)
TABLE_BITS = -1
RESERVE = 0.08  # seconds the search leaves unused (at most this share of a short budget)
KEY_ROOM = MAX_DEPTH + 4  # room on the kernel's position stack for the search's own plies


class Searcher:
    """Alpha-beta below a root of moves and flips; `kernel` (ai.banqi_kernel, loaded) runs
    the tree below the root compiled, None keeps it in Python (the reference)."""

    def __init__(self, variant: str, budget: Budget, kernel: Any = None, table_bits: int = -1):
        self.variant = variant
        self.values = VALUES[variant]
        self.budget = budget
        self.nodes = 0
        self.kernel = kernel
        if kernel is not None:
            self.ctl = kernel.new_ctl()
            self.vals = kernel.values_of(self.values)
            self.hashes: dict = {}  # search key -> the kernel's hash_of
            # a transposition table (compiled only; none: the pure search's tree exactly)
            self.table = kernel.new_table(table_bits)

    def search(self, board: list[str], colour: str, depth: int, alpha: float, beta: float,
               keys: list | None = None, rev: int = 0, ply: int = 0, draw: float = 0.0
               ) -> float:
        """negamax, compiled when there is a kernel; Deadline once the budget is spent."""
        k = self.kernel
        if k is None:
            return self.negamax(board, colour, depth, alpha, beta, keys, rev, ply, draw)
        if self.budget.expired():
            raise Deadline
        keys = keys if keys is not None else [(tuple(board), colour)]
        hashes = np.empty(len(keys) + KEY_ROOM, dtype=np.int64)
        for i, key in enumerate(keys):
            h = self.hashes.get(key)
            if h is None:
                h = self.hashes[key] = int(k.hash_of(k.encode(key[0]), int(key[1] == "black")))
            hashes[i] = h
        before = int(self.ctl[k.NODES])
        value = k.negamax(k.encode(board), int(colour == "black"), depth, alpha, beta,
                          self.variant == "china", self.vals, self.ctl, hashes, len(keys) - 1,
                          rev, ply, draw, *self.table)
        self.nodes += int(self.ctl[k.NODES]) - before
        if self.ctl[k.ABORTED]:
            raise Deadline
        return value

    def value(self, piece: str) -> int:
        return self.values[piece.upper()]

    def evaluate(self, board: list[str], colour: str) -> float:
        """From the point of view of the side of `colour`, which is to move."""
        score = 0.0
        for p in board:
            if p.isalpha():
                score += self.value(p) if colour_of(p) == colour else -self.value(p)
        best_capture = 0
        for move in moves_on(board, colour, self.variant):
            if len(move) == 4:
                victim = board[parse_square(move[2:])]
                if victim.isalpha():
                    best_capture = max(best_capture, self.value(victim))
        score += 0.8 * best_capture
        if score > 0:  # ahead: close in and hem in, so the win does not drift into a draw
            other = "black" if colour == "red" else "red"
            score -= 0.3 * self.distance_to_prey(board, colour)
            score -= 0.2 * len(moves_on(board, other, self.variant))
        return score

    def distance_to_prey(self, board: list[str], colour: str) -> int:
        """Sum over enemy face-up pieces of the distance from the nearest own piece that can
        take it."""
        mine = [(sq, p) for sq, p in enumerate(board) if colour_of(p) == colour]
        total = 0
        for sq, p in enumerate(board):
            if not p.isalpha() or colour_of(p) == colour:
                continue
            near = [abs(sq // 8 - m // 8) + abs(sq % 8 - m % 8) for m, q in mine
                    if rules.can_take(q, p, self.variant) or q.upper() == "C"]
            total += min(near) if near else 0
        return total

    def make(self, board: list[str], move: str) -> list[str]:
        a, b = parse_square(move[:2]), parse_square(move[2:])
        new = list(board)
        new[b], new[a] = new[a], "."
        return new

    def ordered(self, board: list[str], colour: str) -> list[str]:
        moves = [m for m in moves_on(board, colour, self.variant) if len(m) == 4]

        def key(m: str) -> int:
            victim = board[parse_square(m[2:])]
            return -self.value(victim) if victim.isalpha() else 0

        return sorted(moves, key=key)

    def tick(self) -> None:
        self.nodes += 1
        if not self.nodes & 255:
            self.budget.check()

    def negamax(self, board: list[str], colour: str, depth: int, alpha: float, beta: float,
                keys: list | None = None, rev: int = 0, ply: int = 0, draw: float = 0.0
                ) -> float:
        """Alpha-beta from the side of colour. keys: the positions (board tuple, colour to move)
        since the last flip or capture, this one last, from index rev on; a position met again
        is a draw, worth `draw` to the side to move. While a piece is face down, flipping is
        modelled as a pass (a threat stays a threat); at depth 0 the captures are searched out."""
        self.tick()
        keys = keys if keys is not None else [(tuple(board), colour)]
        top = len(keys) - 1
        if keys[top] in keys[rev:top]:
            return draw
        other = "black" if colour == "red" else "red"
        hidden = "?" in board
        moves = self.ordered(board, colour)
        if not hidden and not moves:
            return LOST + ply  # no pieces, or none that can move: lost (later is better)
        if depth <= 0:
            return self.quiesce(board, colour, alpha, beta, ply)
        captures = sum(1 for m in moves if board[parse_square(m[2:])] != ".")
        best = -INF
        plan = moves[:captures] + ([PASS] if hidden else []) + moves[captures:]
        for move in plan:
            if move == PASS:  # a flip, seen as a pass: irreversible, a new run of positions
                keys.append((tuple(board), other))
                score = -self.negamax(board, other, depth - 1, -beta, -alpha, keys, top + 1,
                                      ply + 1, -draw)
            else:
                after = self.make(board, move)
                keys.append((tuple(after), other))
                capture = board[parse_square(move[2:])] != "."
                score = -self.negamax(after, other, depth - 1, -beta, -alpha, keys,
                                      top + 1 if capture else rev, ply + 1, -draw)
            keys.pop()
            if score > best:
                best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    def quiesce(self, board: list[str], colour: str, alpha: float, beta: float, ply: int
                ) -> float:
        """The static value, or better, a capture (searched out), for the side to move."""
        self.tick()
        moves = self.ordered(board, colour)
        if "?" not in board and not moves:
            return LOST + ply
        best = self.evaluate(board, colour)
        if best >= beta:
            return best
        alpha = max(alpha, best)
        other = "black" if colour == "red" else "red"
        for move in moves:
            if board[parse_square(move[2:])] == ".":
                break  # the captures come first
            score = -self.quiesce(self.make(board, move), other, -beta, -alpha, ply + 1)
            if score > best:
                best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    def flip_value(self, board: list[str], sq: int, pool: Counter, colour: str, depth: int,
                   draw: float = 0.0) -> float:
        """Expected value of flipping sq, over the pool of face-down pieces."""
        other = "black" if colour == "red" else "red"
        total = sum(pool.values())
        value = 0.0
        for kind, n in pool.items():
            new = list(board)
            new[sq] = kind
            value += n / total * -self.search(new, other, depth - 1, -INF, INF,
                                              [(tuple(new), other)], 0, 1, -draw)
        return value

    def root(self, board: list[str], colour: str, pool: Counter, legal: list[str], depth: int,
             keys: list | None = None, draw: float = 0.0) -> list[tuple[float, str]]:
        """Every legal move scored at depth, best first (a move that cannot beat the best so
        far gets a bound at most that score). keys: the positions since the last flip or
        capture, this one last (the repetition rule); draw: a draw's worth to colour."""
        other = "black" if colour == "red" else "red"
        keys = list(keys) if keys else [(tuple(board), colour)]
        scored = []
        alpha = -INF
        for move in legal:
            if len(move) == 2:
                v = self.flip_value(board, parse_square(move), pool, colour, depth, draw)
            else:
                after = self.make(board, move)
                capture = board[parse_square(move[2:])] != "."
                child = [(tuple(after), other)] if capture else keys + [(tuple(after), other)]
                v = -self.search(after, other, depth - 1, -INF, -alpha, child, 0, 1, -draw)
            alpha = max(alpha, v)
            scored.append((v, move))
        scored.sort(key=lambda t: -t[0])
        return scored


def determinize(view: dict, rng: random.Random) -> list[str]:
    """The board as the bot imagines it: clouded squares hold the enemy pieces it must have."""
    board = list(rules.parse_board(view["board"]))
    if "~" not in board:
        return board
    me = view["colors"][view["to_move"]]
    full = Counter({k: n for k, n in rules.COUNTS.items()})
    full += Counter({k.lower(): n for k, n in rules.COUNTS.items()})
    gone = Counter(view["captured"]) + Counter({k: n for k, n in view["hidden"].items() if n})
    gone += Counter(p for p in board if p.isalpha())
    unseen = [p for p, n in (full - gone).items() for _ in range(n) if colour_of(p) != me]
    clouds = [sq for sq, p in enumerate(board) if p == "~"]
    rng.shuffle(clouds)
    for sq in clouds:
        board[sq] = unseen.pop() if unseen else "."
    return board


def history_keys(view: dict, board: list[str]) -> list[tuple[tuple[str, ...], str]]:
    """The positions since the last flip or capture the view tells (none under fog), as search
    keys (board, colour to move), ending with this one (as the bot imagines it)."""
    colours = view["colors"]
    keys = []
    for entry in view.get("history", [])[:-1]:
        text, turn = entry.rsplit(" ", 1)
        colour = colours[int(turn)]
        if colour is not None:
            keys.append((rules.parse_board(text), colour))
    return keys + [(tuple(board), colours[view["to_move"]])]


def material_lead(view: dict) -> int:
    """The side to move's material (face up and face down, from the public counts) less the
    other side's."""
    values = VALUES[view["variant"]]
    me = view["colors"][view["to_move"]]
    pieces = Counter(p for p in rules.parse_board(view["board"]) if p.isalpha())
    pieces += Counter({k: n for k, n in view["hidden"].items() if n})
    return sum(values[p.upper()] * n * (1 if colour_of(p) == me else -1)
               for p, n in pieces.items())


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> str:
    legal = legal or rules.legal_moves_from_view(view, {})
    colour = view["colors"][view["to_move"]]
    if colour is None or len(legal) == 1:
        return rng.choice(legal)
    board = determinize(view, rng)
    pool = Counter({k: n for k, n in view["hidden"].items() if n})
    kernel = KERNEL.get()
    # the search stops a little before the budget, for the answer's way out on a busy machine
    budget = budget.sub(budget.remaining() - min(RESERVE, RESERVE * budget.seconds))
    searcher = Searcher(view["variant"], budget, kernel, TABLE_BITS)
    best = greedy_move(view, legal, rng)
    max_depth = 1 if level == "easy" else MAX_DEPTH
    keys = history_keys(view, board)
    lead = material_lead(view)
    draw = -CONTEMPT if lead > 0 else CONTEMPT if lead < 0 else 0.0
    order = list(legal)
    done = threading.Event()
    if kernel is not None:
        threading.Thread(target=_watch, args=(budget, searcher.ctl, kernel.STOP, done),
                         daemon=True, name="banqi-deadline").start()
    try:
        for depth in range(1, max_depth + 1):
            try:
                scored = searcher.root(board, colour, pool, order, depth, keys, draw)
            except Deadline:
                break
            best = scored[0][1]
            order = [m for _, m in scored]  # the next depth tries the best first
            if budget.expired() or (scored[0][0] >= WON and "?" not in board):
                break  # a win found with nothing face down is a win
    finally:
        done.set()
    return best


def _watch(budget: Budget, ctl: Any, stop: int, done: threading.Event) -> None:
    """Raises the kernel's stop flag once the budget expires, until the search is done."""
    while not done.wait(0.004):
        if budget.expired():
            ctl[stop] = 1
            return


def greedy_move(view: dict, legal: list, rng: random.Random) -> str:
    """Capture the most valuable piece it can, else flip, else a random move."""
    board = list(rules.parse_board(view["board"]))
    values = VALUES[view["variant"]]
    captures = [(values[board[parse_square(m[2:])].upper()], m) for m in legal
                if len(m) == 4 and board[parse_square(m[2:])].isalpha()]
    if captures:
        top = max(v for v, _ in captures)
        return rng.choice([m for v, m in captures if v == top])
    flips = [m for m in legal if len(m) == 2]
    return rng.choice(flips or legal)



# --- judging a position (the review, ai/review.py)
REVIEW_SCALE = 40.0  # material ahead (a king 100, a rook 12) at which the win chance is 73%
REVIEW_DECIDED = 900.0  # a value beyond this is a win or a loss found by the search


def win_chance(value: float) -> float:
    """The side to move's win chance for a search value: logistic, certain when lost."""
    if value <= -REVIEW_DECIDED:
        return 0.0
    if value >= REVIEW_DECIDED:
        return 1.0
    return 1.0 / (1.0 + math.exp(-value / REVIEW_SCALE))


def appraise(view: dict, moves: list, budget: Budget, limit: int) -> Appraisal:
    """Hard's judgement of the view (ai.base.Bot.appraise): the face-down pieces as the public
    pool and the fog as this seat sees it (one imagined board, drawn the same for the same
    view). Every legal move is valued by the search below the root, deepened while the budget
    lasts; `limit` caps the depth (0: six plies)."""
    legal = rules.legal_moves_from_view(view, {})
    colour = view["colors"][view["to_move"]]
    if colour is None:  # the first flip: every square is as good as another
        return Appraisal(0.5, tuple(0.5 for _ in moves), legal[0], (legal[0],))
    board = determinize(view, random.Random(view["board"]))
    pool = Counter({k: n for k, n in view["hidden"].items() if n})
    kernel = KERNEL.load()  # a review waits for the compiled search: it judges many positions
    searcher = Searcher(view["variant"], budget, kernel)
    asked = list(dict.fromkeys(legal + [m for m in moves if m not in legal]))
    other = "black" if colour == "red" else "red"

    def value(search: Searcher, move: str, depth: int) -> float:
        """A move's value at this depth: a flip's expectation over the pool, else the search."""
        if len(move) == 2:
            return search.flip_value(board, parse_square(move), pool, colour, depth)
        return -search.search(search.make(board, move), other, depth - 1, -1e9, 1e9)

    values: dict[str, float] = {}
    done = threading.Event()
    if kernel is not None:
        threading.Thread(target=_watch, args=(budget, searcher.ctl, kernel.STOP, done),
                         daemon=True, name="banqi-deadline").start()
    try:
        for depth in range(1, (limit or 6) + 1):
            try:
                found = {m: value(searcher, m, depth) for m in asked}
            except Deadline:
                break
            values = found
            if budget.expired():
                break
    finally:
        done.set()
    if not values:  # not one depth in time: one ply, whatever the clock says
        if budget.cancel.is_set():
            raise Deadline
        quick = Searcher(view["variant"], budget.sub(math.inf), kernel)
        values = {m: value(quick, m, 1) for m in asked}
    best = max(legal, key=lambda m: values[m])
    return Appraisal(win_chance(values[best]), tuple(win_chance(values[m]) for m in moves),
                     best, (best,), not any(c in view["board"] for c in "?~")
                     and abs(values[best]) >= REVIEW_DECIDED)
