"""Matches for tests to start from."""

from __future__ import annotations

import random

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
