"""Small scenes over another: a yes/no question, a line of text to type, and a hand-over screen
that hides the board."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from client.scenes.base import Scene
from client.ui import theme
from client.ui.widgets import Button, ButtonGroup, TextField, card, card_rect
from game.i18n import _

if TYPE_CHECKING:
    from client.app import App

PROMPT_LINE = 22  # a line said before, above a prompt's field
DETAIL_LINE = 24  # a question's detail: its line height, and the most lines it shows (the card
DETAIL_LINES = 4  # grows past two)


class ConfirmScene(Scene):
    """Asks a question; Yes runs on_yes, No runs on_no if given, and closes. Esc is No, unless
    both answers act (a choice between two things to do): then `cancel` names a third button,
    and it and Esc close without either. `careful`: Yes loses something (a file, the counts, the
    game), so No has the focus and Enter pressed to go on loses nothing. `yes_wait`: while it
    returns a label, Yes may not be pressed yet and shows that label instead (a countdown)."""

    opaque = False

    def __init__(self, app: App, message: str, on_yes: Callable[[], None], yes: str = "",
                 no: str = "", detail: str = "", on_no: Callable[[], None] | None = None,
                 still_open: Callable[[], bool] | None = None, cancel: str = "",
                 careful: bool = False, yes_wait: Callable[[], str] | None = None):
        super().__init__(app)
        self.message, self.detail = message, detail
        self.on_yes, self.on_no = on_yes, on_no
        self.cancel = cancel
        self.still_open = still_open  # False: the question went away (its link closed)
        self.buttons = ButtonGroup([Button(yes or _("Yes"), self._yes, hotkey=pygame.K_y),
                                    Button(no or _("No"), self._no, hotkey=pygame.K_n),
                                    *([Button(cancel, self.app.pop)] if cancel else [])],
                                   vertical=False)
        self.buttons.focus = 1 if careful else 0
        self.yes_label, self.yes_wait = yes or _("Yes"), yes_wait
        self._wait_yes()
        self.box = pygame.Rect(0, 0, 0, 0)  # placed by layout

    def _wait_yes(self) -> None:
        waiting = self.yes_wait() if self.yes_wait is not None else ""
        yes = self.buttons.buttons[0]
        yes.label, yes.enabled = waiting or self.yes_label, not waiting

    def _yes(self) -> None:
        self.app.pop()
        self.on_yes()

    def _no(self) -> None:
        self.app.pop()
        if self.on_no is not None:
            self.on_no()

    def back(self) -> None:
        if self.cancel:
            self.app.pop()
        else:
            self._no()

    def handle_event(self, event: pygame.event.Event) -> None:
        if not self.buttons.handle_event(event):
            super().handle_event(event)

    def update(self, dt: float) -> None:
        if self.still_open is not None and not self.still_open() and self.app.top is self:
            self.app.pop()  # unanswered: nobody is asking any more
        self._wait_yes()

    def layout(self, size: tuple[int, int]) -> None:
        s = self.s
        lines = len(theme.wrap(self.detail, card_rect(size, s(560), 1).width - s(40), s(18)))
        self.box = card_rect(size, s(560),
                             s(210) + s(DETAIL_LINE) * max(0, min(lines, DETAIL_LINES) - 2))
        n = len(self.buttons.buttons)
        width, gap = s(160 if n < 3 else 150), s(20)
        self.buttons.layout_row(self.box.centerx - (n * width + (n - 1) * gap) // 2,
                                self.box.bottom - s(64), width, s(44), gap=gap)

    def draw(self, surface: pygame.Surface) -> None:
        box, s = self.box, self.s
        card(surface, box, self.message, s(26), s(40))
        for i, line in enumerate(theme.wrap(self.detail, box.width - s(40), s(18))[:DETAIL_LINES]):
            theme.text(surface, line, (box.centerx, box.y + s(80) + s(DETAIL_LINE) * i), s(18),
                       theme.INK_SOFT, anchor="center")
        self.buttons.draw(surface)


class PromptScene(Scene):
    """Asks for one line of text; Enter gives it to on_done, Esc closes."""

    opaque = False

    def __init__(self, app: App, message: str, on_done: Callable[[str], None], max_len: int = 200,
                 lines: list[str] | None = None):
        super().__init__(app)
        self.message, self.on_done = message, on_done
        self.lines = list(lines or [])  # said before, shown above the field (a LAN chat)
        self.shown: list[str] = []  # those lines wrapped to the card, the newest kept
        self.field = TextField("", max_len=max_len)
        self.box = pygame.Rect(0, 0, 0, 0)  # placed by layout

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.app.pop()
            if self.field.value.strip():
                self.on_done(self.field.value.strip())
        elif not self.field.handle_event(event, True):
            super().handle_event(event)

    def layout(self, size: tuple[int, int]) -> None:
        s, line = self.s, self.s(PROMPT_LINE)
        width = min(s(560), size[0] - 40)
        wrapped = [part for said in self.lines for part in theme.wrap(said, width - s(40), s(16))]
        room = max(0, (size[1] - 40 - s(150)) // line)
        self.shown = wrapped[len(wrapped) - room:] if room else []
        self.box = card_rect(size, s(560), s(150) + line * len(self.shown))
        top = self.box.y + s(56)
        self.field.layout(pygame.Rect(self.box.x + s(20), top + line * len(self.shown) + s(10),
                                      self.box.width - s(40), s(42)), 0)

    def draw(self, surface: pygame.Surface) -> None:
        box, s = self.box, self.s
        card(surface, box, self.message, s(24), s(40))
        for n, line in enumerate(self.shown):
            theme.text(surface, line, (box.x + s(20), box.y + s(56) + s(PROMPT_LINE) * n), s(16),
                       theme.INK_SOFT)
        self.field.draw(surface, True)
        theme.text(surface, _("Enter sends, Esc cancels"), (box.centerx, box.bottom - s(20)),
                   s(15), theme.INK_SOFT, anchor="center")


class HandoverScene(Scene):
    """Hot-seat with hidden information: covers everything until the next player is ready."""

    def __init__(self, app: App, player: str, on_ready: Callable[[], None], note: str = "",
                 on_leave: Callable[[], None] | None = None):
        super().__init__(app)
        self.player, self.note = player, note
        self.on_ready, self.on_leave = on_ready, on_leave
        self.buttons = ButtonGroup([Button(_("I am {player}: show my board").format(player=player),
                                           self._ready)])

    def _ready(self) -> None:
        self.app.pop()
        self.on_ready()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
            if self.on_leave is not None:
                self.on_leave()
            return
        self.buttons.handle_event(event)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        s = self.s
        self.buttons.layout_column(w // 2 - s(200), h // 2 + s(30), s(400), s(54))

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        s = self.s
        surface.fill(theme.PAPER_DARK)
        theme.text(surface, _("Hand over"), (w // 2, h // 2 - s(110)), s(44), bold=True,
                   anchor="center")
        theme.text(surface, _("Pass the computer to {player}.").format(player=self.player),
                   (w // 2, h // 2 - s(50)), s(24), anchor="center")
        if self.note:
            theme.text(surface, self.note, (w // 2, h // 2 - s(14)), s(19), theme.INK_SOFT,
                       anchor="center")
        self.buttons.draw(surface)
        theme.text(surface, _("The other player should look away."),
                   (w // 2, h // 2 + s(120)), s(18), theme.INK_SOFT, anchor="center")
