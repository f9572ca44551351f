"""The result card over the final position: who won, the score, rematch or menu."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.match import Match
from game.scenes.base import Scene
from game.scenes.start import start_match
from game.ui import theme
from game.ui.widgets import Button, ButtonGroup, card, card_rect

if TYPE_CHECKING:
    from game.app import App


class ResultScene(Scene):
    opaque = False

    def __init__(self, app: App, play):
        super().__init__(app)
        self.play = play
        match = play.match
        out = match.outcome()
        self.headline, self.reason = self._headline(match, out), out.reason
        self.score = " – ".join(str(s) for s in out.score)
        buttons = [Button("Rematch (R)", self.rematch, hotkey=pygame.K_r),
                   Button("Watch replay", self.watch_replay),
                   Button("Look at the board", self.app.pop, hotkey=pygame.K_b),
                   Button("Menu (M)", self.menu, hotkey=pygame.K_m)]
        if play.session is not None:
            buttons[0] = Button("Rematch (R)", self.rematch_lan, hotkey=pygame.K_r)
        self.buttons = ButtonGroup(buttons)

    def _headline(self, match: Match, out) -> str:
        if match.rules.PLAYERS == 1:
            return "You made it!" if out.winner == 0 else "Game over"
        if out.winner is None:
            return "A draw"
        humans = self.play.humans
        if len(humans) == 1:
            return "You win!" if out.winner == humans[0] else "You lose"
        return f"{match.seat_title(out.winner)} wins"

    def rematch(self) -> None:
        old = self.play.match
        match = Match(old.game_id, old.options, None, old.seats)
        self.app.pop()
        start_match(self.app, match, replace=True, watch_speed=self.play.watch_speed)

    def rematch_lan(self) -> None:
        self.play.session.offer_rematch()
        self.app.toast("Rematch offered")

    def watch_replay(self) -> None:
        self.app.pop()
        self.app.push("replay", match=self.play.match)

    def menu(self) -> None:
        self.app.pop()
        self.play.leave_game()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.menu()
            return
        self.buttons.handle_event(event)

    def layout(self, size: tuple[int, int]) -> None:
        self.box = card_rect(size, 460, 400)
        self.buttons.layout_column(self.box.x + 60, self.box.y + 170, self.box.width - 120, 42,
                                   gap=10)

    def draw(self, surface: pygame.Surface) -> None:
        box = self.box
        card(surface, box, self.headline, 38)
        theme.text(surface, self.score, (box.centerx, box.y + 86), 28, theme.ACCENT, bold=True,
                   anchor="center")
        for i, line in enumerate(theme.wrap(self.reason, box.width - 40, 18)[:2]):
            theme.text(surface, line, (box.centerx, box.y + 120 + 22 * i), 18, theme.INK_SOFT,
                       anchor="center")
        self.buttons.draw(surface)
