"""The title screen: the games, Continue, watching bots, the LAN, replays and settings."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pygame

from ai.worker import Worker
from client.scenes.base import Opener, Scene, start_match
from client.ui import paper, theme
from client.ui.widgets import Button, ButtonGroup, panel
from game import APP_NAME, APP_VERSION, registry, saves, storage
from game.i18n import Text, _, ngettext, pgettext
from game.match import Match, Seat

if TYPE_CHECKING:
    from client.app import App

IDLE_SECONDS = 60.0
LOOK_SECONDS = 3.0  # how often the title looks for games another arcade saved or ended
TAGLINE_SIZE = 15

Listing = tuple[list[saves.SaveEntry], list[saves.SaveEntry]]  # autosaves, LAN saves


def _listing() -> Listing:
    """The games Continue offers and the LAN games left unfinished, newest first."""
    return saves.list_autosaves(), [e for e in saves.list_saves() if e.name.startswith("lan-")]


def _read_save(entry: saves.SaveEntry) -> Match | Text:
    """The game in a save, or what to tell the player (the file is put aside)."""
    try:
        return saves.load(entry.path)
    except storage.FileError as exc:  # saves.load has put it aside (or it is gone)
        return saves.unreadable(entry, exc.kept)


def _names(listing: Listing) -> list[list[str]]:
    return [[e.name for e in entries] for entries in listing]


class TitleScene(Scene):
    def __init__(self, app: App):
        super().__init__(app)
        self.idle = 0.0
        self.games = registry.available()
        self.buttons = ButtonGroup()
        self.game_buttons: list[Button] = []
        self.listing: Listing = ([], [])  # what the buttons offer
        self.saves_seen = -1  # saves.changes() when it was listed
        self.looker = Worker()  # lists the folder again off the loop, for another arcade's saves
        self.opener = Opener()  # reads and rebuilds the game Continue goes on with
        self.next_look = 0.0
        self.other_buttons: list[Button] = []
        self.columns = (pygame.Rect(0, 0, 0, 0), pygame.Rect(0, 0, 0, 0))
        self.taglines: list[tuple[str, tuple[int, int]]] = []  # (text, where), set by layout
        self.tagline_size = TAGLINE_SIZE  # larger on a tall window, as the buttons are

    def enter(self) -> None:
        self.idle = 0.0
        self._build()

    def _build(self, listing: Listing | None = None) -> None:
        self.game_buttons = [Button(_(registry.get(g).title), lambda g=g: self.open_setup(g))
                             for g in self.games]
        self.other_buttons = []
        self.saves_seen = saves.changes()
        if listing is None:  # listed here and now: a look still under way is older
            self.looker.cancel()
            listing = _listing()
        self.listing = listing
        self.next_look = self.app.now() + LOOK_SECONDS
        in_progress, lan = self.listing
        if in_progress:
            n = len(in_progress)
            label = _("Continue") if n == 1 else \
                ngettext("Continue ({n} game)", "Continue ({n} games)", n).format(n=n)
            if self.opener.busy:
                label = _("Opening…")
            self.other_buttons.append(Button(label, self.continue_game, hotkey=pygame.K_c,
                                             enabled=not self.opener.busy))
        if lan:  # a LAN game left unfinished: go on with the other player
            self.other_buttons.append(Button(_("Continue over the LAN"),
                                             lambda: self.continue_lan(lan[0].name)))
        self.other_buttons += [
            Button(_("Watch bots play"), self.open_watch, hotkey=pygame.K_w),
            Button(_("Play over the LAN"), self.open_lobby, hotkey=pygame.K_l),
            Button(_("Replays"), self.open_replays),
            Button(_("Load a saved game"), self.open_loads),
            Button(_("Statistics"), self.open_stats),
            Button(_("Settings"), self.open_settings),
            Button(_("Quit (Q)"), self.ask_quit, hotkey=pygame.K_q),
        ]
        self.buttons.set(self.game_buttons + self.other_buttons)
        self.relayout()

    # --- where the buttons go
    def open_setup(self, game_id: str) -> None:
        self.app.push("setup", game_id=game_id)

    def open_watch(self) -> None:
        self.app.push("setup", game_id=self.games[0], watch=True)

    def open_lobby(self) -> None:
        if not self.app.has_scene("lobby"):
            self._say_lan_missing()
            return
        self.app.push("lobby")

    def _say_lan_missing(self) -> None:
        why = self.app.why_missing("lobby")
        self.app.toast(_("LAN play is not available: {why}").format(why=why) if why
                       else _("LAN play is not available in this build"))

    def open_replays(self) -> None:
        self.app.push("replays")

    def open_loads(self) -> None:
        self.app.push("loads")

    def open_stats(self) -> None:
        self.app.push("stats")

    def open_settings(self) -> None:
        self.app.push("settings")

    def continue_game(self) -> None:
        """One game in progress goes on at once; several are listed to choose from."""
        in_progress = self.listing[0]
        if len(in_progress) > 1:
            self.app.push("continue")
            return
        if not in_progress or self.opener.busy:
            return
        entry = in_progress[0]
        self.opener.open(lambda: _read_save(entry), lambda got: self._continue(entry, got))
        self._build(self.listing)

    def _continue(self, entry: saves.SaveEntry, got: Match | Text) -> None:
        if isinstance(got, Text):
            self.app.toast(got.say())
            self._build()  # listed again: the file has been put aside
            return
        self._build(self.listing)  # Continue says Continue again, for when the game ends
        start_match(self.app, got, save_name=entry.name)

    def continue_lan(self, name: str) -> None:
        """The newest LAN game left unfinished goes on over the LAN (the lobby takes it up)."""
        if not self.app.has_scene("lobby"):
            self._say_lan_missing()
            return
        self.app.push("lobby", take_up=name)

    def start_idle_demo(self) -> None:
        two_player = [g for g in self.games if registry.get(g).players == 2] or self.games
        if not two_player:
            return
        game_id = random.choice(two_player)
        seats = [Seat("ai", "Bot A", "normal"), Seat("ai", "Bot B", "normal")]
        if registry.get(game_id).players == 1:
            seats = seats[:1]
        start_match(self.app, Match(game_id, None, None, seats), demo=True)

    # --- the scene
    def back(self) -> None:
        self.ask_quit()

    def ask_quit(self) -> None:
        """Esc and Q are easy to press by mistake: ask before closing the arcade."""
        self.app.push("confirm", message=_("Quit {app}?").format(app=APP_NAME),
                      on_yes=self.app.quit, yes=_("Quit"), no=_("Stay"),
                      detail=_("Games in progress are kept for Continue."))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION):
            self.idle = 0.0
        if not self.buttons.handle_event(event):
            super().handle_event(event)

    def update(self, dt: float) -> None:
        if saves.changes() != self.saves_seen:  # a game saved (or ended) after this opened
            self._build()
            self.relayout()
        self._look_again()
        self.opener.poll()
        self.idle += dt
        if self.idle >= IDLE_SECONDS and self.app.top is self:
            self.idle = 0.0
            self.start_idle_demo()

    def _look_again(self) -> None:
        """Now and then, off the loop, list the folder again: another arcade may have saved a
        game (or ended one) there. The buttons change only when the list does."""
        done = self.looker.poll()
        if done is not None and done.error is None and _names(done.value) != _names(self.listing):
            self._build(done.value)
            self.relayout()
        if self.app.now() >= self.next_look and not self.looker.busy and self.app.top is self:
            self.next_look = self.app.now() + LOOK_SECONDS
            self.looker.submit(lambda cancel: _listing())

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        col_w = min(max(420, w * 3 // 10), (w - 120) // 2)  # wider on a wide window
        left = pygame.Rect(w // 2 - col_w - 20, 140, col_w, h - 200)
        right = pygame.Rect(w // 2 + 20, 140, col_w, h - 200)
        self.columns = (left, right)
        rows = max(1, len(self.game_buttons))
        # a tagline under each game while they fit; on a short window, the buttons alone. It
        # keeps clear of the focus ring round the button above it and round the one below.
        self.tagline_size = min(TAGLINE_SIZE + 5, TAGLINE_SIZE + max(0, h - 800) // 40)
        tagged = theme.font(self.tagline_size).get_height() + 2 * paper.FOCUS_OUTSET
        gap = tagged if rows * (34 + tagged) <= left.height - 60 else 8
        bh = max(30, min(52 + max(0, h - 800) // 20, (left.height - 60) // rows - gap))
        y = left.y + 52
        self.taglines = []
        for b, g in zip(self.game_buttons, self.games):
            b.rect = pygame.Rect(left.x + 20, y, left.width - 40, bh)
            if gap > 8:
                self.taglines.append((_(registry.get(g).rules.TAGLINE),
                                      (left.x + 24, y + bh + paper.FOCUS_OUTSET)))
            y += bh + gap
        n = max(1, len(self.other_buttons))
        room = right.height - 52 - 12  # under the heading, inside the panel
        other_gap = 10 if n * (32 + 10) <= room + 10 else 6
        oh = max(26, min(46 + max(0, h - 800) // 20, (room + other_gap) // n - other_gap))
        y = right.y + 52
        for b in self.other_buttons:
            b.rect = pygame.Rect(right.x + 20, y, right.width - 40, oh)
            y += oh + other_gap

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        theme.text(surface, APP_NAME, (w // 2, 54), 58, bold=True, anchor="center")
        theme.text(surface, _("small strategy games, played well"), (w // 2, 100), 20,
                   theme.INK_SOFT, anchor="center")
        left, right = self.columns
        panel(surface, left)
        panel(surface, right)
        theme.text(surface, pgettext("title screen: start a game", "Play"),
                   (left.x + 20, left.y + 14), 22, bold=True)
        theme.text(surface, _("More"), (right.x + 20, right.y + 14), 22, bold=True)
        for line, where in self.taglines:
            theme.text(surface, line, where, self.tagline_size, theme.INK_SOFT)
        self.buttons.draw(surface)
        theme.text(surface, _("v{version} · arrows + Enter or the mouse · Esc goes back · "
                     "F11 full screen").format(version=APP_VERSION), (w // 2, h - 26), 15,
                   theme.INK_SOFT, anchor="center")
