"""Drive the arcade headless with synthetic events, as a person would."""

from __future__ import annotations

import time

import pygame

from client.app import App
from client.ui.widgets import ButtonGroup
from tests.fakes.wire import Clock


class Harness:
    def __init__(self, size: tuple[int, int] = (1100, 720)):
        self.app = App(size)
        # the arcade's clock moves only as frames are stepped, dt a frame: a timer (the result
        # card's pause, a message's life) fires after frames, not wall-clock time
        self.clock = Clock()
        self.app.now = self.clock

    @property
    def top(self):
        return self.app.top

    def frame(self, *events: pygame.event.Event, dt: float = 1 / 60) -> None:
        self.clock.t += dt
        self.app.step(list(events), dt)

    def frames(self, n: int, dt: float = 1 / 60) -> None:
        for _ in range(n):
            self.frame(dt=dt)

    def key(self, key: int, unicode: str = "", mod: int = 0) -> None:
        """A key pressed and let go; a key that types gives its TEXTINPUT too, as SDL does."""
        down = pygame.event.Event(pygame.KEYDOWN, key=key, unicode=unicode, mod=mod, scancode=0)
        typed = unicode.isprintable() and unicode != "" and not mod & pygame.KMOD_CTRL
        self.frame(down, *([pygame.event.Event(pygame.TEXTINPUT, text=unicode)] if typed else []))
        self.frame(pygame.event.Event(pygame.KEYUP, key=key, unicode=unicode, mod=mod,
                                      scancode=0))

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        pos = (int(pos[0]), int(pos[1]))
        pygame.mouse.set_pos(pos)
        self.frame(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        self.frame(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
        self.frame(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))

    def click_button(self, label_start: str) -> None:
        """Click the first visible button whose label starts with label_start."""
        self.frame()
        for b in self.find_buttons():
            if b.label.startswith(label_start) and b.enabled:
                self.click(b.rect.center)
                return
        labels = [b.label for b in self.find_buttons()]
        raise AssertionError(f"no button {label_start!r} on {type(self.top).__name__}: {labels}")

    def find_buttons(self) -> list:
        scene = self.top
        groups = {id(v): v for v in vars(scene).values() if isinstance(v, ButtonGroup)}
        return [b for group in groups.values() for b in group.buttons]  # a footer once

    def settle(self) -> None:
        """Frames past the top scene's settling time (the result card lets no press through
        for its first moments: a click meant for the board is not a Rematch)."""
        from client.scenes.result import SETTLE_SECONDS
        self.frames(int(SETTLE_SECONDS * 60) + 2)

    def wait_until(self, predicate, timeout: float = 30.0) -> None:
        """Frames until predicate holds; the timeout only guards against a hang."""
        end = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > end:
                raise AssertionError(f"timed out on {type(self.top).__name__}")
            self.frame()
            time.sleep(0.005)

    def screenshot(self, path) -> None:
        pygame.image.save(self.app.screen, str(path))

    def close(self) -> None:
        """Close every scene, as quitting the arcade does (a lobby left open kept listening on
        its port for the rest of the run), then the window."""
        self.app.close_all()
        pygame.display.quit()
