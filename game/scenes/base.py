"""The scene contract, in the manner of Tuxemon's state stack."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from game.app import App


class Scene:
    """A screen. The app calls handle_event, update(dt) and draw(surface) on the top scene."""

    opaque = True  # False for dialogs: the scene below is drawn first, dimmed

    def __init__(self, app: App):
        self.app = app

    def enter(self) -> None:
        """Called when the scene becomes the top of the stack (pushed, or uncovered)."""

    def leave(self) -> None:
        """Called when the scene stops being the top (covered, or popped)."""

    def handle_event(self, event: pygame.event.Event) -> None:
        """Esc goes back by default."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()

    def back(self) -> None:
        self.app.pop()

    def update(self, dt: float) -> None:
        pass

    def draw(self, surface: pygame.Surface) -> None:
        pass

    def on_quit(self) -> None:
        """The window is closing: save what must not be lost (off-loop work must finish)."""
