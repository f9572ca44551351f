"""ai/base.py: the bot contract every game's bot module keeps, its arena openings, and the one
deadline exception every search raises."""

import inspect
import math
import random
import threading

import pytest

from ai import ataxx, banqi, dots, planes
from ai.base import (
    Bot,
    Budget,
    Deadline,
    bot_members,
    bot_module,
    decide_setup,
    no_setup,
    opening_plan,
)
from ai.compiled import Kernel
from ai.dots_solver import Memo
from game import registry
from game.rules import ataxx as ataxx_rules
from game.rules import banqi as banqi_rules
from game.rules import dots as dots_rules
from game.rules import planes as planes_rules
from players.arena import openings
from tests.fakes.cancel import frozen_clock

CHOOSE = ["view", "legal", "budget", "level", "rng"]
CHOOSE_SETUP = ["view", "budget", "level", "rng"]


def test_bot_contract_lists_its_members():
    assert sorted(bot_members()) == ["KERNELS", "OPENING_OPTION", "OPENING_PLIES", "appraise",
                                     "choose", "choose_setup"]


def test_every_game_has_a_bot_that_keeps_the_contract(race):
    for game_id in registry.available() + [race]:
        bot, rules = bot_module(game_id), registry.rules(game_id)
        assert isinstance(bot, Bot), game_id
        for name in bot_members():
            assert name in vars(bot), (game_id, name)  # declared by the module itself
        assert list(inspect.signature(bot.choose).parameters) == CHOOSE, game_id
        assert list(inspect.signature(bot.choose_setup).parameters) == CHOOSE_SETUP, game_id
        assert (bot.choose_setup is no_setup) == (not rules.SETUP), game_id
        option = bot.OPENING_OPTION
        assert option is None or option in [o.key for o in rules.OPTIONS], game_id
        assert type(bot.OPENING_PLIES) is int and bot.OPENING_PLIES >= 0, game_id
        assert opening_plan(game_id) == (option, bot.OPENING_PLIES)
        assert type(bot.KERNELS) is tuple, game_id
        assert all(isinstance(k, Kernel) for k in bot.KERNELS), game_id


def test_no_setup_refuses():
    with pytest.raises(ValueError, match="no setup phase"):
        decide_setup("dots", {}, "easy", Budget(1, now=frozen_clock()), random.Random(1))


def test_ataxx_openings_every_layout_then_two_random_plies():
    assert opening_plan("ataxx") == ("layout", 2)
    layouts = [value for value, _ in
               next(o for o in ataxx_rules.OPTIONS if o.key == "layout").choices]
    plan = openings("ataxx", {}, 2 * len(layouts) + 1, seed=4)
    assert [opts["layout"] for opts, _ in plan] == (layouts * 3)[:len(plan)]
    assert all(moves == [] for _, moves in plan[:len(layouts)])
    assert all(len(moves) == 2 for _, moves in plan[len(layouts):])
    fixed = openings("ataxx", {"layout": layouts[1]}, 3, seed=4)
    assert [opts for opts, _ in fixed] == [{"layout": layouts[1]}] * 3
    assert [len(moves) for _, moves in fixed] == [0, 2, 2]


def test_openings_of_a_game_without_a_plan(race):
    assert opening_plan(race) == (None, 0)
    assert openings(race, {"pile": 9}, 3, seed=1) == [({"pile": 9}, [])] * 3


def test_budget_check_raises_deadline_once_expired():
    Budget(60, now=frozen_clock()).check()  # not yet
    with pytest.raises(Deadline):
        Budget(0, now=frozen_clock()).check()
    cancel = threading.Event()
    budget = Budget(60, cancel, now=frozen_clock())
    cancel.set()
    with pytest.raises(Deadline):
        budget.check()


def test_a_derived_budget_keeps_its_parents_clock_and_cancel():
    t = [1000.0]

    def clock() -> float:  # moved by hand
        return t[0]

    parent = Budget(100, now=clock)
    t[0] += 20
    part, rest = parent.share(0.5), parent.sub(10)
    assert part.now is rest.now is clock and part.cancel is rest.cancel is parent.cancel
    assert part.seconds == 40 and rest.seconds == 10  # half of what was left; ten seconds
    t[0] += 10  # read on the parent's clock: the wall's has hardly moved
    assert rest.expired() and not part.expired() and not parent.expired()
    t[0] += 30
    assert part.expired() and not parent.expired()
    endless = parent.sub(math.inf)
    parent.cancel.set()
    assert endless.expired() and endless.remaining() == 0  # cancelled with its parent


def _expired() -> Budget:
    return Budget(0, now=frozen_clock())


def test_every_search_runs_out_of_time_with_deadline():
    """One exception for "the search ran out of time", whichever search it is."""
    search = ataxx.Search(_expired())
    pos = ataxx_rules.from_fen(ataxx_rules.START_FEN)
    search.nodes = 1023  # the next node checks the clock
    with pytest.raises(Deadline):
        search.negamax(pos, 3, -ataxx.WIN, ataxx.WIN, 0)

    searcher = banqi.Searcher("taiwan", _expired())
    searcher.nodes = 255
    board = list(banqi_rules.parse_board(banqi_rules.view(banqi_rules.new_game({}, 1), 0)
                                         ["board"]))
    with pytest.raises(Deadline):
        searcher.negamax(board, "red", 2, -1e9, 1e9)

    _, codes = planes_rules.layouts(10, 3)
    with pytest.raises(Deadline):
        planes.lookahead(codes, set(), 3, 2, _expired())
    with pytest.raises(Deadline):
        planes.Exact(codes, 3, _expired()).cost(tuple(range(50)), 0)

    memo = Memo(dots_rules.geometry(3, 3))
    memo.calls = 1023
    with pytest.raises(Deadline):
        memo.value(0, _expired())
    with pytest.raises(Deadline):
        dots._last_safe_wins(dots_rules.geometry(3, 3), 0, {"calls": 255}, _expired())
