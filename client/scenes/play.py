"""The play scene: draws a Table (players/table.py) and turns input into its calls.

It is the same scene for hot-seat, against a bot, against a program, over the LAN and for
watching bots play: the table decides who sees what, what may be undone and what happens at
the end; this scene only draws it, asks the player's questions and plays the sounds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from client.scenes.base import start_match
from client.scenes.play_view import PlayView
from game import saves, settings
from game.clock import GameClock
from game.i18n import _, seat_title
from game.match import Match
from players.base import Controller
from players.events import Event, EventKind
from players.table import WATCH_PAUSE, Table

if TYPE_CHECKING:
    from client.app import App

RESULT_DELAY = 1.0  # seconds the final position shows before the result card
CHAT_SHOWN = 6  # the last chat lines the chat box shows above its field


class PlayScene(PlayView):
    def __init__(self, app: App, match: Match, controllers: list[Controller], *,
                 session: Any = None, demo: bool = False, save_name: str | None = None,
                 watch_speed: float = 1.0, time_control: str = "none",
                 now: Callable[[], float] | None = None):
        super().__init__(app)
        now = now or app.now
        save_name = save_name or saves.autosave_name(match)
        extra = saves.read_extra(save_name) if session is None and not demo and any(
            c.local_human for c in controllers) else {}
        self.table = Table(match, controllers, remote=session, demo=demo, save_name=save_name,
                           time_control=time_control, now=now, pace=WATCH_PAUSE,
                           kept_clock=GameClock.from_dict(extra.get("clock"), now=now),
                           helped=extra.get("helped") is True)
        self.table.watch_speed = watch_speed
        self.board = match.info.board_module().Board(
            match.options, match.rules.SEAT_NAMES, prefs=settings.all_values(), store=settings.put)
        self.board.someone_plays = bool(self.humans) and not demo  # fixed for the scene's life
        self.result_shown = False
        self._shown_to: dict[int, int] = {}  # seat -> plies up to which its views were shown
        self._dialogs: dict[int, Any] = {}  # id of a LAN question -> its dialog
        self.lay_out_panel()
        self.refresh(animate=False)

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
        self.board.counted = self.table.counts()  # autoplay's first move ends it
        self.board.over = self.match.over  # a resigned game's panel says nobody is to move
        if sight.view is not None and self.board.remembers and sight.viewer is not None:
            self._catch_up(sight.viewer)
        if sight.view is not None:
            self.board.set_view(sight.view, sight.legal, my_turn=sight.my_turn,
                                viewer=sight.viewer, last_move=sight.last_move, animate=animate)
        else:  # between two hidden hands: the board forgets what the last player saw
            self.board.forget()
        self._build_buttons()

    def _new_match(self) -> None:
        """A rematch, or a LAN rejoin that rebuilt the game from the host's views: nothing of
        the old match's lines or of what its board was shown stays (a file's stand-in game
        has the same moves, other pieces)."""
        if self.app.top is not self:
            self.app.pop_to(PlayScene)
        self._move_texts.clear()
        self._shown_to = {}
        self.board.restart()

    def _catch_up(self, seat: int) -> None:
        """Give a board that keeps what its seat saw the views it has not been shown yet."""
        plies = len(self.match.moves)
        shown = min(self._shown_to.get(seat, 0), plies)  # an undo goes back
        for view in self.table.views_seen(seat, shown):
            self.board.set_view(view, [], my_turn=False, viewer=seat, animate=False)
        self._shown_to[seat] = plies + 1  # the present one, given next

    # --- actions
    def undo(self) -> None:
        owner = self.table.undo_needs_consent()
        if owner is not None and not self.revealing:
            who = seat_title(self.match, owner)
            self.app.push("confirm", message=_("Take back {player}'s move?").format(player=who),
                          on_yes=self._undo_now, yes=_("Take it back"), no=_("Keep it"),
                          # TRANSLATORS: hot-seat: the move an undo would take back was the
                          # other player's (not: it is their turn)
                          detail=_("The last move was {player}'s, not yours: ask them first.")
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
                      detail=_("{player} gives up.").format(player=seat_title(self.match, seat)),
                      careful=True)

    def save_named(self) -> None:
        self.table.save_now_in_background(time.strftime(f"{self.match.game_id} %Y-%m-%d %H%M%S"))

    def show_rules(self) -> None:
        self.app.push("rules", game_id=self.match.game_id)

    def show_result(self) -> None:
        """The result card again: back from a look at the board, a replay or a review."""
        self.result_shown = True
        self.app.push("result", play=self)

    def ask_leave(self) -> None:
        if self.match.over or not self.humans or self.demo:
            self.leave_game()
            return
        if self.session is None:
            detail = _("It is saved: choose Continue on the title screen to go on.")
        elif self.table.peer_away:
            detail = _("It is saved: choose Continue over the LAN on the title screen to go on.")
        else:
            detail = _("The other player will be told.")
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
        self.app.push("prompt", message=_("Say to the other player"), on_done=self.table.chat,
                      lines=[line.say() for line in self.table.chat_log[-CHAT_SHOWN:]])

    def try_move(self, move: Any, helped: bool = False) -> bool:
        """A local person's move (`helped`: autoplay's); a refused one changes nothing and
        says why."""
        refused = self.table.play(move, helped)
        if refused is not None:
            self.app.sound.play("refused")
            self.app.toast(refused.say())
            return False
        self.board.legal, self.board.my_turn = [], False
        self._take(self.table.tick(busy=True, covered=self.app.top is not self))
        return True

    # --- the scene
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and not self.demo \
                and self.mute_buttons.handle_event(event):
            return
        if event.type == pygame.KEYDOWN and self._key(event):
            return
        if self.demo and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.leave_game()  # the idle demo ends at any key or click
            return
        # the panel takes the keys its buttons name (U, T, P, S), not the arrows the board needs
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION) or (
                event.type == pygame.KEYDOWN and event.key in
                {b.hotkey for b in self.panel_buttons.buttons if b.hotkey is not None}):
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
        if self.board.notice:
            self.app.toast(self.board.notice)
            self.board.notice = None
        self._take(self.table.tick(busy=self.board.busy(), covered=self.app.top is not self))
        self._keep_panel_current()
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
                self.try_move(move, helped=self.board.autoplay)
        if self.match.over:
            self._after_end()

    def background(self, dt: float) -> None:
        """Under a dialog a LAN game goes on: the other side's moves and questions are read,
        and a question its link took back goes. Nothing local is played (busy). The panel,
        seen through the veil, keeps up (the claim's countdown)."""
        if self.table.remote is not None:
            self._take(self.table.tick(busy=True, covered=True))
            self._keep_panel_current()

    def _keep_panel_current(self) -> None:
        """Rebuild the panel, once, where what it says has changed."""
        labels = {b.label for b in self.panel_buttons.buttons}
        remote = self.session is not None
        if (self._status_lines() != self.status_lines  # an offer went or came back: the
                # buttons move, and say what may be pressed now
                or remote and self.table.peer_away and self.claim_label() not in labels
                or remote and self.session.connected != self.panel_linked  # Chat greys
                or not all(label in labels for label, _ in self.board.actions())):
            self._build_buttons()

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
                if kind is EventKind.NEW_MATCH:
                    self._new_match()
                self.result_shown = False
                self.refresh(animate=False)
            elif kind in (EventKind.NOTICE, EventKind.CHAT):
                self.app.toast(event.text.say())
            elif kind is EventKind.PEER_LOST:
                self._build_buttons()  # Claim in the panel, for after a Wait
                self.app.push(  # it goes by itself once the other player is back
                    "confirm", message=_("The other player is gone"), on_yes=self.claim_game,
                    detail=_("{reason}. The game is saved. Wait for them to come back, or claim "
                             "the game once they have been gone a minute.").format(
                        reason=event.text.say()),
                    yes=_("Claim the game"), no=_("Wait"), careful=True,
                    still_open=lambda: self.table.peer_away, yes_wait=self.claim_wait)
            elif kind is EventKind.ASK:
                q = event.question
                self._dialogs[id(q)] = self.app.push(
                    "confirm", message=q.text.say(), on_yes=q.on_yes, detail=q.detail.say(),
                    yes=q.yes.say(), no=q.no.say(), on_no=q.on_no, still_open=q.still_open)
            elif kind is EventKind.WITHDRAWN:  # its link closed: the dialog goes (if on top)
                dialog = self._dialogs.pop(id(event.question), None)
                if dialog is not None and self.app.top is dialog:
                    self.app.pop()
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

