"""2048 rules: the slide cases that trip implementations up, spawns and their odds, the end,
replays, malformed moves, and the packed tables agreeing with the plain slide."""

import random

import numpy as np
import pytest

from ai import g2048 as bot
from game.match import Match
from game.rules import RulesError
from game.rules import g2048 as rules


def board(state):
    return rules.view(state, 0)["board"]


@pytest.mark.parametrize("line, expected, points", [
    ([2, 2, 2, 2], [4, 4, 0, 0], 8),
    ([2, 2, 4, 4], [4, 8, 0, 0], 12),
    ([2, 2, 4, 0], [4, 4, 0, 0], 4),  # the new 4 does not merge again
    ([4, 4, 8, 0], [8, 8, 0, 0], 8),
    ([2, 2, 2, 0], [4, 2, 0, 0], 4),  # the pair nearest the wall merges
    ([0, 2, 0, 2], [4, 0, 0, 0], 4),
    ([2, 4, 2, 4], [2, 4, 2, 4], 0),
    ([8, 0, 0, 8], [16, 0, 0, 0], 16),
    ([0, 0, 0, 0], [0, 0, 0, 0], 0),
])
def test_slide_line(line, expected, points):
    assert rules.slide_line(line) == (expected, points)


def test_merges_are_taken_from_the_side_moved_toward():
    cells = rules.from_rows([[2, 2, 2, 0], [0] * 4, [0] * 4, [0] * 4]).cells
    assert rules.slide(cells, "left")[0][:4] == (4, 2, 0, 0)
    assert rules.slide(cells, "right")[0][:4] == (0, 0, 2, 4)
    column = rules.from_rows([[2, 0, 0, 0], [2, 0, 0, 0], [2, 0, 0, 0], [0] * 4]).cells
    assert rules.slide(column, "up")[0][::4] == (4, 2, 0, 0)
    assert rules.slide(column, "down")[0][::4] == (0, 0, 2, 4)


def test_apply_slides_scores_and_spawns_one_tile():
    s = rules.from_rows([[2, 2, 4, 4], [2, 2, 2, 2], [0] * 4, [0] * 4], score=10, seed=3)
    after = rules.apply(s, "left")
    assert after.score == 10 + 12 + 8
    slid, _ = rules.slide(s.cells, "left")
    new = [i for i in range(16) if after.cells[i] != slid[i]]
    assert len(new) == 1 and slid[new[0]] == 0 and after.cells[new[0]] in (2, 4)
    assert board(after)[0][:2] == [4, 8] and board(after)[1][:2] == [4, 4]


def test_a_move_that_changes_nothing_is_illegal_and_spawns_nothing():
    s = rules.from_rows([[2, 4, 8, 16], [0] * 4, [0] * 4, [0] * 4], seed=1)
    assert rules.legal_moves(s) == ["down"]
    with pytest.raises(RulesError, match="changes nothing"):
        rules.apply(s, "left")
    assert board(s)[0] == [2, 4, 8, 16] and sum(s.cells) == 30


@pytest.mark.parametrize("bad", [None, 5, "UP", "north", ["up"], {"dir": "up"}, b"up", True])
def test_malformed_moves_are_refused(bad):
    s = rules.new_game(None, 1)
    with pytest.raises(RulesError):
        rules.move_from_wire(bad)
    with pytest.raises(RulesError):
        rules.apply(s, bad)
    assert s == rules.new_game(None, 1)


def test_bad_boards_and_options_are_refused():
    with pytest.raises(RulesError):
        rules.from_rows([[2, 3, 0, 0]] * 4)
    with pytest.raises(RulesError):
        rules.from_rows([[2, 0, 0]] * 4)
    with pytest.raises(RulesError):
        rules.normalize_options({"size": 5})
    with pytest.raises(RulesError):
        rules.new_game(None, "seed")


def test_new_game_has_two_tiles_and_depends_only_on_the_seed():
    games = [rules.new_game(None, seed) for seed in range(200)]
    for g in games:
        tiles = [v for v in g.cells if v]
        assert len(tiles) == 2 and set(tiles) <= {2, 4} and g.score == 0
    assert rules.new_game(None, 42) == rules.new_game(None, 42)
    assert len({g.cells for g in games}) > 50


def test_spawn_odds_over_fixed_seeds():
    """A 4 about one time in ten; every empty cell about equally often (chi-square)."""
    start = rules.from_rows([[2, 0, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4])
    trials = 6000
    fours = 0
    where = np.zeros(16)
    for seed in range(trials):
        after = rules.apply(rules.reseed(start, seed), "right")
        slid, _ = rules.slide(start.cells, "right")
        (cell,) = [i for i in range(16) if after.cells[i] != slid[i]]
        fours += after.cells[cell] == 4
        where[cell] += 1
    sigma = (trials * 0.1 * 0.9) ** 0.5
    assert abs(fours - trials * 0.1) < 4 * sigma
    empty = [i for i in range(16) if slid[i] == 0]
    assert where[[i for i in range(16) if i not in empty]].sum() == 0
    expected = trials / len(empty)
    chi2 = sum((where[i] - expected) ** 2 / expected for i in empty)
    assert chi2 < 32.9  # 13 degrees of freedom, p = 0.002


def test_game_over_without_2048_is_not_a_win():
    s = rules.from_rows([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 8]], score=500)
    assert rules.legal_moves(s) == [] and rules.to_move(s) is None
    out = rules.outcome(s)
    assert out.winner is None and out.score == (500,) and out.reason == "best tile 8"


def test_2048_wins_but_the_game_goes_on_until_no_move():
    going = rules.from_rows([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=9)
    after = rules.apply(going, "left")
    assert rules.best_tile(after) == 2048 and rules.view(after, 0)["best_tile"] == 2048
    assert rules.outcome(after) is None and rules.to_move(after) == 0
    over = rules.from_rows([[2048, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 4096]])
    out = rules.outcome(over)
    assert out.winner == 0 and out.reason == "best tile 4096"


def test_replay_and_undo_rebuild_the_same_states():
    rng = random.Random(4)
    m = Match("g2048", None, 77)
    for turn in range(120):
        if m.over:
            break
        m.play(rng.choice(m.legal_moves()))
        if turn % 25 == 24:
            m.undo()  # undo redraws the unrevealed spawns
    assert m.reseeds
    again = Match.from_record(m.to_record())
    assert again.state == m.state and again.moves == m.moves
    first = Match("g2048", None, 77)
    for move in m.moves[:10]:
        first.play(move)
    assert first.states[:5] == [Match.from_record(m.to_record()).states[i] for i in range(5)]


def test_undo_does_not_reveal_the_next_spawn():
    m = Match("g2048", None, 5)
    move = m.legal_moves()[0]
    m.play(move)
    seen = m.state
    m.undo()
    m.play(move)
    redrawn = m.state
    m2 = Match("g2048", None, 5)
    m2.play(move)
    assert m2.state == seen  # the same seed and move give the same spawn
    assert redrawn.cells[:] != seen.cells or redrawn.rng != seen.rng


def test_slide_paths_cover_every_tile_and_land_on_the_slide():
    rng = random.Random(2)
    for _ in range(300):
        cells = tuple(rng.choice([0, 0, 2, 2, 4, 8]) for _ in range(16))
        for d in rules.DIRECTIONS:
            slid, _ = rules.slide(cells, d)
            paths = rules.slide_paths(cells, d)
            assert sorted(p[0] for p in paths) == [i for i in range(16) if cells[i]]
            landed: dict[int, int] = {}
            for src, dst, value, merged in paths:
                assert cells[src] == value
                assert slid[dst] == (2 * value if merged else value)
                landed[dst] = landed.get(dst, 0) + value
            assert landed == {i: v for i, v in enumerate(slid) if v}


def test_packed_tables_agree_with_the_plain_slide():
    rng = random.Random(8)
    states = [tuple(rng.choice([0, 0, 0, 2, 4, 8, 16, 32, 1024]) for _ in range(16))
              for _ in range(400)]
    packed = np.array([rules.pack(c) for c in states], dtype=np.uint64)
    slid = bot.moves(packed)
    for k, cells in enumerate(states):
        assert rules.unpack(rules.pack(cells)) == cells
        for d, direction in enumerate(bot.DIRECTIONS):
            assert rules.unpack(int(slid[d, k])) == rules.slide(cells, direction)[0]
    t = bot.transpose(packed)
    for k, cells in enumerate(states):
        assert rules.unpack(int(t[k])) == tuple(cells[4 * (i % 4) + i // 4] for i in range(16))
