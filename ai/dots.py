"""The Dots and Boxes bot: perfect where the position is solved (the 3x3 table, or an exact
search of a small position). Elsewhere Hard plays the chain-counting search of
ai/dots_chains.py (chains and loops as moves, the long chain rule, keeping control); Normal,
and Hard until that search is compiled, play simple rules: take what is offered, keep control
with a double-cross while long chains remain, fight for the last safe line, and when every
line gives something away, give the least."""

from __future__ import annotations

import math
import random

from ai.base import NO_OPENING_OPTION, NO_OPENING_PLIES, Appraisal, Budget, Deadline, no_setup
from ai.dots_chains import KERNEL as CHAINS_KERNEL
from ai.dots_chains import (  # what a line does: one set of helpers for both searches
    captures,
    chain_move,
    degree,
    is_safe,
    safe_lines,
    search_for,
    take_all,
    undrawn,
)
from ai.dots_solver import KERNEL, CompiledMemo, Memo, Table, memo_for
from game.rules import dots as rules
from game.rules.dots import Geometry, completed, geometry

OPENING_OPTION = NO_OPENING_OPTION
OPENING_PLIES = NO_OPENING_PLIES
KERNELS = (KERNEL, CHAINS_KERNEL)  # the exact search, and Hard's chain search
choose_setup = no_setup
EXACT_LINES = 18  # positions with at most this many undrawn lines are searched exactly
SAFE_SEARCH = 12  # the fight for the last safe line is searched when this few remain

_TABLES: dict[tuple[int, int], Table] = {}


def table_for(rows: int, cols: int) -> Table | None:
    """The shared solved table for this board, if the board has one (3x3)."""
    if (rows, cols) != (3, 3):
        return None
    if (rows, cols) not in _TABLES:
        _TABLES[(rows, cols)] = Table(rows, cols)
    return _TABLES[(rows, cols)]


def _memo(rows: int, cols: int) -> Memo | CompiledMemo:
    return memo_for(rows, cols)


def giveaway(geo: Geometry, mask: int, line: int) -> int:
    """How many boxes the opponent can take at once after we draw this line."""
    return take_all(geo, mask | 1 << line)[0]


# --- exact values where they can be had
def solved_value(view: dict, budget: Budget | None = None, wait: bool = False) -> int | None:
    """The margin of the remaining boxes the side to move secures with perfect play, or None
    while it is unknown (3x3 table still building, or the position too large to search)."""
    state = rules.state_from_view(view)
    return _solved(state, budget, wait)


def _solved(state: rules.State, budget: Budget | None, wait: bool = False) -> int | None:
    geo = geometry(state.rows, state.cols)
    table = table_for(state.rows, state.cols)
    if table is not None:
        t = table.wait() if wait else table.get()
        if t is not None:
            return int(t[state.mask])
    if len(undrawn(geo, state.mask)) <= EXACT_LINES or geo.lines <= EXACT_LINES:
        try:
            return _memo(state.rows, state.cols).value(state.mask, budget)
        except Deadline:
            return None
    return None


def _exact_move(state: rules.State, legal: list[int], budget: Budget) -> int | None:
    """The best move by exact values, or None if they are not all known in time."""
    geo = geometry(state.rows, state.cols)
    table = table_for(state.rows, state.cols)
    values = table.get() if table is not None else None
    if values is None and len(undrawn(geo, state.mask)) > EXACT_LINES:
        return None
    news = [state.mask | 1 << line for line in legal]
    if values is not None:
        afters = [int(values[new]) for new in news]
    else:
        try:
            afters = _memo(state.rows, state.cols).values(news, budget)
        except Deadline:
            return None
    best, best_line = -999, None
    for line, after in zip(legal, afters):
        c = completed(geo, state.mask, line)
        v = c + after if c else -after
        if v > best:
            best, best_line = v, line
    return best_line


# --- the game's theory
def _last_safe_wins(geo: Geometry, mask: int, memo: dict, budget: Budget) -> bool:
    """True if the side to move can make the last safe move (so the other side must open)."""
    got = memo.get(mask)
    if got is None:
        memo["calls"] = memo.get("calls", 0) + 1
        if not memo["calls"] & 255:
            budget.check()
        got = any(not _last_safe_wins(geo, mask | 1 << line, memo, budget)
                  for line in safe_lines(geo, mask))
        memo[mask] = got
    return got


def _long_chain_left(geo: Geometry, mask: int) -> bool:
    """After everything on offer is taken, does some opening still give away 3 or more?"""
    return any(giveaway(geo, mask, line) >= 3 for line in undrawn(geo, mask))


def _double_cross(geo: Geometry, mask: int) -> int | None:
    """A line that leaves the last two boxes of a chain to the opponent, if that is wise: no
    safe line is left and a long chain remains to be given to us later."""
    for line in captures(geo, mask):
        boxes = [b for b in geo.line_boxes[line] if degree(geo, mask, b) == 1]
        others = [b for b in geo.line_boxes[line] if degree(geo, mask, b) == 2]
        if len(boxes) != 1 or len(others) != 1:
            continue
        partner = others[0]
        far = [s for s in range(geo.lines) if geo.box_sides[partner] >> s & 1
               and not mask >> s & 1 and s != line]
        if len(far) != 1:
            continue
        far_line = far[0]
        if any(degree(geo, mask, b) <= 2 for b in geo.line_boxes[far_line] if b != partner):
            continue  # the chain goes on past the partner: not its last two boxes
        rest = mask | 1 << far_line | 1 << line
        rest_taken, rest = take_all(geo, rest)
        if rest_taken == 0 and not safe_lines(geo, rest) and _long_chain_left(geo, rest):
            return far_line
    return None


def theory_move(state: rules.State, legal: list[int], rng: random.Random,
                budget: Budget) -> int:
    geo = geometry(state.rows, state.cols)
    mask = state.mask
    offered = [line for line in captures(geo, mask) if line in legal]
    if offered:
        # The double-cross is the last act of a capture: everything else is taken first.
        if len(offered) == 1 and not safe_lines(geo, take_all(geo, mask)[1]):
            cross = _double_cross(geo, mask)
            if cross is not None and cross in legal:
                return cross
        return offered[0]
    safe = [line for line in safe_lines(geo, mask) if line in legal]
    if safe:
        if len(safe) <= SAFE_SEARCH:
            memo: dict = {}
            try:
                winning = [line for line in safe
                           if not _last_safe_wins(geo, mask | 1 << line, memo, budget)]
            except Deadline:
                winning = []
            if winning:
                return rng.choice(winning)
        return rng.choice(safe)
    costs = {line: giveaway(geo, mask, line) for line in legal}
    least = min(costs.values())
    return rng.choice([line for line, c in costs.items() if c == least])


def greedy_move(state: rules.State, legal: list[int], rng: random.Random) -> int:
    """Take any box on offer, otherwise avoid drawing a box's third side, otherwise random."""
    geo = geometry(state.rows, state.cols)
    offered = [line for line in legal if completed(geo, state.mask, line)]
    if offered:
        return rng.choice(offered)
    safe = [line for line in legal if is_safe(geo, state.mask, line)]
    return rng.choice(safe or legal)


def choose(view: dict, legal: list, budget: Budget, level: str, rng: random.Random) -> int:
    state = rules.state_from_view(view)
    legal = legal or rules.legal_moves(state)
    if level == "easy":
        return greedy_move(state, legal, rng)
    geo = geometry(state.rows, state.cols)
    if level == "hard" or len(undrawn(geo, state.mask)) <= 12:
        # The exact search gets most of the time; the theory needs the rest if it gives up.
        move = _exact_move(state, legal, budget.share(0.5))
        if move is not None:
            return move
    if level == "hard":
        search = search_for(state.rows, state.cols)
        if search is not None:
            # A margin for the machine's load: the search stops on a watcher thread's word.
            move = chain_move(geo, state.mask, legal, budget.share(0.75), rng, search)
            if move is not None:
                return move
    return theory_move(state, legal, rng, budget)


# --- judging a position (the review, ai/review.py)
REVIEW_SCALE = 2.0  # boxes ahead at which an unsolved position is a 73% win chance


def win_chance(margin: float, exact: bool) -> float:
    """The side to move's win chance for the margin of every box it ends with."""
    if exact:
        return 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)
    return 1.0 / (1.0 + math.exp(-margin / REVIEW_SCALE))


def appraise(view: dict, moves: list, budget: Budget, limit: int) -> Appraisal:
    """Hard's judgement of the view (ai.base.Bot.appraise): exact where the position is solved
    (the 3x3 table, or few lines left), else the game's theory one move deep: a move is worth
    the boxes it takes and whatever more they lead to, less what it gives away. `limit` is not
    used: the exact values take what they take."""
    KERNEL.load()  # a review waits for the compiled exact search: it judges many positions
    state = rules.state_from_view(view)
    geo = geometry(state.rows, state.cols)
    legal = rules.legal_moves(state)
    me = state.turn
    ahead = state.scores[me] - state.scores[1 - me]
    exact = _solved(state, budget, wait=True) is not None
    budget = budget.sub(math.inf)  # the moves of a solved position are cached or quick

    def margin(line: int) -> float:
        """The boxes this move secures from here on for the side that draws it."""
        new = state.mask | 1 << line
        c = completed(geo, state.mask, line)
        if exact:
            table = table_for(state.rows, state.cols)
            values = table.get() if table is not None else None
            after = int(values[new]) if values is not None else _memo(
                state.rows, state.cols).value(new, budget)
        else:
            after = take_all(geo, new)[0]
        return c + after if c else -after

    values = {line: margin(line) for line in legal}
    top = max(values.values())
    best = _exact_move(state, legal, budget) if exact else None
    if best is None:  # the game's theory (Hard's chain search, ai/dots_chains.py, is not
        # used here: its values are not margins of this model)
        best = theory_move(state, legal, random.Random(state.mask), budget)
        if values[best] < top:
            best = max(legal, key=lambda line: values[line])
    value = win_chance(ahead + values[best], exact)
    if not exact:
        return Appraisal(value, tuple(win_chance(ahead + values[m], exact) for m in moves),
                         best, (best,), exact)
    boxes = state.rows * state.cols

    def final(line: int) -> dict:
        """The boxes each side ends with, worked out: a decided game's moves still differ."""
        margin = ahead + int(values[line])
        return {"boxes": [(boxes + margin) // 2, (boxes - margin) // 2]}

    return Appraisal(value, tuple(win_chance(ahead + values[m], exact) for m in moves),
                     best, (best,), exact, details=tuple(final(m) for m in moves),
                     figures={"best": final(best)},
                     given=tuple(max(0.0, (values[best] - values[m]) / 2 / boxes)
                                 for m in moves))
