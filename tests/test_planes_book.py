"""bench/planes_book.py's builder: the walk, its cutoff and the policy-improvement pass, on a
position deep enough to search in a moment."""

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

from ai import planes as bot
from ai.base import Budget
from game.rules import planes as rules
from tests.fakes.cancel import frozen_clock

SPEC = importlib.util.spec_from_file_location(
    "planes_book", Path(__file__).parent.parent / "bench" / "planes_book.py")
planes_book = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(planes_book)


@pytest.fixture(scope="module")
def position():
    """The book's path for one layout down to at most 120 layouts: (index, history, found)."""
    _, codes = rules.layouts(10, 3)
    book = bot.book(10, 3)
    layout = 40000
    index, history, found = np.arange(len(codes)), [], 0
    while len(index) > 120:
        cell = book.get(bot.book_key(history))
        if cell is None:
            cell = bot.lookahead(codes[index], {c for c, _ in history}, 3 - found, 2,
                                 Budget(math.inf, now=frozen_clock()))[1]
        k = int(codes[layout, cell])
        index = index[codes[index, cell] == k]
        history, found = history + [(cell, rules.ANSWERS[k])], found + (k == 2)
    return index, history, found


def builder(chosen=None):
    """A weak builder (the one-shot estimate, then the likeliest cell only), for the
    improvement pass to find better shots in a moment."""
    return planes_book.Builder(depth=1, search_below=15, width=1, chosen=chosen)


def test_the_improvement_pass_finds_better_shots_and_its_book_walks_to_its_value(position):
    index, history, found = position
    plain = builder().walk(index, history, found)
    improving = builder()
    improved = improving.improve(index, history, found, alternatives=2)
    assert improved < plain - 0.01
    again = builder(improving.chosen)
    assert again.walk(index, history, found) == pytest.approx(improved)
    assert again.shots[bot.book_key(history)] == improving.chosen[bot.book_key(history)]
    bound = bot.Exact(again.codes, 3, Budget(math.inf, now=frozen_clock())).lower_bound(
        tuple(int(i) for i in index), found)
    assert bound <= improved  # no policy beats the trits needed to tell the heads apart


def test_a_walk_with_a_cutoff_stops_at_it_and_is_exact_below_it(position):
    index, history, found = position
    cell = builder().choose(index, history, found)
    value = builder().walk(index, history, found, cell)
    assert builder().walk(index, history, found, cell, cutoff=value + 0.01) == value
    assert value - 0.01 <= builder().walk(index, history, found, cell, cutoff=value - 0.01)
    cut = builder().walk(index, history, found, cell, cutoff=1.0)
    assert 1.0 <= cut < value
