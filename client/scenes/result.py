"""The result card over the final position: who won, the score, rematch or menu."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from client.boards.base import BoardBase
from client.scenes.base import Scene, start_match
from client.ui import theme
from client.ui.widgets import Button, ButtonGroup, card, card_rect
from game.i18n import _, capitalized, format_number, outcome_reason, person, seat_title
from game.match import Match

if TYPE_CHECKING:
    from client.app import App


FOOT_ROOM = 90  # kept clear below a card that fits the window, for its toasts


SETTLE_SECONDS = 0.6  # a click or key meant for the board as the card comes is no choice on it


class ResultScene(Scene):
    opaque = False

    def __init__(self, app: App, play):
        super().__init__(app)
        self.play = play
        match = play.match
        out = match.outcome()
        self.headline = self._headline(match, out)
        self.reason = capitalized(outcome_reason(out), match.rules.SEAT_NAMES)
        self.score_rows = score_rows(match, out.score)
        # what the score counts (pieces left, boxes, probes...), said above the points; plain
        # points (2048's) say nothing the score row does not ("Score: points" above "Score")
        unit = play.board.SCORE_UNIT
        self.score_unit = "" if unit == BoardBase.SCORE_UNIT else \
            _("Score: {unit}").format(unit=_(unit))
        self.complete = match.record_complete()
        self.linked = self._linked()
        self.buttons = ButtonGroup(self._buttons())
        self.shown_at = app.now()

    def _buttons(self) -> list[Button]:
        """Rematch, replay, review, the board, the menu; a game whose record would not rebuild
        it (under the fog, the other side has not shown the whole) has no replay or review."""
        match = self.play.match
        again = _("Rematch (R)") if match.rules.PLAYERS > 1 else _("Play again (R)")
        session = self.play.session
        rematch = Button(_("Rematch (R)"), self.rematch_lan, hotkey=pygame.K_r,
                         enabled=session.connected and not self.play.table.offer_out("rematch")) \
            if session is not None else Button(again, self.rematch, hotkey=pygame.K_r)
        record = [Button(_("Watch replay"), self.watch_replay),
                  Button(_("Review"), self.review, hotkey=pygame.K_v)] if self.complete else []
        chat = [Button(_("Chat (T)"), self.play.chat, hotkey=pygame.K_t,
                       enabled=session.connected)] if session is not None else []
        return [rematch, *chat, *record,
                Button(_("Look at the board"), self.app.pop, hotkey=pygame.K_b),
                Button(_("Menu (M)"), self.menu, hotkey=pygame.K_m)]

    def update(self, dt: float) -> None:
        session = self.play.session
        if self.complete != self.play.match.record_complete():  # the whole came after all
            self.complete = not self.complete
        elif session is not None and self._linked() != self.linked:
            gone = self.linked[0] and not session.connected  # after the end: no rematch to offer
            self.linked = self._linked()
            if gone:
                name = person(self.play.match.seats[session.peer_seat].name)
                self.app.toast(_("{name} left").format(name=name))
        else:
            return
        self.buttons.set(self._buttons())
        self.relayout()

    def _linked(self) -> tuple[bool, bool]:
        """Over the LAN: whether the other player is there, and whether a rematch offer of
        this side's waits (one press sends it; the button waits with it)."""
        session = self.play.session
        return session is not None and session.connected, self.play.table.offer_out("rematch")

    def _headline(self, match: Match, out) -> str:
        humans = self.play.humans
        if match.rules.PLAYERS == 1:
            if out.winner != 0:
                return _("Game over")
            return _("You made it!") if humans else _("{player} made it!").format(
                player=seat_title(match, 0))
        if out.winner is None:
            return _("A draw")
        if len(humans) == 1:
            return _("You win!") if out.winner == humans[0] else _("You lose")
        return _("{player} wins").format(player=seat_title(match, out.winner))

    def rematch(self) -> None:
        old = self.play.match
        match = Match(old.game_id, old.options, None, old.seats)
        self.app.pop()
        start_match(self.app, match, replace=True, watch_speed=self.play.watch_speed,
                    time_control=self.play.time_control)

    def rematch_lan(self) -> None:
        self.play.session.offer_rematch()  # the card says it waits (notes), while it does

    def watch_replay(self) -> None:
        self.app.pop()
        self.app.push("replay", match=self.play.match)

    def review(self) -> None:
        """Hard's judgement of every move of the game (client/scenes/review.py)."""
        self.app.pop()
        self.app.push("review", match=self.play.match)

    def menu(self) -> None:
        self.app.pop()
        self.play.leave_game()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN) \
                and self.app.now() - self.shown_at < SETTLE_SECONDS:
            return  # the card came up under a player still playing: a Rematch they never chose
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.menu()
            return
        self.buttons.handle_event(event)

    def notes(self) -> list[str]:
        """What the card says beside the reason: a rematch offer waiting for its answer, a
        record that would not rebuild the game, a game autoplay helped play (not counted)."""
        notes = [offer.say() for offer in self.play.table.offers_out()]
        notes += [] if self.complete else [_(
            "The other side has not shown the whole game: it has no replay and no review.")]
        if self.play.table.helped:
            notes.append(_("Autoplay made moves in this game: it is not counted in your "
                           "statistics."))
        return notes

    def layout(self, size: tuple[int, int]) -> None:
        s = self.s
        self.reason_lines = theme.wrap(self.reason, s(460 - 40), s(18))[:2]
        for note in self.notes():
            self.reason_lines += theme.wrap(note, s(460 - 40), s(18))[:2]
        top = s(78 + 24) + s(34) * len(self.score_rows) + s(22) * len(self.reason_lines) + s(12)
        buttons, step = self.buttons.buttons, s(52)
        if top + len(buttons) * step + s(14) <= size[1] - FOOT_ROOM:
            self.box = card_rect(size, s(460), top + len(buttons) * step + s(14))
            self.buttons.layout_column(self.box.x + s(60), self.box.y + top,
                                       self.box.width - s(120), s(42), gap=s(10))
            return
        # a short window (a LAN game's card has more to offer): the buttons two abreast
        rows = (len(buttons) + 1) // 2
        self.box = card_rect(size, s(560), top + rows * step + s(14))
        width = (self.box.width - s(80) - s(10)) // 2
        for i, button in enumerate(buttons):
            button.rect = pygame.Rect(self.box.x + s(40) + (i % 2) * (width + s(10)),
                                      self.box.y + top + (i // 2) * step, width, s(42))

    def draw(self, surface: pygame.Surface) -> None:
        box, s = self.box, self.s
        card(surface, box, self.headline, s(38), s(40))
        y = box.y + s(72)
        if self.score_unit:
            theme.text(surface, self.score_unit, (box.right - s(60), y + s(10)), s(16),
                       theme.INK_SOFT, anchor="midright")
        y += s(24)
        for seat, (name, points) in enumerate(self.score_rows):
            colour = self.play.board.seat_colour(seat) if len(self.score_rows) > 1 \
                else theme.ACCENT
            theme.text(surface, name, (box.x + s(60), y + s(15)), s(22), colour, bold=True,
                       anchor="midleft")
            theme.text(surface, points, (box.right - s(60), y + s(15)), s(28), colour,
                       bold=True, anchor="midright")
            y += s(34)
        y += s(6)
        for line in self.reason_lines:
            theme.text(surface, line, (box.centerx, y), s(18), theme.INK_SOFT, anchor="midtop")
            y += s(22)
        self.buttons.draw(surface)


def score_rows(match: Match, score: tuple[int, ...]) -> list[tuple[str, str]]:
    """The card's score: one row per seat, the seat's name and side beside its points."""
    if match.rules.PLAYERS == 1:
        return [(_("Score"), format_number(score[0]))]
    return [(seat_title(match, seat), format_number(points))
            for seat, points in enumerate(score)]
