"""Dots and Boxes theory (ai/dots_chains.py): chains and loops found from a position, the values
of simple loony endgames against the exact search, the controlled value, keeping control with
all-but-two, and Hard's chain-counting search keeping the last safe line."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ai import dots as bot
from ai import dots_chains as dc
from ai.base import Budget
from ai.dots_solver import Memo
from game.rules import dots as rules
from game.rules.dots import geometry
from tests.fakes.cancel import frozen_clock
from tests.fakes.ticking import TickingClock


def h(rows: int, cols: int, r: int, c: int) -> int:
    """The horizontal line from dot (r, c) to (r, c + 1)."""
    return r * cols + c


def v(rows: int, cols: int, r: int, c: int) -> int:
    """The vertical line from dot (r, c) to (r + 1, c)."""
    return (rows + 1) * cols + r * (cols + 1) + c


def corridors(rows: int, cols: int) -> int:
    """Every horizontal line drawn: each row of boxes a chain of `cols` ending at the border."""
    return sum(1 << h(rows, cols, r, c) for r in range(rows + 1) for c in range(cols))


def state_of(rows: int, cols: int, mask: int, turn: int = 0) -> rules.State:
    s = rules.new_game({"rows": rows, "cols": cols})
    drawn = tuple(i for i in range(geometry(rows, cols).lines) if mask >> i & 1)
    return s._replace(drawn=drawn, mask=mask, turn=turn)


def view_of(state: rules.State) -> dict:
    return rules.view(state, state.turn)


@pytest.fixture(scope="module")
def search():
    kernel = dc.KERNEL
    if kernel.load() is None:
        pytest.skip(f"numba unavailable: {kernel.error}")
    return dc.search_for


_CACHED_RUN = """
from ai import dots_chains_kernel as k
from game.rules.dots import geometry
t = k.FightTables(geometry(3, 3))
print(t.value(0, 6), list(t.root(0, 4)), sum(k.fight.stats.cache_hits.values()))
"""


def test_the_chain_search_loads_from_numbas_cache_in_a_new_process(search):
    """The arcade and every test process load the compiled search instead of compiling it
    again: a recursive kernel once crashed on its cached load (numba issue 6061)."""
    from ai import dots_chains_kernel as k
    here = k.FightTables(geometry(3, 3))
    expected = f"{here.value(0, 6)} {list(here.root(0, 4))}"
    root = Path(__file__).resolve().parent.parent
    run = subprocess.run([sys.executable, "-c", _CACHED_RUN], cwd=root, capture_output=True,
                         text=True, timeout=120, env={**os.environ})
    assert run.returncode == 0, run.stderr[-2000:]
    *values, hits = run.stdout.split()
    assert " ".join(values) == expected
    assert int(hits) > 0  # loaded, not compiled


# --- chains and loops
def test_rows_of_boxes_are_chains_ending_at_the_border():
    geo = geometry(3, 4)
    d = dc.decompose(geo, corridors(3, 4))
    assert d.sizes() == ((4, 4, 4), ())
    assert d.simple and not d.joints
    assert {c.boxes for c in d.chains} == {(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)} or \
        {tuple(sorted(c.boxes)) for c in d.chains} == {(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)}
    assert all(c.ends == ("border", "border") for c in d.chains)


def test_a_ring_of_four_is_a_loop():
    geo = geometry(2, 2)
    outer = [h(2, 2, 0, 0), h(2, 2, 0, 1), h(2, 2, 2, 0), h(2, 2, 2, 1),
             v(2, 2, 0, 0), v(2, 2, 1, 0), v(2, 2, 0, 2), v(2, 2, 1, 2)]
    d = dc.decompose(geo, sum(1 << line for line in outer))
    assert d.sizes() == ((), (4,)) and d.simple
    assert sorted(d.loops[0].boxes) == [0, 1, 2, 3]


def test_arms_meeting_at_a_joint():
    # 3x3: the centre box keeps its four sides, each middle edge box its outer side; the
    # corners are closed. Four one-box chains, each from the border to the joint (box 4).
    geo = geometry(3, 3)
    keep = {h(3, 3, 1, 1), h(3, 3, 2, 1), v(3, 3, 1, 1), v(3, 3, 1, 2),
            h(3, 3, 0, 1), h(3, 3, 3, 1), v(3, 3, 1, 0), v(3, 3, 1, 3)}
    mask = sum(1 << i for i in range(geo.lines) if i not in keep)
    d = dc.decompose(geo, mask)
    assert d.joints == (4,) and not d.simple
    assert sorted(c.boxes for c in d.chains) == [(1,), (3,), (5,), (7,)]
    assert all(sorted(c.ends, key=str) == [4, "border"] for c in d.chains)
    assert dc.safe_lines(geo, mask) == []  # a joint of degree 4, but every arm has degree 2


# --- values
@pytest.mark.parametrize("chains,loops,value", [
    ((3,), (), -3), ((3, 3), (), -2), ((1, 3), (), 2), ((2, 3), (), 1), ((), (4,), -4),
    ((), (4, 4), 0), ((3,), (8,), -5), ((3, 3, 3), (), -1), ((1, 1), (), 0)])
def test_loony_values_of_small_endgames(chains, loops, value):
    assert dc.loony_value(chains, loops) == value


@pytest.mark.parametrize("chains,loops,cv", [
    ((3, 3), (), 2), ((5,), (), 5), ((3,), (8,), 3), ((), (4, 4), 0), ((4, 6), (6,), 4)])
def test_controlled_value(chains, loops, cv):
    assert dc.controlled_value(chains, loops) == cv


long_chains = st.lists(st.integers(3, 9), min_size=1, max_size=5).map(lambda x: tuple(sorted(x)))
loops_ = st.lists(st.integers(2, 5).map(lambda n: 2 * n), max_size=3).map(
    lambda x: tuple(sorted(x)))


@given(long_chains, loops_)
def test_the_controller_gets_at_least_the_controlled_value(chains, loops):
    assert -dc.loony_value(chains, loops) >= dc.controlled_value(chains, loops)


@given(long_chains)
def test_long_chains_alone_are_worth_their_controlled_value(chains):
    """Berlekamp: with a controlled value of 2 or more the controller keeps control to the end."""
    cv = dc.controlled_value(chains, ())
    assume(cv >= 2)
    assert -dc.loony_value(chains, ()) == cv


def loony_position(rows: int, cols: int, seed: int) -> int:
    """Safe lines at random until none is left."""
    geo, rng, mask = geometry(rows, cols), random.Random(seed), 0
    while safe := dc.safe_lines(geo, mask):
        mask |= 1 << rng.choice(safe)
    return mask


_MEMOS: dict = {}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(1, 4), (2, 2), (2, 3), (3, 3), (2, 4)]), st.integers(0, 2 ** 32))
def test_chain_values_equal_the_exact_search_on_simple_endgames(size, seed):
    geo = geometry(*size)
    mask = loony_position(*size, seed)
    d = dc.decompose(geo, mask)
    assume(d.simple)
    memo = _MEMOS.setdefault(size, Memo(geo))
    assert dc.loony_value(*d.sizes()) == memo.value(mask)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(2, 3), (3, 3), (2, 4), (1, 6)]), st.integers(0, 2 ** 32))
def test_the_compiled_search_agrees_on_simple_endgames(search, size, seed):
    geo = geometry(*size)
    mask = loony_position(*size, seed)
    d = dc.decompose(geo, mask)
    assume(d.simple)
    got = search(*size).value(mask, Budget(3600, now=frozen_clock()))
    assert got == dc.loony_value(*d.sizes())
    assert search(*size).exact


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(2, 3), (3, 3), (2, 4)]), st.integers(0, 2 ** 32))
def test_the_compiled_search_is_exact_on_loony_positions_with_joints(search, size, seed):
    """Once no safe line is left the search's model (open a chain or loop, take all or keep
    control) loses nothing, joints between chains included."""
    geo = geometry(*size)
    mask = loony_position(*size, seed)
    memo = _MEMOS.setdefault(size, Memo(geo))
    assert search(*size).value(mask, Budget(3600, now=frozen_clock())) == memo.value(mask)


def test_the_long_chain_rule():
    geo = geometry(4, 5)
    loony = corridors(4, 5)  # four chains of five: the side to move must open one
    assert not dc.rule_says_control(geo, loony, 4)
    # the first box of the last row keeps its left and bottom sides: two safe lines, and the
    # side to move, drawing one of them, leaves the opponent to open the first chain
    fight = loony & ~(1 << h(4, 5, 4, 0))
    d = dc.decompose(geo, fight)
    assert d.joints == (15,) and sum(c.long for c in d.chains) == 4
    assert dc.rule_says_control(geo, fight, 4)
    assert not dc.rule_says_control(geo, fight | 1 << v(4, 5, 3, 0), 4)


# --- keeping control
def test_double_deal_leaves_the_last_two_boxes():
    geo = geometry(1, 3)
    mask = corridors(1, 3) | 1 << v(1, 3, 0, 0)  # the chain of three opened at its left end
    assert dc.double_deal(geo, mask) is None  # three on offer: take one first
    path = dc.decline_path(geo, mask)
    assert path == (v(1, 3, 0, 1), 2)  # take the first box, keeping the decline possible
    after = mask | 1 << v(1, 3, 0, 1)
    assert dc.double_deal(geo, after) == (v(1, 3, 0, 3), 2)


def test_double_deal_in_a_loop_leaves_four():
    geo = geometry(2, 3)
    ring = [h(2, 3, 0, c) for c in range(3)] + [h(2, 3, 2, c) for c in range(3)] + \
        [v(2, 3, r, 0) for r in range(2)] + [v(2, 3, r, 3) for r in range(2)] + \
        [h(2, 3, 1, 1)]  # a loop of six boxes around the middle line
    mask = sum(1 << line for line in ring)
    assert dc.decompose(geo, mask).sizes() == ((), (6,))
    opened = mask | 1 << v(2, 3, 0, 1)  # open the loop between boxes 0 and 1
    taken = opened | 1 << h(2, 3, 1, 0)  # box 0 taken: five left, both ends on offer
    assert dc.double_deal(geo, taken) is None
    taken |= 1 << v(2, 3, 1, 1)  # box 3 taken: 1, 2, 5, 4 left
    assert dc.double_deal(geo, taken) == (h(2, 3, 1, 2), 4)  # two dominoes: 1-2 and 5-4
    assert dc.decline_path(geo, opened)[1] == 4


def play_turn(state: rules.State, seconds: float = 1.0) -> rules.State:
    """Hard's whole turn: lines until the turn passes, each on a budget of about a thousand
    looks at its clock (these searches end exact long before)."""
    mover = state.turn
    while rules.outcome(state) is None and state.turn == mover:
        budget = Budget(seconds, now=TickingClock())
        move = bot.choose(view_of(state), rules.legal_moves(state), budget, "hard",
                          random.Random(0))
        state = rules.apply(state, move)
    return state


def test_hard_declines_the_last_two_boxes_to_keep_control(search):
    # four chains of five; the opponent opened the top one. Taking all five and opening the
    # next is worth 5 - 7; taking three and leaving two keeps control: 3 - 2 + 7.
    rows, cols = 4, 5
    search(rows, cols)
    mask = corridors(rows, cols) | 1 << v(rows, cols, 0, 0)
    assert geometry(rows, cols).lines - mask.bit_count() > bot.EXACT_LINES  # the chain search
    after = play_turn(state_of(rows, cols, mask))
    assert after.scores == (3, 0)
    geo = geometry(rows, cols)
    assert sorted(b for b in range(20) if dc.degree(geo, after.mask, b) == 1) == [3, 4]
    assert dc.captures(geo, after.mask) == [v(rows, cols, 0, 4)]  # one line takes both


def test_hard_takes_all_when_control_is_worth_less(search):
    # 3x5: the top chain of five opened; of the rest only two corner boxes are left, each a
    # chain of one. Taking all five and opening a corner gains 5 + 0; declining only 1 - 0.
    rows, cols = 3, 5
    geo = geometry(rows, cols)
    free = {v(3, 5, 0, c) for c in range(1, 6)} | {v(3, 5, 2, 0), h(3, 5, 3, 0),
                                                   v(3, 5, 2, 5), h(3, 5, 3, 4)}
    mask = sum(1 << i for i in range(geo.lines) if i not in free)
    assert dc.decompose(geo, dc.take_all(geo, mask)[1]).sizes() == ((1, 1), ())
    taken, turn_over = 0, False
    cap = Budget(3600, now=frozen_clock())  # each search ends exact: a cap never reached
    while not turn_over:
        line = dc.chain_move(geo, mask, undrawn := dc.undrawn(geo, mask), cap,
                             random.Random(0), search(rows, cols))
        assert line in undrawn
        got = rules.completed(geo, mask, line)
        taken, turn_over = taken + got, not got
        mask |= 1 << line
    assert taken == 5


def test_hard_makes_the_last_safe_move_rather_than_open_a_chain(search):
    # rows 0-2 chains of five; row 3 a chain of five whose first box still has its left and
    # bottom sides: two safe lines. Drawing either leaves the opponent four chains to open.
    rows, cols = 4, 5
    geo = geometry(rows, cols)
    mask = corridors(rows, cols) & ~(1 << h(rows, cols, 4, 0))
    safe = dc.safe_lines(geo, mask)
    assert sorted(safe) == sorted([h(rows, cols, 4, 0), v(rows, cols, 3, 0)])
    for seed in range(3):
        move = bot.choose(view_of(state_of(rows, cols, mask)), rules.legal_moves(
            state_of(rows, cols, mask)), Budget(1.0, now=TickingClock()), "hard",
            random.Random(seed))
        assert move in safe
    values = search(rows, cols).root(mask, Budget(3600, now=frozen_clock()))
    assert values[safe[0]] == 20 - 4 * 3  # the controlled value of four chains of five
    assert search(rows, cols).exact


def test_hard_does_not_give_a_chain_when_a_safe_line_is_left(search):
    # three chains of five above a row of untouched boxes (each of degree 3): many safe lines
    rows, cols = 4, 5
    geo = geometry(rows, cols)
    mask = sum(1 << h(rows, cols, r, c) for r in range(4) for c in range(cols))
    assert dc.safe_lines(geo, mask)
    for seed in range(3):
        move = bot.choose(view_of(state_of(rows, cols, mask)), rules.legal_moves(
            state_of(rows, cols, mask)), Budget(0.5, now=TickingClock()), "hard",
            random.Random(seed))
        assert dc.take_all(geo, mask | 1 << move)[0] <= 2
