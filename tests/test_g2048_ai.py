"""The 2048 bot: the batched tree equals a plain recursive expectimax, the row heuristic equals
its definition, and choose() answers legally within its budget at every level."""

import random

import numpy as np
import pytest

from ai import g2048 as bot
from ai.base import Budget, decide
from game.rules import g2048 as rules
from tests.fakes.ticking import TickingClock


def heuristic(cells) -> float:
    return float(bot.evaluate(np.array([rules.pack(cells)], dtype=np.uint64))[0])


def after_value(cells, depth: int) -> float:
    """Plain expectimax of a board after a slide: spawns are chance, the player maximises."""
    if depth == 0:
        return heuristic(cells)
    empty = [i for i, v in enumerate(cells) if v == 0]
    total = 0.0
    for i in empty:
        for tile, p in ((2, 0.9), (4, 0.1)):
            spawned = list(cells)
            spawned[i] = tile
            total += p / len(empty) * max_value(tuple(spawned), depth)
    return total


def max_value(cells, depth: int) -> float:
    values = [after_value(slid, depth - 1) for slid in
              (rules.slide(cells, d)[0] for d in bot.DIRECTIONS) if slid != cells]
    return max(values) if values else 0.0


def row_heuristic(row: list[int]) -> float:
    """nneonneo's row score written out directly, one row at a time."""
    total = sum(r ** bot.SUM_POWER for r in row)
    empty = row.count(0)
    merges, prev, counter = 0, 0, 0
    for r in row:
        if r == 0:
            continue
        if r == prev:
            counter += 1
        elif counter > 0:
            merges += 1 + counter
            counter = 0
        prev = r
    if counter > 0:
        merges += 1 + counter
    left = right = 0.0
    for a, b in zip(row, row[1:]):
        if a > b:
            left += a ** bot.MONOTONICITY_POWER - b ** bot.MONOTONICITY_POWER
        else:
            right += b ** bot.MONOTONICITY_POWER - a ** bot.MONOTONICITY_POWER
    return (bot.LOST_PENALTY + bot.EMPTY_WEIGHT * empty + bot.MERGES_WEIGHT * merges
            - bot.MONOTONICITY_WEIGHT * min(left, right) - bot.SUM_WEIGHT * total)


def test_heuristic_table_matches_its_definition():
    table = bot.heuristic_table()
    rng = random.Random(5)
    for _ in range(500):
        row = [rng.choice([0, 0, 1, 1, 2, 3, 5, 9, 11]) for _ in range(4)]
        index = row[0] | row[1] << 4 | row[2] << 8 | row[3] << 12
        assert table[index] == pytest.approx(row_heuristic(row))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_batched_tree_equals_plain_expectimax(seed):
    rng = random.Random(seed)
    cells = tuple(rng.choice([0, 0, 0, 2, 2, 4, 8, 16, 64]) for _ in range(16))
    dirs = [d for d in range(4) if rules.slide(cells, bot.DIRECTIONS[d])[0] != cells]
    tree = bot.start_tree(rules.pack(cells), dirs)
    bot.grow(tree, bot.child_counts(tree.levels[-1], 0.0, 10**9)[0])
    values = bot.back_up(tree)
    for value, d in zip(values, dirs):
        slid = rules.slide(cells, bot.DIRECTIONS[d])[0]
        assert value == pytest.approx(after_value(slid, 1), rel=1e-9)


def test_a_lost_position_is_worth_nothing():
    # After either move some spawns leave no move at all: those nodes must count as 0.
    cells = rules.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 0, 8]]).cells
    assert max_value(cells, 2) > 0
    tree = bot.start_tree(rules.pack(cells), [2, 3])
    for _ in range(2):
        bot.grow(tree, bot.child_counts(tree.levels[-1], 0.0, 10**9)[0])
    for value, d in zip(bot.back_up(tree), [2, 3]):
        slid = rules.slide(cells, bot.DIRECTIONS[d])[0]
        assert value == pytest.approx(after_value(slid, 2), rel=1e-9)


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_choose_answers_legally_within_its_budget(level, compiled, monkeypatch):
    # Either search, never one racing a compile that holds the GIL in the background.
    if compiled and bot.KERNEL.load() is None:
        pytest.skip("numba unavailable")
    if not compiled:
        monkeypatch.setenv("PAPER_ARCADE_NO_NUMBA", "1")
    state = rules.new_game(None, 12)
    rng = random.Random(0)
    for _ in range(25):  # each search ends once its own clock passes the deadline
        legal = rules.legal_moves(state)
        budget = Budget(0.1, now=TickingClock(0.005))
        move = bot.choose(rules.view(state, 0), legal, budget, level, rng)
        assert move in legal
        state = rules.apply(state, move)


@pytest.mark.parametrize("compiled", [False, True])
def test_deeper_search_within_the_budget(compiled):
    if compiled and bot.KERNEL.load() is None:
        pytest.skip("numba unavailable")
    cells = rules.from_rows([[0, 2, 4, 8], [2, 0, 16, 32], [0, 0, 4, 128], [2, 4, 64, 1024]])
    stats: dict = {}
    budget = Budget(0.1, now=TickingClock())  # a deadline of reads, not of a loaded machine
    bot.search(rules.pack(cells.cells), [0, 1, 2, 3], budget, 12, 1e-5, stats, compiled)
    assert stats["depth"] >= 3


def test_single_move_and_cancelled_budget_return_at_once():
    clock = TickingClock()
    budget = Budget(5.0, now=clock)
    budget.cancel.set()
    state = rules.new_game(None, 3)
    legal = rules.legal_moves(state)
    assert bot.choose(rules.view(state, 0), legal, budget, "hard", random.Random(1)) in legal
    single = Budget(5, now=clock)
    assert bot.choose({"board": [[0] * 4] * 4}, ["left"], single, "hard", None) == "left"
    assert clock.reads < 5.0 / clock.step / 10  # it never waited its budget out


def test_the_bot_through_the_shared_entry_point():
    state = rules.new_game(None, 30)
    legal = rules.legal_moves(state)
    move = decide("g2048", rules.view(state, 0), legal, "normal",
                  Budget(0.05, now=TickingClock(0.005)), random.Random(2))
    assert move in legal


def test_the_bot_plays_a_short_game_sensibly():
    """Easy (one ply) already beats random play by far on the same seed."""
    def play(pick, seed=6, moves=150):
        state = rules.new_game(None, seed)
        for _ in range(moves):
            legal = rules.legal_moves(state)
            if not legal:
                break
            state = rules.apply(state, pick(state, legal))
        return state.score

    rng = random.Random(1)
    smart = play(lambda s, legal: bot.choose(rules.view(s, 0), legal,
                                             Budget(0.05, now=TickingClock(0.005)), "easy", rng))
    dumb = play(lambda s, legal: rng.choice(legal))
    assert smart > dumb
