"""The replay browser, the replay player, and the list of saved games to load."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from ai.review import DEEP, QUICK, reusable
from ai.worker import Worker
from client.scenes.base import Opener, Scene, above, error_words, start_match
from client.ui import paper, theme
from client.ui.widgets import Button, ButtonGroup, ChoiceRow, panel, scrollbar, sheet
from game import registry, replay, saves, settings, storage
from game.i18n import (
    N_,
    Text,
    _,
    capitalized,
    format_datetime,
    format_number,
    ngettext,
    person,
    pgettext,
    result_summary,
    result_words,
    system_error,
    view_title,
)
from game.match import Match
from game.rules import Termination

if TYPE_CHECKING:
    from client.app import App

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
ROW_H = 50  # a file's row in the lists


class _FileListScene(Scene):
    """A scrollable list of files read off the loop thread; subclasses say which and how."""

    title = ""
    open_words = N_("Open (Enter)")
    empty_words = N_("Nothing here yet.")  # what an empty list says, and how it fills

    def __init__(self, app: App):
        super().__init__(app)
        self.entries: list = []
        self.selected = 0
        self.scroll = 0
        self.loading = True
        self.worker = Worker()
        self.rows: list[tuple[int, pygame.Rect]] = []
        self.visible = 1  # rows the panel has room for
        # Open and Delete only while there is something to open or delete
        self.for_an_entry = [Button(_(self.open_words), self.open_selected, enabled=False),
                             Button(_("Delete (Del)"), self.delete_selected, enabled=False)]
        self.buttons = ButtonGroup([*self.for_an_entry, Button(_("Back"), self.back)],
                                   vertical=False)
        self.footer = self.buttons
        self.box = pygame.Rect(0, 0, 0, 0)  # the list's panel, placed by layout
        self.list_top = 0  # where the list starts in the panel
        self.reload()

    def reload(self) -> None:
        self.loading = True
        self.worker.submit(lambda cancel: self.read_entries())

    def read_entries(self) -> tuple[list, list[str]]:
        raise NotImplementedError

    def describe(self, entry) -> tuple[str, str]:
        raise NotImplementedError

    def _read_done(self) -> None:
        """Take the entries once the worker has read them."""
        done = self.worker.poll()
        if done is not None:
            self.loading = False
            if done.error is not None:
                self.app.toast(_("Could not read the folder: {error}").format(
                    error=error_words(done.error)))
                return
            self.entries, problems = done.value
            for button in self.for_an_entry:
                button.enabled = bool(self.entries)
            self.selected = min(self.selected, max(0, len(self.entries) - 1))
            for p in problems[:3]:
                self.app.toast(p.say())

    def open_selected(self) -> None:
        raise NotImplementedError

    def delete_selected(self) -> None:
        if not self.entries:
            return
        entry = self.entries[self.selected]

        def delete() -> None:
            try:
                entry.path.unlink()
            except OSError as exc:
                self.app.toast(_("Could not delete: {error}").format(error=system_error(exc).say()))
            self.reload()

        self.app.push("confirm", message=_("Delete this file?"), on_yes=delete, yes=_("Delete"),
                      detail=entry.path.name, careful=True)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            step = {pygame.K_DOWN: 1, pygame.K_UP: -1, pygame.K_PAGEDOWN: self.visible,
                    pygame.K_PAGEUP: -self.visible, pygame.K_END: len(self.entries),
                    pygame.K_HOME: -len(self.entries)}.get(event.key)
            if step is not None and self.entries:
                self.selected = max(0, min(len(self.entries) - 1, self.selected + step))
                return
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.open_selected()
                return
            if event.key == pygame.K_DELETE:
                self.delete_selected()
                return
        if event.type == pygame.MOUSEWHEEL:
            self.selected = max(0, min(len(self.entries) - 1, self.selected - event.y))
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, rect in self.rows:
                if rect.collidepoint(event.pos):
                    if i == self.selected:
                        self.open_selected()
                    self.selected = i
                    return
        if not self.buttons.handle_event(event):
            super().handle_event(event)

    def close(self) -> None:
        self.worker.cancel()

    def layout_extra(self, box: pygame.Rect) -> int:
        """Place the controls above the list; returns the y where the list starts."""
        return box.y + 12

    def draw_extra(self, surface: pygame.Surface) -> None:
        """Draw the controls above the list."""

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        self.box = self.page_box(size)
        self.list_top = self.layout_extra(self.box)
        self.lay_out_footer(size, 150, gap=14)

    def update(self, dt: float) -> None:
        self._read_done()
        self._place_rows()

    def _place_rows(self) -> None:
        """Scroll the list to the selected entry and place its visible rows."""
        box, y, row_h = self.box, self.list_top, self.s(ROW_H)
        self.visible = visible = max(1, (box.bottom - y - 10) // row_h)
        if self.selected < self.scroll:
            self.scroll = self.selected
        elif self.selected >= self.scroll + visible:
            self.scroll = self.selected - visible + 1
        self.scroll = max(0, min(self.scroll, len(self.entries) - visible))  # no blank tail
        self.rows = []
        for i in range(self.scroll, min(len(self.entries), self.scroll + visible)):
            self.rows.append((i, pygame.Rect(box.x + 12, y, box.width - 36, row_h - 6)))
            y += row_h

    def scroll_track(self) -> pygame.Rect:
        """Where the bar that says more rows lie above or below runs: the list's right edge."""
        return pygame.Rect(self.box.right - 16, self.list_top, 6,
                           self.visible * self.s(ROW_H) - 6)

    def draw(self, surface: pygame.Surface) -> None:
        box, y, s = self.box, self.list_top, self.s
        self.draw_page_title(surface, _(self.title))
        panel(surface, box)
        self.draw_extra(surface)
        if self.loading:
            theme.text(surface, _("Reading…"), (box.x + 24, y + 10), s(20), theme.INK_SOFT)
        elif not self.entries:
            for n, line in enumerate(theme.wrap(_(self.empty_words), box.width - 48, s(20))):
                theme.text(surface, line, (box.x + 24, y + 10 + s(28) * n), s(20),
                           theme.INK_SOFT)
        for i, rect in self.rows:
            if i == self.selected:
                paper.highlight(surface, rect, theme.HILITE)
            top, bottom = self.describe(self.entries[i])
            theme.text(surface, top, (rect.x + 12, rect.y + s(4)), s(19), bold=True)
            theme.text(surface, bottom, (rect.x + 12, rect.y + s(25)), s(15), theme.INK_SOFT)
        scrollbar(surface, self.scroll_track(), self.scroll, self.visible, len(self.entries))
        self.buttons.draw(surface, show_focus=False)


def _result_words(e: replay.ReplayEntry) -> str:
    """A listed replay's result in the language, from the data it keeps (its English line only
    for a game this arcade does not have)."""
    if e.game not in registry.available() or e.termination is None:
        return e.line.removeprefix(f"{e.game}: ")  # the line printed by headless runs
    game = registry.get(e.game)
    reason = "" if Termination(e.termination) is Termination.SCORE else \
        _(Termination(e.termination).text)
    return result_words(game.rules, e.winner, e.score, game.board_module().Board.SCORE_UNIT,
                        reason)


def _read_replay(path: Path) -> tuple[Match, dict] | Text:
    """The replay's match and body, or what to tell the player (the file is put aside)."""
    try:
        return replay.load_replay(path)
    except storage.FileError:
        return storage.unreadable(path.stem, storage.set_aside(path))


class ReplayBrowserScene(_FileListScene):
    title = N_("Replays")
    empty_words = N_("No replays yet: every game played to its end is kept here.")

    def __init__(self, app: App):
        self.filter = ChoiceRow(_("Game"), [(None, _("All"))] + [(g, _(registry.get(g).title))
                                                           for g in registry.available()],
                                None, lambda _v: self.reload())
        self.opener = Opener()
        super().__init__(app)

    def read_entries(self):
        return replay.list_replays(self.filter.value)

    def describe(self, e) -> tuple[str, str]:
        when = format_datetime(e.date)
        title = _(registry.get(e.game).title) if e.game in registry.available() else e.game
        line = _result_words(e)
        moves = ngettext("{n} move", "{n} moves", e.moves).format(n=format_number(e.moves))
        people = _(" vs ").join(person(name) for name in e.seats)
        return (_("{game}: {people}").format(game=title, people=people),
                _("{when} · {moves} · {result}").format(when=when, moves=moves, result=line))

    def open_selected(self) -> None:
        if not self.entries or self.opener.busy:
            return
        path = self.entries[self.selected].path
        self.opener.open(lambda: _read_replay(path), lambda got: self._opened(path, got))
        self._show_opening()

    def _opened(self, path: Path, got: tuple[Match, dict] | Text) -> None:
        self._show_opening()
        if isinstance(got, Text):
            self.app.toast(got.say())
            self.reload()
            return
        match, body = got
        self.app.push("replay", match=match, path=path, review=replay.stored_review(body))

    def _show_opening(self) -> None:
        """While a replay is read, its Open button says so and waits, and nothing is deleted."""
        button = self.for_an_entry[0]
        button.label = _("Opening…") if self.opener.busy else _(self.open_words)
        for b in self.for_an_entry:
            b.enabled = bool(self.entries) and not self.opener.busy

    def delete_selected(self) -> None:
        if not self.opener.busy:
            super().delete_selected()

    def update(self, dt: float) -> None:
        super().update(dt)
        self.opener.poll()
        self._show_opening()  # a list read again meanwhile leaves Open waiting

    def close(self) -> None:
        super().close()
        self.opener.cancel()

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.filter.handle_event(event, focused=event.type == pygame.KEYDOWN and
                                    event.key in (pygame.K_LEFT, pygame.K_RIGHT)):
            return
        super().handle_event(event)

    def layout_extra(self, box: pygame.Rect) -> int:
        self.filter.layout(pygame.Rect(box.x + 24, box.y + 12, box.width - 48, self.s(40)),
                           self.s(90))
        return box.y + self.s(64)

    def draw_extra(self, surface: pygame.Surface) -> None:
        self.filter.draw(surface, False)


class ContinueScene(_FileListScene):
    """The games in progress, each kept in its own autosave: game, opponent, move, when."""

    title = N_("Continue a game")
    open_words = N_("Continue (Enter)")
    empty_words = N_("No game in progress: a game you leave before its end waits here.")
    listed = staticmethod(saves.list_autosaves)
    # TRANSLATORS: the second line of a game in progress in the Continue list
    when_words = N_("Move {n} · left {when}")

    def read_entries(self):
        entries, problems = [], []
        for entry in self.listed():
            try:
                entries.append((entry, saves.load(entry.path)))
            except storage.FileError as exc:  # saves.load has put it aside
                problems.append(saves.unreadable(entry, exc.kept))
        return entries, problems

    def describe(self, e) -> tuple[str, str]:
        entry, match = e
        people = _(" vs ").join(
            _("{name} ({side})").format(name=person(s.name), side=_(match.rules.SEAT_NAMES[i]))
            if match.rules.PLAYERS > 1 else person(s.name) for i, s in enumerate(match.seats))
        when = format_datetime(entry.modified)
        # TRANSLATORS: a game's title and who plays it, in a list of games
        return (_("{game}: {people}").format(game=_(match.info.title), people=people),
                _(self.when_words).format(n=len(match.moves) + 1, when=when))

    def delete_selected(self) -> None:
        if self.entries:
            entry, match = self.entries[self.selected]
            self.app.push("confirm", message=_("Forget this game?"), on_yes=lambda: self._forget(
                entry), yes=_("Forget it"), detail=self.describe(self.entries[self.selected])[0],
                careful=True)

    def _forget(self, entry) -> None:
        saves.remove(entry.name)
        self.reload()

    def open_selected(self) -> None:
        if not self.entries:
            return
        entry, match = self.entries[self.selected]
        self.app.pop()
        start_match(self.app, match, save_name=entry.name)


class LoadGameScene(ContinueScene):
    """The games saved by name: listed as the Continue list lists its own (game, players,
    move), not by their file names."""

    title = N_("Load a saved game")
    open_words = N_("Load (Enter)")
    empty_words = N_("No saved games: press Ctrl+S (Save) while you play to keep one here.")
    listed = staticmethod(saves.list_saves)
    # TRANSLATORS: the second line of a saved game in the Load list
    when_words = N_("Move {n} · saved {when}")

    def open_selected(self) -> None:
        if not self.entries:
            return
        _entry, match = self.entries[self.selected]
        self.app.pop()
        start_match(self.app, match)  # the named save stays as it was; the game gets an autosave


class ReplayPlayerScene(Scene):
    """Step through a finished match: its states are rebuilt, nothing is played again."""

    def __init__(self, app: App, match: Match, path=None, review: dict | None = None):
        super().__init__(app)
        self.match = match
        self.path = path  # the replay file, where a review is kept (None: looked for)
        self.classes: list[str] = []  # each move's class in the review kept with it, if any
        self.take_review(review)
        self.ply = 0
        self.playing = False
        self.speed_index = 1
        self.clock = 0.0
        rules = match.rules
        self.board = match.info.board_module().Board(match.options, rules.SEAT_NAMES,
                                                     prefs=settings.all_values(),
                                                     store=settings.put)
        viewers = [(None, _("Everything"))]
        if rules.HIDDEN:
            viewers += [(i, view_title(match, i)) for i in range(rules.PLAYERS)]
        self.viewer_row = ChoiceRow(_("Watch"), viewers, None, lambda _v: self.show(False))
        self.move_rows: list[tuple[int, pygame.Rect]] = []  # placed by update
        self.side = pygame.Rect(0, 0, 0, 0)  # the move list's panel, placed by layout
        self.result_text = ""  # how the game ended, under the header
        states, rules = match.states, match.rules
        self.move_texts = [self.board.move_text(m, rules.view(states[i], None),
                                                rules.view(states[i + 1], None))
                           for i, m in enumerate(match.moves)]
        self.buttons = ButtonGroup([
            Button("|<", lambda: self.seek(0), hotkey=pygame.K_HOME, icon="first"),
            Button("<", lambda: self.seek(self.ply - 1), icon="previous"),
            Button(pgettext("replay viewer: run the replay", "Play"), self.toggle_play,
                   icon="play"),
            Button(">", lambda: self.seek(self.ply + 1), icon="next"),
            Button(">|", lambda: self.seek(len(self.match.moves)), hotkey=pygame.K_END,
                   icon="last"),
            Button(_("Speed"), self.faster),
            Button(_("Review"), self.review, hotkey=pygame.K_r),
            Button(_("Back"), self.back),
        ], vertical=False)
        self.show(False)

    def show(self, animate: bool) -> None:
        state, seat = self.match.states[self.ply], self.viewer_row.value
        if self.board.remembers and seat is not None and not animate:
            # a jump, or other eyes: the seat's board is what it had seen by this move
            self.board.restart()
            for ply in range(self.ply):
                self.board.set_view(self.match.view_at(ply, seat), [], my_turn=False,
                                    viewer=seat, animate=False)
        view = self.match.rules.view(state, seat)
        last = self.match.moves[self.ply - 1] if self.ply else None
        self.board.set_view(view, [], my_turn=False, viewer=self.viewer_row.value,
                            last_move=last, animate=animate)

    def seek(self, ply: int) -> None:
        ply = max(0, min(len(self.match.moves), ply))
        forward = ply == self.ply + 1
        if ply != self.ply:
            self.ply = ply
            self.show(forward)

    def review(self) -> None:
        """Hard's judgement of every move, at the move shown (client/scenes/review.py); back
        here, the move the review was left at."""
        self.playing = False
        self.app.push("review", match=self.match, path=self.path, ply=self.ply,
                      left_at=self.back_from_review)

    def back_from_review(self, ply: int, review: dict | None) -> None:
        self.take_review(review)
        self.seek(ply)

    def take_review(self, review: dict | None) -> None:
        """Mark the moves as a finished review of this match classed them (?!, ?, ??)."""
        if review is None or not any(reusable(review, self.match, s) for s in (QUICK, DEEP)):
            return
        self.classes = [e.get("class", "ok") for e in review["plies"]]  # dicts: reusable

    def toggle_play(self) -> None:
        self.playing = not self.playing
        if self.playing and self.ply >= len(self.match.moves):
            self.seek(0)
        self.clock = 0.0

    def faster(self) -> None:
        self.speed_index = (self.speed_index + 1) % len(SPEEDS)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            keys = {pygame.K_LEFT: lambda: self.seek(self.ply - 1),
                    pygame.K_RIGHT: lambda: self.seek(self.ply + 1),
                    pygame.K_SPACE: self.toggle_play,
                    pygame.K_PLUS: self.faster, pygame.K_EQUALS: self.faster,
                    pygame.K_MINUS: lambda: setattr(self, "speed_index",
                                                    max(0, self.speed_index - 1)),
                    pygame.K_v: lambda: self.viewer_row.select(self.viewer_row.index + 1)}
            if event.key in keys:
                keys[event.key]()
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for ply, rect in self.move_rows:
                if rect.collidepoint(event.pos):
                    self.playing = False
                    self.seek(ply)
                    return
        if self.viewer_row.handle_event(event, False):
            return
        if not self.buttons.handle_event(event):
            super().handle_event(event)

    def update(self, dt: float) -> None:
        self.board.update(dt)
        self.update_labels()
        self._place_moves()
        if not self.playing:
            return
        self.clock += dt * SPEEDS[self.speed_index]
        if self.clock >= 1.0:
            self.clock = 0.0
            if self.ply >= len(self.match.moves):
                self.playing = False
            else:
                self.seek(self.ply + 1)

    def close(self) -> None:
        self.board.close()

    def toast_area(self, size: tuple[int, int]) -> pygame.Rect:
        """Left of the move list, above the player's buttons and the Watch row."""
        watch = [self.viewer_row] if self.match.rules.HIDDEN else []
        return above([*self.buttons.buttons, *watch], self.side.x, size)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        top, bottom = 92, h - 76  # under the header and its result line; above the buttons
        # the move list: a sheet along the window's right edge, wider on a wide window
        width = max(250, min(340, w // 5))
        self.side = pygame.Rect(w - width, 58, width, h - 58)
        if self.match.rules.HIDDEN:  # whose eyes to watch with, on its own line
            self.viewer_row.layout(pygame.Rect(12, bottom - 44, self.side.x - 24, 40), 80)
            bottom -= 52
        board_rect = pygame.Rect(12, top, self.side.x - 24, bottom - top)
        if self.board.rect != board_rect:
            self.board.layout(board_rect)
        # the drawn controls square, the worded ones (Speed, Review, Back) each as wide as its
        # words want, in proportion where the row is short of room
        x, room = 12, self.side.x - 24
        buttons = self.buttons.buttons
        gaps, icons = (len(buttons) - 1) * 8, sum(1 for b in buttons if b.icon)
        speed = buttons[5]  # as wide as its widest speed, whichever it says now ("Speed" once)
        want = [max(theme.font(22).size(f"{x:g}×")[0] for x in SPEEDS) + 24 if b is speed else
                theme.font(22).size(b.label)[0] + 24 for b in buttons if not b.icon]
        icon_w = max(44, min(64, (room - gaps - sum(want)) // max(1, icons)))
        share = min(1.0, (room - gaps - icons * icon_w) / max(1, sum(want)))
        widths = iter(want)
        for b in buttons:
            width = icon_w if b.icon else max(icon_w, min(140, int(next(widths) * share)))
            b.rect = pygame.Rect(x, h - 62, width, 48)
            x = b.rect.right + 8
        unit = self.match.info.board_module().Board.SCORE_UNIT
        line = capitalized(result_summary(self.match, unit), self.match.rules.SEAT_NAMES)
        self.result_text = theme.wrap(line, self.side.x - 30, 17)[0]

    def update_labels(self) -> None:
        """The Play/Pause and speed buttons say what they do now."""
        self.buttons.buttons[2].label = _("Pause") if self.playing else pgettext(
            "replay viewer: run the replay", "Play")
        self.buttons.buttons[2].icon = "pause" if self.playing else "play"
        self.buttons.buttons[5].label = f"{SPEEDS[self.speed_index]:g}×"

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        side = self.side
        sheet(surface, pygame.Rect(0, 0, w, 58), theme.PAPER_DARK)
        theme.text(surface, _("Replay: {game}").format(game=_(self.match.info.title)), (18, 29), 26,
                   bold=True,
                   anchor="midleft")
        theme.text(surface, _("Move {n}/{total} · {speed}×").format(
                   n=self.ply, total=len(self.match.moves), speed=f"{SPEEDS[self.speed_index]:g}"),
                   (w - 18, 29), 18, theme.INK_SOFT,
                   anchor="midright")
        theme.text(surface, self.result_text, (18, 74), 17, theme.INK_SOFT, anchor="midleft")
        self.board.draw(surface)
        sheet(surface, side)
        self._draw_moves(surface)
        self.buttons.draw(surface, show_focus=False)
        if self.match.rules.HIDDEN:
            self.viewer_row.draw(surface, False)

    def _place_moves(self) -> None:
        """The rows of the move list around the current move."""
        side, row_h = self.side, 24
        visible = (side.height - 20) // row_h
        first = max(0, min(self.ply - visible // 2, len(self.match.moves) + 1 - visible))
        self.move_rows = []
        y = side.y + 10
        for ply in range(first, min(len(self.match.moves) + 1, first + visible)):
            self.move_rows.append((ply, pygame.Rect(side.x + 8, y, side.width - 16, row_h - 2)))
            y += row_h

    def _draw_moves(self, surface: pygame.Surface) -> None:
        for ply, rect in self.move_rows:
            if ply == self.ply:
                paper.highlight(surface, rect, theme.HILITE)
            if ply == 0:
                label = _("start")
            else:
                rules, viewer = self.match.rules, self.viewer_row.value
                mover = rules.to_move(self.match.states[ply - 1])
                name = _(rules.SEAT_NAMES[mover]) if mover is not None and rules.PLAYERS > 1 \
                    else ""
                text = self.move_texts[ply - 1]
                if rules.SETUP and rules.setup_pending(self.match.states[ply - 1]) \
                        and viewer not in (None, mover):
                    text = _("setup")
                label = " ".join(part for part in (f"{ply}.", name, text) if part)
            cls = self.classes[ply - 1] if 0 < ply <= len(self.classes) else "ok"
            if cls in theme.MOVE_MARKS:
                theme.move_mark(surface, cls, (rect.right - 8, rect.centery), 16)
            theme.text(surface, label, (rect.x + 8, rect.centery), 16, anchor="midleft")

