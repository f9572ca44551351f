"""The Ataxx board with synthetic mouse and keyboard events."""

import pygame
import pytest

from client.boards.ataxx import Board
from game.rules import ataxx as rules


@pytest.fixture
def board():
    pygame.init()
    b = Board({"layout": "empty"}, rules.SEAT_NAMES)
    b.layout(pygame.Rect(0, 0, 560, 560))
    s = rules.new_game()
    b.set_view(rules.view(s, 0), rules.legal_moves(s), my_turn=True, viewer=0)
    return b


def click(board, sq):
    event = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=board.square_rect(sq).center, button=1)
    return board.handle_event(event)


def key(board, k):
    return board.handle_event(pygame.event.Event(pygame.KEYDOWN, key=k, unicode="", mod=0))


def test_select_then_clone_or_jump(board):
    g1, g2, e3 = 6, 13, 18
    assert click(board, g1) is None and board.selected == g1
    clones, jumps = board.targets(g1)
    assert clones == {5, 12, 13} and e3 in jumps and len(jumps) == 5
    assert click(board, g2) == "g2"
    click(board, g1)
    assert click(board, e3) == "g1e3"


def test_clicking_elsewhere_deselects_and_enemy_stones_do_not_select(board):
    click(board, 6)
    assert click(board, 24) is None and board.selected is None
    assert click(board, 0) is None and board.selected is None  # a1 is o's


def test_keyboard_moves_the_cursor_and_plays(board):
    board.cursor = 6
    assert key(board, pygame.K_RETURN) is None and board.selected == 6
    key(board, pygame.K_UP)
    assert board.cursor == 13
    assert key(board, pygame.K_SPACE) == "g2"


def test_no_input_when_it_is_not_my_turn(board):
    s = rules.new_game()
    board.set_view(rules.view(s, 1), [], my_turn=False, viewer=1)
    assert click(board, 6) is None and board.selected is None


def test_forced_pass_is_played_after_its_notice(board):
    s = rules.from_fen("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1")
    board.set_view(rules.view(s, 0), ["0000"], my_turn=True, viewer=0)
    assert board.pending_move() is None
    board.update(1.0)
    assert board.pending_move() == "0000"


def test_conversions_animate_and_sound(board):
    before = rules.from_fen("7/7/7/2x1o2/7/7/7 x 0 1")
    after = rules.apply(before, "d4")
    board.set_view(rules.view(before, 0), [], my_turn=False, viewer=0, animate=False)
    board.set_view(rules.view(after, 0), [], my_turn=False, viewer=0, last_move="d4")
    assert board.busy() and set(board.flips) == {25}
    assert board.sound_for(rules.view(before, 0), rules.view(after, 0), "d4") == "capture"
    surface = pygame.Surface((560, 560))
    board.draw(surface)
    board.update(1.0)
    assert not board.busy()
