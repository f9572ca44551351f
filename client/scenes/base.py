"""The scene contract, in the manner of Tuxemon's state stack.

A scene never imports another scene: it opens one by name through the app
(`app.push("play", match=...)`); client/scenes/table.py maps the names to the classes.
Starting a local match (its seats' controllers, then the play scene) is here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from ai.base import DEFAULT_SECONDS, LEVEL_TITLES, LEVELS
from ai.worker import Worker
from client.ui import theme
from game import saves, settings
from game.i18n import _, system_error
from game.match import Level, Match
from game.rules import RulesError
from players.base import Controller
from players.driver import controller_for

if TYPE_CHECKING:
    from client.app import App
    from client.ui.widgets import ButtonGroup


def above(controls: list, width: int, size: tuple[int, int]) -> pygame.Rect:
    """The window's top left width px, down to 10 px above the highest of the controls (each
    with a rect), or near the window's foot: where a toast may stand."""
    tops = [c.rect.top for c in controls]
    return pygame.Rect(0, 0, width, min(tops, default=size[1] - 6) - 10)


class Scene:
    """A screen on the app's stack: handle_event, update(dt), layout(size), draw(surface);
    background(dt) while covered.

    Life cycle: enter/leave each time the scene becomes or stops being the top (it may be
    covered and uncovered many times); close once, when it leaves the stack for good.
    """

    opaque = True  # False for dialogs: the scene below is drawn first, dimmed
    footer: ButtonGroup | None = None  # a row of buttons along the window's foot

    def toast_area(self, size: tuple[int, int]) -> pygame.Rect:
        """Where a toast may stand, the lowest at its foot: clear above the footer's buttons (a
        message about a file stood over Back and Delete), else near the window's foot."""
        return above(self.footer.buttons if self.footer is not None else [], size[0], size)

    def __init__(self, app: App):
        self.app = app
        self.closed = False
        self._laid_out: tuple[int, int] | None = None
        self.ui_scale = 1.0  # theme.window_scale of the window last laid out for (see s())

    def enter(self) -> None:
        """Called when the scene becomes the top of the stack (pushed, or uncovered)."""

    def leave(self) -> None:
        """Called when the scene stops being the top (covered, or leaving the stack)."""

    def close(self) -> None:
        """Called once when the scene leaves the stack for good: let go of sockets, threads."""

    def handle_event(self, event: pygame.event.Event) -> None:
        """Esc goes back by default."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()

    def back(self) -> None:
        self.app.pop()

    def update(self, dt: float) -> None:
        pass

    def background(self, dt: float) -> None:
        """A frame while another scene is on top: what must go on (a LAN link read, a question
        withdrawn), not what the player would see happen."""

    def layout(self, size: tuple[int, int]) -> None:
        """Place buttons, rows and boards for a window of this size (drawing only draws)."""

    def relayout(self) -> None:
        """What is on screen changed (buttons rebuilt): lay it out again before the next frame."""
        self._laid_out = None

    def ensure_layout(self, size: tuple[int, int]) -> None:
        """Lay out if the size changed or relayout() was called since the last layout."""
        if self._laid_out != size:
            self._laid_out = size
            self.ui_scale = self.scale_for(size)
            self.layout(size)

    def scale_for(self, size: tuple[int, int]) -> float:
        """This screen's scale at size (see s()): theme.window_scale, unless the screen must
        hold it back."""
        return theme.window_scale(size)

    def s(self, measure: int) -> int:
        """A measure of the screen as drawn at 1280x800, at this window's scale (a screen of
        fixed measures grows on a tall window this way)."""
        return round(measure * self.ui_scale)

    def page_box(self, size: tuple[int, int], foot: int = 90) -> pygame.Rect:
        """A whole-window page's sheet (settings, a list, the rules): under its title, above
        its row of buttons, `foot` (at 1280x800) left below it."""
        w, h = size
        top = self.s(80)
        return pygame.Rect(40, top, w - 80, h - top - self.s(foot))

    def lay_out_footer(self, size: tuple[int, int], width: int, height: int = 48,
                       gap: int = 10, foot: int = 72) -> None:
        """The page's buttons in a row along the window's foot (measures at 1280x800), never
        wider together than the window."""
        assert self.footer is not None
        w, h = size
        n, gap = len(self.footer.buttons), self.s(gap)
        width = min(self.s(width), (w - 80 - (n - 1) * gap) // max(1, n))
        self.footer.layout_row(40, h - self.s(foot), width, self.s(height), gap=gap)

    def draw_page_title(self, surface: pygame.Surface, title: str) -> None:
        theme.text(surface, title, (40, self.s(24)), self.s(34), bold=True)

    def draw(self, surface: pygame.Surface) -> None:
        pass

    def on_quit(self) -> None:
        """The window is closing: save what must not be lost (off-loop work must finish)."""


class Opener:
    """Reads a file and rebuilds the game in it off the loop thread (a 2048 game of 30,000
    moves takes seconds to replay), then hands the result to the scene's callback; the scene
    polls it each frame and shows it is busy meanwhile."""

    def __init__(self) -> None:
        self._worker = Worker()
        self._then: Callable[[Any], None] | None = None

    @property
    def busy(self) -> bool:
        return self._then is not None

    def open(self, read: Callable[[], Any], then: Callable[[Any], None]) -> None:
        """Run read() on the worker; then(its value) on the loop thread once it is done. An
        error read() raises is raised again from poll(), as it would have been in place."""
        self._then = then
        self._worker.submit(lambda _cancel: read())

    def poll(self) -> None:
        done = self._worker.poll()
        if done is None or self._then is None:
            return
        then, self._then = self._then, None
        if done.error is not None:
            raise done.error
        then(done.value)

    def cancel(self) -> None:
        """Drop the file being read: its callback never runs (the scene has gone)."""
        self._worker.cancel()
        self._then = None


# --- starting a local match: its seats' controllers, then the play scene (opened by name)
def level_seconds(level: str) -> float:
    """A bot's time a move: the settings' budget for Hard, in proportion for the others."""
    if level not in LEVELS:
        return 0.0
    return float(settings.get("ai_seconds")) * DEFAULT_SECONDS[level] / DEFAULT_SECONDS["hard"]


def error_words(exc: BaseException) -> str:
    """Why something failed, in the player's language where the arcade has the words (a
    refusal of the rules, the system's common errors); else the error's own."""
    if isinstance(exc, RulesError) and exc.text is not None:
        return exc.text.say()
    if isinstance(exc, OSError):
        return system_error(exc).say()
    return str(exc)


def controllers_for(app: App, match: Match) -> list[Controller] | None:
    """A controller for each seat, or None (and a toast saying why) if one cannot be made."""
    controllers: list[Controller] = []
    for s in match.seats:
        try:
            controllers.append(controller_for(s, level_seconds(s.level)))
        except (ValueError, OSError, ImportError) as exc:
            for c in controllers:
                c.close()
            app.toast(_("Cannot start: {error}").format(error=error_words(exc)))
            return None
    return controllers


def start_match(app: App, match: Match, save_name: str | None = None, *,
                replace: bool = False, **play: Any) -> None:
    """Start (or resume) a local match on a new play scene, pushed or in place of the top; it
    is kept in save_name as it goes, by default this game's own autosave. A game saved over
    the LAN goes on here only as the player chooses (continue_here)."""
    if any(s.kind == "remote" for s in match.seats):
        continue_here(app, match, save_name, replace=replace, **play)
        return
    controllers = controllers_for(app, match)
    if controllers is None:
        return
    open_scene = app.replace if replace else app.push
    open_scene("play", match=match, controllers=controllers,
               save_name=save_name or saves.autosave_name(match), **play)


def continue_here(app: App, match: Match, save_name: str | None = None, *,
                  replace: bool = False, **play: Any) -> None:
    """A game saved over the LAN goes on at this computer: the other side's seat becomes a bot
    or someone here, if the file holds all the game needs; if not, the screen says why."""
    remote = [i for i, s in enumerate(match.seats) if s.kind == "remote"]
    peer = match.seats[remote[0]].name
    why = match.info.lan_module().SECRETS.local_continuation(match)  # e.g. deals anew
    if why:
        app.push("confirm", message=_("This game cannot go on at one computer"),
                 detail=_(why), yes=_("OK"), no=_("Back"), on_yes=lambda: None)
        return

    def go(kind: str) -> None:
        for i in remote:
            seat = match.seats[i]
            seat.kind = kind
            if kind == "ai":
                seat.level, seat.name = Level.NORMAL.value, f"{LEVEL_TITLES[Level.NORMAL]} bot"
        start_match(app, match, save_name, replace=replace, **play)

    def choose() -> None:
        app.push("confirm", message=_("Who plays {name}'s side?").format(name=peer),
                 detail=_("A bot, or someone here at this computer (hot-seat)."),
                 yes=_("A bot"), no=_("Someone here"), on_yes=lambda: go("ai"),
                 on_no=lambda: go("human"), cancel=_("Cancel"))

    app.push("confirm", message=_("Played over the LAN with {name}").format(name=peer),
             detail=_("Continue it here, at this computer?"), yes=_("Continue here"),
             no=_("Not now"), on_yes=choose)
