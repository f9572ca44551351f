"""The rules page's chart of who takes whom: its discs stand apart at every size (at
1600x1000 the pencilled rims of neighbours touched, and a row's red and black discs
overlapped)."""

from __future__ import annotations

import pygame
import pytest

from client.boards.banqi import Board as BanqiBoard
from game.rules import banqi as rules

WHITE = (255, 255, 255)


@pytest.mark.parametrize("width", [300, 560, 900, 1300])
@pytest.mark.parametrize("variant", ["taiwan", "china"])
def test_the_charts_discs_never_touch(width, variant):
    pygame.init()
    board = BanqiBoard({"variant": variant, "fog": False}, ("red", "black"))
    rect = pygame.Rect(0, 0, width, int(width * 8 / 13.5))
    surface = pygame.Surface(rect.size)
    surface.fill(WHITE)
    board._draw_chart(surface, rect, variant)
    n = len(rules.KINDS)
    cell = int(min(rect.width / (n + 6.5), rect.height / (n + 1)))
    x0 = int(cell * 6.5)

    def clear(x: int, top: int, bottom: int) -> bool:
        return all(surface.get_at((x, y))[:3] == WHITE for y in range(top + 2, bottom - 2))
    for i in range(1, n):  # between two victims across the top
        x = x0 + i * cell
        assert clear(x, 0, cell) or clear(x - 1, 0, cell), (width, i)
    for row in range(n):  # between a rank's red disc and its black one
        top = cell + row * cell
        assert clear(cell, top, top + cell) or clear(cell - 1, top, top + cell), (width, row)
