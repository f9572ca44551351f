"""A board draws inside the rect it is given: the replay player's Banqi at 1500x950 drew its
column letters 14 px above its rect, over the result line under the header."""

import random

import numpy as np
import pygame
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from game import registry
from game.match import Match, Seat

OPTIONS = {"banqi": [{"fog": False}, {"fog": True}], "dots": [None, {"rows": 5, "cols": 5}]}


def _board(game_id: str, options: dict | None, plies: int, seed: int, mine: bool):
    """A board showing a game some random plies in: with the whole truth, or as the seat to
    move sees it on its turn (setting up its planes, say)."""
    info = registry.get(game_id)
    seats = [Seat("human", "Ann")] if info.players == 1 else \
        [Seat("human", "Ann"), Seat("human", "Ben")]
    match = Match(game_id, options, seed, seats)
    rng = random.Random(seed)
    while len(match.moves) < plies and not match.over and match.legal_moves():
        match.play(match.rules.move_to_wire(rng.choice(match.legal_moves())))
    board = info.board_module().Board(match.options, match.rules.SEAT_NAMES)
    seat = match.rules.to_move(match.states[-1]) if mine else None
    legal = [match.rules.move_to_wire(m) for m in match.legal_moves()] if seat is not None else []
    board.set_view(match.rules.view(match.states[-1], seat), legal, my_turn=seat is not None,
                   viewer=seat, last_move=match.moves[-1] if match.moves else None,
                   animate=False)
    return board


@pytest.mark.parametrize("game_id", registry.available())
@given(width=st.integers(300, 1400), height=st.integers(250, 900), plies=st.integers(0, 40),
       seed=st.integers(0, 99), which=st.integers(0, 1), mine=st.booleans())
@example(width=1176, height=730, plies=10, seed=1, which=0, mine=False)  # the replay at 1500x950
@example(width=834, height=834, plies=10, seed=1, which=0, mine=False)  # Ataxx's letters under
@example(width=357, height=357, plies=0, seed=1, which=0, mine=False)  # "Both sides are hiding…"
@example(width=821, height=850, plies=0, seed=3, which=0, mine=True)  # planes' "10" when hiding
@settings(max_examples=12, deadline=None)
def test_a_board_inks_nothing_outside_its_rect(game_id, width, height, plies, seed, which, mine):
    pygame.display.init()
    options = OPTIONS.get(game_id, [None])
    board = _board(game_id, options[which % len(options)], plies, seed, mine)
    rect = pygame.Rect(50, 50, width, height)
    board.layout(rect)
    surface = pygame.Surface((width + 100, height + 100))
    surface.fill((255, 255, 255))
    board.draw(surface)
    inked = (pygame.surfarray.array3d(surface) != 255).any(axis=2)
    inked[rect.x:rect.right, rect.y:rect.bottom] = False
    xs, ys = np.nonzero(inked)
    assert not len(xs), f"ink outside {rect}: x {xs.min()}..{xs.max()}, y {ys.min()}..{ys.max()}"
