"""A game's rules, from its rules module's RULES_TEXT."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game import registry
from game.i18n import _, translate_text
from game.scenes.base import Scene
from game.ui import theme
from game.ui.widgets import Button, ButtonGroup, panel

if TYPE_CHECKING:
    from game.app import App

LINE_H = 28


class RulesScene(Scene):
    def __init__(self, app: App, game_id: str):
        super().__init__(app)
        self.info = registry.get(game_id)
        self.scroll = 0
        self.buttons = ButtonGroup([Button(_("Back"), self.back)])
        self.max_scroll = 0
        self.box = pygame.Rect(0, 0, 0, 0)  # placed by layout
        self.lines: list[tuple[str, bool]] = []  # (text, is a heading), wrapped by layout

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(self.max_scroll, self.scroll - event.y * 40))
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_DOWN, pygame.K_PAGEDOWN):
            self.scroll = min(self.max_scroll, self.scroll + 120)
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_PAGEUP):
            self.scroll = max(0, self.scroll - 120)
        elif not self.buttons.handle_event(event):
            super().handle_event(event)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.box = box = pygame.Rect(40, 80, w - 80, h - 160)
        self.lines = []
        for para in translate_text(self.info.rules.RULES_TEXT).strip().split("\n\n"):
            rows = para.strip().split("\n")
            if rows and rows[0].startswith("#"):  # a heading line, set apart from its text
                self.lines.append((rows[0].lstrip("# ").strip(), True))
                rows = rows[1:]
            body = " ".join(" ".join(rows).split())
            if body:
                self.lines += [(line, False) for line in theme.wrap(body, box.width - 48, 20)]
            self.lines.append(("", False))
        self.max_scroll = max(0, len(self.lines) * LINE_H - (box.height - 40))
        self.scroll = min(self.scroll, self.max_scroll)
        self.buttons.layout_row(40, h - 66, 160, 44)

    def draw(self, surface: pygame.Surface) -> None:
        theme.text(surface, _("How to play {game}").format(game=_(self.info.title)), (40, 24), 34,
                   bold=True)
        box, line_h = self.box, LINE_H
        panel(surface, box)
        clip = surface.get_clip()
        surface.set_clip(box.inflate(-8, -8))
        y = box.y + 20 - self.scroll
        for line, heading in self.lines:
            if box.y - line_h < y < box.bottom:
                if heading:
                    theme.text(surface, line, (box.x + 24, y + line_h - 4), 25, theme.ACCENT,
                               bold=True, anchor="bottomleft")
                    pygame.draw.line(surface, theme.GRID, (box.x + 24, y + line_h - 2),
                                     (box.right - 24, y + line_h - 2))
                else:
                    theme.text(surface, line, (box.x + 24, y), 20)
            y += line_h
        surface.set_clip(clip)
        if self.max_scroll:
            theme.text(surface, _("scroll: wheel or arrows"), (box.right, box.bottom + 8), 16,
                       theme.INK_SOFT, anchor="topright")
        self.buttons.draw(surface)
