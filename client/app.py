"""The one pygame loop and the scene stack."""

from __future__ import annotations

import os
import signal
import sys
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import pygame

from ai.worker import shutdown_bot_process
from client.scenes.base import Scene
from client.scenes.table import LAN_MISSING, SCENES
from client.sound import Sound, quiet_stderr
from client.ui import theme
from game import APP_NAME, i18n, settings, shortcut
from game.i18n import _

MIN_SIZE = (800, 560)
# SDL's stand-ins when no screen is reachable: a window on them is one nobody sees.
NO_SCREEN_DRIVERS = ("offscreen", "dummy")
NO_DISPLAY = ("no display to open a window on: run it inside a desktop session, or without a "
              "window: --headless with --demo GAME, --replay FILE, --host or --join")


def window_icon(path) -> None:
    """Give the window the arcade's icon (taskbar, alt-tab); a missing file costs nothing."""
    try:
        pygame.display.set_icon(pygame.image.load(str(path)))
    except (pygame.error, OSError):
        pass


class NoDisplay(RuntimeError):
    """There is no screen to open the arcade's window on."""


def check_display() -> None:
    """Raise NoDisplay, before any sound or window starts, if no screen can be reached."""
    asked = os.environ.get("SDL_VIDEODRIVER", "")
    if sys.platform.startswith("linux") and not asked and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise NoDisplay(NO_DISPLAY)
    try:
        with quiet_stderr():  # SDL's probes print C-level lines (XDG_RUNTIME_DIR, ...)
            pygame.display.init()
    except pygame.error as exc:
        raise NoDisplay(f"{NO_DISPLAY} ({exc})") from exc
    if pygame.display.get_driver() in NO_SCREEN_DRIVERS and asked not in NO_SCREEN_DRIVERS:
        raise NoDisplay(NO_DISPLAY)

DEFAULT_SIZE = (1100, 720)
FPS = 60
TOAST_LINES = 3  # a toast longer than this many lines ends in an ellipsis


class App:
    """Owns the window, the clock and the scene stack; scenes push, pop and replace scenes."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, fullscreen: bool = False):
        # A CPU-bound bot on a worker thread holds the GIL in slices; short slices keep frames
        # on time.
        sys.setswitchinterval(0.001)
        check_display()
        with quiet_stderr():  # ALSA's lines on a machine without a sound card
            pygame.init()
        pygame.display.set_caption(APP_NAME)
        window_icon(shortcut.ICONS / f"{shortcut.NAME}-128.png")
        i18n.set_language(settings.get("language") or i18n.system_language())
        self.toasts: list[tuple[str, float]] = []  # (message, until self.now())
        self._toast_boxes: list[tuple[pygame.Rect, tuple[str, float]]] = []  # as last drawn
        self._toast_pressed = False  # the button went down on a toast: its release is eaten
        # The clock the arcade's timers read (messages, the pause before a result card, the
        # pace of a watched game); the tests' harness gives one that moves with its frames.
        self.now: Callable[[], float] = time.monotonic
        self.window_size = at_least_min(size)  # the window's size, to return to from full screen
        self.screen = self._full_screen() if fullscreen else None
        if self.screen is None:
            self.screen = pygame.display.set_mode(self.window_size, pygame.RESIZABLE)
        self._enforce_min_size()
        self.clock = pygame.time.Clock()
        self.stack: list[Scene] = []
        self.running = True
        self.quit_asked = False  # a close mid-game is being asked about
        self.stop_asked = False  # a signal (SIGTERM, Ctrl+C) closes without a question
        self._swallow: str | None = None  # the text of a key that just opened a scene
        self.frame_times: list[float] = []  # seconds per frame, kept for the frame benchmark
        self.sound = Sound()
        self.sound.configure(settings.get("sound"), settings.get("volume"))
        problem = settings.take_problem()
        if problem:
            self.toast(problem.say())

    # --- the stack
    @property
    def top(self) -> Scene | None:
        return self.stack[-1] if self.stack else None

    @property
    def size(self) -> tuple[int, int]:
        """The window's real size, which layouts are computed from."""
        return self.screen.get_size()

    def has_scene(self, name: str) -> bool:
        """Whether this build has the scene (the LAN lobby may be missing)."""
        return name in SCENES

    def why_missing(self, name: str) -> str:
        """Why this build lacks a scene ("" if it has it or nobody said)."""
        return LAN_MISSING if name == "lobby" and name not in SCENES else ""

    def make(self, scene: Scene | str, **kwargs: Any) -> Scene:
        """The scene itself, or a new scene of that name built with kwargs."""
        if isinstance(scene, Scene):
            return scene
        return SCENES[scene](self, **kwargs)

    def push(self, scene: Scene | str, **kwargs: Any) -> Scene:
        """Cover the top with a scene (or a new one by name: push("rules", game_id=...))."""
        scene = self.make(scene, **kwargs)
        if self.top:
            self.top.leave()
        self.stack.append(scene)
        self._enter(scene)
        return scene

    def pop(self) -> Scene | None:
        if not self.stack:
            return None
        scene = self._remove_top()
        if self.top:
            self._enter(self.top)
        else:
            self.running = False
        return scene

    def replace(self, scene: Scene | str, **kwargs: Any) -> Scene:
        """Put a scene in place of the top one, which closes."""
        scene = self.make(scene, **kwargs)
        if self.stack:
            self._remove_top()
        self.stack.append(scene)
        self._enter(scene)
        return scene

    def pop_to(self, kind: str | type[Scene]) -> None:
        """Pop until the top is a scene of this name or type (e.g. back to the title)."""
        wanted = SCENES[kind] if isinstance(kind, str) else kind
        while self.stack and not isinstance(self.top, wanted):
            self._remove_top()
        if self.top:
            self._enter(self.top)
        else:
            self.running = False

    def find(self, kind: str | type[Scene]) -> Scene | None:
        """The topmost scene of this name or type on the stack."""
        wanted = SCENES.get(kind) if isinstance(kind, str) else kind
        for scene in reversed(self.stack):
            if wanted is not None and isinstance(scene, wanted):
                return scene
        return None

    def close_all(self) -> None:
        """Empty the stack, closing every scene from the top down."""
        while self.stack:
            self._remove_top()

    def _enter(self, scene: Scene) -> None:
        scene.enter()
        scene.relayout()
        scene.ensure_layout(self.size)

    def _remove_top(self) -> Scene:
        scene = self.stack.pop()
        scene.leave()
        if not scene.closed:
            scene.closed = True
            scene.close()
        return scene

    # --- messages
    def toast(self, message: str, seconds: float = 4.0) -> None:
        """A short message along the bottom of the window, up to three lines, shown for
        `seconds` or as long as it takes to read, whichever is longer, or until clicked."""
        self.toasts.append((message, self.now() + max(seconds, theme.reading_seconds(message))))
        self.toasts = self.toasts[-3:]

    def _toast_clicked(self, event: pygame.event.Event) -> bool:
        """A click on a toast puts it away (one over the board hid its lowest row for up to
        12 s) and goes no further: the scene under it gets neither the press nor its release."""
        if event.type == pygame.MOUSEBUTTONUP and self._toast_pressed:
            self._toast_pressed = False
            return True
        if event.type != pygame.MOUSEBUTTONDOWN:
            return False
        hit = next((toast for box, toast in self._toast_boxes if box.collidepoint(event.pos)),
                   None)
        if hit is None:
            return False
        self.toasts = [t for t in self.toasts if t is not hit]
        self._toast_boxes = [(box, t) for box, t in self._toast_boxes if t is not hit]
        self._toast_pressed = True
        return True

    # --- the loop
    def step(self, events: Iterable[pygame.event.Event], dt: float) -> None:
        """One frame: events, update, draw. Tests call this with synthetic events."""
        self.layout()
        if self.stop_asked:
            self.quit()
            return
        for event in events:
            if event.type == pygame.QUIT:
                if self.ask_before_quit():
                    continue
                self.quit()
                return
            if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
                self.toggle_fullscreen()
                continue
            if event.type == pygame.WINDOWSIZECHANGED:
                self._hold_min_size((event.x, event.y))
                self.layout()
            if self._toast_clicked(event):
                continue
            swallow, self._swallow = self._swallow, None
            if event.type == pygame.TEXTINPUT and event.text == swallow:
                continue  # the text of the key that opened this scene is not typed into it
            before = self.top
            if self.top:
                self.top.handle_event(event)
            if event.type == pygame.KEYDOWN and self.top is not before:
                self._swallow = event.dict.get("unicode") or None  # SDL sends its TEXTINPUT next
            if not self.running:
                return
        if self.top:
            self.top.update(dt)
        for scene in self.stack[:-1]:
            if scene in self.stack and scene is not self.top:  # a background frame may pop
                scene.background(dt)
        self.layout()
        self.draw()

    def layout(self) -> None:
        """Lay out every scene the window shows whose size or content changed."""
        for scene in self.stack[self._opaque_from():]:
            scene.ensure_layout(self.size)

    def _opaque_from(self) -> int:
        """The index of the lowest scene drawn: the topmost opaque one."""
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].opaque:
                return i
        return 0

    def draw(self) -> None:
        surface = self.screen
        theme.paper(surface)
        opaque_from = self._opaque_from()
        for i in range(opaque_from, len(self.stack)):
            if i > opaque_from:
                veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
                veil.fill((40, 36, 30, 110))
                surface.blit(veil, (0, 0))
            self.stack[i].draw(surface)
        self._draw_toasts(surface)

    def _draw_toasts(self, surface: pygame.Surface) -> None:
        now = self.now()
        self.toasts = [toast for toast in self.toasts if toast[1] > now]
        top = self.top
        w, h = surface.get_size()
        area = top.toast_area((w, h)) if top is not None else pygame.Rect(0, 0, w, h - 16)
        if area.width < w // 2:  # not laid out yet, or a scene with no room beside its panel
            area = pygame.Rect(0, 0, w, area.bottom)
        y = area.bottom
        self._toast_boxes = []
        for toast in reversed(self.toasts):
            message = toast[0]
            # a long chat line or error wraps (three lines at most) rather than being cut
            room = area.width - 48
            size, parts = theme.fit_lines((message,), room, TOAST_LINES * 22, 18, 16)
            imgs = [theme.render(words, size, theme.PAPER) for _i, words in parts]
            width = max(img.get_width() for img in imgs)
            box = pygame.Rect(0, 0, width + 24, len(imgs) * (size + 4) + 12)
            box.midbottom = (area.centerx, y)
            pygame.draw.rect(surface, theme.INK, box, border_radius=8)
            self._toast_boxes.append((box, toast))
            for i, img in enumerate(imgs):
                line = pygame.Rect(box.x, box.y + 6 + i * (size + 4), box.width, size + 4)
                surface.blit(img, img.get_rect(center=line.center))
            y = box.top - 6

    def run(self) -> None:
        """The main loop: 60 frames a second until the last scene is popped or the window
        closes."""
        self.listen_for_signals()
        while self.running:
            dt = self.clock.tick(FPS) / 1000.0
            start = time.perf_counter()
            self.step(pygame.event.get(), min(dt, 0.1))
            if self.running:
                pygame.display.flip()
            self.frame_times.append(time.perf_counter() - start)
            if len(self.frame_times) > 10000:
                del self.frame_times[:5000]
        pygame.quit()
        shutdown_bot_process()  # a search in progress stops now, not at its deadline

    def listen_for_signals(self) -> None:
        """SIGTERM (a logout, `kill`) and SIGINT close the arcade as Quit does, saving, without
        the question a closed window gets mid-game: no one is at the window to answer it.
        (SDL would turn them into a window close.)"""
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._stop_by_signal)

    def _stop_by_signal(self, signum: int, frame: Any) -> None:
        self.stop_asked = True

    def ask_before_quit(self) -> bool:
        """A LAN game in progress: closing the window asks first (closing again quits). True if
        it asked."""
        play = self.find("play")
        if play is None or play.session is None or play.match.over or self.quit_asked:
            return False
        self.quit_asked = True

        def stay() -> None:
            self.quit_asked = False

        self.push("confirm", message=_("Quit in the middle of this game?"), on_yes=self.quit,
                  yes=_("Quit"), no=_("Stay"), on_no=stay,
                  detail=_("It is saved: Continue over the LAN takes it up again."))
        return True

    def quit(self) -> None:
        """Close: every scene saves what it must and closes, then the loop ends."""
        for scene in reversed(self.stack):
            scene.on_quit()
        self.close_all()
        settings.save_now()
        self.running = False

    def toggle_fullscreen(self) -> None:
        if not settings.get("fullscreen"):
            self.window_size = self.screen.get_size()
            self.screen = self._full_screen() or self.screen
            return
        settings.put("fullscreen", False)
        self.screen = pygame.display.set_mode(self.window_size, pygame.RESIZABLE)
        self._enforce_min_size()

    def _full_screen(self) -> pygame.Surface | None:
        """The screen in full-screen mode, remembered for the next launch; None, said in a
        message and remembered as off, where the display cannot give it (SDL's own words
        would be English, and say nothing a player can act on)."""
        try:
            screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        except pygame.error:
            settings.put("fullscreen", False)
            self.toast(_("Full screen is not available on this display."))
            return None
        settings.put("fullscreen", True)
        return screen

    def _enforce_min_size(self) -> None:
        """The window cannot be made smaller than MIN_SIZE."""
        _window().minimum_size = MIN_SIZE

    def _hold_min_size(self, size: tuple[int, int]) -> None:
        """A window made smaller than MIN_SIZE all the same (without a window manager, X honours
        no minimum) grows back to it."""
        if at_least_min(size) != tuple(size):
            _window().size = at_least_min(size)


def _window() -> pygame.Window:
    # pygame-ce warns that mixing the Window API with the display module is deprecated; the
    # display module has no other way to set a window's minimum size.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pygame.Window.from_display_module()


def at_least_min(size: tuple[int, int]) -> tuple[int, int]:
    """A window size no smaller than MIN_SIZE."""
    return max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1])
