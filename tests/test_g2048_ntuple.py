"""2048's n-tuple network: its value is the same under the board's 8 symmetries, a TD step
moves it toward its target, the compiled search with the network picks the move the Python
reference would, and a missing or broken weight file leaves the bot on its heuristic."""

import importlib
import random
import threading

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ai import g2048 as bot
from ai import g2048_ntuple as ntuple
from ai.base import Budget
from game.rules import g2048 as rules
from tests.kernels import compiled


def random_board(rng: random.Random, tiles: int = 10) -> int:
    cells = [0] * 16
    for i in rng.sample(range(16), tiles):
        cells[i] = 1 << rng.randint(1, 13)
    return rules.pack(cells)


def image(board: int, sym: tuple[int, ...]) -> int:
    out = 0
    for cell in range(16):
        out |= ((board >> (4 * cell)) & 0xF) << (4 * sym[cell])
    return out


def sparse_weights(boards: list[int], seed: int) -> np.ndarray:
    """Zero weights (never touched: the pages stay unallocated) but random ones at every
    feature the boards read."""
    rng = np.random.default_rng(seed)
    net = np.zeros(ntuple.SIZE, dtype=np.float32)
    for b in boards:
        for i in ntuple.features(b):
            if net[i] == 0:
                net[i] = rng.uniform(1, 1000)
    return net


@pytest.fixture(scope="module")
def kernel():
    return compiled(bot.KERNEL)


@pytest.fixture(scope="module")
def train(kernel):
    # a module by its name: numba's cache pickles references to the module's functions by it
    return importlib.import_module("bench.g2048_ntuple_train")


def test_the_symmetries_are_eight_distinct_permutations():
    maps = ntuple.symmetries()
    assert len(set(maps)) == 8
    assert all(sorted(m) == list(range(16)) for m in maps)


def test_value_is_the_same_under_the_eight_symmetries(kernel):
    rng = random.Random(3)
    boards = [random_board(rng, n) for n in (4, 9, 14)]
    images = [image(b, sym) for b in boards for sym in ntuple.symmetries()]
    net = sparse_weights(images, 1)
    for b in boards:
        values = [ntuple.value(image(b, sym), net) for sym in ntuple.symmetries()]
        assert values[0] > 0
        assert values == pytest.approx([values[0]] * 8, rel=1e-9)
        assert kernel.network_value(b, net) == pytest.approx(values[0], rel=1e-6)


def test_a_td_step_moves_the_value_toward_its_target(kernel, train):
    # distinct tiles everywhere: the 32 weights the board reads are 32 different ones
    board = rules.pack([2 << i for i in range(16)][:15] + [0])
    assert len(set(ntuple.features(board))) == 32
    net = sparse_weights([board], 2)
    cells, none = ntuple.cell_table(), np.zeros(1, dtype=np.float32)
    before = ntuple.value(board, net)
    target = before + 5000.0
    after = train.update(np.uint64(board), 0.25 * (target - before), net, cells, False, none,
                         none)
    assert after == pytest.approx(ntuple.value(board, net), rel=1e-6)
    assert after == pytest.approx(before + 0.25 * 5000.0, rel=1e-5)
    # TC: steps at full rate while the errors agree; after errors that cancel out, none
    coh_e = np.zeros(ntuple.SIZE, dtype=np.float32)
    coh_a = np.zeros(ntuple.SIZE, dtype=np.float32)
    first = train.update(np.uint64(board), 100.0, net, cells, True, coh_e, coh_a)
    assert first == pytest.approx(after + 100.0, rel=1e-5)
    second = train.update(np.uint64(board), 50.0, net, cells, True, coh_e, coh_a)
    assert second == pytest.approx(first + 50.0, rel=1e-5)
    third = train.update(np.uint64(board), -150.0, net, cells, True, coh_e, coh_a)
    assert third == pytest.approx(second - 150.0, rel=1e-5)  # |E| / A was still 1
    fourth = train.update(np.uint64(board), 100.0, net, cells, True, coh_e, coh_a)
    assert fourth == pytest.approx(third, rel=1e-6)  # E summed to 0: the weights hold


def leaf(board: int, net: np.ndarray) -> float:
    """The search's value of an afterstate: the network's, on the board it values in its place."""
    return ntuple.value(ntuple.downgraded(board), net)


def reference_values(board: int, depth: int, net: np.ndarray) -> list[float]:
    """Each direction's value, Python only: the slide's points plus the network's value of
    the afterstate (depth 0), or of its spawns' best replies (depth 1); -1 for no move."""
    def best_reply(cells: tuple[int, ...]) -> float:
        best = 0.0
        for name in rules.DIRECTIONS:
            after, gained = rules.slide(cells, name)
            if after != cells:
                best = max(best, gained + leaf(rules.pack(after), net))
        return best

    out = []
    cells = rules.unpack(board)
    for name in rules.DIRECTIONS:
        after, gained = rules.slide(cells, name)
        if after == cells:
            out.append(-1.0)
            continue
        if depth == 0:
            out.append(gained + leaf(rules.pack(after), net))
            continue
        empty = [i for i, v in enumerate(after) if v == 0]
        total = 0.0
        for i in empty:
            for tile, p in ((2, 1 - rules.FOUR_PROBABILITY), (4, rules.FOUR_PROBABILITY)):
                spawned = list(after)
                spawned[i] = tile
                total += p / len(empty) * best_reply(tuple(spawned))
        out.append(gained + total)
    return out


def reachable(board: int) -> list[int]:
    """Every afterstate of the board's slides and of its spawns' slides."""
    out = []
    cells = rules.unpack(board)
    for name in rules.DIRECTIONS:
        after = rules.slide(cells, name)[0]
        out.append(rules.pack(after))
        for i in (i for i, v in enumerate(after) if v == 0):
            for tile in (2, 4):
                spawned = list(after)
                spawned[i] = tile
                out += [rules.pack(rules.slide(tuple(spawned), d)[0]) for d in rules.DIRECTIONS]
    return out


def late_board(rng: random.Random, tiles: int = 12) -> int:
    """A board holding 16384, most of its other tiles large: the network values most of its
    afterstates downgraded."""
    cells = [0] * 16
    first, *rest = rng.sample(range(16), tiles)
    cells[first] = 1 << 14
    for i in rest:
        cells[i] = 1 << rng.choice([1, 2, 3, 9, 10, 11, 12, 13])
    return rules.pack(cells)


def test_the_kernel_with_the_network_picks_the_reference_move(kernel):
    rng = random.Random(11)
    boards = [random_board(rng, n) for n in (8, 11, 13)] + [late_board(rng, n) for n in (9, 12)]
    assert any(ntuple.downgraded(a) != a for b in boards[3:] for a in reachable(b))
    net = sparse_weights([ntuple.downgraded(a) for b in boards for a in reachable(b)], 3)
    tables = kernel.Tables(bot.heuristic_table(), net=net)
    for b in boards:
        for depth in (0, 1):
            tables.new_search()
            values, done = tables.search(b, depth, 0.0)
            expected = reference_values(b, depth, net)
            assert done == 4
            assert list(values) == pytest.approx(expected, rel=1e-5)
            assert int(np.argmax(values)) == int(np.argmax(expected))


def test_missing_corrupt_or_foreign_weight_files_give_no_network(tmp_path, monkeypatch):
    assert ntuple.load(tmp_path / "absent.npz") is None
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file at all" * 10)
    assert ntuple.load(junk) is None
    other = tmp_path / "other.npz"
    np.savez_compressed(other, format=np.array(1), tuples=np.array([[0, 1, 2, 3, 4, 5]]),
                        gap=np.zeros(1, np.uint32), value=np.ones(1, np.float16),
                        scale=np.array(1.0))
    assert ntuple.load(other) is None
    beyond = tmp_path / "beyond.npz"
    np.savez_compressed(beyond, format=np.array(1), tuples=np.array(ntuple.TUPLES),
                        gap=np.array([ntuple.SIZE], np.uint32), value=np.ones(1, np.float16),
                        scale=np.array(1.0))
    assert ntuple.load(beyond) is None
    good = tmp_path / "good.npz"
    net = np.zeros(ntuple.SIZE, dtype=np.float32)
    net[[5, 1 << 24, ntuple.SIZE - 1]] = [1.5, -2.25, 3000.0]
    ntuple.save(good, net)
    loaded = ntuple.load(good)
    assert loaded is not None and np.count_nonzero(loaded) == 3
    assert loaded[[5, 1 << 24, ntuple.SIZE - 1]].tolist() == [1.5, -2.25, 3000.0]
    net[6] = -80000.0  # beyond float16: the file scales every weight by a power of two
    ntuple.save(good, net)
    loaded = ntuple.load(good)
    assert loaded is not None
    assert loaded[[5, 6, ntuple.SIZE - 1]].tolist() == [1.5, -80000.0, 3000.0]
    for gap, value in (([3, -2], [1.0, 1.0]), ([3, 2], [1.0, np.inf])):  # crafted files
        crafted = tmp_path / "crafted.npz"
        np.savez_compressed(crafted, format=np.array(1), tuples=np.array(ntuple.TUPLES),
                            gap=np.array(gap), value=np.array(value, np.float16),
                            scale=np.array(1.0))
        assert ntuple.load(crafted) is None
    monkeypatch.setattr(ntuple, "MAX_FILE_BYTES", 10)
    assert ntuple.load(good) is None


def test_the_bot_falls_back_to_its_heuristic_without_a_network(tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"\x00" * 100)
    try:
        assert bot.use_evaluation("ntuple", str(junk)) == "heuristic"
        assert bot._network_in_use() is None
        state = rules.new_game(None, 5)
        legal = rules.legal_moves(state)
        clock = iter(range(0, 10**6)).__next__  # a clock that moves with every look
        move = bot.choose(rules.view(state, 0), legal, Budget(50, now=clock), "hard",
                          random.Random(1))
        assert move in legal
        with pytest.raises(ValueError):
            bot.use_evaluation("nonsense")
    finally:
        bot.use_evaluation(bot.HARD_EVALUATION)


def test_hard_reads_its_network_off_the_search_and_plays_the_heuristic_meanwhile(
        tmp_path, monkeypatch):
    good = tmp_path / "net.npz"
    net = np.zeros(ntuple.SIZE, dtype=np.float32)
    net[7] = 2.5
    ntuple.save(good, net)
    monkeypatch.setattr(ntuple, "FILE", good)
    monkeypatch.setattr(bot, "_EVALUATION", {"name": "ntuple", "net": None})
    reading = threading.Event()  # the file is being read until the test says it is done
    load = ntuple.load
    monkeypatch.setattr(ntuple, "load", lambda path: reading.wait(10) and load(path))
    assert bot._network_in_use() is None  # the heuristic, while the file is read
    reading.set()
    bot._EVALUATION["loader"].join()
    loaded = bot._network_in_use()
    assert loaded is not None and loaded[7] == 2.5
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"PK\x03\x04 broken")
    monkeypatch.setattr(ntuple, "FILE", broken)
    monkeypatch.setattr(bot, "_EVALUATION", {"name": "ntuple", "net": None})
    assert bot._network_in_use() is None
    bot._EVALUATION["loader"].join()
    assert bot._EVALUATION["name"] == "heuristic" and bot._network_in_use() is None


def test_hard_plays_the_shipped_network_which_prefers_an_ordered_board(monkeypatch):
    assert bot.HARD_EVALUATION == "ntuple"
    assert ntuple.FILE.stat().st_size <= ntuple.MAX_FILE_BYTES
    monkeypatch.setattr(bot, "_EVALUATION", {"name": bot.HARD_EVALUATION, "net": None})
    bot._network_in_use()
    bot._EVALUATION["loader"].join()
    net = bot._network_in_use()
    assert net is not None and np.all(np.isfinite(net))
    # the same tiles in a snake down from a corner, and scattered so that no two can merge
    snake = rules.pack([1024, 512, 256, 128, 4, 8, 16, 64, 2, 0, 0, 32, 0, 0, 0, 0])
    scattered = rules.pack([2, 32, 128, 8, 0, 1024, 0, 16, 64, 0, 512, 0, 0, 4, 0, 256])
    assert ntuple.value(snake, net) > ntuple.value(scattered, net) + 1000


def test_a_machine_without_room_for_the_dense_tables_gives_no_network(monkeypatch):
    monkeypatch.setattr(ntuple, "SIZE", 1 << 60)  # tables no machine has the memory for
    assert ntuple.load() is None


def test_only_hard_evaluates_with_the_network(kernel, monkeypatch):
    net = np.zeros(ntuple.SIZE, dtype=np.float32)
    net[7] = 2.5
    monkeypatch.setattr(bot, "_EVALUATION", {"name": "ntuple", "net": net})
    given = []
    take = bot._take_tables
    monkeypatch.setattr(bot, "_take_tables",
                        lambda k, n=None: given.append(n is net) or take(k, n))
    state = rules.new_game(None, 3)
    for level in ("easy", "normal", "hard"):
        bot.choose(rules.view(state, 0), rules.legal_moves(state),
                   Budget(0.05, now=iter(range(10**6)).__next__), level, random.Random(1))
    assert given == [False, False, True]


def test_games_from_start_boards_play_on_from_them_and_record_their_first_16384(train):
    merge = rules.pack([8192, 8192, 2, 4] + [0] * 12)  # the first slide either way makes 16384
    holding = rules.pack([16384, 2, 0, 0] + [0] * 12)
    none = np.zeros(1, dtype=np.float32)
    net = np.zeros(ntuple.SIZE, dtype=np.float32)
    cells, tabs, gain = ntuple.cell_table(), train._K.slide_tables(), train._K._gain()
    for start in (merge, holding):
        out = np.zeros((3, 3), dtype=np.int64)
        staged = np.zeros(3, dtype=np.uint64)
        train.play_chunk(5, 3, np.array([start], dtype=np.uint64), net, cells, tabs, gain,
                         0.0, False, False, none, none, out, staged)
        assert np.all(out[:, 1] >= 14) and np.all(out[:, 2] >= 1)
        for board in staged.tolist():
            assert 16384 in rules.unpack(board)
            assert (board == start) == (start == holding)
    out = np.zeros((4, 3), dtype=np.int64)
    staged = np.zeros(4, dtype=np.uint64)
    train.play_chunk(5, 4, np.zeros(0, dtype=np.uint64), net, cells, tabs, gain, 0.0, False,
                     False, none, none, out, staged)
    assert np.all(out[:, 1] < 14) and np.all(staged == 0)  # new games, far from 16384


def test_a_promoted_checkpoint_starts_with_the_others_weights_and_rates(train, tmp_path,
                                                                      monkeypatch):
    monkeypatch.setattr(ntuple, "SIZE", 1 << 12)  # small checkpoints: the same code
    early = train.Trainer(str(tmp_path / "early.npz"), tc=True)
    early.net[[3, 1 << 11]] = [4.5, -7.0]
    early.coh_e[3], early.coh_a[3] = 1.0, 8.0
    early.save()
    late = train.Trainer(str(tmp_path / "late.npz"), tc=True, promote=str(tmp_path / "early.npz"))
    assert late.games == 0 and late.net[3] == 4.5 and late.net[1 << 11] == -7.0
    assert late.coh_e[3] == 1.0 and late.coh_a[3] == 8.0
    late.net[3] = 0.0
    assert early.net[3] == 4.5  # a copy: training the late stage leaves the early one


exponents = st.lists(st.integers(0, 15), min_size=16, max_size=16)


def packed(cells: list[int]) -> int:
    return sum(e << (4 * c) for c, e in enumerate(cells))


# the whole chain from 16384 down to 512 (256 missing), and a board with 32768 and no gap at all
@example(cells=[14, 13, 12, 11, 10, 9, 7, 6, 1, 2, 1, 0, 0, 3, 0, 0])
@example(cells=[15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1])
@settings(max_examples=300, deadline=None)
@given(cells=exponents)
def test_downgrading_keeps_every_merge_and_leaves_a_board_the_network_knows(kernel, cells):
    """The board the network values past 16384: the kernel's is the reference's, equal tiles
    stay equal and the order of any two stays, a board below 16384 is its own, and what is
    left holds no tile of 16384 or more above a missing one from 32 up."""
    board = packed(cells)
    down = ntuple.downgraded(board)
    assert kernel.downgraded(board) == down
    after = [(down >> (4 * c)) & 0xF for c in range(16)]
    for a in range(16):
        for b in range(16):
            assert (cells[a] == cells[b]) == (after[a] == after[b])
            assert (cells[a] < cells[b]) == (after[a] < after[b])
    if max(cells) < ntuple.DOWNGRADE_FROM:
        assert down == board
    top = max(after)
    assert top < ntuple.DOWNGRADE_FROM or all(
        k in after for k in range(ntuple.DOWNGRADE_LOW, top))
    assert all(e == c for e, c in zip(after, cells) if c <= ntuple.DOWNGRADE_LOW)
