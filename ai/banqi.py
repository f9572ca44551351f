"""The Banqi bot. It sees only its view: face-down pieces are the public pool, and under the fog
of war the enemy pieces it cannot see are placed at random among the clouded squares, drawn from
what the enemy must still have.

It searches with alpha-beta over moves and expectation over flips: a flip at the root is a chance
node over every kind still face down; deeper in the tree a side's option to flip instead of
moving is worth the static value of the position. The evaluation counts material (by variant),
the best capture the side to move has, and mobility.

Below the root the search runs compiled (ai/banqi_kernel.py, through ai.compiled) when numba is
there: the same tree in the same order, so the same values, many times faster.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from typing import Any

from ai.base import NO_OPENING_OPTION, NO_OPENING_PLIES, Budget, Deadline, no_setup
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
MAX_DEPTH = 6  # the deepening stops here (Easy: at 1)


class Searcher:
    """Alpha-beta below a root of moves and flips; `kernel` (ai.banqi_kernel, loaded) runs
    the tree below the root compiled, None keeps it in Python (the reference)."""

    def __init__(self, variant: str, budget: Budget, kernel: Any = None):
        self.variant = variant
        self.values = VALUES[variant]
        self.budget = budget
        self.nodes = 0
        self.kernel = kernel
        if kernel is not None:
            self.ctl = kernel.new_ctl()
            self.vals = kernel.values_of(self.values)

    def search(self, board: list[str], colour: str, depth: int, alpha: float, beta: float
               ) -> float:
        """negamax, compiled when there is a kernel; Deadline once the budget is spent."""
        k = self.kernel
        if k is None:
            return self.negamax(board, colour, depth, alpha, beta)
        if self.budget.expired():
            raise Deadline
        before = int(self.ctl[k.NODES])
        value = k.negamax(k.encode(board), int(colour == "black"), depth, alpha, beta,
                          self.variant == "china", self.vals, self.ctl)
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

    def negamax(self, board: list[str], colour: str, depth: int, alpha: float, beta: float
                ) -> float:
        self.nodes += 1
        if not self.nodes & 255:
            self.budget.check()
        other = "black" if colour == "red" else "red"
        if "?" not in board and not moves_on(board, colour, self.variant):
            return -1000.0  # no pieces, or none that can move: lost
        stand = self.evaluate(board, colour)
        if depth <= 0:
            return stand
        best = stand if "?" in board else -1000.0  # flipping instead is always possible
        alpha = max(alpha, best)
        for move in self.ordered(board, colour):
            score = -self.negamax(self.make(board, move), other, depth - 1, -beta, -alpha)
            if score > best:
                best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    def flip_value(self, board: list[str], sq: int, pool: Counter, colour: str, depth: int
                   ) -> float:
        """Expected value of flipping sq, over the pool of face-down pieces."""
        other = "black" if colour == "red" else "red"
        total = sum(pool.values())
        value = 0.0
        for kind, n in pool.items():
            new = list(board)
            new[sq] = kind
            value += n / total * -self.search(new, other, depth - 1, -1e9, 1e9)
        return value

    def root(self, board: list[str], colour: str, pool: Counter, legal: list[str], depth: int,
             seen: Counter | None = None, turn: int = 0) -> tuple[str, float]:
        other = "black" if colour == "red" else "red"
        scored = []
        for move in legal:
            if len(move) == 2:
                v = self.flip_value(board, parse_square(move), pool, colour, depth)
            else:
                after = self.make(board, move)
                v = -self.search(after, other, depth - 1, -1e9, 1e9)
                repeats = (seen or {}).get(rules.board_text(after) + f" {1 - turn}", 0)
                if repeats and v > 0:
                    v -= 5 * repeats  # ahead: do not walk into a repetition draw
            scored.append((v, move))
        scored.sort(key=lambda t: -t[0])
        return scored[0][1], scored[0][0]


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


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> str:
    legal = legal or rules.legal_moves_from_view(view, {})
    colour = view["colors"][view["to_move"]]
    if colour is None or len(legal) == 1:
        return rng.choice(legal)
    board = determinize(view, rng)
    pool = Counter({k: n for k, n in view["hidden"].items() if n})
    kernel = KERNEL.get()
    searcher = Searcher(view["variant"], budget, kernel)
    best = greedy_move(view, legal, rng)
    max_depth = 1 if level == "easy" else MAX_DEPTH
    seen = Counter(view.get("history", []))
    done = threading.Event()
    if kernel is not None:
        threading.Thread(target=_watch, args=(budget, searcher.ctl, kernel.STOP, done),
                         daemon=True, name="banqi-deadline").start()
    try:
        for depth in range(1, max_depth + 1):
            try:
                best, _ = searcher.root(board, colour, pool, legal, depth, seen,
                                        view["to_move"])
            except Deadline:
                break
            if budget.expired():
                break
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

