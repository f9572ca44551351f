"""The drawing half of the play scene: the top bar, the board, the side panel with the seats,
their clocks, the board's lines, the live move list and the buttons."""

from __future__ import annotations

import math
from typing import Any

import pygame

from ai.base import LEVEL_TITLES
from client.scenes.base import Scene
from client.ui import paper, theme
from client.ui.widgets import Button, ButtonGroup, sheet
from game import settings
from game.clock import LOW_SECONDS, GameClock, format_time
from game.i18n import (
    N_,
    _,
    capitalized,
    outcome_reason,
    person,
    pgettext,
    seat_title,
    side_label,
)
from game.match import Match, Seat, SeatKind
from players.table import Table

PANEL_WIDTH = 270
PANEL_WIDTH_MAX = 360
TOP_BAR = 58
MOVE_ROW = 19  # px a line of the live move list
MOVES_ROOM = 5 * MOVE_ROW + 14  # the move list's least room before the buttons go two a row
# What the panel says of each kind of seat, under its name ({level}: a bot's level).
KIND_LABELS = {SeatKind.HUMAN: None, SeatKind.AI: N_("AI {level}"),
               SeatKind.REMOTE: N_("over the LAN"), SeatKind.AGENT: N_("program")}


def seat_label(seat: Seat) -> str:
    """The panel's words for who plays this seat ("" for someone here)."""
    label = KIND_LABELS[seat.kind]
    return "" if label is None else _(label).format(level=_(LEVEL_TITLES[seat.level]))


class PlayView(Scene):
    """What the play scene draws; the scene itself turns input into table calls."""

    table: Table
    board: Any
    panel_buttons: ButtonGroup
    mute_buttons: ButtonGroup
    moves_rect: pygame.Rect
    side: pygame.Rect
    status_lines: list[str]
    _move_texts: list[tuple[Any, str]]
    _move_eyes: int | None  # the seat whose eyes those lines were made with

    def lay_out_panel(self) -> None:
        """The panel's widgets, once the table and the board are there."""
        self.panel_buttons = ButtonGroup()
        self.moves_rect = pygame.Rect(0, 0, 0, 0)  # the live move list, placed by layout
        self._move_texts = []  # (move, its line) for the moves so far
        self._move_eyes = None
        self.mute_buttons = ButtonGroup([Button("", self.toggle_sound)])  # in the top bar
        self._label_mute()
        self.side = pygame.Rect(0, 0, PANEL_WIDTH, 0)  # the side panel, placed by layout
        self.status_lines = []  # the board's panel lines as laid out
        self._panel_text: tuple = ((0, 0), 0, 0)  # window size, buttons, most lines seen
        self._build_buttons()

    # --- what the table holds, as the screen names it
    @property
    def match(self) -> Match:
        return self.table.match

    @property
    def session(self) -> Any:
        return self.table.remote

    @property
    def clock(self) -> GameClock | None:
        return self.table.clock

    @property
    def humans(self) -> list[int]:
        return self.table.humans

    @property
    def demo(self) -> bool:
        return self.table.demo

    @property
    def save_name(self) -> str:
        return self.table.save_name

    @property
    def watch_speed(self) -> float:
        return self.table.watch_speed

    @watch_speed.setter
    def watch_speed(self, speed: float) -> None:
        self.table.watch_speed = speed

    @property
    def time_control(self) -> str:
        return self.table.time_control

    @property
    def revealing(self) -> bool:
        return self.table.revealing

    @property
    def hidden_hotseat(self) -> bool:
        return self.table.hidden_hotseat

    def claim_wait(self) -> str:
        """"" once the game may be claimed, else what the Claim button says meanwhile: its
        countdown (or its plain name while the other player is here: nothing to claim)."""
        left = self.table.claim_in()
        if left <= 0:
            return ""
        if math.isinf(left):
            return _("Claim the game")
        return _("Claim in {seconds} s").format(seconds=math.ceil(left))

    def claim_label(self) -> str:
        return self.claim_wait() or _("Claim the game")

    # --- the side panel
    def _build_buttons(self) -> None:
        t, buttons = self.table, []
        self.panel_linked = self.session is not None and self.session.connected
        if self.humans and not self.demo:
            undo = _("Undo (U)") if self.match.rules.PLAYERS > 1 else pgettext(
                "a one-player game: take back the last move", "Undo (U)")  # 撤销, not 悔棋
            buttons.append(Button(undo, self.undo, hotkey=pygame.K_u, enabled=t.can_undo()))
            if self.match.rules.PLAYERS == 2:
                buttons.append(Button(_("Resign"), self.ask_resign, enabled=not self.match.over))
            if self.session is not None and t.peer_away:  # waited for: it may be claimed
                buttons.append(Button(self.claim_label(), self.claim_game,
                                      enabled=t.claim_in() <= 0))
            elif self.session is not None:
                buttons.append(Button(_("Offer a draw"), t.offer_draw,
                                      enabled=not self.match.over and not t.offer_out("draw")))
                buttons.append(Button(_("Chat (T)"), self.chat, hotkey=pygame.K_t,
                                      enabled=self.session.connected))
            buttons.append(Button(_("Save (Ctrl+S)"), self.save_named, enabled=not self.match.over
                                  and self.session is None))
        going = not self.match.over  # a finished game has nothing to pause, step or hint
        if not self.humans:
            buttons.append(Button(_("Resume (P)") if t.paused else _("Pause (P)"),
                                  self.toggle_pause, hotkey=pygame.K_p, enabled=going))
            buttons.append(Button(_("Step (S)"), self.step_once, hotkey=pygame.K_s,
                                  enabled=t.paused and going))
            buttons.append(Button(_("Speed {speed}x (+/-)").format(speed=f"{t.watch_speed:g}"),
                                  self.faster, enabled=going))
        if self.match.over and not self.demo:  # the card again, after a look at the board
            buttons.append(Button(_("Result"), self.show_result))
        buttons += [Button(label, action, enabled=going)
                    for label, action in self.board.actions()]
        buttons.append(Button(_("Rules"), self.show_rules))
        buttons.append(Button(_("Menu (Esc)"), self.ask_leave))
        unfocused = self.panel_buttons.focus < 0  # the keyboard has not come to the panel
        self.panel_buttons.set(buttons)  # the focus stays on its button, as its label says
        if unfocused:
            self.panel_buttons.focus = -1
        self.relayout()

    def toggle_sound(self) -> None:
        """The top bar's mute button: sound on or off at once, and remembered."""
        settings.put("sound", not settings.get("sound"))
        self.app.sound.configure(settings.get("sound"), settings.get("volume"))
        self._label_mute()

    def _label_mute(self) -> None:
        on = bool(settings.get("sound"))
        self.mute_buttons.buttons[0].label = "♪ " + (_("on") if on else _("off"))
        self.mute_buttons.buttons[0].selected = not on

    # --- drawing
    @property
    def top_bar(self) -> int:
        return self.s(TOP_BAR)

    @property
    def move_row(self) -> int:
        return self.s(MOVE_ROW)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        s, top_bar = self.s, self.top_bar
        self.mute_buttons.buttons[0].rect = pygame.Rect(w - s(12) - s(76), (top_bar - s(34)) // 2,
                                                        s(76), s(34))
        # The panel is a sheet along the window's right edge, wider on a wide window.
        width = max(s(PANEL_WIDTH), min(s(PANEL_WIDTH_MAX), w // 5))
        self.side = side = pygame.Rect(w - width, top_bar, width, h - top_bar)
        board_rect = pygame.Rect(12, top_bar + 8, side.x - 24, h - top_bar - 20)
        if board_rect != self.board.rect:
            self.board.layout(board_rect)
        self.status_lines = self._status_lines()
        y = side.y + s(14) + s(54) * len(self.match.seats) + s(6) + s(22) * len(
            self.status_lines) + s(10)
        buttons = self.panel_buttons.buttons
        n = len(buttons)
        # The buttons keep the room the most text at this size and count needed, so a line
        # that comes and goes (the move hint on one's own turn) moves only the move list.
        most = len(self.status_lines) + self._hint_room()
        if self._panel_text[:2] == (size, n):
            most = max(most, self._panel_text[2])
        self._panel_text = (size, n, most)
        y_room = y + s(22) * (most - len(self.status_lines))
        room, gap = s(MOVES_ROOM), s(8)
        height = max(s(30), min(s(40), (side.bottom - y_room - 10 - room) // max(1, n) - gap))
        if y_room + room + n * (height + gap) <= side.bottom - 2:
            top = max(y_room, side.bottom - 10 - n * (height + gap))
            self.panel_buttons.layout_column(side.x + s(14), top, side.width - s(28), height,
                                             gap=gap)
            self._place_move_list(y)
            return
        # A small window: two columns, so the last button (Menu) stays on screen.
        rows, gap = (n + 1) // 2, s(6)
        height = max(s(26), min(s(34), (side.bottom - y_room - 10) // max(1, rows) - gap))
        top = max(y_room, side.bottom - 10 - rows * (height + gap))
        half = (side.width - s(28) - gap) // 2
        for i, b in enumerate(buttons):
            # Menu, the last, always at the bottom right: a game's end adds or takes a button,
            # and Rules stood where a player had just pressed Menu
            at = 2 * rows - 1 if i == n - 1 else i
            b.rect = pygame.Rect(side.x + s(14) + (at % 2) * (half + gap),
                                 top + (at // 2) * (height + gap), half, height)
        self._place_move_list(y)

    def scale_for(self, size: tuple[int, int]) -> float:
        """The window's scale, held to a panel of a quarter of its width: the panel grew with
        the height alone, so a tall, narrow window gave it the board's room."""
        return min(theme.window_scale(size), max(1.0, size[0] / 4 / PANEL_WIDTH))

    def toast_area(self, size: tuple[int, int]) -> pygame.Rect:
        """Over the board, clear of the panel's buttons (a message covered Menu)."""
        return pygame.Rect(0, self.top_bar, self.side.x, size[1] - 6 - self.top_bar)

    def _place_move_list(self, y: int) -> None:
        """The live move list fills the room between the panel's text and its buttons."""
        top = min((b.rect.y for b in self.panel_buttons.buttons), default=self.side.bottom)
        self.moves_rect = pygame.Rect(self.side.x + self.s(14), y, self.side.width - self.s(28),
                                      top - y - 8)

    def move_list(self) -> list[str]:
        """The moves so far in the game's notation (kept in step with undo and new moves);
        empty while the game hides one seat's moves from the other."""
        m = self.match
        eyes = None  # the whole truth, unless the game hides something between the seats
        # (after the end too, when the whole was never shown: this seat knows only its views)
        if m.rules.HIDDEN and m.rules.hides_between_seats(m.options) and not (
                m.over and m.record_complete()):
            eyes = self.board.viewer
            if not self.board.PUBLIC_MOVES or eyes is None:
                return []
        texts = self._move_texts
        if [move for move, _ in texts] != m.moves[:len(texts)] or self._move_eyes != eyes:
            texts.clear()  # taken back, another game, other eyes: rebuilt below
            self._move_eyes = eyes
        for i in range(len(texts), len(m.moves)):
            # as the match knows them: a fog guest's are the host's views, not its own states'
            # (those hold only what a view shows: their captured pieces count the clouds too)
            before, after = m.view_at(i, eyes), m.view_at(i + 1, eyes)
            mover = m.mover_at(i)
            who = _(m.rules.SEAT_NAMES[mover]) if mover is not None and m.rules.PLAYERS > 1 else ""
            text = self.board.move_text(m.moves[i], before, after)
            texts.append((m.moves[i], " ".join(p for p in (f"{i + 1}.", who, text) if p)))
        return [t for _, t in texts]

    def _status_lines(self) -> list[str]:
        """The board's lines for the side panel, wrapped to its width."""
        lines = self.board.status() if self.board.view is not None else []
        return self._wrapped(lines + [offer.say() for offer in self.table.offers_out()])

    def _wrapped(self, lines: list[str]) -> list[str]:
        return [part for line in lines
                for part in theme.wrap(line, self.side.width - self.s(28), self.s(17))]

    def _hint_room(self) -> int:
        """The lines the move hint adds on a local player's turn while it is not shown."""
        if not self.humans or self.board.view is None or self.board.my_turn:
            return 0
        return len(self._wrapped(self.board.turn_hint()))

    def status_text(self) -> str:
        m = self.match
        if m.over:
            reason = outcome_reason(m.outcome())
            return capitalized(reason, m.rules.SEAT_NAMES) if reason else _("Game over")
        if self.table.peer_away:
            name = person(m.seats[self.session.peer_seat].name) if self.session else ""
            return _("Waiting for {name} to come back").format(name=name)
        seat = m.to_move()
        who = seat_title(m, seat)
        setup = m.setup_pending()
        if self.revealing:
            return _("{player} is next: press a key to hand over").format(player=who)
        if seat in self.humans and self.board.busy() and len(m.moves) > 0:
            mover = m.mover_at(len(m.moves) - 1)  # the last move still lands: not yet yours
            if mover is not None and mover != seat:
                return _("{player} moved").format(player=seat_title(m, mover))
        if seat in self.humans:
            if len(self.humans) == 1:
                return _("Place your planes") if setup else _("Your move")
            return (_("{player}: set up") if setup else _("{player}: your move")).format(player=who)
        thinking = self.table.controllers[seat].thinking
        dots = "." * (1 + int(self.table.now() * 3) % 3)
        if self.table.paused:
            return _("Paused — {player} to move").format(player=who)
        if thinking:
            return _("{player} is thinking").format(player=who) + dots
        return _("{player} to move").format(player=who)

    def draw(self, surface: pygame.Surface) -> None:
        w, s, top_bar = surface.get_width(), self.s, self.top_bar
        sheet(surface, pygame.Rect(0, 0, w, top_bar), theme.PAPER_DARK)
        title = theme.text(surface, _(self.match.info.title), (s(18), top_bar // 2), s(28),
                           bold=True, anchor="midleft")
        # a long status never runs into the title
        size, status = theme.fit(self.status_text(), w - s(100) - title.right - s(24), s(22),
                                 smallest=13, bold=True)
        theme.text(surface, status, (w - s(100), top_bar // 2), size, theme.ACCENT, bold=True,
                   anchor="midright")
        self.mute_buttons.draw(surface, show_focus=False)
        if self.board.view is not None:
            self.board.draw(surface)
        self._draw_panel(surface, self.side)

    def panel_name(self, seat: int) -> str:
        """A seat's name in the panel; over the LAN the local player's is marked, so two
        players with the same name can tell who is who."""
        name = person(self.match.seats[seat].name)
        if self.session is not None and seat in self.humans:
            return _("{name} (you)").format(name=name)
        return name

    def lit_seat(self) -> int | None:
        """The seat lit in the panel: the one to move, but while a hidden hot-seat mover sees
        their move's answer, theirs (their board is drawn, not the next player's)."""
        return self.board.viewer if self.revealing else self.match.to_move()

    def _draw_panel(self, surface: pygame.Surface, side: pygame.Rect) -> None:
        sheet(surface, side)
        s = self.s
        y = side.y + s(14)
        lit = self.lit_seat()
        for seat, held in enumerate(self.match.seats):
            colour = self.board.seat_colour(seat)
            if seat == lit:
                paper.highlight(surface, pygame.Rect(side.x + s(8), y - s(4),
                                                     side.width - s(16), s(48)), theme.HILITE)
            paper.stamp(surface, colour, (side.x + s(26), y + s(20)), s(11))
            kind = seat_label(held)
            room = side.right - s(46) - (s(98) if self.clock is not None else s(14)) - side.x
            # a long name never runs into the clock
            size, name = theme.fit(self.panel_name(seat), room, s(20), smallest=13, bold=True)
            theme.text(surface, name, (side.x + s(46), y), size, bold=True)
            # a one-player game's only side names nothing ("Player", then "player")
            side_name = side_label(self.board.side_name(seat)) if len(self.match.seats) > 1 \
                else ""
            theme.text(surface, " · ".join(part for part in (side_name, kind) if part),
                       (side.x + s(46), y + s(22)), s(16), theme.INK_SOFT)
            if self.clock is not None:
                self._draw_clock(surface, seat, pygame.Rect(side.right - s(90), y - s(2), s(78),
                                                            s(25)))
            y += s(54)
        y += s(6)
        for part in self.status_lines:
            theme.text(surface, part, (side.x + s(14), y), s(17))
            y += s(22)
        self._draw_move_list(surface)
        self.panel_buttons.draw(surface, show_focus=False)

    def _draw_clock(self, surface: pygame.Surface, seat: int, box: pygame.Rect) -> None:
        """A seat's time left: the running clock inked in, low time in red."""
        left = self.clock.left(seat)
        low = left < LOW_SECONDS
        if self.clock.running == seat:  # inked in
            pygame.draw.rect(surface, theme.BAD if low else theme.INK, box, border_radius=3)
            paper.rect(surface, theme.BAD if low else theme.INK, box, 2)
            colour = theme.PAPER
        else:  # pencilled round
            paper.rect(surface, theme.BAD if low else theme.GRID, box, 2)
            colour = theme.BAD if low else theme.INK
        theme.text(surface, format_time(left), box.center, self.s(19), colour, bold=True,
                   anchor="center")

    def _draw_move_list(self, surface: pygame.Surface) -> None:
        box = self.moves_rect
        row = self.move_row
        rows = (box.height - 6) // row  # the lines that fit under the rule
        moves = self.move_list()
        if rows < 1 or not moves:
            return
        pygame.draw.line(surface, theme.GRID, box.topleft, box.topright)
        shown = moves[max(0, len(moves) - rows):]  # the latest, newest at the bottom
        for i, text in enumerate(shown):
            newest = i == len(shown) - 1
            theme.text(surface, text, (box.x + 4, box.y + 6 + i * row), self.s(15),
                       theme.INK if newest else theme.INK_SOFT, bold=newest)
