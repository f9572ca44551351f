"""The play scene: a match, its seats, the game's board, the side panel, undo and resign.

It is the same scene for hot-seat, against a bot, against a program, over the LAN and for
watching bots play: what differs is the controllers (players/) and the optional LAN
session (net/session.py).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pygame

from ai.base import LEVEL_TITLES
from client.scenes.base import Scene
from client.scenes.start import start_match
from client.ui import theme
from client.ui.widgets import Button, ButtonGroup, panel
from game import replay, saves, settings, stats
from game.clock import LOW_SECONDS, GameClock, control, format_time
from game.i18n import _, outcome_reason, seat_title
from game.match import Match
from game.rules import RulesError, Termination
from players.base import Controller, Decision
from players.driver import SeatDriver

if TYPE_CHECKING:
    from client.app import App

PANEL_WIDTH = 270
TOP_BAR = 58
RESULT_DELAY = 1.0  # seconds the final position shows before the result card
MOVE_ROW = 19  # px a line of the live move list
REVEAL_SECONDS = 2.5  # hidden hot-seat: how long the mover sees their move's answer


class PlayScene(Scene):
    def __init__(self, app: App, match: Match, controllers: list[Controller], *,
                 session: Any = None, demo: bool = False, save_name: str | None = None,
                 watch_speed: float = 1.0, time_control: str = "none"):
        super().__init__(app)
        self.match = match
        self.controllers = controllers
        self.session = session
        self.demo = demo
        self.save_name = save_name or saves.autosave_name(match)
        self.humans = [i for i, c in enumerate(controllers) if c.local_human]
        self.board = match.info.board_module().Board(
            match.options, match.rules.SEAT_NAMES, prefs=settings.all_values(), store=settings.put)
        self.driver = SeatDriver(match, controllers, submit=self._submit, forfeit=self._forfeit)
        self.pending: Decision | None = None  # a bot's move waiting for an animation to end
        self.shown_viewer: int | None = None  # whose eyes the board shows (hidden hot-seat)
        # Hidden hot-seat: the mover still sees the answer to their move until this time (or a
        # key), and only then is the computer handed over.
        self.reveal_until: float | None = None
        self.ended_at: float | None = None
        self.replay_due = False  # the game ended; its replay waits until the record is final
        self.result_shown = False
        self.paused = False
        self.watch_speed = watch_speed
        self.wait = 0.0  # watch mode: seconds before the next bot move may be asked for
        self.notices: list[str] = []  # messages from background saves
        self.panel_buttons = ButtonGroup()
        self.moves_rect = pygame.Rect(0, 0, 0, 0)  # the live move list, placed by layout
        self._move_texts: list[tuple[Any, str]] = []  # (move, its line) for the moves so far
        self.mute_buttons = ButtonGroup([Button("", self.toggle_sound)])  # in the top bar
        self._label_mute()
        self.side = pygame.Rect(0, 0, PANEL_WIDTH, 0)  # the side panel, placed by layout
        self.status_lines: list[str] = []  # the board's panel lines as laid out
        self.started = time.monotonic()
        self.time_control = time_control
        self.clock = self._make_clock(time_control)
        self._recorded: Match | None = None  # the match whose result the statistics hold
        self._build_buttons()
        self.refresh(animate=False)

    # --- the clocks
    def _make_clock(self, time_control: str) -> GameClock | None:
        """Clocks for a two-player game with a person at this computer; over the LAN there are
        none yet (one side's clock cannot yet be trusted by the other). A resumed game takes
        the times its save kept."""
        m = self.match
        if m.rules.PLAYERS != 2 or self.session is not None or self.demo or not self.humans:
            return None
        kept = GameClock.from_dict(saves.read_extra(self.save_name).get("clock"))
        if kept is not None:
            self.time_control = kept.control.key
            return kept
        chosen = control(time_control)
        return GameClock(chosen) if chosen is not None else None

    def clock_seat(self) -> int | None:
        """Whose clock runs now: the seat to move, unless the game is covered (a dialog, the
        hand-over), over, still being set up, showing a mover their answer, or animating a
        move already decided."""
        m = self.match
        if (m.over or self.app.top is not self or self.revealing or self.needs_handover()
                or m.setup_pending() or self.pending is not None):
            return None
        return m.to_move()

    def _tick_clock(self) -> None:
        if self.clock is None:
            return
        self.clock.run(self.clock_seat())
        flagged = self.clock.flagged()
        if flagged is not None and not self.match.over:
            self._cancel_all()
            self.reveal_until = None
            self.match.resign(flagged, "", Termination.TIME)
            self.clock.run(None)
            self.refresh(animate=False)

    def save_extra(self) -> dict:
        """What a save keeps beside the match record: the clocks' time left."""
        return {"clock": self.clock.to_dict()} if self.clock is not None else {}

    def leave(self) -> None:
        """Covered (a dialog, the hand-over) or gone: the clocks stop."""
        if self.clock is not None:
            self.clock.run(None)

    # --- who sees what
    @property
    def hidden_hotseat(self) -> bool:
        """Two people at one screen and a game that hides something from one of them."""
        return (bool(self.match.rules.HIDDEN) and len(self.humans) > 1
                and self.board.hides_between_seats())

    @property
    def revealing(self) -> bool:
        """The mover is looking at the answer to their move before handing over."""
        return self.reveal_until is not None and not self.match.over

    def end_reveal(self) -> None:
        """The mover has seen their move's answer: the hand-over may come."""
        if self.reveal_until is not None:
            self.reveal_until = None
            self.refresh(animate=False)

    def viewer(self) -> int | None:
        """The seat whose view the board shows; None shows everything (watching, game over)."""
        if self.match.over and self.match.rules.HIDDEN:
            return None
        if len(self.humans) == 1:
            return self.humans[0]
        if not self.humans:
            return None
        if self.hidden_hotseat:
            return self.shown_viewer
        seat = self.match.to_move()
        return seat if seat is not None else self.humans[0]

    def needs_handover(self) -> bool:
        """Hidden-information hot-seat: the seat to move has not taken the computer yet."""
        if not self.hidden_hotseat or self.match.over or self.revealing:
            return False
        seat = self.match.to_move()
        return seat in self.humans and seat != self.shown_viewer

    def human_to_move(self) -> int | None:
        seat = self.match.to_move()
        if seat is None or seat not in self.humans:
            return None
        if self.hidden_hotseat and self.shown_viewer != seat:
            return None
        return seat

    def refresh(self, animate: bool = True) -> None:
        """Give the board the current view (and, on the local human's turn, the legal moves)."""
        if self.needs_handover():
            self.shown_viewer = None
        viewer = self.viewer()
        mover = self.human_to_move()
        legal = self.match.legal_moves() if mover is not None else []
        view = self.match.view(viewer) if (viewer is not None or not self.hidden_hotseat
                                           or self.match.over) else None
        last = self.match.moves[-1] if self.match.moves else None
        if view is not None:
            self.board.set_view(view, legal, my_turn=mover is not None, viewer=viewer,
                                last_move=last, animate=animate)
        else:  # between two hidden hands: the board forgets what the last player saw
            self.board.view, self.board.legal, self.board.my_turn = None, [], False
        self._build_buttons()

    # --- the side panel
    def _build_buttons(self) -> None:
        buttons = []
        if self.humans and not self.demo:
            lost_on_time = (self.match.ending is not None
                            and self.match.ending.termination is Termination.TIME)
            buttons.append(Button(_("Undo (U)"), self.undo, hotkey=pygame.K_u,
                                  enabled=bool(self.match.moves) and not self.match.over
                                  or (self.session is None and bool(self.match.moves)
                                      and self.match.resigned is not None
                                      and not lost_on_time)))
            if self.match.rules.PLAYERS == 2:
                buttons.append(Button(_("Resign"), self.ask_resign, enabled=not self.match.over))
            if self.session is not None:
                buttons.append(Button(_("Offer a draw"), self.offer_draw,
                                      enabled=not self.match.over))
                buttons.append(Button(_("Chat (T)"), self.chat, hotkey=pygame.K_t))
            buttons.append(Button(_("Save (Ctrl+S)"), self.save_named, enabled=not self.match.over
                                  and self.session is None))
            for label, action in self.board.actions():
                buttons.append(Button(label, action))
        if not self.humans:
            buttons.append(Button(_("Resume (P)") if self.paused else _("Pause (P)"),
                                  self.toggle_pause, hotkey=pygame.K_p))
            buttons.append(Button(_("Step (S)"), self.step_once, hotkey=pygame.K_s,
                                  enabled=self.paused))
            buttons.append(Button(_("Speed {speed}x (+/-)").format(speed=f"{self.watch_speed:g}"),
                                  self.faster))
            for label, action in self.board.actions():
                buttons.append(Button(label, action))
        buttons.append(Button(_("Rules"), self.show_rules))
        buttons.append(Button(_("Menu (Esc)"), self.ask_leave))
        focus = self.panel_buttons.focus
        self.panel_buttons.set(buttons)
        self.panel_buttons.focus = min(focus, len(buttons) - 1)
        self.relayout()

    # --- actions
    def undo(self) -> None:
        if self.session is not None:
            self.session.request_takeback()
            self.app.toast(_("Takeback requested"))
            return
        if len(self.humans) > 1 and self.match.moves and not self.revealing:
            last = self.match.rules.to_move(self.match.states[-2])
            if last is not None and last != self.match.to_move():
                who = seat_title(self.match, last)
                self.app.push("confirm", message=_("Take back {player}'s move?").format(player=who),
                              on_yes=self._undo_one, yes=_("Take it back"), no=_("Keep it"),
                              detail=_("It is {player}'s move, not yours: ask them first.")
                              .format(player=who))
                return
        self._undo_one()

    def _undo_one(self) -> None:
        """Take back the last move (against a bot: back to the person's last turn)."""
        self._cancel_all()
        self.reveal_until = None
        if len(self.humans) == 1:
            taken = self.match.undo_for(self.humans[0])
        else:
            taken = self.match.undo(1)
        if not taken:
            self.app.toast(_("Nothing to undo"))
            self.app.sound.play("refused")
        self.ended_at, self.result_shown = None, False
        self.refresh(animate=False)
        self._autosave()

    def ask_resign(self) -> None:
        if self.match.over:
            return
        seat = self.humans[0] if len(self.humans) == 1 else self.match.to_move()
        if seat is None:
            return

        def resign() -> None:
            self._cancel_all()
            if self.session is not None:
                self.session.resign()
            else:
                self.match.resign(seat)
            self.refresh(animate=False)

        self.app.push("confirm", message=_("Resign this game?"), on_yes=resign,
                      detail=_("{player} gives up.").format(player=seat_title(self.match, seat)))

    def save_named(self) -> None:
        name = time.strftime(f"{self.match.game_id} %Y-%m-%d %H%M%S")
        saves.save_in_background(self.match, name, self.notices, extra=self.save_extra())

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
        self._cancel_all()
        if not self.match.over and self.humans and not self.demo:
            saves.save_in_background(self.match, self.save_name, extra=self.save_extra())
        if self.app.find("title"):
            self.app.pop_to("title")  # this scene closes on the way
        else:
            self.app.pop()

    def close(self) -> None:
        """Off the stack: the seats and the LAN session let go of their threads and sockets."""
        self._cancel_all()
        if self.session is not None:
            self.session.close()
        for c in self.controllers:
            c.close()
        self.board.close()

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self._build_buttons()

    def step_once(self) -> None:
        if self.paused:
            self.wait = 0.0
            self._advance_bots(force=True)

    def faster(self) -> None:
        speeds = [0.5, 1.0, 2.0, 4.0, 8.0]
        i = speeds.index(self.watch_speed) if self.watch_speed in speeds else 1
        self.watch_speed = speeds[(i + 1) % len(speeds)]
        self._build_buttons()

    def back(self) -> None:
        self.ask_leave()

    def _cancel_all(self) -> None:
        self.driver.cancel()
        self.pending = None

    def _autosave(self) -> None:
        if self.humans and not self.demo and not self.match.over:
            saves.save_in_background(self.match, self.save_name, self.notices, quiet=True,
                                     extra=self.save_extra())

    # --- moves
    def try_move(self, move: Any, by_human: bool) -> bool:
        """Play a move; a refused human move changes nothing and says why."""
        if self.session is not None:  # the session plays it once the host agrees
            try:
                self.session.submit(move)
            except RulesError as exc:
                self.app.sound.play("refused")
                self.app.toast(f"Not allowed: {exc}")
                return False
            self.board.legal, self.board.my_turn = [], False
            return True
        before = self.board.view
        on_clock = self.match.to_move()
        if not by_human:
            if not self.driver.apply(move):  # a refused bot move forfeits (driver -> _forfeit)
                return False
        else:
            mover = self.match.to_move()
            try:
                self.match.play(move)
            except RulesError as exc:
                self.app.sound.play("refused")
                self.app.toast(f"Not allowed: {exc}")
                return False
            if self.hidden_hotseat and self.match.to_move() not in (None, mover):
                self.reveal_until = time.monotonic() + REVEAL_SECONDS
        self.pending = None
        if self.clock is not None and on_clock is not None:
            self.clock.moved(on_clock)
        self.refresh(animate=True)
        if self.board.view is not None:
            self.app.sound.play(self.board.sound_for(before, self.board.view, move))
        self._autosave()
        return True

    def _submit(self, move: Any) -> None:
        """Where the driver sends a bot's move: the match (rules errors go back to it)."""
        self.match.play(move)

    def _forfeit(self, seat: int, detail: str, why: Termination) -> None:
        """A seat failed (a program died or lied, a bot broke): it loses, and the screen says so."""
        if self.session is not None:
            self.session.resign(detail)
        else:
            self.match.resign(seat, detail, why)
        self.pending = None
        self.app.toast(detail)
        self.refresh(animate=False)

    def _advance_bots(self, force: bool = False) -> None:
        if self.match.over or self.needs_handover():
            return
        if self.pending is None:
            watching_waits = not self.humans and (self.paused and not force or self.wait > 0)
            self.pending = self.driver.poll(may_ask=not watching_waits)
        if self.pending is not None and not self.board.busy():
            decision, self.pending = self.pending, None
            if self.try_move(decision.move, by_human=False) and not self.humans:
                self.wait = 0.6 / self.watch_speed

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
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.ask_leave()
                return
            if event.key == pygame.K_s and event.mod & pygame.KMOD_CTRL and self.humans:
                self.save_named()
                return
            if not self.humans and event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                self.faster()
                return
            if not self.humans and event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                self.watch_speed = max(0.5, self.watch_speed / 2)
                self._build_buttons()
                return
        if self.demo and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.leave_game()  # the idle demo ends at any key or click
            return
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION) or (
                event.type == pygame.KEYDOWN and event.key in (pygame.K_u, pygame.K_p)):
            if self.panel_buttons.handle_event(event):
                return
        if self.revealing and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.end_reveal()  # seen: hand over now
            return
        if self.human_to_move() is not None and not self.match.over:
            move = self.board.handle_event(event)
            if move is not None:
                self.try_move(move, by_human=True)
        else:
            self.board.handle_event(event)  # hover, assist tools, hints

    def update(self, dt: float) -> None:
        self.board.update(dt)
        self._tick_clock()
        if self._status_lines() != self.status_lines:
            self.relayout()  # the panel's text grew or shrank: the buttons move
        labels = [label for label, _ in self.board.actions()]
        if not all(any(b.label == lb for b in self.panel_buttons.buttons) for lb in labels):
            self._build_buttons()  # a board's own buttons changed their labels
        self.wait = max(0.0, self.wait - dt)
        while self.notices:
            self.app.toast(self.notices.pop(0))
        if self.session is not None:
            self._session_events()
        if self.revealing and time.monotonic() >= self.reveal_until:
            self.end_reveal()
        if self.needs_handover() and self.app.top is self:
            seat = self.match.to_move()
            note = _("Set up your planes.") if self.match.setup_pending() else ""
            self.app.push("handover", player=seat_title(self.match, seat),
                          on_ready=lambda s=seat: self._show_seat(s), note=note,
                          on_leave=self.ask_leave)
            return
        if not self.match.over:
            mover = self.human_to_move()
            if mover is not None:
                move = self.board.pending_move()
                if move is not None:
                    self.try_move(move, by_human=True)
            else:
                self._advance_bots()
        if self.match.over:
            self._finish(dt)

    def _show_seat(self, seat: int) -> None:
        self.shown_viewer = seat
        self.refresh(animate=False)

    def _session_events(self) -> None:
        for event in self.session.events():
            kind = event.get("type")
            if kind == "message":
                self.app.toast(str(event.get("text", "")))
            elif kind in ("refresh", "new_game"):
                if self.session.match is not self.match:  # a rematch or a resume
                    self.match, self.started = self.session.match, time.monotonic()
                    self.driver.match = self.match
                    if self.app.top is not self:
                        self.app.pop_to(PlayScene)
                before = self.board.view
                self.ended_at, self.result_shown = None, False
                self._cancel_all()
                self.refresh(animate=bool(event.get("animate", False)))
                moves = self.match.moves
                if event.get("animate") and moves and self.board.view is not None:
                    self.app.sound.play(self.board.sound_for(before, self.board.view, moves[-1]))
                self._autosave()
            elif kind == "peer_lost":
                saves.save_in_background(self.match, self.save_name, self.notices,
                                         extra=self.save_extra())
                self.app.push(
                    "confirm", message=_("The other player is gone"), on_yes=self.claim_game,
                    detail=_("{reason}. The game is saved. Wait for them to come back, or claim "
                             "the game.").format(reason=_(str(event.get("reason", "")))),
                    yes=_("Claim the game"), no=_("Wait"))
            elif kind == "ask":
                self.app.push("confirm", message=_(str(event.get("question", "?"))),
                              on_yes=event["on_yes"], detail=_(str(event.get("detail", ""))),
                              yes=_(str(event.get("yes", "Yes"))),
                              no=_(str(event.get("no", "No"))),
                              on_no=event.get("on_no"))

    def claim_game(self) -> None:
        if self.session is not None and not self.match.over and not self.session.connected:
            self.match.resign(self.session.peer_seat, "the other player left; game claimed",
                              Termination.DISCONNECT)
            self.refresh(animate=False)

    def offer_draw(self) -> None:
        self.session.offer_draw()
        self.app.toast(_("Draw offered"))

    def chat(self) -> None:
        self.app.push("prompt", message=_("Say to the other player"), on_done=self.session.chat)

    def _finish(self, dt: float) -> None:
        if self.replay_due and (self.session is None or self.session.settled()):
            self.replay_due = False
            self._write_replay()
        if self.ended_at is None:
            self.ended_at = time.monotonic()
            self._cancel_all()
            self.refresh(animate=False)
            self.replay_due = True
            self._record_stats()
            if self.humans and not self.demo:
                saves.remove(self.save_name)
            out = self.match.outcome()
            if self.humans and self.match.rules.PLAYERS == 2 and len(self.humans) == 1:
                self.app.sound.play("win" if out.winner == self.humans[0] else "lose")
            else:
                self.app.sound.play("win")
        if self.demo and time.monotonic() - self.ended_at >= 3 * RESULT_DELAY:
            self.next_demo_game()
            return
        if not self.result_shown and time.monotonic() - self.ended_at >= RESULT_DELAY \
                and self.app.top is self and not self.demo:
            self.result_shown = True
            self.app.push("result", play=self)

    def stats_entry(self) -> tuple[str, str, str, int | None] | None:
        """(game, opponent, result, solo score) for the player's statistics; None when the game
        is nobody's own (bots watched, the demo, hot-seat between two people here)."""
        m, out = self.match, self.match.outcome()
        if self.demo or len(self.humans) != 1 or out is None:
            return None
        me = self.humans[0]
        if m.rules.PLAYERS == 1:
            return m.game_id, stats.SOLO, "won" if out.winner == me else "lost", out.score[me]
        other = m.seats[1 - me]
        opponent = {"ai": other.level, "agent": stats.PROGRAM, "remote": stats.LAN}.get(
            other.kind, other.kind)
        result = "drawn" if out.winner is None else "won" if out.winner == me else "lost"
        return m.game_id, opponent, result, None

    def _record_stats(self) -> None:
        """Count a finished game once (an undo after the end and a second finish do not)."""
        entry = self.stats_entry()
        if entry is None or self._recorded is self.match:
            return
        self._recorded = self.match
        stats.record_in_background(*entry)

    def next_demo_game(self) -> None:
        """The idle demo goes on with a new game of the same kind."""
        m = self.match
        start_match(self.app, Match(m.game_id, m.options, None, m.seats), replace=True,
                    demo=True, watch_speed=self.watch_speed)

    def _write_replay(self) -> None:
        import threading
        match, duration = self.match, time.monotonic() - self.started

        def write() -> None:
            try:
                replay.save_replay(match, duration)
            except OSError as exc:
                self.notices.append(
                    _("Replay not saved: {error}").format(error=exc.strerror or exc))

        threading.Thread(target=write, name="replay-save", daemon=True).start()

    def on_quit(self) -> None:
        self._cancel_all()
        if not self.match.over and self.humans and not self.demo:
            try:
                saves.save(self.match, self.save_name, extra=self.save_extra())
            except OSError:
                pass

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
        if m.rules.HIDDEN and self.board.hides_between_seats() and not m.over:
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
        thinking = self.controllers[seat].thinking
        dots = "." * (1 + int(time.monotonic() * 3) % 3)
        if self.paused:
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
