"""Buttons and button groups that work with the mouse and the keyboard alike."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from game.ui import theme


@dataclass
class Button:
    """A labelled button; on_click runs when it is clicked or activated with Enter/Space."""

    label: str
    on_click: Callable[[], None]
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 160, 40))
    enabled: bool = True
    hotkey: int | None = None
    selected: bool = False  # a toggle or choice that is currently on
    tooltip: str = ""

    def draw(self, surface: pygame.Surface, focused: bool = False) -> None:
        hover = self.rect.collidepoint(pygame.mouse.get_pos()) and self.enabled
        if not self.enabled:
            fill, ink = theme.PAPER_DARK, theme.INK_SOFT
        elif self.selected:
            fill, ink = theme.INK, theme.PAPER
        elif hover or focused:
            fill, ink = theme.HILITE, theme.INK
        else:
            fill, ink = theme.PANEL, theme.INK
        pygame.draw.rect(surface, fill, self.rect, border_radius=8)
        border = theme.ACCENT if focused and self.enabled else theme.INK_SOFT
        pygame.draw.rect(surface, border, self.rect, width=3 if focused else 1, border_radius=8)
        size = max(12, min(26, int(self.rect.height * 0.5)))
        label = self.label
        while theme.font(size).size(label)[0] > self.rect.width - 12 and size > 11:
            size -= 1
        theme.text(surface, label, self.rect.center, size, ink, anchor="center")

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.enabled and self.rect.collidepoint(pos)


class ButtonGroup:
    """Buttons with one keyboard focus: arrows or Tab move it, Enter or Space presses."""

    def __init__(self, buttons: list[Button] | None = None, vertical: bool = True):
        self.buttons: list[Button] = list(buttons or [])
        self.vertical = vertical
        self.focus = 0 if self.buttons else -1

    def set(self, buttons: list[Button]) -> None:
        self.buttons = list(buttons)
        self.focus = min(max(self.focus, 0), len(self.buttons) - 1)

    def layout_column(self, x: int, y: int, width: int, height: int, gap: int = 10) -> int:
        """Stack the buttons from (x, y) down; returns the y below the last one."""
        for b in self.buttons:
            b.rect = pygame.Rect(x, y, width, height)
            y += height + gap
        return y

    def layout_row(self, x: int, y: int, width: int, height: int, gap: int = 10) -> int:
        for b in self.buttons:
            b.rect = pygame.Rect(x, y, width, height)
            x += width + gap
        return x

    def _step(self, delta: int) -> None:
        if not self.buttons:
            return
        n = len(self.buttons)
        for _ in range(n):
            self.focus = (self.focus + delta) % n
            if self.buttons[self.focus].enabled:
                return

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Returns True if the event was used."""
        if event.type == pygame.MOUSEMOTION:
            for i, b in enumerate(self.buttons):
                if b.hit(event.pos):
                    self.focus = i
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, b in enumerate(self.buttons):
                if b.hit(event.pos):
                    self.focus = i
                    b.on_click()
                    return True
            return False
        if event.type != pygame.KEYDOWN:
            return False
        for b in self.buttons:
            if b.enabled and b.hotkey is not None and event.key == b.hotkey:
                b.on_click()
                return True
        back, forward = ((pygame.K_UP, pygame.K_DOWN) if self.vertical
                         else (pygame.K_LEFT, pygame.K_RIGHT))
        if event.key == back or (event.key == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT):
            self._step(-1)
            return True
        if event.key in (forward, pygame.K_TAB):
            self._step(1)
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if 0 <= self.focus < len(self.buttons) and self.buttons[self.focus].enabled:
                self.buttons[self.focus].on_click()
                return True
        return False

    def draw(self, surface: pygame.Surface, show_focus: bool = True) -> None:
        for i, b in enumerate(self.buttons):
            b.draw(surface, focused=show_focus and i == self.focus)


def panel(surface: pygame.Surface, rect: pygame.Rect, fill=theme.PANEL) -> None:
    """A rounded paper card with a soft edge."""
    shadow = rect.move(3, 4)
    pygame.draw.rect(surface, theme.PAPER_DARK, shadow, border_radius=12)
    pygame.draw.rect(surface, fill, rect, border_radius=12)
    pygame.draw.rect(surface, theme.GRID, rect, width=1, border_radius=12)
