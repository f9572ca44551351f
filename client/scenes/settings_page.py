"""The settings scene: every choice is saved as soon as it is made."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ai.base import LEVEL_TITLES, LEVELS
from client.boards.base import game_settings
from client.scenes.base import Scene
from client.ui.widgets import (
    Button,
    ButtonGroup,
    ChoiceRow,
    TextField,
    form_label_width,
    lay_out_form,
    panel,
)
from game import i18n, settings
from game.i18n import _, person

if TYPE_CHECKING:
    from client.app import App


class SettingsScene(Scene):
    def __init__(self, app: App):
        super().__init__(app)
        games = [s for s in game_settings() if s.choices]  # each game's, declared by its board
        v = settings.all_values()
        self.name = TextField(_("Player name"), person(v["player_name"]), max_len=24)

        def row(label, key, choices):
            return ChoiceRow(label, choices, v[key], lambda value, k=key: self.change(k, value))

        self.full_screen = row(_("Full screen"), "fullscreen", [(False, _("Off")), (True, _("On"))])
        self.rows = [
            self.name,
            ChoiceRow(_("Language"), list(i18n.LANGUAGE_NAMES.items()), i18n.language(),
                      lambda value: self.change("language", value)),
            row(_("Sound"), "sound", [(True, _("On")), (False, _("Off"))]),
            row(_("Volume"), "volume", [(0.2, "20%"), (0.4, "40%"), (0.7, "70%"), (1.0, "100%")]),
            row(_("Animations"), "animation_speed",
                [(0.0, _("Off")), (0.5, _("Slow")), (1.0, _("Normal")), (2.0, _("Fast"))]),
            row(_("Default AI"), "ai_level", [(lv, _(LEVEL_TITLES[lv])) for lv in LEVELS]),
            row(_("Hard AI time"), "ai_seconds",
                [(s, _("{seconds} s").format(seconds=f"{s:g}")) for s in (0.5, 1.0, 2.0, 5.0)]),
            *(row(_(s.label), s.key, [(c, _(lbl)) for c, lbl in s.choices])
              for s in games),
            self.full_screen,
        ]
        self.focus = 0
        self.buttons = ButtonGroup([Button(_("Done"), self.back)])
        self.footer = self.buttons
        self.box = pygame.Rect(0, 0, 0, 0)  # placed by layout

    def change(self, key: str, value) -> None:
        if key == "language":  # applies at once: this page is built again, the title on return
            settings.put("language", value)
            settings.put("player_name", self.typed_name())
            i18n.set_language(value)
            focus = self.focus
            self.app.replace("settings").focus = focus
            return
        if key == "fullscreen":
            if value != settings.get("fullscreen"):
                self.app.toggle_fullscreen()
            return
        settings.put(key, value)
        if key in ("sound", "volume"):
            self.app.sound.configure(settings.get("sound"), settings.get("volume"))
            self.app.sound.play("move")

    def typed_name(self) -> str:
        """The name in the field; the default as the default, whatever language shows it."""
        name = self.name.value.strip()[:24]
        default = settings.DEFAULTS["player_name"]
        return default if not name or name == person(default) else name

    def back(self) -> None:
        settings.put("player_name", self.typed_name())
        super().back()

    def update(self, dt: float) -> None:
        # F11 toggles it from any screen, and a display may refuse it: the row shows the truth
        self.full_screen.show(settings.get("fullscreen"))

    def handle_event(self, event: pygame.event.Event) -> None:
        n = len(self.rows)
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.back()
                return
            if event.key in (pygame.K_UP, pygame.K_DOWN, pygame.K_TAB):
                step = -1 if event.key == pygame.K_UP else 1
                self.focus = (self.focus + step) % (n + 1)
                return
        if self.focus == n or event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION):
            if self.buttons.handle_event(event):
                return
        for i, r in enumerate(self.rows):
            if event.type == pygame.MOUSEBUTTONDOWN and r.rect.collidepoint(event.pos):
                self.focus = i
            if r.handle_event(event, i == self.focus):
                return

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.box = box = self.page_box(size)
        # one column while the rows fit at a readable height, else two side by side
        columns = 1 if (box.height - 30) // len(self.rows) >= 34 else 2
        per_column = -(-len(self.rows) // columns)
        row_h = max(34, min(50 + max(0, h - 800) // 8, (box.height - 30) // per_column))
        col_w = (box.width - 48 - 24 * (columns - 1)) // columns
        label_w = form_label_width([r.label for r in self.rows], row_h - 8, col_w) \
            if columns == 1 else min(190, col_w * 2 // 5)
        lay_out_form([(r, pygame.Rect(box.x + 24 + i // per_column * (col_w + 24),
                                      box.y + 14 + i % per_column * row_h, col_w, row_h - 8))
                      for i, r in enumerate(self.rows)], label_w)
        self.lay_out_footer(size, 160)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_page_title(surface, _("Settings"))
        panel(surface, self.box)
        for i, r in enumerate(self.rows):
            r.draw(surface, i == self.focus)
        self.buttons.draw(surface, show_focus=self.focus == len(self.rows))
