"""Ataxx's network (ai/ataxx_nnue.py) in the compiled search: the accumulator a move updates
is the one a position computes from nothing, the search's scores are those of a plain minimax
on the network, only standard boards use it, and a file is read back as written or refused.
A random network stands in for the trained one: these are rules of the arithmetic, not of
its strength."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import ataxx as bot
from ai import ataxx_nnue as nnue
from ai.base import Budget
from game.rules import ataxx as rules
from tests.fakes.cancel import frozen_clock
from tests.kernels import compiled


@pytest.fixture(scope="module")
def kernel():
    return compiled(bot.KERNEL, bot.warm_up())


def random_net(seed: int, hidden: int = nnue.HIDDEN) -> nnue.Net:
    rng = np.random.default_rng(seed)
    return nnue.quantize(rng.uniform(-0.2, 0.2, (nnue.INPUTS, hidden)),
                         rng.uniform(0.0, 0.6, hidden), rng.uniform(-1.0, 1.0, (2, hidden)),
                         rng.uniform(-0.3, 0.3, 2), 300)


NET = random_net(7)


def random_relative_net(seed: int, hidden: int = 24) -> nnue.Net:
    """A side-relative network, written in absolute colours as the trainer writes one."""
    rng = np.random.default_rng(seed)
    return nnue.quantize(*nnue.absolute(rng.uniform(-0.2, 0.2, (nnue.INPUTS, hidden)),
                                        rng.uniform(0.0, 0.6, hidden),
                                        rng.uniform(-1.0, 1.0, hidden),
                                        float(rng.uniform(-0.3, 0.3))), 300)


def walk(seed: int, plies: int, layout: str = "empty") -> rules.Position:
    """A position some random plies into a game (fewer if it ends)."""
    rng = random.Random(seed)
    pos = rules.new_game({"layout": layout})
    for _ in range(plies):
        moves = rules.moves_of(pos)
        if rules.game_over(pos) or not moves:
            break
        pos = rules.make(pos, *rng.choice(moves))
    return pos


def refreshed(kernel, x: int, o: int) -> np.ndarray:
    acc = np.zeros((2, nnue.HIDDEN), dtype=np.int16)
    kernel.nn_refresh(acc, 0, np.uint64(x), np.uint64(o), NET.rows)
    return acc[0]


def test_the_kernel_reads_the_windows_as_the_training_does(kernel):
    for seed in range(20):
        pos = walk(seed, seed * 3)
        inputs = nnue.features(np.array([pos.x], np.uint64), np.array([pos.o], np.uint64))[0]
        expected = NET.rows[nnue.BIAS_ROW].astype(np.int64) \
            + NET.rows[inputs].astype(np.int64).sum(0)
        assert np.array_equal(refreshed(kernel, pos.x, pos.o), expected)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 60))
def test_a_moves_update_equals_the_accumulator_computed_afresh(kernel, seed, plies):
    pos = walk(seed, plies)
    moves = rules.moves_of(pos)
    if rules.game_over(pos) or not moves:
        return
    move = random.Random(seed).choice(moves)
    after = rules.make(pos, *move)
    acc = np.zeros((2, nnue.HIDDEN), dtype=np.int16)
    kernel.nn_refresh(acc, 0, np.uint64(pos.x), np.uint64(pos.o), NET.rows)
    kernel.nn_update(acc, 0, np.uint64(pos.x), np.uint64(pos.o), np.uint64(after.x),
                     np.uint64(after.o), NET.rows)
    assert np.array_equal(acc[1], refreshed(kernel, after.x, after.o))


def minimax(pos: rules.Position, depth: int, ply: int, kernel, net: nnue.Net) -> int:
    if rules.game_over(pos):
        return bot.Search(Budget(3600, now=frozen_clock())).terminal(pos, ply)
    if depth == 0:
        score = nnue.evaluate(net, pos.x, pos.o, pos.turn == 0)
        return max(-kernel.MATE_ZONE + 1, min(kernel.MATE_ZONE - 1, score))
    moves = rules.moves_of(pos) or [(-1, -1)]
    return max(-minimax(rules.make(pos, *m), depth - 1, ply + 1, kernel, net) for m in moves)


# an opening, a middle game and a crowded board (plies 10, 37 and 55), and a relative network
@pytest.mark.long
@pytest.mark.parametrize(("seed", "relative"), [(0, False), (3, False), (5, False), (2, True)])
def test_the_search_on_the_network_scores_as_plain_minimax(kernel, seed, relative):
    """Also for a relative network, whose outputs the kernel reads on their own halves of
    the units only (ai.ataxx_nnue.units)."""
    pos = walk(seed, 10 + 9 * seed)
    if rules.game_over(pos) or not rules.moves_of(pos):
        pytest.skip("the walk ended the game")
    net = random_relative_net(seed) if relative else NET
    tables = kernel.Tables(network=net)
    for depth in (1, 2):
        tables.clear()
        tables.new_search(True)
        assert tables.use_network(pos.turn == 0)
        tables.ctl[kernel.FUTILITY] = 0
        score = tables.search(pos.own(), pos.enemy(), pos.gaps, pos.halfmove, depth,
                              -kernel.INF, kernel.INF)
        assert score == minimax(pos, depth, 0, kernel, net)


def _searched(kernel, pos: rules.Position, nnue_on: bool) -> tuple:
    tables = kernel.Tables(tt_bits=16, network=NET)
    search = bot.CompiledSearch(kernel, Budget(3600, now=lambda: 0.0), 4, node_limit=20_000,
                                tables=tables, nnue=nnue_on)
    move, score, _ = search.best_move(pos)
    return move, score, int(tables.ctl[kernel.NNUE])


def test_only_the_standard_board_is_evaluated_by_the_network(kernel):
    assert _searched(kernel, walk(1, 4), True)[2] == 1
    assert _searched(kernel, walk(1, 4), False)[2] == 0
    assert _searched(kernel, walk(1, 4, "cross"), True)[2] == 0  # trained without blockers


def test_the_network_changes_the_search(kernel):
    pos = walk(3, 12)
    on, off = _searched(kernel, pos, True), _searched(kernel, pos, False)
    assert on[1] != off[1]


def test_a_network_file_reads_back_as_written_and_a_wrong_one_is_refused(tmp_path):
    path = str(tmp_path / "net.npz")
    nnue.save(NET, path)
    back = nnue.load(path)
    assert back is not None and np.array_equal(back.rows, NET.rows)
    assert (back.out_bias, back.k) == (NET.out_bias, NET.k)
    assert nnue.load(str(tmp_path / "none.npz")) is None
    for hidden in (6, 2048):
        nnue.save(random_net(1, hidden=hidden), path)
        with pytest.raises(ValueError):
            nnue.load(path)
    cut = nnue.Net(NET.rows[:-1], NET.out_bias, NET.k)
    nnue.save(cut, path)
    with pytest.raises(ValueError):
        nnue.load(path)


def test_quantized_weights_keep_the_accumulator_within_int16():
    worst = random_net(2)
    big = nnue.quantize(np.full((nnue.INPUTS, nnue.HIDDEN), 50.0), np.full(nnue.HIDDEN, 50.0),
                        np.zeros((2, nnue.HIDDEN)), np.zeros(2), 300)
    for net in (worst, big):
        bound = np.abs(net.rows[:nnue.INPUTS].astype(np.int64)).max() * nnue.WINDOWS \
            + np.abs(net.rows[nnue.BIAS_ROW].astype(np.int64)).max()
        assert bound <= np.iinfo(np.int16).max


def test_the_shipped_network_if_any_has_the_kernels_shape():
    net = nnue.load()
    if net is None:
        pytest.skip("no network file shipped")
    assert net.rows.shape[0] == nnue.ROWS and net.rows.dtype == np.int16


def test_a_damaged_network_file_leaves_the_search_compiled_with_the_patterns(kernel, tmp_path):
    """A truncated, foreign or misshapen file gives no network (the patterns evaluate), never
    an exception at the kernel's import (before, it turned the whole compiled search off)."""
    path = tmp_path / "net.npz"
    nnue.save(NET, str(path))
    good = path.read_bytes()
    assert kernel.shipped_network(str(path)) is not None
    for body in (good[:len(good) // 2], b"not a zip", good[:100]):
        path.write_bytes(body)
        assert kernel.shipped_network(str(path)) is None
    nnue.save(nnue.Net(NET.rows[:-1], NET.out_bias, NET.k), str(path))
    assert kernel.shipped_network(str(path)) is None
    tables = kernel.Tables(tt_bits=10, network=None)
    assert tables.use_network(True) is (kernel.NETWORK is not None)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40))
def test_a_relative_network_scores_each_side_to_move_alike_in_absolute_colours(seed, plies):
    """Written in absolute colours (nnue.absolute), a side-relative network gives each side to
    move its own score: the relative network's (quantized alike) on the board as that side
    sees it, its stones as x. So x to move on a board and o to move on the board with the
    colours exchanged score the same."""
    rng = np.random.default_rng(seed % 7)
    hidden = 16
    w, b = rng.uniform(-0.2, 0.2, (nnue.INPUTS, hidden)), rng.uniform(0.0, 0.6, hidden)
    head, head_bias = rng.uniform(-1.0, 1.0, hidden), float(rng.uniform(-0.3, 0.3))
    net = nnue.quantize(*nnue.absolute(w, b, head, head_bias), 300)
    relative = nnue.quantize(w, b, np.stack([head, head]), np.array([head_bias] * 2), 300)
    pos = walk(seed, plies)
    for own, opp, x_to_move in ((pos.x, pos.o, True), (pos.o, pos.x, False)):
        assert nnue.evaluate(net, pos.x, pos.o, x_to_move) == nnue.evaluate(relative, own, opp,
                                                                             True)
    assert nnue.evaluate(net, pos.x, pos.o, True) == nnue.evaluate(net, pos.o, pos.x, False)
    assert np.array_equal(nnue.SWAPPED[nnue.SWAPPED], np.arange(nnue.INPUTS))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 50))
def test_an_imported_engine_network_scores_as_that_engine_computes(seed, plies):
    """bench/ataxx_nnue_import.py: a side-relative network in Zataxx's int16 layout gives each
    side to move what that engine's formula gives (the windows read with its stones as x;
    floor division where the engine's truncates toward zero, the kernel's rounding)."""
    from bench.ataxx_nnue_import import imported
    rng = np.random.default_rng(seed)
    hidden = 16
    w = rng.integers(-60, 60, (nnue.INPUTS, hidden))
    bias, head = rng.integers(0, 200, hidden), rng.integers(-127, 128, hidden)
    raw = np.concatenate([w.ravel(), bias, head, [int(rng.integers(-3000, 3000))]]).astype("<i2")
    net = imported(raw, hidden, 400)
    pos = walk(seed, plies)
    for us, them, x_to_move in ((pos.x, pos.o, True), (pos.o, pos.x, False)):
        acc = bias + w[nnue.features(np.array([us], np.uint64), np.array([them], np.uint64))[0]
                       ].sum(0)
        c = np.clip(acc, 0, nnue.QA)
        engine = ((c * c * head).sum() // nnue.QA + int(raw[-1])) * 400 // (nnue.QA * nnue.QB)
        assert nnue.evaluate(net, pos.x, pos.o, x_to_move) == engine
    with pytest.raises(SystemExit):
        imported(raw[:-2], hidden, 400)
