"""The statistics screen: for each game, by opponent, games won, drawn and lost, the longest run
of wins, and a one-player game's highest and lowest scores."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from ai.base import LEVEL_TITLES, LEVELS
from client.scenes.base import Scene
from client.ui import theme
from client.ui.widgets import Button, ButtonGroup, ChoiceRow, panel
from game import registry, stats
from game.i18n import Text, _, format_number

if TYPE_CHECKING:
    from client.app import App

ROW = 34  # px a table row


def opponent_order() -> list[str]:
    """The opponents in the order the table lists them."""
    return [stats.SOLO, *LEVELS, stats.PROGRAM, stats.LAN]


def opponent_name(key: str) -> str:
    if key in LEVEL_TITLES:
        return _("AI {level}").format(level=_(LEVEL_TITLES[key]))
    return {stats.SOLO: _("You"), stats.PROGRAM: _("A program"),
            stats.LAN: _("Over the LAN")}.get(key, key)


def _count(n: int | None) -> str:
    return "–" if n is None else format_number(n)


def columns(players: int) -> list[tuple[str, Callable[[stats.Record], str]]]:
    """(heading, cell) for each number column of a game with that many players."""
    cols: list[tuple[str, Callable[[stats.Record], str]]] = [
        (_("Played"), lambda r: _count(r.played)),
        (_("Won"), lambda r: _count(r.won)),
    ]
    if players > 1:
        cols.append((_("Drawn"), lambda r: _count(r.drawn)))
    cols += [(_("Lost"), lambda r: _count(r.lost)),
             (_("Longest win streak"), lambda r: _count(r.best_streak))]
    if players == 1:
        cols += [(_("Highest score"), lambda r: _count(r.high)),
                 (_("Lowest score"), lambda r: _count(r.low))]
    return cols


class StatsScene(Scene):
    def __init__(self, app: App, game_id: str | None = None):
        super().__init__(app)
        games = registry.available()
        self.game_id = game_id if game_id in games else games[0]
        self.game_row = ChoiceRow(_("Game"), [(g, _(registry.get(g).title)) for g in games],
                                  self.game_id, self._switch)
        self.buttons = ButtonGroup([Button(_("Back"), self.back),
                                    Button(_("Forget them all"), self.ask_forget)],
                                   vertical=False)
        self.footer = self.buttons
        self.on_buttons = False  # where the keys act: the game row, or (Down) the buttons
        self.table: stats.Table | None = None  # None until read (off the loop thread)
        self.problem: Text | None = None
        self.box = pygame.Rect(0, 0, 0, 0)  # placed by layout
        self.note_lines: list[str] = []
        self._read()

    def _read(self) -> None:
        def read() -> None:
            table, problem = stats.snapshot(), stats.take_problem()
            self.problem, self.table = problem, table

        threading.Thread(target=read, name="stats-read", daemon=True).start()

    def _switch(self, game_id) -> None:
        self.game_id = game_id

    def ask_forget(self) -> None:
        self.app.push("confirm", message=_("Forget all statistics?"), on_yes=self.forget,
                      yes=_("Forget them"), no=_("Keep them"),
                      detail=_("Every game's counts start again from nothing."), careful=True)

    def forget(self) -> None:
        self.table = {}
        threading.Thread(target=stats.forget, name="stats-forget", daemon=True).start()

    def rows(self) -> list[tuple[str, stats.Record]]:
        """(opponent, record) for the chosen game, played ones only, and their total."""
        per = (self.table or {}).get(self.game_id, {})
        order = opponent_order()
        keys = sorted((k for k, r in per.items() if r.played),
                      key=lambda k: (order.index(k) if k in order else len(order), k))
        rows = [(opponent_name(k), per[k]) for k in keys]
        if len(rows) > 1:
            total = stats.Record()
            for _name, r in rows:
                total = total.merged(r)
            rows.append((_("All opponents"), total))
        return rows

    # --- the scene
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN,
                                                          pygame.K_TAB):
            self.on_buttons = not self.on_buttons
            return
        if self.game_row.handle_event(event, not self.on_buttons):
            return
        if self.on_buttons or event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION):
            self.buttons.handle_event(event)

    def update(self, dt: float) -> None:
        if self.problem:
            self.app.toast(self.problem.say())
            self.problem = None

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.box = self.page_box(size)
        s = self.s
        self.game_row.layout(pygame.Rect(self.box.x + 24, self.box.y + s(16),
                                         self.box.width - 48, s(44)), s(130))
        self.note_lines = theme.wrap(
            _("Your finished games against a bot, a program or over the LAN, and your games "
              "alone. Hot-seat games are not counted."), self.box.width - 48, s(15))[:2]
        self.lay_out_footer(size, 200, gap=16)

    def draw(self, surface: pygame.Surface) -> None:
        s = self.s
        self.draw_page_title(surface, _("Statistics"))
        box = self.box
        panel(surface, box)
        self.game_row.draw(surface, not self.on_buttons)
        top = box.y + s(76)
        if self.table is None:
            theme.text(surface, _("Reading…"), (box.centerx, top + s(40)), s(20),
                       theme.INK_SOFT, anchor="center")
        else:
            self._draw_table(surface, pygame.Rect(box.x + 24, top, box.width - 48,
                                                  box.bottom - top - 14 - s(20) * len(
                                                      self.note_lines)))
        y = box.bottom - 12 - s(20) * len(self.note_lines)
        for line in self.note_lines:
            theme.text(surface, line, (box.x + 24, y), s(15), theme.INK_SOFT)
            y += s(20)
        self.buttons.draw(surface, show_focus=self.on_buttons)

    def _draw_table(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        info = registry.get(self.game_id)
        rows, s, row = self.rows(), self.s, self.s(ROW)
        if not rows:
            theme.text(surface, _("No finished games of {game} yet.").format(
                game=_(info.title)), (area.centerx, area.y + s(40)), s(20), theme.INK_SOFT,
                anchor="center")
            # a finished game autoplay helped with, or bots watched, is not here: say why
            size, words = theme.fit(_("Only the games you play to the end yourself count."),
                                    area.width - 20, s(17))
            theme.text(surface, words, (area.centerx, area.y + s(72)), size, theme.INK_SOFT,
                       anchor="center")
            return
        cols = columns(info.players)
        first = max(150, area.width // 4)
        col_w = (area.width - first) // len(cols)
        head_lines = [theme.wrap(title, col_w - 8, s(15))[:2] for title, _cell in cols]
        head_h = s(20) * max(len(lines) for lines in head_lines) + 8
        for i, lines in enumerate(head_lines):
            cx = area.x + first + i * col_w + col_w // 2
            for j, line in enumerate(lines):
                theme.text(surface, line, (cx, area.y + s(20) * j), s(15), theme.INK_SOFT,
                           anchor="midtop")
        y = area.y + head_h
        fits = max(1, (area.bottom - y) // row)
        shown = rows if len(rows) <= fits else rows[:fits - 1] + rows[-1:]  # the total stays
        for n, (name, record) in enumerate(shown):
            total = n == len(shown) - 1 and len(rows) > 1
            pygame.draw.line(surface, theme.INK if total else theme.GRID, (area.x, y),
                             (area.right, y), 2 if total else 1)
            size, name = theme.fit(name, first - 10, s(19), smallest=13, bold=total)
            theme.text(surface, name, (area.x + 4, y + row // 2), size, bold=total,
                       anchor="midleft")
            for i, (_title, cell) in enumerate(cols):
                cx = area.x + first + i * col_w + col_w // 2
                theme.text(surface, cell(record), (cx, y + row // 2), s(20), bold=total,
                           anchor="center")
            y += row
