"""Every game's bot reads the time on its budget's clock alone, and a budget it derives for part
of its work keeps that clock: on a clock that moves a step at each look, each bot answers
legally once that clock passes the deadline, though the wall clock would give it an hour; with
its budget spent before it starts, it answers at once. The pure searches and the compiled ones
(which stop on a watcher thread's look at the budget) alike; no test here waits on the wall
clock."""

import random

import pytest

from ai import compiled, g2048
from ai.base import Budget, decide
from game import registry
from tests.fakes.cancel import CancelAfter
from tests.fakes.ticking import TickingClock
from tests.matches import midgame

HOUR = 3600.0  # the budget's seconds: a bot that waited on the wall clock would take them
LOOKS = 60  # looks at the ticking clock before its deadline passes
AFTER = 60  # looks a bot may still take after it, winding down (a watcher's, the answer's)
# A bot still asking after this many looks at the cancel flag is not watching its own clock:
# the flag then ends its search (and the test fails) rather than the wall clock's hour.
STUCK = 20 * (LOOKS + AFTER)
OPTIONS = {"dots": {"rows": 5, "cols": 5}}  # past the solved 3x3 table: the searches run


@pytest.fixture(autouse=True)
def own_speed(monkeypatch):
    """2048's pure search learns its speed from the clocks it is given: a look here stands for
    a minute, and what it learns from that must not carry over to the tests after."""
    monkeypatch.setattr(g2048, "_speed", dict(g2048._speed))


@pytest.fixture(params=["pure", "compiled"])
def searches(request, monkeypatch):
    """The pure searches (no kernel), or the compiled ones, every kernel loaded first."""
    if request.param == "pure":
        monkeypatch.setenv("PAPER_ARCADE_NO_NUMBA", "1")
    elif not compiled.enabled():
        pytest.skip("numba is turned off")
    else:
        compiled.warm_up()
    return request.param



@pytest.mark.parametrize("seconds", [HOUR, 0.0], ids=["ticking", "spent"])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_a_bot_answers_once_its_own_clock_passes_the_deadline(game_id, level, seconds,
                                                              searches):
    for plies in (0, 9):
        match = midgame(game_id, plies, seed=plies + 3, options=OPTIONS.get(game_id))
        clock, cancel = TickingClock(step=HOUR / LOOKS), CancelAfter(STUCK)
        budget = Budget(seconds, cancel, now=clock)
        looks = LOOKS if seconds else 0
        move = decide(game_id, match.view(match.to_move()), match.legal_moves(), level, budget,
                      random.Random(plies))
        assert move in match.legal_moves(), (plies, move)
        assert cancel.asks_left, (
            f"{game_id} {level} {searches}, {plies} plies in: still searching after "
            f"{cancel.asked} looks at its cancel flag ({clock.reads} at its clock, whose "
            f"deadline passed at look {looks}); it waited on a clock other than its budget's")
        assert clock.reads <= looks + AFTER, (plies, clock.reads)
