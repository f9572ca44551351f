"""The board contract: what the play scene asks of each game's drawing and input module.

The play scene owns the match, the seats, the side panel, undo, resign and hand-over. A board
only draws the view it is given and turns the local player's clicks and keys into moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame


class BoardBase:
    """Draws one game's view in a rect and reports the moves the local player makes."""

    def __init__(self, options: dict, seat_names: tuple[str, ...]):
        self.options = options
        self.seat_names = seat_names
        self.rect = pygame.Rect(0, 0, 400, 400)
        self.view: dict | None = None
        self.legal: list = []
        self.my_turn = False
        self.viewer: int | None = None
        self.last_move: Any = None
        self.animation_speed = 1.0  # 0 turns animations off; 2 twice as fast

    def set_view(self, view: dict, legal: list, *, my_turn: bool, viewer: int | None,
                 last_move: Any = None, animate: bool = True) -> None:
        """Show a new view. legal is the local player's legal moves (empty when not my_turn).

        animate is False when the view jumps (undo, load, replay seek); boards then skip their
        move animations.
        """
        self.view, self.legal, self.my_turn = view, list(legal), my_turn
        self.viewer, self.last_move = viewer, last_move

    def layout(self, rect: pygame.Rect) -> None:
        """Fit the board inside rect (called on every resize)."""
        self.rect = pygame.Rect(rect)

    def handle_event(self, event: pygame.event.Event) -> Any | None:
        """Returns a move (or a setup value in a setup phase) when the player made one."""
        return None

    def update(self, dt: float) -> None:
        """Advance animations by dt seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        raise NotImplementedError

    def status(self) -> list[str]:
        """Lines for the side panel: counts, scores, what the player should do."""
        return []

    def actions(self) -> list[tuple[str, Callable[[], None]]]:
        """Extra side-panel buttons this game offers (hint, heat map, ...)."""
        return []

    def busy(self) -> bool:
        """True while an animation is running that the next move should wait for."""
        return False
