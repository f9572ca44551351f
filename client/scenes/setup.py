"""Game setup: the opponent, who moves first, the game's own options; or two bots to watch."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pygame

from ai.base import LEVEL_TITLES, LEVELS
from client.scenes.base import Scene, start_match
from client.ui import theme
from client.ui.widgets import (
    Button,
    ButtonGroup,
    ChoiceRow,
    TextField,
    form_label_width,
    lay_out_form,
    panel,
)
from game import clock, registry, settings
from game.i18n import _, side_label
from game.match import Match, Seat

if TYPE_CHECKING:
    from client.app import App

def player_choices() -> list[tuple[str, str]]:
    """Who takes the other seat, in the current language."""
    return ([("human", _("Person here"))]
            + [(lv, _("AI {level}").format(level=_(LEVEL_TITLES[lv]))) for lv in LEVELS]
            + [("program", _("Program…"))])


def bot_choices() -> list[tuple[str, str]]:
    """Which bot (or program) plays a seat when bots play each other."""
    return [(lv, _(LEVEL_TITLES[lv])) for lv in LEVELS] + [("program", _("Program…"))]


class SetupScene(Scene):
    def __init__(self, app: App, game_id: str, watch: bool = False):
        super().__init__(app)
        self.watch = watch
        self.focus = 0
        self.box = pygame.Rect(40, 80, 400, 300)
        self.game_row: ChoiceRow | None = None
        if watch:
            two = [g for g in registry.available()]
            self.game_row = ChoiceRow(_("Game"), [(g, _(registry.get(g).title)) for g in two],
                                      game_id, self._switch_game)
        self._load(game_id)

    def _load(self, game_id: str) -> None:
        self.game_id = game_id
        self.info = registry.get(game_id)
        rules = self.info.rules
        last = settings.get("last_setup").get(("watch:" if self.watch else "") + game_id, {})
        self.rows: list = [self.game_row] if self.game_row else []
        two = rules.PLAYERS == 2
        self.opponent = self.first = self.bot_a = self.bot_b = self.clock = None
        self.command_a = TextField(_("Program A"), last.get("command_a", ""))
        self.command_b = TextField(_("Program") if not self.watch else _("Program B"),
                                   last.get("command_b", ""))
        if self.watch:
            # a row's label, capitalized as the other rows' ("First", not "first")
            self.bot_a = ChoiceRow(self.side(0), bot_choices(),
                                   last.get("a", "normal"))
            self.rows.append(self.bot_a)
            if two:
                self.bot_b = ChoiceRow(self.side(1), bot_choices(),
                                       last.get("b", "hard"))
                self.rows.append(self.bot_b)
        elif two:
            self.opponent = ChoiceRow(_("Opponent"), player_choices(),
                                      last.get("opponent", settings.get("ai_level")))
            first = self.side(0)
            self.first = ChoiceRow(_("You play"), [
                (0, first if rules.SEATS_NAMED_BY_TURN else
                 _("{side} (moves first)").format(side=first)),
                (1, self.side(1)), ("random", _("Random"))],
                                   last.get("first", 0))
            self.clock = ChoiceRow(_("Clock"), [(k, _(label)) for k, label in clock.choices()],
                                   last.get("clock", clock.NO_CLOCK))
            self.rows += [self.opponent, self.first, self.clock]
        self.setting_rows = {}  # the board's own settings a game offers here (a helper bot)
        offered = {s.key: s for s in self.info.board_module().Board.SETTINGS}
        # the helper bot (hints, autoplay) helps a player: watching, nobody is helped
        for key in () if self.watch else self.info.board_module().Board.SETUP:
            s = offered[key]
            row = ChoiceRow(_(s.label), [(v, _(label)) for v, label in s.choices],
                            settings.get(key))
            self.setting_rows[key] = row
            self.rows.append(row)
        self.option_rows = {}
        for opt in rules.OPTIONS:
            value = last.get("options", {}).get(opt.key, opt.default)
            row = ChoiceRow(_(opt.label), [(v, _(label)) for v, label in opt.choices], value)
            self.option_rows[opt.key] = row
            self.rows.append(row)
        self.buttons = ButtonGroup([Button(_("Start"), self.start),
                                    Button(_("Rules"), self.show_rules),
                                    Button(_("Back"), self.back)], vertical=False)
        self.footer = self.buttons
        self.focus = min(self.focus, len(self.visible_rows()))
        self.relayout()

    def side(self, seat: int) -> str:
        """A seat's side as a row or a choice names it ("Red", Ataxx's "x · red")."""
        board = self.info.board_module().Board
        return side_label(board.side_title(self.info.rules.SEAT_NAMES, seat))

    def _switch_game(self, game_id) -> None:
        self._keep()  # the game shown before keeps what was chosen for it
        self._load(game_id)

    def visible_rows(self) -> list:
        rows = list(self.rows)
        if self.opponent is not None and self.opponent.value == "human":
            rows.remove(self.first)  # between two people here, "You play" means nothing
        if self.opponent is not None and self.opponent.value == "program":
            rows.insert(rows.index(self.opponent) + 1, self.command_b)
        if self.bot_a is not None and self.bot_a.value == "program":
            rows.insert(rows.index(self.bot_a) + 1, self.command_a)
        if self.bot_b is not None and self.bot_b.value == "program":
            rows.insert(rows.index(self.bot_b) + 1, self.command_b)
        return rows

    # --- starting
    def _seat(self, choice, command: str, name: str) -> Seat:
        if choice == "human":
            return Seat("human", name)
        if choice == "program":
            return Seat("agent", command.split()[0].split("/")[-1] if command.strip()
                        else _("Program"), command=command.strip())
        # kept in English, a default name (game.i18n.DEFAULT_NAMES) said in the language shown
        return Seat("ai", f"{LEVEL_TITLES[choice]} bot", choice)

    def seats(self) -> list[Seat] | None:
        me = settings.get("player_name")
        if self.watch:
            seats = [self._seat(self.bot_a.value, self.command_a.value, "")]
            if self.bot_b is not None:
                seats.append(self._seat(self.bot_b.value, self.command_b.value, ""))
            return seats
        if self.opponent is None:
            return [Seat("human", me)]
        other = self._seat(self.opponent.value, self.command_b.value, "Player 2")
        first = self.first.value
        if other.kind == "human":
            first = 0  # hot-seat: Player 1 moves first
        elif first == "random":
            first = random.randint(0, 1)
        mine = Seat("human", me if other.kind != "human" else "Player 1")
        return [mine, other] if first == 0 else [other, mine]

    def start(self) -> None:
        seats = self.seats()
        if any(s.kind == "agent" and not s.command for s in seats):
            self.app.toast(_("Type the program's command line first"))
            self.app.sound.play("refused")
            return
        self._keep()
        options = {k: row.value for k, row in self.option_rows.items()}
        start_match(self.app, Match(self.game_id, options, None, seats),
                    time_control=self.clock.value if self.clock is not None else clock.NO_CLOCK)

    def close(self) -> None:
        # left by Back as well as by Start: the LAN lobby hosts with the options last set here
        self._keep()

    def _keep(self) -> None:
        """Remember what is chosen here, for this form and the lobby, as the player left it."""
        for key, row in self.setting_rows.items():
            settings.put(key, row.value)
        remembered = settings.get("last_setup")
        options = {k: row.value for k, row in self.option_rows.items()}
        entry = {"options": options, "command_a": self.command_a.value,
                 "command_b": self.command_b.value}
        if self.watch:
            entry["a"] = self.bot_a.value
            if self.bot_b is not None:
                entry["b"] = self.bot_b.value
        elif self.opponent is not None:
            entry["opponent"], entry["first"] = self.opponent.value, self.first.value
            entry["clock"] = self.clock.value
        remembered[("watch:" if self.watch else "") + self.game_id] = entry
        settings.put("last_setup", remembered)

    def show_rules(self) -> None:
        self.app.push("rules", game_id=self.game_id)

    # --- the scene
    def handle_event(self, event: pygame.event.Event) -> None:
        self._handle(event)
        self.relayout()  # a choice may show or hide a program's command row

    def _handle(self, event: pygame.event.Event) -> None:
        rows = self.visible_rows()
        n = len(rows)
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.back()
                return
            if event.key in (pygame.K_UP, pygame.K_DOWN) or (
                    event.key == pygame.K_TAB and not isinstance(self._focused(rows), TextField)):
                step = -1 if event.key == pygame.K_UP else 1
                self.focus = (self.focus + step) % (n + 1)
                return
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.focus < n:
                self.start()
                return
        if self.focus == n or event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION):
            if self.buttons.handle_event(event):
                return
        for i, row in enumerate(rows):
            if event.type == pygame.MOUSEBUTTONDOWN and row.rect.collidepoint(event.pos):
                self.focus = i
            if row.handle_event(event, i == self.focus):
                return

    def _focused(self, rows: list):
        return rows[self.focus] if self.focus < len(rows) else None

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.box = self.page_box(size)
        rows = self.visible_rows()
        reserve = self.s(84 if self.clock is not None else 60)  # the clock's note, the keys'
        row_h = max(36, min(52 + max(0, h - 800) // 8,
                            (self.box.height - reserve) // max(1, len(rows))))
        width = self.box.width - 48
        lay_out_form([(row, pygame.Rect(self.box.x + 24, self.box.y + 16 + i * row_h,
                                        width, row_h - 8))
                      for i, row in enumerate(rows)],
                     form_label_width([row.label for row in rows], row_h - 8, width))
        self.lay_out_footer(size, 160, gap=16)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        title = _("Watch bots play") if self.watch else \
            _("New game: {game}").format(game=_(self.info.title))
        self.draw_page_title(surface, title)
        panel(surface, self.box)
        rows = self.visible_rows()
        for i, row in enumerate(rows):
            row.draw(surface, i == self.focus)
        self.buttons.draw(surface, show_focus=self.focus == len(rows))
        theme.text(surface, _("Up/Down: choose a row · Left/Right: change it · Enter: start"),
                   (self.box.x + 24, self.box.bottom - self.s(14)), self.s(16), theme.INK_SOFT,
                   anchor="bottomleft")
        if self.clock is not None:
            theme.text(surface, _("Clocks are for games at this computer; LAN games have none "
                                  "yet."), (self.box.x + 24, self.box.bottom - self.s(38)),
                       self.s(16),
                       theme.INK_SOFT, anchor="bottomleft")
