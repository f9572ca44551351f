"""The compiled Ataxx kernel against the pure rules: move lists, perft, random playouts, random
positions; its search legal, on time and right in forced positions; the fallback without it."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import ataxx as bot
from ai import ataxx_patterns as patterns
from ai.base import Budget
from ai.compiled import Kernel
from game.rules import ataxx as rules
from tests.fakes.cancel import CancelAfter, frozen_clock
from tests.fakes.ticking import TickingClock
from tests.kernels import compiled

FENS = [
    rules.START_FEN,
    rules.LAYOUTS["corners"],
    rules.LAYOUTS["cross"],
    "x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1",
    "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1",  # x must pass
    "7/7/7/7/-------/-------/xxxxxxx x 0 1",  # o has no stones: over
    "x5o/7/7/7/7/7/o5x x 99 60",  # one jump from the move limit
    "xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxx1 o 0 40",
    "7/1xo4/2-x3/3o3/4-2/1ox4/7 o 3 12",
]


@pytest.fixture(scope="module")
def kernel():
    return compiled(bot.KERNEL, bot.warm_up())


def _kernel_moves(k, pos):
    return sorted(bot._decode(m) for m in k.move_list(pos.own(), pos.enemy(), pos.gaps))


def _pure_moves(pos):
    if rules.game_over(pos):
        return []
    return sorted(m for m in rules.moves_of(pos) if m != (-1, -1))


@pytest.mark.parametrize("fen", FENS)
def test_perft_matches_the_rules(kernel, fen):
    pos = rules.from_fen(fen)
    for depth in range(4):
        assert kernel.perft_count(pos.own(), pos.enemy(), pos.gaps, pos.halfmove,
                                  depth) == rules.perft(pos, depth), (fen, depth)


def test_perft_of_the_start_is_libataxx_s(kernel):
    pos = rules.from_fen(rules.START_FEN)
    assert kernel.perft_count(pos.x, pos.o, pos.gaps, 0, 5) == 4752668


def test_random_playouts_generate_the_rules_moves(kernel):
    rng = random.Random(7)
    for layout in rules.LAYOUTS.values():
        for _ in range(3):
            pos = rules.from_fen(layout)
            while not rules.game_over(pos):
                assert _kernel_moves(kernel, pos) == _pure_moves(pos)
                pos = rules.make(pos, *rng.choice(rules.moves_of(pos)))


_SQUARES = st.lists(st.sampled_from("xo-."), min_size=49, max_size=49)


@settings(max_examples=150, deadline=None)
@given(cells=_SQUARES, turn=st.integers(0, 1), half=st.integers(0, 100))
def test_random_positions_agree(kernel, cells, turn, half):
    x = o = gaps = 0
    for sq, c in enumerate(cells):
        bit = 1 << sq
        x |= bit if c == "x" else 0
        o |= bit if c == "o" else 0
        gaps |= bit if c == "-" else 0
    pos = rules.Position(x, o, gaps, turn, half)
    if not rules.game_over(pos):  # generation alone knows no end; perft does
        assert _kernel_moves(kernel, pos) == _pure_moves(pos)
    for depth in (1, 2):
        assert kernel.perft_count(pos.own(), pos.enemy(), gaps, half, depth) == \
            rules.perft(pos, depth)


def _search(fen, depth=6, **kw):
    """The compiled search to `depth` plies at most: its clock never moves, so the depth (or a
    win found) ends it, whatever the machine's load."""
    return bot.CompiledSearch(bot.KERNEL.load(), Budget(60, now=frozen_clock()), depth,
                              **kw).best_move(rules.from_fen(fen))


@pytest.mark.parametrize("fen", [
    "7/7/7/2ooo2/7/3x3/7 x 0 10",  # d3 takes all three
    "7/7/7/7/7/1o5/x6 x 0 10",  # a2 or b1 converts the last o stone
])
def test_finds_the_win_in_one(kernel, fen):
    move, score, _ = _search(fen)
    assert rules.outcome(rules.make(rules.from_fen(fen), *move)).winner == 0
    assert score >= bot.WIN - 1000


def test_sees_a_win_three_plies_deep(kernel):
    # o's only stone sits in the corner: any o reply leaves stones that x converts next move
    fen = "o1x4/2x4/xx5/7/7/7/7 x 0 10"
    move, score, depth = _search(fen)
    assert score >= bot.WIN - 1000
    pos = rules.make(rules.from_fen(fen), *move)
    assert rules.game_over(pos) or all(
        rules.outcome(rules.make(rules.make(pos, *reply), *_search(
            rules.to_fen(rules.make(pos, *reply)))[0])) is not None
        for reply in rules.moves_of(pos))


@pytest.mark.parametrize("fen", FENS[:4] + FENS[8:])
def test_search_is_legal_and_on_time(kernel, fen):
    """On its own clock: a ticking one, so a loaded machine cannot make it late or shallow."""
    pos = rules.from_fen(fen)
    clock = TickingClock(step=0.001)
    budget = Budget(0.2, now=clock)
    start = clock.t
    move, _, depth = bot.CompiledSearch(kernel, budget).best_move(pos)
    assert clock.t - start < 0.2 + 0.02  # stopped within a few looks at the clock of its end
    assert move in rules.moves_of(pos) and depth >= 4


def test_node_limit_makes_it_repeatable(kernel):
    a = bot.CompiledSearch(kernel, Budget(30, now=frozen_clock()), node_limit=50_000)
    b = bot.CompiledSearch(kernel, Budget(30, now=frozen_clock()), node_limit=50_000)
    bot._TABLE.clear()
    first = a.best_move(rules.from_fen(rules.START_FEN))
    bot._TABLE.clear()
    assert b.best_move(rules.from_fen(rules.START_FEN)) == first


def test_cancel_stops_the_compiled_search(kernel):
    """Only the cancel can end this search: its clock never moves and 64 plies from the start
    would take forever (pytest-timeout fails a search that ignores it). The flag turns on at
    its 25th look, about 0.1 s of the watcher's looks, in the middle of some depth."""
    cancel = CancelAfter(25)
    search = bot.CompiledSearch(kernel, Budget(30, cancel, now=frozen_clock()))
    move, _, depth = search.best_move(rules.from_fen(rules.START_FEN))
    assert cancel.asked >= 25 and move in rules.moves_of(rules.new_game())
    assert depth < search.max_depth


def test_search_uses_the_kernel_once_ready(kernel, monkeypatch):
    """Search hands its budget to the compiled search (unless told not to), and reports its
    nodes; both searches go four plies deep on a clock that never moves."""
    made = []

    class Spy(bot.CompiledSearch):
        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            made.append(self)

    monkeypatch.setattr(bot, "CompiledSearch", Spy)
    search = bot.Search(Budget(60, now=frozen_clock()), bot._TABLE, max_depth=4)
    search.best_move(rules.from_fen(rules.START_FEN))
    assert len(made) == 1 and made[0].k is kernel and made[0].budget is search.budget
    assert search.nodes == made[0].nodes > 0 and search.depth_reached == 4
    pure = bot.Search(Budget(60, now=frozen_clock()), {}, max_depth=4, compiled=False)
    pure.best_move(rules.from_fen(rules.START_FEN))
    assert len(made) == 1 and pure.nodes > 0 and pure.depth_reached == 4


def test_without_numba_the_pure_search_plays(monkeypatch):
    monkeypatch.setenv("PAPER_ARCADE_NO_NUMBA", "1")
    assert bot.KERNEL.get() is None
    budget = Budget(0.1, now=TickingClock(0.01))  # ten looks: some 10,000 nodes
    move = bot.choose({"fen": rules.START_FEN}, [], budget, "hard", random.Random(1))
    assert move in rules.legal_moves(rules.new_game())


def test_a_kernel_that_fails_to_load_is_none():
    broken = Kernel("ai.no_such_kernel_module")
    assert broken.load() is None and broken.error is not None
    assert broken.get() is None


def test_a_kernels_prepare_runs_once_before_anyone_gets_it():
    seen = []
    k = Kernel("ai.dots_kernel", prepare=lambda module: seen.append((module, k.get())))
    module = k.load()
    k.load()
    assert module is not None and seen == [(module, None)]
    assert k.get() is module


def test_the_first_search_of_a_process_takes_tables_made_at_load(kernel, monkeypatch):
    """Making a table inside a move's budget cost the first move of a process most of 100 ms
    (its 24 MB mapped page by page): the kernel's load pools one, written through."""
    assert bot.KERNEL.prepare is not None
    monkeypatch.setattr(bot, "_ALL_TABLES", [])
    monkeypatch.setattr(bot, "_FREE_TABLES", [])
    bot.KERNEL.prepare(kernel)
    assert len(bot._FREE_TABLES) == 1
    made = bot._FREE_TABLES[0]
    bot.CompiledSearch(kernel, Budget(60, now=frozen_clock()), node_limit=2000).best_move(
        rules.from_fen(rules.START_FEN))
    assert bot._ALL_TABLES == [made] and bot._FREE_TABLES == [made]
    assert made.tt_data.any()  # the search wrote its table


def test_searches_on_new_threads_reuse_the_tables(kernel):
    """UAI starts each search on a new thread: the tables (24 MB each) must not pile up."""
    import threading

    def one() -> None:
        bot.CompiledSearch(kernel, Budget(60, now=frozen_clock()), node_limit=2000).best_move(
            rules.from_fen(rules.START_FEN))

    one()
    made = len(bot._ALL_TABLES)
    for _ in range(4):
        t = threading.Thread(target=one)
        t.start()
        t.join()
    assert len(bot._ALL_TABLES) == made


@pytest.mark.parametrize("fen", [
    "7/7/7/2ooo2/7/3x3/7 x 0 10",
    "7/7/7/7/7/1o5/x6 x 0 10",
    "o1x4/2x4/xx5/7/7/7/7 x 0 10",
])
@pytest.mark.parametrize("null_move,lmr,futility", [
    (True, 0, False), (False, 1, False), (False, 2, False), (False, 0, True), (True, 2, True)])
def test_pruning_keeps_the_forced_wins(kernel, fen, null_move, lmr, futility):
    move, score, _ = _search(fen, null_move=null_move, lmr=lmr, futility=futility)
    assert score >= bot.WIN - 1000 and move in rules.moves_of(rules.from_fen(fen))


def test_weights_come_from_the_control_block(kernel):
    """A rim stone is worth W_EDGE more: the same position scores differently by the weight."""
    pos = rules.from_fen("x6/7/7/3o3/7/7/7 x 0 10")
    ctl = np.zeros(kernel.CTL_SIZE, dtype=np.int64)
    tables = np.zeros((patterns.PHASES, patterns.CLASSES, patterns.CELLS), dtype=np.int32)
    plain = int(kernel.evaluate(np.uint64(pos.own()), np.uint64(pos.enemy()),
                                np.uint64(pos.gaps), ctl, tables))
    ctl[kernel.W_EDGE] = 50
    assert int(kernel.evaluate(np.uint64(pos.own()), np.uint64(pos.enemy()),
                               np.uint64(pos.gaps), ctl, tables)) == plain + 50


@settings(max_examples=60, deadline=None)
@given(cells=_SQUARES, seed=st.integers(0, 2**32 - 1))
def test_learned_patterns_read_the_board_as_training_does(kernel, cells, seed):
    """The kernel's pattern sum equals the training script's reading of the same board
    (ai/ataxx_patterns.indices) with random tables: the same windows, classes and turns."""
    x = sum(1 << sq for sq, c in enumerate(cells) if c == "x")
    o = sum(1 << sq for sq, c in enumerate(cells) if c == "o")
    rng = np.random.default_rng(seed)
    tables = rng.integers(-5000, 5000, (patterns.PHASES, patterns.CLASSES, patterns.CELLS),
                          dtype=np.int32)
    own, opp = np.array([x], dtype=np.uint64), np.array([o], dtype=np.uint64)
    idx = patterns.indices(own, opp)[0]
    empties = 49 - len([c for c in cells if c != "."])
    a = min(empties, patterns.EMPTY_SPAN)
    flat = tables.reshape(patterns.PHASES, -1)
    expected = (int(flat[0, idx].sum()) * a + int(flat[1, idx].sum()) * (patterns.EMPTY_SPAN - a)) \
        // (patterns.EMPTY_SPAN * patterns.SCALE)
    assert int(kernel.learned(np.uint64(x), np.uint64(o), empties, tables)) == expected


def test_patterns_see_turned_boards_alike():
    """A board and its mirror images read as the same patterns of the same classes, so one
    value serves all eight."""
    rng = random.Random(3)
    for _ in range(50):
        cells = [rng.choice("xo.") for _ in range(49)]
        mirror = [cells[(sq // 7) * 7 + 6 - sq % 7] for sq in range(49)]
        turned = [cells[(sq % 7) * 7 + sq // 7] for sq in range(49)]
        boards = []
        for c in (cells, mirror, turned):
            x = sum(1 << sq for sq, v in enumerate(c) if v == "x")
            o = sum(1 << sq for sq, v in enumerate(c) if v == "o")
            boards.append(sorted(patterns.indices(np.array([x], dtype=np.uint64),
                                                  np.array([o], dtype=np.uint64),
                                                  canonical=True)[0]))
        assert boards[0] == boards[1] == boards[2]


def test_expanded_tables_value_turned_boards_alike(kernel):
    """Tables learned on canonical patterns, expanded for the kernel, give a board, its mirror
    and its transpose the same value."""
    rng = np.random.default_rng(5)
    tables = patterns.expand(rng.integers(-5000, 5000, (patterns.PHASES, patterns.CLASSES,
                                                        patterns.CELLS), dtype=np.int32))
    pick = random.Random(5)
    for _ in range(50):
        cells = [pick.choice("xo..") for _ in range(49)]
        values = set()
        for sq_of in (lambda sq: sq, lambda sq: (sq // 7) * 7 + 6 - sq % 7,
                      lambda sq: (sq % 7) * 7 + sq // 7):
            c = [cells[sq_of(sq)] for sq in range(49)]
            x = sum(1 << sq for sq, v in enumerate(c) if v == "x")
            o = sum(1 << sq for sq, v in enumerate(c) if v == "o")
            values.add(int(kernel.learned(np.uint64(x), np.uint64(o), c.count("."), tables)))
        assert len(values) == 1


def test_a_setting_does_not_outlive_its_search(kernel):
    """The pool lends tables to the next search: a bench's weights and switches must not
    leak into the bot's next move."""
    bot.CompiledSearch(kernel, Budget(60, now=frozen_clock()), node_limit=2000,
                       null_move=not bot.NULL_MOVE,
                       weights={kernel.W_TEMPO: 999}).best_move(rules.new_game())
    tables = bot._FREE_TABLES[-1]
    tables.new_search()
    assert tables.ctl[kernel.W_TEMPO] == kernel.WEIGHTS[kernel.W_TEMPO]
    assert tables.ctl[kernel.NULL_MOVE] == 0


def test_a_cut_short_iteration_gives_a_move_not_a_depth(kernel):
    """Out of nodes mid-iteration, the search may play the move that already beat the last
    iteration's best, but reports only the depths it finished."""
    pos = rules.from_fen(rules.LAYOUTS["cross"])
    found = {}
    for partial in (False, True):
        bot._TABLE.clear()
        search = bot.CompiledSearch(kernel, Budget(30, now=frozen_clock()), node_limit=20_000,
                                    partial=partial)
        found[partial] = search.best_move(pos)
        assert found[partial][0] in rules.moves_of(pos)
    assert found[True][2] == found[False][2]


def test_the_shipped_evaluation_is_learned(kernel):
    """ai/data holds trained tables of the kernel's shape and a weight for each hand-made term
    it names; Hard plays with them."""
    tables, weights = patterns.load()
    assert tables.shape == (patterns.PHASES, patterns.CLASSES, patterns.CELLS)
    assert np.count_nonzero(tables) > 10_000
    assert set(weights) == set(kernel.LEARNED_SLOTS)
    assert bot.LEARNED


def test_a_tables_file_with_unknown_terms_is_refused(tmp_path):
    """A weight the kernel has no slot for is refused when the file is read, not at the
    first search (the kernel then fails to load and the pure search plays)."""
    path = tmp_path / "bad.npz"
    np.savez(path, tables=np.zeros((patterns.PHASES, patterns.CLASSES, patterns.CELLS),
                                   dtype=np.int32),
             weight_names=np.array(["material", "bogus"]), weights=np.array([100, 5]))
    with pytest.raises(ValueError, match="bogus"):
        patterns.load(str(path))


# x is 8 stones ahead and moves into c4, the last square it can reach: then o jumps g4-g2 and
# back while x, with no move, passes, until the clone rule draws the game (AtaxxDotCpp drew a
# game of Hard's so, 28-20). x's every move leads there: the position is a draw.
SHUFFLE_DRAW = "xxxoxxx/xxxxooo/xxxxooo/xx1xooo/xxxxooo/xxxooo1/xxxoooo x 10 52"
SHUFFLE_HELD = "xxxoxxx/xxxxooo/xxxxooo/xxxxooo/xxxxooo/xxxooo1/xxxoooo o 1 53"  # o to jump


@pytest.mark.parametrize("fen", [SHUFFLE_DRAW, SHUFFLE_HELD])
def test_stones_ahead_are_no_win_while_the_other_side_can_jump_to_and_fro(kernel, fen):
    """The clone rule's draw lies 90 plies away, past any search: before, the search valued
    x 14 stones up (1411) at depth 64 and played into it."""
    _, score, _ = _search(fen, depth=12)
    assert score == 0


def test_the_pure_search_sees_the_to_and_fro_too():
    """o, 8 stones behind, holds the draw (in SHUFFLE_DRAW x may jump about too, and the pure
    search's few plies do not reach x's pass)."""
    pure = bot.Search(Budget(60, now=frozen_clock()), {}, max_depth=4, compiled=False)
    move, score, _ = pure.best_move(rules.from_fen(SHUFFLE_HELD))
    assert score == 0 and move[0] >= 0  # a jump, not the fill that loses


@settings(max_examples=200, deadline=None)
@given(cells=st.lists(st.sampled_from("xxxooo.-"), min_size=49, max_size=49),
       turn=st.integers(0, 1))
def test_the_kernel_sees_a_to_and_fro_as_the_pure_search_does(kernel, cells, turn):
    """Crowded random boards (a few empty squares, where the question arises)."""
    x = sum(1 << sq for sq, c in enumerate(cells) if c == "x")
    o = sum(1 << sq for sq, c in enumerate(cells) if c == "o")
    gaps = sum(1 << sq for sq, c in enumerate(cells) if c == "-")
    pos = rules.Position(x, o, gaps, turn, 0)
    u = np.uint64
    assert kernel.can_shuffle(u(pos.own()), u(pos.enemy()), u(gaps)) == bot.can_shuffle(pos)


def test_a_to_and_fro_needs_a_jump_that_leaves_the_other_side_stuck():
    held = rules.from_fen(SHUFFLE_HELD)
    assert bot.can_shuffle(held)  # g4-g2: g4 is out of x's reach
    assert not bot.can_shuffle(rules.from_fen(  # e4-g2 would open e4 to x's d4
        "xxxoxxx/xxxxooo/xxxxooo/xxxxoxx/xxxxooo/xxxooo1/xxxoooo o 1 53"))
