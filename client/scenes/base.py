"""The scene contract, in the manner of Tuxemon's state stack.

A scene never imports another scene: it opens one by name through the app
(`app.push("play", match=...)`); client/scenes/table.py maps the names to the classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from client.app import App


class Scene:
    """A screen on the app's stack: handle_event, update(dt), layout(size), draw(surface).

    Life cycle: enter/leave each time the scene becomes or stops being the top (it may be
    covered and uncovered many times); close once, when it leaves the stack for good.
    """

    opaque = True  # False for dialogs: the scene below is drawn first, dimmed

    def __init__(self, app: App):
        self.app = app
        self.closed = False
        self._laid_out: tuple[int, int] | None = None

    def enter(self) -> None:
        """Called when the scene becomes the top of the stack (pushed, or uncovered)."""

    def leave(self) -> None:
        """Called when the scene stops being the top (covered, or leaving the stack)."""

    def close(self) -> None:
        """Called once when the scene leaves the stack for good: let go of sockets, threads."""

    def handle_event(self, event: pygame.event.Event) -> None:
        """Esc goes back by default."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()

    def back(self) -> None:
        self.app.pop()

    def update(self, dt: float) -> None:
        pass

    def layout(self, size: tuple[int, int]) -> None:
        """Place buttons, rows and boards for a window of this size (drawing only draws)."""

    def relayout(self) -> None:
        """What is on screen changed (buttons rebuilt): lay it out again before the next frame."""
        self._laid_out = None

    def ensure_layout(self, size: tuple[int, int]) -> None:
        """Lay out if the size changed or relayout() was called since the last layout."""
        if self._laid_out != size:
            self._laid_out = size
            self.layout(size)

    def draw(self, surface: pygame.Surface) -> None:
        pass

    def on_quit(self) -> None:
        """The window is closing: save what must not be lost (off-loop work must finish)."""
