"""The shared square picking (client.boards.base.SquareBoard): arrows move a cursor that stays on
the board, Enter presses the square under it, a click presses the square clicked."""

import pygame
import pytest

from game.match import Match
from game.registry import get


def key(board, k):
    return board.handle_event(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


@pytest.fixture
def banqi():
    pygame.init()
    m = Match("banqi", None, 3)
    board = get("banqi").board_module().Board(m.options, m.rules.SEAT_NAMES)
    board.layout(pygame.Rect(0, 0, 800, 400))
    board.set_view(m.view(0), m.legal_moves(), my_turn=True, viewer=0, animate=False)
    return board


def test_the_arrows_move_the_cursor_and_stop_at_the_edge(banqi):
    banqi.cursor = 0
    key(banqi, pygame.K_UP)
    key(banqi, pygame.K_RIGHT)
    assert banqi.cursor == 9
    for _ in range(5):
        key(banqi, pygame.K_UP)
    assert banqi.cursor == 25  # the top rank of four
    key(banqi, pygame.K_LEFT)
    key(banqi, pygame.K_LEFT)
    assert banqi.cursor == 24


def test_enter_and_a_click_press_a_square(banqi):
    banqi.cursor = 5
    assert key(banqi, pygame.K_RETURN) == "f1"  # every piece is face down: a flip
    centre = banqi.rect.center
    sq = banqi.square_at(centre)
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=centre)
    assert banqi.handle_event(click) is not None and banqi.cursor == sq
