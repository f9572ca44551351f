"""The play scene: draws a Table (players/table.py) and turns input into its calls.

It is the same scene for hot-seat, against a bot, against a program, over the LAN and for
watching bots play: the table decides who sees what, what may be undone and what happens at
the end; this scene only draws it, asks the player's questions and plays the sounds.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pygame

from ai.base import LEVEL_TITLES
from client.scenes.base import Scene, start_match
from client.ui import theme
from client.ui.widgets import Button, ButtonGroup, panel
from game import saves, settings
from game.clock import LOW_SECONDS, GameClock, format_time
from game.i18n import _, outcome_reason, seat_title
from game.match import Match
from players.base import Controller
from players.events import Event, EventKind
from players.table import Table

if TYPE_CHECKING:
    from client.app import App

PANEL_WIDTH = 270
TOP_BAR = 58
RESULT_DELAY = 1.0  # seconds the final position shows before the result card
MOVE_ROW = 19  # px a line of the live move list


class PlayScene(Scene):
    def __init__(self, app: App, match: Match, controllers: list[Controller], *,
                 session: Any = None, demo: bool = False, save_name: str | None = None,
                 watch_speed: float = 1.0, time_control: str = "none",
                 now: Any = time.monotonic):
        super().__init__(app)
        save_name = save_name or saves.autosave_name(match)
        kept = None
        if session is None and not demo and any(c.local_human for c in controllers):
            kept = GameClock.from_dict(saves.read_extra(save_name).get("clock"), now=now)
        self.table = Table(match, controllers, remote=session, demo=demo, save_name=save_name,
                           time_control=time_control, kept_clock=kept, now=now)
        self.table.watch_speed = watch_speed
        self.board = match.info.board_module().Board(
            match.options, match.rules.SEAT_NAMES, prefs=settings.all_values(), store=settings.put)
        self.result_shown = False
        self.panel_buttons = ButtonGroup()
        self.moves_rect = pygame.Rect(0, 0, 0, 0)  # the live move list, placed by layout
        self._move_texts: list[tuple[Any, str]] = []  # (move, its line) for the moves so far
        self.mute_buttons = ButtonGroup([Button("", self.toggle_sound)])  # in the top bar
        self._label_mute()
        self.side = pygame.Rect(0, 0, PANEL_WIDTH, 0)  # the side panel, placed by layout
        self.status_lines: list[str] = []  # the board's panel lines as laid out
        self._build_buttons()
        self.refresh(animate=False)

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

    def stats_entry(self) -> tuple[str, str, str, int | None] | None:
        return self.table.stats_entry()

    def save_extra(self) -> dict:
        return self.table.save_extra()

    def leave(self) -> None:
        """Covered (a dialog, the hand-over) or gone: the clocks stop."""
        if self.clock is not None:
            self.clock.run(None)

    def end_reveal(self) -> None:
        self.table.end_reveal()
        self.refresh(animate=False)

    def refresh(self, animate: bool = True) -> None:
        """Give the board what the table lets it show now."""
        sight = self.table.sight()
        if sight.view is not None:
            self.board.set_view(sight.view, sight.legal, my_turn=sight.my_turn,
                                viewer=sight.viewer, last_move=sight.last_move, animate=animate)
        else:  # between two hidden hands: the board forgets what the last player saw
            self.board.forget()
        self._build_buttons()

    # --- the side panel
    def _build_buttons(self) -> None:
        t, buttons = self.table, []
        if self.humans and not self.demo:
            buttons.append(Button(_("Undo (U)"), self.undo, hotkey=pygame.K_u,
                                  enabled=t.can_undo()))
            if self.match.rules.PLAYERS == 2:
                buttons.append(Button(_("Resign"), self.ask_resign, enabled=not self.match.over))
            if self.session is not None:
                buttons.append(Button(_("Offer a draw"), t.offer_draw,
                                      enabled=not self.match.over))
                buttons.append(Button(_("Chat (T)"), self.chat, hotkey=pygame.K_t))
            buttons.append(Button(_("Save (Ctrl+S)"), self.save_named, enabled=not self.match.over
                                  and self.session is None))
        if not self.humans:
            buttons.append(Button(_("Resume (P)") if t.paused else _("Pause (P)"),
                                  self.toggle_pause, hotkey=pygame.K_p))
            buttons.append(Button(_("Step (S)"), self.step_once, hotkey=pygame.K_s,
                                  enabled=t.paused))
            buttons.append(Button(_("Speed {speed}x (+/-)").format(speed=f"{t.watch_speed:g}"),
                                  self.faster))
        buttons += [Button(label, action) for label, action in self.board.actions()]
        buttons.append(Button(_("Rules"), self.show_rules))
        buttons.append(Button(_("Menu (Esc)"), self.ask_leave))
        focus = self.panel_buttons.focus
        self.panel_buttons.set(buttons)
        self.panel_buttons.focus = min(focus, len(buttons) - 1)
        self.relayout()

    # --- actions
    def undo(self) -> None:
        owner = self.table.undo_needs_consent()
        if owner is not None and not self.revealing:
            who = seat_title(self.match, owner)
            self.app.push("confirm", message=_("Take back {player}'s move?").format(player=who),
                          on_yes=self._undo_now, yes=_("Take it back"), no=_("Keep it"),
                          detail=_("It is {player}'s move, not yours: ask them first.")
                          .format(player=who))
            return
        self._undo_now()

    def _undo_now(self) -> None:
        if not self.table.undo():
            self.app.toast(_("Nothing to undo"))
            self.app.sound.play("refused")
        self.result_shown = False
        self.refresh(animate=False)

    def ask_resign(self) -> None:
        seat = self.table.resign_seat()
        if seat is None:
            return

        def resign() -> None:
            self.table.resign()
            self.refresh(animate=False)

        self.app.push("confirm", message=_("Resign this game?"), on_yes=resign,
                      detail=_("{player} gives up.").format(player=seat_title(self.match, seat)))

    def save_named(self) -> None:
        self.table.save_now_in_background(time.strftime(f"{self.match.game_id} %Y-%m-%d %H%M%S"))

    def show_rules(self) -> None:
        self.app.push("rules", game_id=self.match.game_id)

    def ask_leave(self) -> None:
        if self.match.over or not self.humans or self.demo:
            self.leave_game()
            return
        detail = (_("It is saved: choose Continue on the title screen to go on.")
                  if self.session is None else _("The other player will be told."))
        self.app.push("confirm", message=_("Leave this game?"), on_yes=self.leave_game,
                      yes=_("Leave"), no=_("Stay"), detail=detail)

    def leave_game(self) -> None:
        self.table.cancel()
        self.table.save_now_in_background()
        if self.app.find("title"):
            self.app.pop_to("title")  # this scene closes on the way
        else:
            self.app.pop()

    def close(self) -> None:
        """Off the stack: the seats and the LAN session let go of their threads and sockets."""
        self.table.close()
        self.board.close()

    def toggle_pause(self) -> None:
        self.table.toggle_pause()
        self._build_buttons()

    def step_once(self) -> None:
        self.table.step()

    def faster(self, step: int = 1) -> None:
        self.table.faster(step)
        self._build_buttons()

    def back(self) -> None:
        self.ask_leave()

    def claim_game(self) -> None:
        self.table.claim()
        self.refresh(animate=False)

    def chat(self) -> None:
        self.app.push("prompt", message=_("Say to the other player"), on_done=self.table.chat)

    def try_move(self, move: Any, by_human: bool = True) -> bool:
        """A local person's move; a refused one changes nothing and says why."""
        refused = self.table.play(move)
        if refused is not None:
            self.app.sound.play("refused")
            self.app.toast(refused.say())
            return False
        self.board.legal, self.board.my_turn = [], False
        self._take(self.table.tick(busy=True, covered=self.app.top is not self))
        return True

    # --- the scene
    def toggle_sound(self) -> None:
        """The top bar's mute button: sound on or off at once, and remembered."""
        settings.put("sound", not settings.get("sound"))
        self.app.sound.configure(settings.get("sound"), settings.get("volume"))
        self._label_mute()

    def _label_mute(self) -> None:
        on = bool(settings.get("sound"))
        self.mute_buttons.buttons[0].label = "♪ " + (_("on") if on else _("off"))
        self.mute_buttons.buttons[0].selected = not on

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and not self.demo \
                and self.mute_buttons.handle_event(event):
            return
        if event.type == pygame.KEYDOWN and self._key(event):
            return
        if self.demo and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.leave_game()  # the idle demo ends at any key or click
            return
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION) or (
                event.type == pygame.KEYDOWN and event.key in (pygame.K_u, pygame.K_p,
                                                               pygame.K_s)):
            if self.panel_buttons.handle_event(event):
                return
        if self.revealing and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.end_reveal()  # seen: hand over now
            return
        if self.table.human_to_move() is not None and not self.match.over:
            move = self.board.handle_event(event)
            if move is not None:
                self.try_move(move)
        else:
            self.board.handle_event(event)  # hover, assist tools, hints

    def _key(self, event: pygame.event.Event) -> bool:
        """The scene's own keys; True if the key was one."""
        if event.key == pygame.K_ESCAPE:
            self.ask_leave()
        elif event.key == pygame.K_s and event.mod & pygame.KMOD_CTRL and self.humans:
            self.save_named()
        elif not self.humans and event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.faster()
        elif not self.humans and event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.faster(-1)
        else:
            return False
        return True

    def update(self, dt: float) -> None:
        self.board.update(dt)
        self._take(self.table.tick(busy=self.board.busy(), covered=self.app.top is not self))
        if self._status_lines() != self.status_lines:
            self.relayout()  # the panel's text grew or shrank: the buttons move
        labels = [label for label, _ in self.board.actions()]
        if not all(any(b.label == lb for b in self.panel_buttons.buttons) for lb in labels):
            self._build_buttons()  # a board's own buttons changed their labels
        seat = self.table.handover_seat()
        if seat is not None and self.app.top is self:
            self.refresh(animate=False)  # nobody's hand on the board while it is handed over
            note = _("Set up your planes.") if self.match.setup_pending() else ""
            self.app.push("handover", player=seat_title(self.match, seat),
                          on_ready=lambda s=seat: self._show_seat(s), note=note,
                          on_leave=self.ask_leave)
            return
        if self.table.human_to_move() is not None and not self.match.over:
            move = self.board.pending_move()
            if move is not None:
                self.try_move(move)
        if self.match.over:
            self._after_end()

    def _show_seat(self, seat: int) -> None:
        self.table.take_seat(seat)
        self.refresh(animate=False)

    def _take(self, events: list[Event]) -> None:
        """Draw what the table says happened."""
        for event in events:
            kind = event.kind
            if kind is EventKind.MOVED:
                before = self.board.view
                self.refresh(animate=True)
                if self.board.view is not None:
                    self.app.sound.play(self.board.sound_for(before, self.board.view, event.move))
            elif kind in (EventKind.REFRESH, EventKind.NEW_MATCH):
                if kind is EventKind.NEW_MATCH and self.app.top is not self:
                    self.app.pop_to(PlayScene)
                self.result_shown = False
                self.refresh(animate=False)
            elif kind is EventKind.NOTICE:
                self.app.toast(event.text.say())
            elif kind is EventKind.PEER_LOST:
                self.app.push(
                    "confirm", message=_("The other player is gone"), on_yes=self.claim_game,
                    detail=_("{reason}. The game is saved. Wait for them to come back, or claim "
                             "the game.").format(reason=event.text.say()),
                    yes=_("Claim the game"), no=_("Wait"))
            elif kind is EventKind.ASK:
                q = event.question
                self.app.push("confirm", message=q.text.say(), on_yes=q.on_yes,
                              detail=q.detail.say(), yes=q.yes.say(), no=q.no.say(),
                              on_no=q.on_no)
            elif kind is EventKind.ENDED:
                self.refresh(animate=False)
                self._end_sound()

    def _end_sound(self) -> None:
        out = self.match.outcome()
        if len(self.humans) == 1 and self.match.rules.PLAYERS == 2 and out is not None:
            self.app.sound.play("win" if out.winner == self.humans[0] else "lose")
        else:
            self.app.sound.play("win")

    def _after_end(self) -> None:
        """The final position shows for a moment, then the result card (the demo: a new game)."""
        shown_for = self.table.now() - (self.table.ended_at or self.table.now())
        if self.demo and shown_for >= 3 * RESULT_DELAY:
            m = self.match
            start_match(self.app, Match(m.game_id, m.options, None, m.seats), replace=True,
                        demo=True, watch_speed=self.table.watch_speed)
        elif not self.result_shown and shown_for >= RESULT_DELAY and self.app.top is self \
                and not self.demo:
            self.result_shown = True
            self.app.push("result", play=self)

    def on_quit(self) -> None:
        self.table.save_on_quit()

    # --- drawing
    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.mute_buttons.buttons[0].rect = pygame.Rect(w - 12 - 76, (TOP_BAR - 34) // 2, 76, 34)
        self.side = side = pygame.Rect(w - PANEL_WIDTH - 12, TOP_BAR + 8, PANEL_WIDTH,
                                       h - TOP_BAR - 20)
        board_rect = pygame.Rect(12, TOP_BAR + 8, side.x - 24, h - TOP_BAR - 20)
        if board_rect != self.board.rect:
            self.board.layout(board_rect)
        self.status_lines = self._status_lines()
        y = side.y + 14 + 54 * len(self.match.seats) + 6 + 22 * len(self.status_lines) + 10
        buttons = self.panel_buttons.buttons
        n = len(buttons)
        height = max(30, min(40, (side.bottom - y - 10) // max(1, n) - 8))
        if y + n * (height + 8) <= side.bottom - 2:
            top = max(y, side.bottom - 10 - n * (height + 8))
            self.panel_buttons.layout_column(side.x + 14, top, side.width - 28, height, gap=8)
            self._place_move_list(y)
            return
        # A small window: two columns, so the last button (Menu) stays on screen.
        rows = (n + 1) // 2
        height = max(26, min(34, (side.bottom - y - 10) // max(1, rows) - 6))
        top = max(y, side.bottom - 10 - rows * (height + 6))
        half = (side.width - 28 - 6) // 2
        for i, b in enumerate(buttons):
            b.rect = pygame.Rect(side.x + 14 + (i % 2) * (half + 6), top + (i // 2) * (height + 6),
                                 half, height)
        self._place_move_list(y)

    def _place_move_list(self, y: int) -> None:
        """The live move list fills the room between the panel's text and its buttons."""
        top = min((b.rect.y for b in self.panel_buttons.buttons), default=self.side.bottom)
        self.moves_rect = pygame.Rect(self.side.x + 14, y, self.side.width - 28, top - y - 8)

    def move_list(self) -> list[str]:
        """The moves so far in the game's notation (kept in step with undo and new moves);
        empty while the game hides one seat's moves from the other."""
        m = self.match
        if m.rules.HIDDEN and m.rules.hides_between_seats(m.options) and not m.over:
            return []
        texts = self._move_texts
        if [move for move, _ in texts] != m.moves[:len(texts)]:
            texts.clear()  # taken back, or another game: rebuilt below
        for i in range(len(texts), len(m.moves)):
            before, after = m.rules.view(m.states[i], None), m.rules.view(m.states[i + 1], None)
            mover = m.rules.to_move(m.states[i])
            who = m.rules.SEAT_NAMES[mover] if mover is not None and m.rules.PLAYERS > 1 else ""
            text = self.board.move_text(m.moves[i], before, after)
            texts.append((m.moves[i], " ".join(p for p in (f"{i + 1}.", who, text) if p)))
        return [t for _, t in texts]

    def _status_lines(self) -> list[str]:
        """The board's lines for the side panel, wrapped to its width."""
        lines = self.board.status() if self.board.view is not None else []
        return [part for line in lines for part in theme.wrap(line, self.side.width - 28, 17)]

    def status_text(self) -> str:
        m = self.match
        if m.over:
            return outcome_reason(m.outcome()) or _("Game over")
        seat = m.to_move()
        who = seat_title(m, seat)
        setup = m.setup_pending()
        if self.revealing:
            return _("{player} is next: press a key to hand over").format(player=who)
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
        w = surface.get_width()
        pygame.draw.rect(surface, theme.PAPER_DARK, (0, 0, w, TOP_BAR))
        title = theme.text(surface, _(self.match.info.title), (18, TOP_BAR // 2), 28, bold=True,
                           anchor="midleft")
        status, size = self.status_text(), 22
        while size > 13 and theme.font(size, True).size(status)[0] > w - 100 - title.right - 24:
            size -= 1  # a long status never runs into the title
        theme.text(surface, status, (w - 100, TOP_BAR // 2), size, theme.ACCENT, bold=True,
                   anchor="midright")
        self.mute_buttons.draw(surface, show_focus=False)
        if self.board.view is not None:
            self.board.draw(surface)
        self._draw_panel(surface, self.side)

    def panel_name(self, seat: int) -> str:
        """A seat's name in the panel; over the LAN the local player's is marked, so two
        players with the same name can tell who is who."""
        name = self.match.seats[seat].name
        if self.session is not None and seat in self.humans:
            return _("{name} (you)").format(name=name)
        return name

    def _draw_panel(self, surface: pygame.Surface, side: pygame.Rect) -> None:
        panel(surface, side)
        y = side.y + 14
        to_move = self.match.to_move()
        for seat, s in enumerate(self.match.seats):
            colour = self.board.seat_colour(seat)
            if seat == to_move:
                pygame.draw.rect(surface, theme.HILITE, (side.x + 8, y - 4, side.width - 16, 48),
                                 border_radius=8)
            pygame.draw.circle(surface, colour, (side.x + 26, y + 20), 11)
            level = _(LEVEL_TITLES.get(s.level, s.level))
            kind = {"human": "", "ai": _("AI {level}").format(level=level),
                    "remote": _("over the LAN"), "agent": _("program")}.get(s.kind, s.kind)
            name, size = self.panel_name(seat), 20
            room = side.right - 46 - (98 if self.clock is not None else 14) - side.x
            while size > 13 and theme.font(size, True).size(name)[0] > room:
                size -= 1  # a long name never runs into the clock
            theme.text(surface, name, (side.x + 46, y), size, bold=True)
            theme.text(surface, f"{self.board.side_name(seat)}  {kind}".strip(),
                       (side.x + 46, y + 22), 16, theme.INK_SOFT)
            if self.clock is not None:
                self._draw_clock(surface, seat, pygame.Rect(side.right - 90, y - 2, 78, 25))
            y += 54
        y += 6
        for part in self.status_lines:
            theme.text(surface, part, (side.x + 14, y), 17)
            y += 22
        self._draw_move_list(surface)
        self.panel_buttons.draw(surface, show_focus=False)

    def _draw_clock(self, surface: pygame.Surface, seat: int, box: pygame.Rect) -> None:
        """A seat's time left: the running clock inked in, low time in red."""
        left = self.clock.left(seat)
        low = left < LOW_SECONDS
        if self.clock.running == seat:
            pygame.draw.rect(surface, theme.BAD if low else theme.INK, box, border_radius=8)
            colour = theme.PAPER
        else:
            pygame.draw.rect(surface, theme.BAD if low else theme.GRID, box, width=2,
                             border_radius=8)
            colour = theme.BAD if low else theme.INK
        theme.text(surface, format_time(left), box.center, 19, colour, bold=True,
                   anchor="center")

    def _draw_move_list(self, surface: pygame.Surface) -> None:
        box = self.moves_rect
        rows = box.height // MOVE_ROW
        moves = self.move_list()
        if rows < 2 or not moves:
            return
        pygame.draw.line(surface, theme.GRID, box.topleft, box.topright)
        shown = moves[max(0, len(moves) - rows + 1):]  # the latest, newest at the bottom
        for i, text in enumerate(shown):
            newest = i == len(shown) - 1
            theme.text(surface, text, (box.x + 4, box.y + 6 + i * MOVE_ROW), 15,
                       theme.INK if newest else theme.INK_SOFT, bold=newest)
