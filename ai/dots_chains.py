"""Dots and Boxes theory (Berlekamp, "The Dots and Boxes Game"): chains and loops as objects,
the long chain rule, keeping control with all-but-two / all-but-four, the controlled value, and
the chain-counting search Hard plays with.

Words. A box's *degree* is its undrawn sides. A line is *safe* if it gives no box its third
side. Once no safe line is left the position is *loony*: every move opens something. Runs of
degree-2 boxes are *chains* (ending at the border or at a *joint*, a box of degree 3 or 4) or
*loops* (closed). A chain of 3 or more is *long*. The player who must open the first long chain
in a loony position has lost *control*: the other takes all of each chain but the last two
boxes (the double-dealing line leaves them; the opener must take them and open the next) or all
of each loop but four, and takes the last one whole.

The search (compiled, ai/dots_chains_kernel.py) sees a turn as one move. While safe lines remain a
turn is a safe line or a gift of one or two boxes (a pair given by its middle line, so the
taker cannot decline it); where the search stops, the long chain rule guesses who ends in control.
Once none remain it searches to the end: each move opens a chain or loop, and the reply is
taking all and moving, or declining the last two (four in a loop) and keeping control.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from ai.base import Budget
from ai.compiled import Kernel
from game.rules.dots import Geometry, completed, geometry

GUESS = 4  # boxes the long chain rule's guess is worth where the search stops (bench: 4 over 2)


# --- the position as chains and loops
def degree(geo: Geometry, mask: int, box: int) -> int:
    """Undrawn sides of a box."""
    return 4 - (mask & geo.box_sides[box]).bit_count()


def is_safe(geo: Geometry, mask: int, line: int) -> bool:
    """Drawing it neither completes a box nor gives one a third side."""
    return all(degree(geo, mask, b) >= 3 for b in geo.line_boxes[line])


def undrawn(geo: Geometry, mask: int) -> list[int]:
    return [i for i in range(geo.lines) if not mask >> i & 1]


def safe_lines(geo: Geometry, mask: int) -> list[int]:
    return [i for i in undrawn(geo, mask) if is_safe(geo, mask, i)]


def captures(geo: Geometry, mask: int) -> list[int]:
    """Lines that complete a box now."""
    return [i for i in undrawn(geo, mask) if completed(geo, mask, i)]


def take_all(geo: Geometry, mask: int) -> tuple[int, int]:
    """Take every box on offer, in a chain reaction: (boxes taken, mask after)."""
    taken = 0
    while True:
        line = next((i for i in undrawn(geo, mask) if completed(geo, mask, i)), None)
        if line is None:
            return taken, mask
        taken += completed(geo, mask, line)
        mask |= 1 << line


def _across(geo: Geometry, line: int, box: int) -> int | None:
    """The box on the other side of the line from box (None: the border)."""
    return next((b for b in geo.line_boxes[line] if b != box), None)


@dataclass(frozen=True)
class Component:
    """A chain or a loop: its boxes in order along it, and what each end of a chain meets
    ("border", or the joint box's number)."""

    kind: str  # "chain" or "loop"
    boxes: tuple[int, ...]
    ends: tuple[str | int, ...] = ()

    @property
    def size(self) -> int:
        return len(self.boxes)

    @property
    def long(self) -> bool:
        return self.kind == "loop" or self.size >= 3


@dataclass(frozen=True)
class Decomposition:
    chains: tuple[Component, ...]
    loops: tuple[Component, ...]
    joints: tuple[int, ...]  # free boxes of degree 3 or 4

    @property
    def simple(self) -> bool:
        """Only chains ending at the border and loops: Berlekamp's simple loony endgame."""
        return not self.joints and all(e == "border" for c in self.chains for e in c.ends)

    def sizes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(chain sizes, loop sizes), each sorted."""
        return (tuple(sorted(c.size for c in self.chains)),
                tuple(sorted(c.size for c in self.loops)))


def decompose(geo: Geometry, mask: int) -> Decomposition:
    """The free boxes of degree 2 as chains and loops, and the joints between them.
    (A box on offer, degree 1, counts as the open end of its chain.)"""
    free = [b for b in range(len(geo.box_sides)) if degree(geo, mask, b) > 0]
    joints = tuple(b for b in free if degree(geo, mask, b) >= 3)
    seen: set[int] = set()
    chains: list[Component] = []
    loops: list[Component] = []
    for start in free:
        if start in seen or degree(geo, mask, start) > 2:
            continue
        seen.add(start)
        sides = [s for s in range(geo.lines) if geo.box_sides[start] >> s & 1
                 and not mask >> s & 1]
        halves: list[list[int]] = []
        ends: list[str | int] = []
        closed = False
        for line in sides:
            run: list[int] = []
            prev = start
            end: str | int = "border"
            while True:
                nb = _across(geo, line, prev)
                if nb is None:
                    break
                if nb == start:
                    closed = True
                    break
                if nb in seen or degree(geo, mask, nb) > 2:
                    end = nb if degree(geo, mask, nb) > 2 else "border"
                    break
                seen.add(nb)
                run.append(nb)
                nxt = [s for s in range(geo.lines) if geo.box_sides[nb] >> s & 1
                       and not mask >> s & 1 and s != line]
                if not nxt:
                    break  # a box on offer: the chain's open end
                prev, line = nb, nxt[0]
            halves.append(run)
            ends.append(end)
            if closed:
                break
        if closed:
            loops.append(Component("loop", (start, *halves[0])))
            continue
        while len(halves) < 2:
            halves.append([])
            ends.append("border")  # a box on offer opens onto what it lost
        boxes = (*reversed(halves[0]), start, *halves[1])
        chains.append(Component("chain", boxes, tuple(ends)))
    return Decomposition(tuple(chains), tuple(loops), joints)


# --- values of simple loony endgames
@cache
def loony_value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """The margin of the remaining boxes for the player who must open one of these isolated
    chains and loops (sizes, sorted), both sides playing perfectly. The opener gives a short
    chain away whole (a pair in its middle, so it cannot be declined); the taker of a long
    chain takes all and moves, or declines the last two and keeps control (four in a loop)."""
    if not chains and not loops:
        return 0
    best = -999
    for i, n in enumerate(chains):
        if i and chains[i - 1] == n:
            continue
        rest = loony_value(chains[:i] + chains[i + 1:], loops)
        reply = n + rest if n <= 2 else max(n + rest, n - 4 - rest)
        best = max(best, -reply)
    for i, n in enumerate(loops):
        if i and loops[i - 1] == n:
            continue
        rest = loony_value(chains, loops[:i] + loops[i + 1:])
        best = max(best, -max(n + rest, n - 8 - rest))
    return best


def controlled_value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """Berlekamp's controlled value of long chains and loops: the controller's margin if it
    keeps control to the end (all but two of each chain, all but four of each loop, the last
    one whole; the opener keeps a chain for last when it has one)."""
    total = sum(chains) + sum(loops)
    if chains:
        return total - 4 * (len(chains) - 1) - 8 * len(loops)
    if loops:
        return total - 8 * (len(loops) - 1)
    return 0


def rule_says_control(geo: Geometry, mask: int, long_chains: int) -> bool:
    """The long chain rule from the side to move: it ends in control (the other must open the
    first long chain) if undrawn lines - free boxes + long chains - 1 is even. Every line but
    the box-taking ones passes the turn; the boxes taken by double-crosses, one for each long
    chain but the last, take two at once."""
    free = sum(1 for b in range(len(geo.box_sides)) if degree(geo, mask, b) > 0)
    return (len(undrawn(geo, mask)) - free + long_chains - 1) % 2 == 0


# --- keeping control while taking
def double_deal(geo: Geometry, mask: int) -> tuple[int, int] | None:
    """(the double-dealing line, boxes it gives) when everything on offer is the last two boxes
    of a chain or the last four of a loop; None otherwise."""
    offered = [b for b in range(len(geo.box_sides)) if degree(geo, mask, b) == 1]

    def last(b: int, but: int | None = None) -> int:
        return next(s for s in range(geo.lines) if geo.box_sides[b] >> s & 1
                    and not mask >> s & 1 and s != but)

    if len(offered) == 1:
        b = offered[0]
        line = last(b)
        n = _across(geo, line, b)
        if n is None or degree(geo, mask, n) != 2:
            return None
        far = last(n, line)
        beyond = _across(geo, far, n)
        if beyond is None or degree(geo, mask, beyond) >= 3:
            return far, 2
        return None
    if len(offered) == 2:
        b1, b2 = offered
        x = _across(geo, last(b1), b1)
        if x is None or degree(geo, mask, x) != 2:
            return None
        mid = last(x, last(b1))
        y = _across(geo, mid, x)
        if y is None or degree(geo, mask, y) != 2:
            return None
        if _across(geo, last(y, mid), y) == b2:
            return mid, 4
    return None


def decline_path(geo: Geometry, mask: int) -> tuple[int, int] | None:
    """(the line to draw now, boxes given) on the way to declining the last of what is on
    offer: the double-dealing line if it is time, else a capture that keeps it possible."""
    memo: dict[int, tuple[int, int] | None] = {}

    def walk(m: int) -> tuple[int, int] | None:
        if m in memo:
            return memo[m]
        got = double_deal(geo, m)
        if got is None:
            for line in captures(geo, m):
                after = walk(m | 1 << line)
                if after is not None:
                    got = (line, after[1])
                    break
        memo[m] = got
        return got

    return walk(mask)


# --- the compiled search
class ChainSearch:
    """ai.dots_chains_kernel.fight for one board, its memo kept between moves."""

    def __init__(self, geo: Geometry, kernel: Any):
        self.geo = geo
        self.kernel = kernel
        self.tables = kernel.FightTables(geo)
        self.tables.ctl[kernel.WEIGHT] = GUESS
        self.lock = threading.Lock()
        self.depth = 0  # the last search's deepest finished iteration
        self.exact = False  # whether it reached the end in the model everywhere

    def _deepen(self, budget: Budget, step: Any) -> Any:
        """Runs step(depth) at depths 1, 2, ... until the budget ends or the result no longer
        rests on a guess; the last finished result (None if none finished)."""
        k, ctl = self.kernel, self.tables.ctl
        with self.lock:
            ctl[k.STOP] = 0
            done = threading.Event()
            threading.Thread(target=_watch, args=(budget, ctl, k.STOP, done), daemon=True,
                             name="dots-chains-deadline").start()
            result = None
            self.depth, self.exact = 0, False
            try:
                for depth in range(1, self.geo.lines + 1):
                    if budget.expired():
                        break
                    ctl[k.ABORTED] = ctl[k.HORIZON] = 0
                    got = step(depth)
                    if ctl[k.ABORTED]:
                        break
                    result, self.depth = got, depth
                    if not ctl[k.HORIZON]:
                        self.exact = True
                        break
            finally:
                done.set()
            return result

    def root(self, mask: int, budget: Budget) -> np.ndarray | None:
        """Each line's value for the side to move (no box on offer), NO_MOVE where the model
        does not go; None if not even one iteration finished."""
        return self._deepen(budget, lambda d: self.tables.root(mask, d).copy())

    def value(self, mask: int, budget: Budget) -> int | None:
        """The value for the side to move at mask (no box on offer), or None."""
        return self._deepen(budget, lambda d: self.tables.value(mask, d))


def _watch(budget: Budget, ctl: Any, stop: int, done: threading.Event) -> None:
    """Raises the kernel's stop flag once the budget expires, until the search is done."""
    while not done.wait(0.003):
        if budget.expired():
            ctl[stop] = 1
            return


KERNEL = Kernel("ai.dots_chains_kernel")


@cache
def _search(rows: int, cols: int, kernel: Any) -> ChainSearch:
    return ChainSearch(geometry(rows, cols), kernel)


def search_for(rows: int, cols: int) -> ChainSearch | None:
    """The shared chain search for this board, or None until the compiled kernel is ready
    (the first call starts compiling it in the background)."""
    module = KERNEL.get()
    if module is None or geometry(rows, cols).lines > 63:
        return None
    return _search(rows, cols, module)


def chain_move(geo: Geometry, mask: int, legal: list[int], budget: Budget,
               rng: random.Random, search: ChainSearch) -> int | None:
    """Hard's move by the chain search, or None if it found nothing in time. With boxes on
    offer: take them all, or take all but the last two (four) and keep control, whichever the
    search values more after them."""
    offered = [line for line in captures(geo, mask) if line in legal]
    if offered:
        taken, after = take_all(geo, mask)
        path = decline_path(geo, mask)
        if path is None:
            return rng.choice(offered)
        v = search.value(after, budget) if after != (1 << geo.lines) - 1 else 0
        if v is None:
            return None
        line, given = path
        keep = taken - 2 * given - v  # the opponent takes `given` and moves at `after`
        if keep > taken + v and line in legal:
            return line
        takes = [c for c in offered if c != line] or offered
        return rng.choice(takes)
    values = search.root(mask, budget)
    if values is None:
        return None
    scored = [(int(values[line]), line) for line in legal
              if values[line] != search.kernel.NO_MOVE]
    if not scored:
        return None
    top = max(v for v, _ in scored)
    return rng.choice([line for v, line in scored if v == top])
