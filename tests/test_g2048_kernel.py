"""The compiled 2048 kernel against the rules (slides, points, spawns) and the numpy bot
(evaluation, expectimax values); its search legal, stoppable, and the fallback without it."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import g2048 as bot
from ai.base import Budget
from game.rules import g2048 as rules
from tests.fakes.cancel import CancelAfter, frozen_clock
from tests.fakes.ticking import TickingClock
from tests.kernels import compiled

# Exponents up to 14: two 16384s still merge below the packed cap of 15.
cells_st = st.lists(st.sampled_from([0, 0, 0, 2, 4, 8, 16, 128, 1024, 16384]), min_size=16,
                    max_size=16).map(tuple)


@pytest.fixture(scope="module")
def kernel():
    return compiled(bot.KERNEL)


@pytest.fixture(scope="module")
def tables(kernel):
    return kernel.Tables(bot.heuristic_table())


@settings(max_examples=300, deadline=None)
@given(cells=cells_st)
def test_slides_and_points_match_the_rules(kernel, cells):
    board = rules.pack(cells)
    for d, name in enumerate(rules.DIRECTIONS):
        slid, gained = rules.slide(cells, name)
        assert kernel.slide_board(board, d) == (rules.pack(slid), gained)


@settings(max_examples=100, deadline=None)
@given(cells=cells_st)
def test_spawns_are_the_rules_spawns_with_their_odds(kernel, cells):
    board = rules.pack(cells)
    empty = [i for i, v in enumerate(cells) if v == 0]
    expected = {}
    for i in empty:
        for tile, p in ((2, 1 - rules.FOUR_PROBABILITY), (4, rules.FOUR_PROBABILITY)):
            spawned = list(cells)
            spawned[i] = tile
            expected[rules.pack(spawned)] = p / len(empty)
    children = kernel.chance_children(board)
    assert len(children) == len(expected)
    for child, p in children:
        assert p == pytest.approx(expected[child])


def test_every_spawn_the_rules_draw_is_a_kernel_child(kernel):
    for seed in range(5):
        state = rules.new_game(None, seed)
        rng = random.Random(seed)
        for _ in range(60):
            legal = rules.legal_moves(state)
            if not legal:
                break
            move = rng.choice(legal)
            slid = rules.slide(state.cells, move)[0]
            state = rules.apply(state, move)
            children = {b for b, _ in kernel.chance_children(rules.pack(slid))}
            assert rules.pack(state.cells) in children


@settings(max_examples=100, deadline=None)
@given(cells=cells_st)
def test_evaluation_matches_the_numpy_bot(kernel, cells):
    board = rules.pack(cells)
    expected = bot.evaluate(np.array([board], dtype=np.uint64))[0]
    assert kernel.evaluation(board, bot.heuristic_table()) == pytest.approx(expected)


def _plain(cells, depth):
    """Plain expectimax of a board after a slide, all spawns, `depth` slides deep."""
    board = rules.pack(cells)
    if depth == 0:
        return float(bot.evaluate(np.array([board], dtype=np.uint64))[0])
    empty = [i for i, v in enumerate(cells) if v == 0]
    total = 0.0
    for i in empty:
        for tile, p in ((2, 0.9), (4, 0.1)):
            spawned = list(cells)
            spawned[i] = tile
            values = [_plain(s, depth - 1) for s in
                      (rules.slide(tuple(spawned), d)[0] for d in rules.DIRECTIONS)
                      if s != tuple(spawned)]
            total += p / len(empty) * (max(values) if values else 0.0)
    return total


@pytest.mark.parametrize("rows,depth", [
    ([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 0, 8]], 2),  # lost lines count 0
    ([[0, 2, 4, 8], [2, 0, 16, 32], [0, 0, 4, 128], [2, 4, 64, 1024]], 1),
    ([[2, 8, 2, 4], [4, 16, 32, 2], [0, 4, 2, 64], [2, 0, 8, 256]], 2),
])
def test_search_values_equal_plain_expectimax(tables, rows, depth):
    cells = rules.from_rows(rows).cells
    tables.new_search()
    values, finished = tables.search(rules.pack(cells), depth, 0.0)
    assert finished == 4
    for d, name in enumerate(rules.DIRECTIONS):
        slid = rules.slide(cells, name)[0]
        expected = _plain(slid, depth) if slid != cells else -1.0
        assert values[d] == pytest.approx(expected, rel=1e-9)


def test_the_table_gives_the_same_values_as_a_fresh_search(tables, kernel):
    cells = rules.from_rows([[0, 2, 4, 8], [2, 0, 16, 32], [0, 0, 4, 128], [2, 4, 64, 512]])
    board = rules.pack(cells.cells)
    tables.new_search()
    for depth in range(1, 4):  # deepening reuses the shallower depths' entries
        deepened, _ = tables.search(board, depth, 1e-3)
    fresh = kernel.Tables(bot.heuristic_table())
    fresh.new_search()
    alone, _ = fresh.search(board, 3, 1e-3)
    assert np.allclose(deepened, alone, rtol=1e-12)


def test_a_raised_stop_flag_ends_the_search_with_what_it_finished(tables, kernel):
    board = rules.pack(rules.from_rows([[0, 2, 4, 8], [2, 0, 16, 32], [0, 0, 4, 128],
                                        [2, 4, 64, 1024]]).cells)
    tables.new_search()
    tables.ctl[kernel.STOP] = 1
    values, finished = tables.search(board, 9, 1e-6, (3, 0, 1, 2))
    assert finished == 0
    assert tables.ctl[kernel.ABORTED] == 1


def test_compiled_search_answers_legally_and_stops_on_cancel(kernel):
    state = rules.new_game(None, 8)
    rng = random.Random(3)
    for _ in range(40):
        legal = rules.legal_moves(state)
        dirs = [rules.DIRECTIONS.index(m) for m in legal]
        stats: dict = {}
        budget = Budget(0.01, now=TickingClock(0.001))  # a deadline of looks at its clock
        d = bot.search(rules.pack(state.cells), dirs, budget, 12, 1e-4, stats)
        assert rules.DIRECTIONS[d] in legal and stats["depth"] >= 1
        state = rules.apply(state, rng.choice(legal))
    # Only the cancel can end this one: its clock never moves and a depth-40 search would take
    # hours (pytest-timeout fails a search that ignores it). The flag turns on at its 20th look,
    # about 0.1 s of the watcher's looks.
    cancel = CancelAfter(20)
    budget = Budget(30.0, cancel, now=frozen_clock())
    cells = rules.from_rows([[0, 2, 4, 8], [2, 0, 16, 32], [0, 0, 4, 128], [2, 4, 64, 1024]])
    stats = {}
    d = bot.search(rules.pack(cells.cells), [0, 1, 2, 3], budget, 40, 1e-9, stats)
    assert cancel.asked >= 20 and d in (0, 1, 2, 3) and 1 <= stats["depth"] < 40


def test_compiled_and_numpy_searches_agree_at_a_fixed_depth(kernel, monkeypatch):
    """Both are the same expectimax: with no cut and a generous budget, the same move (the
    heuristic at the leaves: the numpy search has no network)."""
    monkeypatch.setattr(bot, "_EVALUATION", {"name": "heuristic", "net": None})
    rng = random.Random(11)
    for _ in range(6):
        cells = tuple(rng.choice([0, 0, 0, 2, 2, 4, 8, 16, 64]) for _ in range(16))
        dirs = [d for d in range(4) if rules.slide(cells, rules.DIRECTIONS[d])[0] != cells]
        if len(dirs) < 2:
            continue
        board = rules.pack(cells)
        cap = Budget(30, now=frozen_clock())  # the depth ends both searches, never the clock
        fast = bot.search(board, dirs, cap, 3, 0.0, compiled=True)
        slow = bot.search(board, dirs, cap, 3, 0.0, compiled=False)
        assert fast == slow


def test_without_numba_the_numpy_search_answers(monkeypatch):
    monkeypatch.setenv("PAPER_ARCADE_NO_NUMBA", "1")
    assert bot.KERNEL.get() is None
    stats: dict = {}
    cells = rules.from_rows([[0, 2, 4, 8], [2, 0, 16, 32], [0, 0, 4, 128], [2, 4, 64, 1024]])
    bot.search(rules.pack(cells.cells), [0, 1, 2, 3], Budget(30, now=frozen_clock()), 3, 1e-3,
               stats)
    assert stats["depth"] == 3 and stats["nodes"] > 0
