"""Banqi: captures of both variants, cannon screens, colours, draws, fog, undo, the bot."""

import random

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import banqi as bot
from ai.base import Budget
from client.boards.banqi import Board
from game.match import Match
from game.rules import RulesError
from game.rules import banqi as rules
from tests.fakes.ticking import TickingClock


def position(rows: list[str], variant="taiwan", turn=0, colors=("red", "black"), fog=False):
    """A state from four 8-char ranks, rank 4 first ('?' squares hide soldiers)."""
    board = tuple("".join(reversed(rows)))
    under = tuple("p" if p == "?" else "" for p in board)
    return rules.State(board, under, colors, turn, 0, ((board, turn),), variant, fog)


def moves_from(state, square):
    return {m[2:] for m in rules.legal_moves(state) if m[:2] == square}


@pytest.mark.parametrize("attacker,victim,taiwan,china", [
    ("K", "a", True, True), ("A", "k", False, False), ("R", "r", True, True),
    ("P", "k", True, True), ("K", "p", False, True), ("N", "r", False, False),
    ("C", "p", False, True), ("C", "k", False, False), ("E", "n", True, True),
    ("P", "p", True, True), ("P", "n", False, False),
])
def test_step_captures(attacker, victim, taiwan, china):
    for variant, expected in (("taiwan", taiwan), ("china", china)):
        s = position(["........", "........", f"..{attacker}{victim}....", "........"], variant)
        assert ("d2" in moves_from(s, "c2")) == expected, (attacker, victim, variant)


def test_taiwan_cannon_jumps_exactly_one_screen():
    s = position(["........", "........", "C.?.k...", "........"])
    assert "e2" in moves_from(s, "a2")  # over the face-down screen on c2
    assert "c2" not in moves_from(s, "a2")  # never onto a face-down piece
    two = position(["........", "........", "C?p.k...", "........"])
    assert "c2" in moves_from(two, "a2") and "e2" not in moves_from(two, "a2")
    none = position(["........", "........", "C...k...", "........"])
    assert "e2" not in moves_from(none, "a2") and "b2" in moves_from(none, "a2")
    file = position(["k.......", "P.......", "........", "C......."])
    assert "a4" in moves_from(file, "a1")  # along a file, any distance, own piece as screen
    china = position(["........", "........", "C.?.k...", "........"], "china")
    assert "e2" not in moves_from(china, "a2")


def test_face_down_pieces_cannot_be_moved_onto_or_moved():
    s = position(["........", "........", "..K?....", "........"])
    assert "d2" not in moves_from(s, "c2")
    assert not any(m.startswith("d2") and len(m) == 4 for m in rules.legal_moves(s))
    assert "d2" in rules.legal_moves(s)  # it can be flipped


def test_first_flip_gives_the_colour():
    s = rules.new_game(None, 3)
    first = rules.apply(s, "a1")
    piece = first.board[0]
    mine = "red" if piece.isupper() else "black"
    assert first.colors[0] == mine and first.colors[1] != mine and first.turn == 1


def test_quiet_moves_draw_at_180():
    s = position(["K......k", "........", "........", "........"])
    s = s._replace(quiet=179)
    assert rules.outcome(s) is None
    after = rules.apply(s, "a4a3")
    assert rules.outcome(after).winner is None and "180" in rules.outcome(after).reason


def test_threefold_repetition_draws():
    s = position(["K......k", "........", "........", "........"])
    for move in ["a4a3", "h4h3", "a3a4", "h3h4"] * 2:
        assert rules.outcome(s) is None
        s = rules.apply(s, move)
    assert rules.outcome(s).reason == "the same position three times"


def test_no_pieces_or_no_move_loses():
    s = position(["K.......", "........", "........", "........"], turn=1)
    assert rules.outcome(s).winner == 0 and "no pieces" in rules.outcome(s).reason
    stuck = position(["Pk......", "........", "........", "........"], turn=1)
    stuck = stuck._replace(board=tuple("".join(reversed(["kP......", "P.......", "........",
                                                         "........"]))))
    assert rules.outcome(stuck).winner == 0 and "no legal move" in rules.outcome(stuck).reason


def test_fog_hides_what_the_seat_cannot_see():
    s = position(["R......r", "........", "........", "n......."], fog=True)
    v = rules.view(s, 0)
    assert v["board"] == "R.~~~~~~/.~~~~~~~/~~~~~~~~/~~~~~~~~"
    assert "r" not in v["board"] and "n" not in v["board"] and "history" not in v
    near = position(["Rr......", "........", "........", "........"], fog=True)
    assert rules.view(near, 0)["board"].startswith("Rr")
    assert sorted(rules.legal_moves_from_view(rules.view(near, 0), {})) == sorted(
        rules.legal_moves(near))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), walk=st.integers(0, 10_000))
def test_under_the_fog_a_seat_always_knows_its_own_last_move(seed, walk):
    """A flip that turns up an enemy piece out of the mover's sight is still the mover's own
    move: its view names it (its move list once showed "~"); the opponent's move stays hidden
    wherever it went out of sight."""
    state, rng = rules.new_game({"fog": True}, seed), random.Random(walk)
    board = Board({"variant": "taiwan", "fog": True}, rules.SEAT_NAMES,
                  prefs={"banqi_glyphs": "letters"})
    for _ in range(120):
        if rules.outcome(state) is not None:
            break
        mover, before = rules.to_move(state), state
        move = rng.choice(rules.legal_moves(state))
        state = rules.apply(state, move)
        if rules.outcome(state) is None:
            assert rules.view(state, mover)["last"] == move
            text = board.move_text(move, rules.view(before, mover), rules.view(state, mover))
            if len(move) == 2:  # a flip names the piece that came up, seen or not
                assert text == f"{move} {state.board[rules.parse_square(move)].upper()}"
                # the opponent, who may not see where it went, saw the flip all the same
                assert board.move_text("~", rules.view(before, 1 - mover),
                                       rules.view(state, 1 - mover)) == text
            assert rules.view(state, 1 - mover)["last"] in ("", move)
            if rules.view(state, 1 - mover)["last"] == "" and len(move) == 4:
                # the other side's list says the move was out of its sight (it said "~"),
                # and what it took of theirs, never where it went
                seen = board.move_text("~", rules.view(before, 1 - mover),
                                       rules.view(state, 1 - mover))
                victim = before.board[rules.parse_square(move[2:])]
                assert seen == ("(out of sight)" if victim == "." else
                                f"(out of sight) x {victim.upper()}")


def test_views_never_hold_face_down_identities():
    m = Match("banqi", None, 8)
    for move in ("a1", "b1", "c1"):
        m.play(move)
    for seat in (0, 1):
        v = m.view(seat)
        assert "under" not in v and set(v["board"]) <= set("?./KAERNCPkaernc p~".replace(" ", ""))
    assert "under" in m.view(None)


def test_undo_redraws_the_hidden_pieces_and_replays_exactly():
    m = Match("banqi", None, 12)
    seen = set()
    for _ in range(12):
        m.play("d2")
        seen.add(m.state.board[rules.parse_square("d2")])
        m.undo()
    assert len(seen) > 1  # flip, undo, flip again: not the same piece for free
    m.play("d2")
    again = Match.from_record(m.to_record())
    assert again.states == m.states


def test_the_bot_gets_no_hidden_identity(monkeypatch):
    m = Match("banqi", None, 4)
    for move in ("a1", "h4", "d2", "e3"):
        m.play(move)
    seen = []
    real = bot.choose

    def spy(view, legal, budget, level, rng):
        seen.append(view)
        return real(view, legal, budget, level, rng)

    monkeypatch.setattr(bot, "choose", spy)
    from ai.base import decide
    move = decide("banqi", m.view(m.to_move()), m.legal_moves(), "hard",
                  Budget(0.3, now=TickingClock(0.01)), random.Random(1))
    assert move in m.legal_moves()
    assert "under" not in seen[0] and "?" in seen[0]["board"]


@pytest.mark.parametrize("fog", [False, True])
def test_bot_plays_legally_in_time(fog):
    rng = random.Random(5)
    s = rules.new_game({"fog": fog}, 5)
    for _ in range(20):
        if rules.outcome(s):
            break
        legal = rules.legal_moves(s)
        budget = Budget(0.2, now=TickingClock(0.02))  # about ten looks at its clock
        move = bot.choose(rules.view(s, s.turn), legal, budget, "hard", rng)
        assert move in legal
        s = rules.apply(s, move)


def test_bot_takes_the_general():
    s = position(["........", "........", "..Pk....", "........"], turn=0)
    move = bot.choose(rules.view(s, 0), rules.legal_moves(s),
                      Budget(0.5, now=TickingClock()), "hard", random.Random())
    assert move == "c2d2"


@pytest.mark.parametrize("bad", ["z9", "a1a", 5, None, "a1a3", "e2"])
def test_bad_moves_change_nothing(bad):
    s = position(["........", "........", "..K.....", "........"])
    with pytest.raises(RulesError):
        rules.apply(s, bad)


def test_board_selects_flips_and_moves():
    pygame.init()
    b = Board({"variant": "taiwan", "fog": False}, rules.SEAT_NAMES)
    b.layout(pygame.Rect(0, 0, 700, 500))
    s = position(["........", "........", "..K?k...", "........"])
    b.set_view(rules.view(s, 0), rules.legal_moves(s), my_turn=True, viewer=0)

    def click(name):
        pos = b.square_rect(rules.parse_square(name)).center
        return b.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))

    assert click("d2") == "d2"  # a face-down disc flips
    assert click("c2") is None and b.selected == rules.parse_square("c2")
    assert click("c3") == "c2c3"
    b.draw(pygame.Surface((700, 500)))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 120))
def test_opens_deal_names_exactly_the_moves_whose_result_hangs_on_the_deal(seed, plies):
    """A move `opens_deal` does not name looks the same to its mover whatever the face-down
    pieces are; one it names turns up different pieces under different deals (the review
    shows it unopened)."""
    rng, state = random.Random(seed), rules.new_game({"fog": seed % 2 == 0}, seed)
    for _ in range(plies):
        if rules.outcome(state) is not None:
            break
        state = rules.apply(state, rng.choice(rules.legal_moves(state)))
    if rules.outcome(state) is not None:
        return
    mover = rules.to_move(state)
    for move in rules.legal_moves(state):
        seen = set()  # its view: the board, and the face-down counts (a flip under fog)
        for k in range(64 if len(move) == 2 else 8):  # a step never looks at the deal
            seen.add(repr(rules.view(rules.apply(rules.reseed(state, k), move), mover)))
            if len(seen) > 1:
                break
        assert (len(seen) > 1) == rules.opens_deal(state, move), move
    assert not rules.opens_deal(state, "a1b1") and not rules.opens_deal(state, None)


@settings(max_examples=80, deadline=None)
@given(width=st.integers(200, 1400), height=st.integers(150, 900), fog=st.booleans())
def test_the_board_and_its_tray_fit_their_room_and_a_short_room_drops_the_tray(width, height,
                                                                              fog):
    """The board, the captured pieces under it and the fog's legend fit the room given (the
    tray kept 110 px whatever the board's size); in a room too short for a roomy board with
    the tray (the review's at 800x560: 30 px squares), the tray goes and the board grows."""
    from client.boards.banqi import ROOMY_CELL
    pygame.init()
    board = Board({"variant": "taiwan", "fog": fog}, ("first", "second"))
    room = pygame.Rect(0, 0, width, height)
    board.layout(room)
    below = board._tray_height(board.cell)
    if board.cell > 30:  # the smallest squares may not fit a tiny room
        assert board.origin[1] + 4 * board.cell + below <= room.bottom
        assert board.origin[0] >= 0 and board.origin[0] + 8 * board.cell <= room.right
    kept = board.tray_shown
    board.tray_shown = True
    with_tray = board._cell(room)
    assert kept == (with_tray >= ROOMY_CELL or board.cell < ROOMY_CELL)
