"""Planes: after each shot the answer shows as a banner over the grid it landed on, with its
own sound (a head sounds unlike a hit); a view that jumps (undo, load) shows none."""

import pygame
import pytest

from client import sound
from client.boards.planes import Board
from game.rules import planes as rules

OPTIONS = {"size": 10, "planes": 3, "equal_turns": False}
LAYOUT = [[0, 2, "up"], [4, 7, "up"], [6, 0, "left"]]


@pytest.fixture
def game():
    pygame.init()
    s = rules.new_game(OPTIONS)
    s = rules.apply(s, [list(p) for p in LAYOUT])
    s = rules.apply(s, [list(p) for p in LAYOUT])
    board = Board(OPTIONS, rules.SEAT_NAMES)
    board.set_view(rules.view(s, 0), rules.legal_moves(s), my_turn=True, viewer=0)
    board.layout(pygame.Rect(0, 0, 1000, 700))
    return board, s


def shoot(board, s, cell, animate=True):
    before = board.view
    after = rules.apply(s, cell)
    board.set_view(rules.view(after, 0), [], my_turn=False, viewer=0, last_move=cell,
                   animate=animate)
    return before, after


def test_a_head_gets_its_banner_over_the_enemy_grid_and_its_own_sound(game):
    board, s = game
    head = 0 * 10 + 2  # C1: the first plane's head
    before, after = shoot(board, s, head)
    assert board.banner is not None and board.banner[:2] == ("head", "enemy")
    assert board.sound_for(before, board.view, head) == "head"
    assert "head" in sound.EFFECTS and "head" in sound.make_waves()
    surface = pygame.Surface((1000, 700))
    board.draw(surface)
    shown = pygame.image.tobytes(surface.subsurface(board.enemy_rect), "RGB")
    board.update(5.0)
    assert board.banner is None  # gone after a moment
    board.draw(surface)
    assert pygame.image.tobytes(surface.subsurface(board.enemy_rect), "RGB") != shown


def test_a_body_hit_and_a_miss_are_named(game):
    board, s = game
    before, after = shoot(board, s, 12)  # C2: the first plane's wing
    assert board.banner[0] == "body" and board.sound_for(before, board.view, 12) == "hit"
    reply = rules.legal_moves(after)[-1]
    before = board.view
    board.set_view(rules.view(rules.apply(after, reply), 0), [], my_turn=True, viewer=0,
                   last_move=reply)
    assert board.banner[1] == "own"  # the other side's shot lands on my grid


def test_a_view_that_jumps_shows_no_banner(game):
    board, s = game
    shoot(board, s, 2, animate=False)
    assert board.banner is None
