"""Ataxx rules against libataxx: perft table, FEN, passes, endings, invariants."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules import RulesError
from game.rules import ataxx as rules

# libataxx tests/perft.cpp: the FEN and its perft counts from depth 0.
PERFT = [
    ("7/7/7/7/7/7/7 x 0 1", [1, 0, 0, 0, 0]),
    ("7/7/7/7/7/7/7 o 0 1", [1, 0, 0, 0, 0]),
    ("x5o/7/7/7/7/7/o5x x 0 1", [1, 16, 256, 6460, 155888]),
    ("x5o/7/7/7/7/7/o5x o 0 1", [1, 16, 256, 6460, 155888]),
    ("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", [1, 14, 196, 4184, 86528]),
    ("x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1", [1, 14, 196, 4184, 86528]),
    ("x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1", [1, 14, 196, 4100, 83104]),
    ("x5o/7/2-1-2/3-3/2-1-2/7/o5x o 0 1", [1, 14, 196, 4100, 83104]),
    ("x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1", [1, 16, 256, 5948, 133264]),
    ("x5o/7/3-3/2-1-2/3-3/7/o5x o 0 1", [1, 16, 256, 5948, 133264]),
    ("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", [1, 1, 75, 249, 14270]),
    ("7/7/7/7/ooooooo/ooooooo/xxxxxxx o 0 1", [1, 75, 249, 14270, 452980]),
    ("7/7/7/7/xxxxxxx/xxxxxxx/ooooooo x 0 1", [1, 75, 249, 14270, 452980]),
    ("7/7/7/7/xxxxxxx/xxxxxxx/ooooooo o 0 1", [1, 1, 75, 249, 14270]),
    ("7/7/7/2x1o2/7/7/7 x 0 1", [1, 23, 419, 7887, 168317]),
    ("7/7/7/2x1o2/7/7/7 o 0 1", [1, 23, 419, 7887, 168317]),
    ("x5o/7/7/7/7/7/o5x x 100 1", [1, 0, 0, 0, 0]),
    ("x5o/7/7/7/7/7/o5x o 100 1", [1, 0, 0, 0, 0]),
    ("7/7/7/7/-------/-------/x5o x 0 1", [1, 2, 4, 13, 30, 73, 174]),
    ("7/7/7/7/-------/-------/x5o o 0 1", [1, 2, 4, 13, 30, 73, 174]),
]


@pytest.mark.parametrize("fen,counts", PERFT)
def test_perft_table(fen, counts):
    pos = rules.from_fen(fen)
    assert [rules.perft(pos, d) for d in range(len(counts))] == counts


def test_perft_agrees_with_the_pure_api():
    """perft's fast path counts exactly the moves legal_moves/apply produce."""
    def slow(state, depth):
        if depth == 0:
            return 1
        if rules.outcome(state) is not None:
            return 0
        return sum(slow(rules.apply(state, m), depth - 1) for m in rules.legal_moves(state))
    for layout in rules.LAYOUTS:
        state = rules.new_game({"layout": layout})
        assert slow(state, 3) == rules.perft(state, 3)


@pytest.mark.parametrize("fen", [fen for fen, _ in PERFT])
def test_fen_round_trip(fen):
    assert rules.to_fen(rules.from_fen(fen)) == fen


@pytest.mark.parametrize("bad", [
    "", "x5o/7/7/7/7/7 x 0 1", "x5o/7/7/7/7/7/o5x", "x5o/7/7/7/7/7/o5x z 0 1",
    "x6o/7/7/7/7/7/o5x x 0 1", "x5o/7/7/7/7/7/o4x x 0 1", "x5o/7/7/7/7/7/o5q x 0 1",
    "x5o/7/7/7/7/7/o5x x -1 1", "x5o/7/7/7/7/7/o5x x a 1", "x5o/7/7/7/7/7/o5x x 0 0",
    "x5o/7/7/7/7/7/o5x x 0 1 extra", "8/7/7/7/7/7/7 x 0 1", None, 42,
])
def test_bad_fens_are_refused(bad):
    with pytest.raises(RulesError):
        rules.from_fen(bad)


def test_moves_and_conversion():
    s = rules.from_fen("7/7/7/2x1o2/7/7/7 x 0 1")
    assert "e4" not in rules.legal_moves(s)  # occupied
    after = rules.apply(s, "d4")  # clone next to o on e4: converts it
    assert rules.to_fen(after) == "7/7/7/2xxx2/7/7/7 o 0 1"
    jumped = rules.apply(s, "c4c6")
    assert rules.to_fen(jumped) == "7/2x4/7/4o2/7/7/7 o 1 1"
    assert rules.apply(s, "c4d4") == after  # a one-step "jump" is read as the clone


@pytest.mark.parametrize("move", ["a1", "c4c7", "h1", "c4", "e4d4", "0000", "x", "", 5, None])
def test_illegal_or_malformed_moves_change_nothing(move):
    s = rules.from_fen("7/7/7/2x1o2/7/7/7 x 0 1")
    with pytest.raises(RulesError):
        rules.apply(s, move)
    assert rules.to_fen(s) == "7/7/7/2x1o2/7/7/7 x 0 1"


@pytest.mark.parametrize("wire, move", [("pass", "0000"), ("0000", "0000"), ("f2", "f2")])
def test_a_pass_comes_from_the_wire_as_0000_or_pass(wire, move):
    assert rules.move_from_wire(wire) == move


@pytest.mark.parametrize("wire", ["Pass", "pass ", "passe", "", None])
def test_only_the_one_pass_word_is_read(wire):
    with pytest.raises(RulesError):
        rules.move_from_wire(wire)


def test_forced_pass():
    s = rules.from_fen("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1")
    assert rules.legal_moves(s) == ["0000"] and rules.outcome(s) is None
    after = rules.apply(s, "0000")
    assert after.turn == 1 and after.halfmove == 1
    with pytest.raises(RulesError):
        rules.apply(rules.new_game(), "0000")  # only when there is no other move


def test_endings():
    no_o = rules.outcome(rules.from_fen("x6/7/7/7/7/7/7 o 3 9"))
    assert no_o.winner == 0 and no_o.score == (1, 0)
    full = rules.outcome(rules.from_fen("xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo "
                                        "x 0 40"))
    assert full.winner == 0 and full.score == (25, 24) and "full" in full.reason
    draw = rules.outcome(rules.from_fen("x5o/7/7/7/7/7/o5x x 100 60"))
    assert draw.winner is None and "100" in draw.reason
    stuck = rules.from_fen("x--4/---4/---4/7/4---/4---/4--o x 0 1")  # neither side can move
    out = rules.outcome(stuck)
    assert out.winner is None and out.score == (1, 1) and rules.to_move(stuck) is None
    assert rules.legal_moves(stuck) == []


def test_halfmove_clock_resets_on_clones_only():
    s = rules.new_game()
    s = rules.apply(s, "a7a5")
    assert s.halfmove == 1
    s = rules.apply(s, "f7")
    assert s.halfmove == 0 and s.fullmove == 2


def test_draw_at_halfmove_100_by_jumping():
    s = rules.from_fen("x5o/7/7/7/7/7/o5x x 98 50")
    s = rules.apply(s, "a7a5")
    assert rules.outcome(s) is None
    s = rules.apply(s, "g7g5")
    assert rules.outcome(s).winner is None


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(rules.LAYOUTS)), st.lists(st.integers(0, 10**6), max_size=60))
def test_random_playouts_keep_invariants(layout, picks):
    s = rules.new_game({"layout": layout})
    gaps = s.gaps
    for pick in picks:
        moves = rules.legal_moves(s)
        if not moves:
            assert rules.outcome(s) is not None
            break
        before = rules.to_fen(s)
        after = rules.apply(s, moves[pick % len(moves)])
        assert rules.to_fen(s) == before  # apply never changes its input
        assert after.gaps == gaps and not after.x & after.o and not (after.x | after.o) & gaps
        grown = (after.x | after.o).bit_count() - (s.x | s.o).bit_count()
        assert grown in (0, 1)
        assert rules.from_fen(rules.to_fen(after)) == after
        s = after
