"""The compiled exact Dots and Boxes search against the pure Memo and the 3x3 retrograde table:
the same values on random positions; stopped, it stores nothing wrong; the fallback without it."""

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import dots_solver as solver
from ai.base import Budget, Deadline
from game.rules import dots as rules
from tests.fakes.cancel import frozen_clock
from tests.fakes.ticking import TickingClock
from tests.kernels import compiled


@pytest.fixture(scope="module")
def kernel():
    return compiled(solver.KERNEL)


def random_mask(geo, undrawn: int, rng: random.Random) -> int:
    lines = list(range(geo.lines))
    rng.shuffle(lines)
    mask = 0
    for line in lines[:geo.lines - undrawn]:
        mask |= 1 << line
    return mask


@pytest.mark.parametrize("rows,cols,undrawn", [(1, 1, 4), (2, 2, 12), (2, 3, 17), (3, 2, 14),
                                               (4, 4, 13), (5, 5, 11)])
def test_same_values_as_the_pure_memo(kernel, rows, cols, undrawn):
    geo = rules.geometry(rows, cols)
    rng = random.Random(rows * 10 + cols)
    pure = solver.Memo(geo)
    compiled = solver.CompiledMemo(geo, kernel)
    for _ in range(20):
        mask = random_mask(geo, rng.randrange(undrawn + 1), rng)
        assert compiled.value(mask) == pure.value(mask), (rows, cols, mask)


@pytest.fixture(scope="module")
def table_3x3():
    return solver.solve(3, 3)


@settings(max_examples=200, deadline=None)
@given(mask=st.integers(0, (1 << 24) - 1).filter(lambda m: bin(m).count("1") >= 9))
def test_same_values_as_the_3x3_table(kernel, table_3x3, mask):
    memo = solver._compiled_memo(3, 3, kernel)
    assert memo.value(mask) == int(table_3x3[mask])


def test_a_stopped_search_raises_deadline_and_stores_nothing_wrong(kernel, table_3x3):
    geo = rules.geometry(3, 3)
    memo = solver.CompiledMemo(geo, kernel)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Deadline):
        memo.value(0, Budget(60, cancel, now=frozen_clock()))
    memo.tables.ctl[kernel.STOP] = 1  # a flag raised mid-search: every node after it aborts
    memo.tables.value(1 << 5)
    assert memo.tables.ctl[kernel.ABORTED]
    rng = random.Random(3)
    for _ in range(30):  # what it did store is right
        mask = random_mask(geo, rng.randrange(4, 14), rng) | 1 << 5
        assert memo.value(mask) == int(table_3x3[mask])


def test_the_bot_searches_compiled_once_ready(kernel):
    assert isinstance(solver.memo_for(4, 4), solver.CompiledMemo)


def test_without_numba_the_pure_memo_plays(monkeypatch):
    monkeypatch.setenv("PAPER_ARCADE_NO_NUMBA", "1")
    assert isinstance(solver.memo_for(4, 4), solver.Memo)
    from ai import dots as bot
    s = rules.new_game({"rows": 2, "cols": 2})
    legal = rules.legal_moves(s)
    budget = Budget(0.5, now=TickingClock())  # 2x2 is solved long before its deadline
    assert bot.choose(rules.view(s, 0), legal, budget, "hard", random.Random(1)) in legal
