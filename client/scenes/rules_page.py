"""A game's rules, from its rules module's RULES_TEXT, with the board's diagrams between the
sections they illustrate."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from client.boards.base import Diagram
from client.scenes.base import Scene
from client.ui import theme
from client.ui.widgets import Button, ButtonGroup, panel, scrollbar
from game import registry, settings
from game.i18n import _, paragraphs

if TYPE_CHECKING:
    from client.app import App

LINE_H = 28
CAPTION_SIZE = 16
CAPTION_H = 20
SCROLL_KEYS = (pygame.K_DOWN, pygame.K_UP, pygame.K_PAGEDOWN, pygame.K_PAGEUP, pygame.K_END,
               pygame.K_HOME)


class RulesScene(Scene):
    def __init__(self, app: App, game_id: str):
        super().__init__(app)
        self.info = registry.get(game_id)
        self.scroll = 0
        self.buttons = ButtonGroup([Button(_("Back"), self.back)])
        self.footer = self.buttons
        self.max_scroll = 0
        self.line_h = LINE_H  # a line's height at this window's scale, set by layout
        self.box = pygame.Rect(0, 0, 0, 0)  # placed by layout
        self.lines: list[tuple[str, bool]] = []  # (text, is a heading), wrapped by layout
        rules = self.info.rules
        board = self.info.board_module().Board(rules.normalize_options(None), rules.SEAT_NAMES,
                                                prefs=settings.all_values())
        self.diagrams: list[Diagram] = board.diagrams()
        board.close()
        # Laid out: each picture drawn once, where it goes relative to the text's top.
        self.pictures: list[tuple[pygame.Surface, pygame.Rect, list[str]]] = []
        self.height = 0

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(self.max_scroll, self.scroll - event.y * 40))
        elif event.type == pygame.KEYDOWN and event.key in SCROLL_KEYS:
            page = max(120, self.box.height - 80)  # a page, keeping a few lines in sight
            step = {pygame.K_DOWN: 120, pygame.K_UP: -120, pygame.K_PAGEDOWN: page,
                    pygame.K_PAGEUP: -page, pygame.K_END: self.max_scroll,
                    pygame.K_HOME: -self.max_scroll}[event.key]
            self.scroll = max(0, min(self.max_scroll, self.scroll + step))
        elif not self.buttons.handle_event(event):
            super().handle_event(event)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.box = box = self.page_box(size, foot=80)
        self.line_h = self.s(LINE_H)
        self.lines, self.pictures = [], []
        width = min(box.width - 48, 1200)  # lines longer than this are hard to follow
        # pictures large enough to read: half the page's height, two to a row at most
        side = max(220, min(440, box.height // 2, (width - 28) // 2))
        english = paragraphs(self.info.rules.RULES_TEXT)
        headings = [p.split("\n")[0].lstrip("# ").strip() for p in english if p.startswith("#")]
        for source in english:
            rows = _(source).strip().split("\n")
            heading = ""
            if rows and rows[0].startswith("#"):  # a heading line, set apart from its text
                heading = source.split("\n")[0].lstrip("# ").strip()
                self.lines.append((rows[0].lstrip("# ").strip(), True))
                rows = rows[1:]
            body = " ".join(" ".join(rows).split())
            if body:
                self.lines += [(line, False) for line in theme.wrap(body, width, self.s(20))]
            self._place([d for d in self.diagrams if heading and d.after == heading], width, side)
            self.lines.append(("", False))
        self._place([d for d in self.diagrams if d.after not in headings], width, side)
        self.height = len(self.lines) * self.line_h
        self.max_scroll = max(0, self.height - (box.height - 40))
        self.scroll = min(self.scroll, self.max_scroll)
        self.lay_out_footer(size, 160, height=44, foot=66)

    def _place(self, diagrams: list[Diagram], width: int, side: int) -> None:
        """Lay pictures out in rows below the lines so far (blank lines keep their room)."""
        x, row_h = 0, 0
        top, line_h = len(self.lines) * self.line_h + 8, self.line_h
        tallest = self.box.height - 40 - CAPTION_H  # a picture, and its caption begun, in view
        for d in diagrams:
            usual = int(side * d.aspect ** 0.5)  # a larger one grows while it stays in view
            pw = min(width, max(usual, min(int(usual * d.scale), int(tallest * d.aspect))))
            pw = min(pw, int(pw / d.aspect * d.aspect))
            captions = theme.wrap(d.caption, max(pw, 240), CAPTION_SIZE)
            ph = int(pw / d.aspect) + 6 + len(captions) * CAPTION_H
            if x and x + pw > width:
                top, x, row_h = top + row_h + 16, 0, 0
            image = pygame.Surface((pw, int(pw / d.aspect)), pygame.SRCALPHA)
            d.draw(image, image.get_rect())
            self.pictures.append((image, pygame.Rect(x, top, pw, ph), captions))
            x += max(pw, 240) + 28
            row_h = max(row_h, ph)
        if diagrams:
            bottom = top + row_h + 12
            self.lines += [("", False)] * (-(-(bottom - len(self.lines) * line_h) // line_h))

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_page_title(surface, _("How to play {game}").format(game=_(self.info.title)))
        box, line_h = self.box, self.line_h
        panel(surface, box)
        clip = surface.get_clip()
        surface.set_clip(box.inflate(-8, -8))
        y = box.y + 20 - self.scroll
        for line, heading in self.lines:
            if box.y - line_h < y < box.bottom:
                if heading:
                    theme.text(surface, line, (box.x + 24, y + line_h - 4), self.s(25),
                               theme.ACCENT,
                               bold=True, anchor="bottomleft")
                    pygame.draw.line(surface, theme.GRID, (box.x + 24, y + line_h - 2),
                                     (box.right - 24, y + line_h - 2))
                else:
                    theme.text(surface, line, (box.x + 24, y), self.s(20))
            y += line_h
        top = box.y + 20 - self.scroll
        for image, place, captions in self.pictures:
            at = place.move(box.x + 24, top)
            if at.bottom < box.y or at.y > box.bottom:
                continue
            surface.blit(image, at.topleft)
            y = at.y + image.get_height() + 6
            for line in captions:
                if box.y - CAPTION_H < y < box.bottom:
                    theme.text(surface, line, (at.x, y), CAPTION_SIZE, theme.INK_SOFT)
                y += CAPTION_H
        surface.set_clip(clip)
        scrollbar(surface, pygame.Rect(box.right - 14, box.y + 12, 6, box.height - 24),
                  self.scroll, box.height - 40, self.height)
        if self.max_scroll:
            theme.text(surface, _("scroll: wheel or arrows"), (box.right, box.bottom + 8), 16,
                       theme.INK_SOFT, anchor="topright")
        self.buttons.draw(surface)
