"""Matches for tests to start from."""

from __future__ import annotations

import random

import numpy as np

from ai.base import Budget, decide_setup
from game.match import Match
from tests.fakes.cancel import frozen_clock


def midgame(game_id: str, plies: int, seed: int, options: dict | None = None) -> Match:
    """A real match of the game `plies` random moves in (random setups placed first), none of
    them ending it, so the match is still going."""
    match = Match(game_id, options or {}, seed)
    rng = random.Random(seed)
    while match.setup_pending():
        match.play(decide_setup(game_id, match.view(match.to_move()), "random",
                                Budget(0.0, now=frozen_clock()), rng))
    rules = match.rules
    for _ in range(plies):
        going_on = [m for m in match.legal_moves()
                    if rules.outcome(rules.apply(match.state, m)) is None]
        if not going_on:
            break
        match.play(rng.choice(going_on))
    assert not match.over
    return match


def planes_sure_to_end_next(view: dict) -> bool:
    """A planes view where the opponent needs one head, and every layout of the mover's
    planes its shots agree with puts that head on the same cell it has not called: its next
    shot ends the game (worked out here by the layouts alone, not by the bot)."""
    from ai import planes
    from game.rules import planes as rules
    size, n, incoming = view["size"], view["planes"], view["incoming"]
    if n - sum(a == "head" for _c, a in incoming) != 1:
        return False
    _, codes = rules.layouts(size, n)
    live = codes[planes.consistent(size, n, incoming)]
    called = {c for c, _a in incoming}
    return len({c for layout in live for c in np.flatnonzero(layout == 2)} - called) == 1


def planes_race_to_the_end(seed: int, equal_turns: bool, mover: int, left: int = 1,
                           evening: bool = False) -> Match:
    """A planes match near its end, `mover` to shoot: its opponent has called every cell of
    the mover's planes but one head (so it most often knows where that head is; with
    `evening`, under "equal turns" with the mover second, that head too: the mover's is the
    evening shot), and the mover has found all the opponent's heads but `left`, among some of
    its body cells and misses."""
    from game.rules import planes as rules
    rng = random.Random(seed)
    match = Match("planes", {"equal_turns": equal_turns}, seed)
    while match.setup_pending():
        match.play(decide_setup("planes", match.view(match.to_move()), "random",
                                Budget(0.0, now=frozen_clock()), rng))
    size, layouts = match.options["size"], match.state.layouts
    mine, theirs = (rules.layout_cells(size, layouts[s]) for s in (mover, 1 - mover))
    last = None if evening else rng.choice([c for c, a in mine.items() if a == "head"])
    unfound = rng.sample([c for c, a in theirs.items() if a == "head"], left)
    by_them = [c for c in mine if c != last]
    bodies = [c for c, a in theirs.items() if a == "body"]
    misses = [c for c in range(size * size) if c not in theirs]
    rng.shuffle(misses)
    by_me = [c for c, a in theirs.items() if a == "head" and c not in unfound] + \
        rng.sample(bodies, rng.randrange(len(bodies) // 2)) + misses[:rng.randrange(10, 30)]
    # seat 0 shoots first: the mover to shoot has had as many shots as seat 0 has, less one
    # if it is seat 1; the shorter list is made up with misses
    mine_n = max(len(by_me), len(by_them) - mover)
    by_me += [c for c in misses if c not in by_me][:mine_n - len(by_me)]
    by_them += [c for c in range(size * size) if c not in mine][:mine_n + mover - len(by_them)]
    rng.shuffle(by_me)
    rng.shuffle(by_them)
    if evening:  # its last shot (the lists are played from their ends) finds its last head
        head = next(i for i, c in enumerate(by_them) if mine.get(c) == "head")
        by_them.insert(0, by_them.pop(head))
    lists = {mover: by_me, 1 - mover: by_them}
    while lists[match.to_move()]:
        match.play(lists[match.to_move()].pop())
    assert match.to_move() == mover and not match.over
    return match
