"""The 2048 board: the grid in the classic colours, slides, merges and spawns animated, keys and
drags for moves, the best score kept, and the bot as a hint or on autoplay."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from ai.worker import AIWorker
from client.boards.base import BoardBase, Diagram, Setting, Store, autoplay_move, helper_levels
from client.ui import paper, theme
from game.i18n import N_, _, format_number
from game.rules import g2048 as rules

KEYS = {
    pygame.K_UP: "up", pygame.K_w: "up", pygame.K_DOWN: "down", pygame.K_s: "down",
    pygame.K_LEFT: "left", pygame.K_a: "left", pygame.K_RIGHT: "right", pygame.K_d: "right",
}
TILE_COLORS = {
    2: (238, 228, 218), 4: (237, 224, 200), 8: (242, 177, 121), 16: (245, 149, 99),
    32: (246, 124, 95), 64: (246, 94, 59), 128: (237, 207, 114), 256: (237, 204, 97),
    512: (237, 200, 80), 1024: (237, 197, 63), 2048: (237, 194, 46),
}
BIG_TILE = (60, 58, 50)  # past 2048
DARK_DIGITS = (119, 110, 101)
LIGHT_DIGITS = (249, 246, 242)
GRID_BACK = (187, 173, 160)
EMPTY_CELL = (205, 193, 180)
SLIDE_SECONDS = 0.10
POP_SECONDS = 0.14
BANNER_SECONDS = 4.0
# Autoplay speeds: (label, seconds between moves on top of the bot's own time).
SPEEDS = ((N_("slow"), 0.6), (N_("normal"), 0.25), (N_("fast"), 0.05), (N_("max"), 0.0))
ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}
DIRECTIONS = {"up": N_("up"), "down": N_("down"), "left": N_("left"), "right": N_("right")}
VECTORS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def tile_color(value: int) -> tuple[int, int, int]:
    return TILE_COLORS.get(value, BIG_TILE)


def digit_color(value: int) -> tuple[int, int, int]:
    return DARK_DIGITS if value in (2, 4) else LIGHT_DIGITS


@dataclass
class Animation:
    """One move on screen: tiles sliding from the old board, then merges popping and the new
    tile growing on the new board."""

    paths: list[tuple[int, int, int, bool]]
    merged: set[int] = field(default_factory=set)
    spawned: int | None = None
    t: float = 0.0


class Board(BoardBase):
    SETTINGS = (Setting("g2048_ai_ms", 100, "2048 AI time",
                        ((50, "50 ms"), (100, "100 ms"), (200, "200 ms"), (500, "500 ms"))),
                Setting("g2048_best", 0),
                Setting("g2048_autoplay_speed", 1),  # index into SPEEDS, kept for the next game
                Setting("g2048_level", "hard", "2048 helper", helper_levels()))
    SETUP = ("g2048_level", "g2048_ai_ms")

    def __init__(self, options: dict, seat_names: tuple[str, ...], prefs: dict | None = None,
                 store: Store | None = None):
        super().__init__(options, seat_names, prefs, store)
        self.cells: tuple[int, ...] = (0,) * 16
        self.score = 0
        self.best = int(self.prefs.get("g2048_best", 0) or 0)
        self.best_saved = self.best
        self.saved_at = 0.0
        self.anim: Animation | None = None
        self.banner = 0.0  # seconds left of the "you reached 2048" banner
        self.drag_start: tuple[int, int] | None = None
        self.grid = pygame.Rect(0, 0, 400, 400)
        self.header = pygame.Rect(0, 0, 400, 60)
        self.header_marks: list[pygame.Rect] = []  # the title (if it fits) and the score tags
        self.cell = 90
        self.gap = 10
        self.worker = AIWorker()
        self.rng = random.Random()
        self.hint: str | None = None
        self.hint_busy = False
        self.autoplay = False
        speed = self.prefs.get("g2048_autoplay_speed", 1)
        self.speed = speed if isinstance(speed, int) and 0 <= speed < len(SPEEDS) else 1
        self.wait = 0.0
        self.auto_move: str | None = None
        self.asked_for = -1  # the version of the view the bot's pending answer is about
        self.version = 0
        self.header_shown = True  # a rules page's diagram shows the grid alone

    # --- the view
    @property
    def ai_seconds(self) -> float:
        return max(10, int(self.prefs.get("g2048_ai_ms", 100) or 100)) / 1000.0

    def set_view(self, view, legal, *, my_turn, viewer, last_move=None, animate=True) -> None:
        old = self.cells
        super().set_view(view, legal, my_turn=my_turn, viewer=viewer, last_move=last_move,
                         animate=animate)
        cells = tuple(v for row in view["board"] for v in row)
        if cells == old and view.get("score", 0) == self.score:
            return  # the same position shown again (the panel was rebuilt)
        self.cells, self.score = cells, int(view.get("score", 0))
        self.version += 1
        self.hint, self.hint_busy, self.auto_move = None, False, None
        self.worker.cancel()
        self.anim = self._animation(old, cells, last_move) if animate else None
        if animate and max(old) < rules.WIN_TILE <= max(cells):
            self.banner = BANNER_SECONDS
        elif not animate:
            self.banner = 0.0
        if self.counted and self.score > self.best:  # not a watched game's, nor autoplay's
            self.best = self.score
        if not legal and self.best != self.best_saved:
            self._save_best()

    def _animation(self, old: tuple[int, ...], new: tuple[int, ...],
                   move: object) -> Animation | None:
        """How old became new by move and one spawn, or None if it did not (a jump)."""
        if self.animation_speed <= 0 or move not in rules.DIRECTIONS or not any(old):
            return None
        slid, _moved = rules.slide(old, move)
        spawned = [i for i in range(16) if slid[i] == 0 and new[i]]
        if slid == old or len(spawned) != 1 \
                or any(new[i] != slid[i] for i in range(16) if i != spawned[0]):
            return None
        paths = rules.slide_paths(old, move)
        merged = {to for _, to, _, m in paths if m}
        return Animation(paths, merged, spawned[0])

    def close(self) -> None:
        self.autoplay = False
        self.worker.cancel()
        if self.best != self.best_saved:
            self._save_best()

    def _save_best(self) -> None:
        self.remember("g2048_best", self.best)
        self.best_saved, self.saved_at = self.best, time.monotonic()

    # --- geometry
    def layout(self, rect: pygame.Rect) -> None:
        super().layout(rect)
        header_h = max(40, min(80, rect.height // 8)) if self.header_shown else -10
        side = max(120, min(rect.width - 20, rect.height - header_h - 30))
        self.gap = max(4, side // 40)
        self.cell = (side - 5 * self.gap) // 4
        side = 4 * self.cell + 5 * self.gap
        top = rect.centery - (side + header_h + 10) // 2
        self.header = pygame.Rect(rect.centerx - side // 2, top, side, header_h)
        self.grid = pygame.Rect(rect.centerx - side // 2, top + header_h + 10, side, side)

    def cell_rect(self, index: int) -> pygame.Rect:
        r, c = divmod(index, 4)
        return pygame.Rect(self.grid.x + self.gap + c * (self.cell + self.gap),
                           self.grid.y + self.gap + r * (self.cell + self.gap),
                           self.cell, self.cell)

    # --- input
    def handle_event(self, event: pygame.event.Event) -> str | None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_h:
            if self.someone_plays:  # bots watched: nobody to hint
                self.ask_hint()
            return None
        if event.type == pygame.KEYDOWN and event.key in KEYS \
                and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            return self._offer(KEYS[event.key])
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 \
                and self.rect.collidepoint(event.pos):
            self.drag_start = event.pos
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.drag_start:
            start, self.drag_start = self.drag_start, None
            return self._offer(self.swipe(start, event.pos))
        return None

    def swipe(self, start: tuple[int, int], end: tuple[int, int]) -> str | None:
        """The direction of a drag, if it was long enough to be one."""
        dx, dy = end[0] - start[0], end[1] - start[1]
        if max(abs(dx), abs(dy)) < max(16, self.cell // 4):
            return None
        if abs(dx) > abs(dy):
            return "right" if dx > 0 else "left"
        return "down" if dy > 0 else "up"

    def _offer(self, move: str | None) -> str | None:
        if move is None or not self.my_turn or move not in self.legal:
            return None
        if self.anim is not None:
            self.anim = None  # snap the running animation to its end
        return move

    # --- hint and autoplay
    def actions(self) -> list[tuple[str, Callable[[], None]]]:
        if not self.someone_plays:  # bots watched: the hint and autoplay are a player's
            return []
        label = _(SPEEDS[self.speed][0])
        return [(_("Hint (H)") if not self.hint_busy else _("Hint: thinking…"), self.ask_hint),
                (_("Autoplay: on") if self.autoplay else _("Autoplay: off"), self.toggle_autoplay),
                (_("Speed: {speed}").format(speed=label), self.next_speed)]

    def ask_hint(self) -> None:
        if self.view is None or not self.legal:
            return
        self.hint, self.hint_busy = None, True
        self._ask_bot()

    def toggle_autoplay(self) -> None:
        self.autoplay = not self.autoplay
        self.auto_move, self.wait = None, 0.0
        if self.autoplay and not self.hint_busy:
            self.asked_for = -1  # a hint answered this position: autoplay asks again
        if not self.autoplay:
            self.worker.cancel()
            self.hint_busy = False

    def next_speed(self) -> None:
        self.speed = (self.speed + 1) % len(SPEEDS)
        self.remember("g2048_autoplay_speed", self.speed)

    def _ask_bot(self) -> None:
        self.asked_for = self.version
        self.worker.request_move(rules.ID, self.view, self.legal, self.helper_level,
                                 self.ai_seconds, self.rng)

    @property
    def helper_level(self) -> str:
        """The bot that plays autoplay's moves and gives the hints (set up before the game)."""
        return str(self.prefs.get("g2048_level") or "hard")

    def pending_move(self) -> str | None:
        """The bot's move while autoplay is on (polled by the play scene each frame)."""
        return autoplay_move(self, self.worker.busy, self._ask_bot)

    def _poll_bot(self) -> None:
        done = self.worker.poll()
        if done is None or self.asked_for != self.version:
            return
        if done.error is not None:
            self.hint_busy = self.autoplay = False
            return
        self.hint_busy = False
        if self.autoplay:
            self.auto_move = done.value
            self.wait = SPEEDS[self.speed][1]
        else:
            self.hint = done.value

    def update(self, dt: float) -> None:
        self._poll_bot()
        if self.auto_move is not None:
            self.wait = max(0.0, self.wait - dt)
        if self.banner > 0:
            self.banner = max(0.0, self.banner - dt)
        if self.anim is not None:
            self.anim.t += dt * max(self.animation_speed, 0.01)
            if self.anim.t >= SLIDE_SECONDS + POP_SECONDS:
                self.anim = None
        if self.best != self.best_saved and time.monotonic() - self.saved_at > 2.0:
            self._save_best()

    # --- what the panel says
    def status(self) -> list[str]:
        lines = [_("Score: {n}").format(n=format_number(self.score)),
                 _("Best: {n}").format(n=format_number(self.best)),
                 _("Biggest tile: {n}").format(n=max(self.cells))]
        if max(self.cells) >= rules.WIN_TILE:
            lines.append(_("2048 reached: keep going!"))
        if self.hint:
            lines.append(_("Hint: {move}").format(move=_(self.hint)))
        elif self.hint_busy:
            lines.append(_("Hint: thinking…"))
        if self.autoplay:
            lines.append(_("Autoplay on ({speed})").format(speed=_(SPEEDS[self.speed][0])))
        if not self.counted and self.someone_plays:  # why Best stands still
            lines.append(_("Autoplay made moves: this game sets no best."))
        return lines + (self.turn_hint() if self.my_turn else [])

    def turn_hint(self) -> list[str]:
        return [] if self.autoplay else [_("Arrows, WASD or drag to move")]

    def move_text(self, move, before: dict, after: dict) -> str:
        return f"{ARROWS.get(move, '')} {_(DIRECTIONS.get(move, move))}".strip()

    def sound_for(self, old_view, new_view, move) -> str:
        merged = old_view is not None and new_view.get("score", 0) > old_view.get("score", 0)
        return "capture" if merged else "move"

    def diagrams(self) -> list[Diagram]:
        """A slide to the left: which tiles merge, and that a merged tile waits a turn."""
        before = (2, 2, 4, 8, 0, 4, 0, 4, 2, 0, 0, 0, 16, 16, 16, 0)
        after, _gained = rules.slide(before, "left")

        def shown(cells: tuple[int, ...], hint: str | None = None):
            view = {"board": [list(cells[r * 4:r * 4 + 4]) for r in range(4)], "score": 0,
                    "best_tile": max(cells)}

            def prepare(board: Board) -> None:
                board.header_shown = False
                board.layout(board.rect)
                board.hint = hint

            return self.picture(view, prepare=prepare)

        return [Diagram(_("Before a slide to the left (the arrow)."), shown(before, "left"),
                        "Moves"),
                Diagram(_("After it: 2+2 made 4 but did not merge again with the next 4; "
                          "three 16s give 32 and 16, the pair nearest the wall first."),
                        shown(after), "Moves")]

    # --- drawing
    def draw(self, surface: pygame.Surface) -> None:
        if self.header_shown:
            self._draw_header(surface)
        # a sheet of paper with the sixteen places pencilled on it; the tiles are glued on
        surface.blit(paper.card_sheet(self.grid.size, (232, 222, 202)), self.grid.topleft)
        paper.rect(surface, theme.INK, self.grid, 2)
        for i in range(16):
            paper.rect(surface, theme.GRID, self.cell_rect(i).inflate(-4, -4), 1)
        anim = self.anim
        if anim is not None and anim.t < SLIDE_SECONDS:
            self._draw_sliding(surface, anim, anim.t / SLIDE_SECONDS)
        else:
            grow = 1.0 if anim is None else min(1.0, (anim.t - SLIDE_SECONDS) / POP_SECONDS)
            tiles = [(self._scale(anim, i, grow), i, v) for i, v in enumerate(self.cells) if v]
            for scale, i, v in sorted(tiles, key=lambda t: t[0] > 1.0):  # pops on top
                self._draw_tile(surface, self.cell_rect(i), v, scale)
        if self.hint and self.hint in VECTORS:
            self._draw_arrow(surface, self.hint)
        if self.banner > 0:
            self._draw_banner(surface)

    def _scale(self, anim: Animation | None, i: int, grow: float) -> float:
        if anim is None:
            return 1.0
        if i == anim.spawned:
            return 0.2 + 0.8 * grow
        if i in anim.merged:
            return 1.0 + 0.18 * (1.0 - abs(2.0 * grow - 1.0))
        return 1.0

    def _draw_sliding(self, surface: pygame.Surface, anim: Animation, p: float) -> None:
        p = 1.0 - (1.0 - p) ** 2  # ease out
        for src, dst, value, _merged in anim.paths:
            a, b = self.cell_rect(src), self.cell_rect(dst)
            rect = pygame.Rect(round(a.x + (b.x - a.x) * p), round(a.y + (b.y - a.y) * p),
                               a.width, a.height)
            self._draw_tile(surface, rect, value, 1.0)

    def _draw_tile(self, surface: pygame.Surface, rect: pygame.Rect, value: int,
                   scale: float) -> None:
        if scale != 1.0:
            rect = rect.inflate(round(rect.width * (scale - 1)), round(rect.height * (scale - 1)))
        if scale == 1.0:
            paper.tile(surface, rect, tile_color(value), theme.INK_SOFT)
        else:  # growing or popping: a plain card, no grain made for each passing size
            pygame.draw.rect(surface, tile_color(value), rect)
            paper.rect(surface, theme.INK_SOFT, rect, 1)
        digits = len(str(value))
        size = int(rect.height * (0.52, 0.52, 0.44, 0.36, 0.29, 0.24)[min(digits, 6) - 1])
        theme.text(surface, str(value), rect.center, size, digit_color(value), bold=True,
                   anchor="center")

    def _draw_header(self, surface: pygame.Surface) -> None:
        h = self.header
        box_w, gap = max(70, h.width // 4), 14  # apart: two outlines and a shadow between
        title = theme.font(int(h.height * 0.8), True).size("2048")[0]
        self.header_marks = []
        if h.x + title + gap <= h.right - 2 * box_w - gap:  # else the tags would cover it
            self.header_marks.append(theme.text(surface, "2048", (h.x, h.centery),
                                                int(h.height * 0.8), theme.INK, bold=True,
                                                anchor="midleft"))
        for k, (label, value) in enumerate(((_("BEST"), self.best), (_("SCORE"), self.score))):
            box = pygame.Rect(h.right - (k + 1) * box_w - k * gap, h.y + 2, box_w, h.height - 4)
            self.header_marks.append(box)
            paper.tile(surface, box, (238, 230, 212), theme.INK_SOFT)  # a paper tag
            theme.text(surface, label, (box.centerx, box.y + box.height * 0.27),
                       max(10, int(box.height * 0.26)), theme.INK_SOFT,
                       bold=True, anchor="center")
            size = theme.shrink(f"{value:,}", box.width - 8, max(12, int(box.height * 0.42)),
                                smallest=10, bold=True)  # a number is never cut
            theme.text(surface, f"{value:,}", (box.centerx, box.y + box.height * 0.68), size,
                       theme.INK, bold=True, anchor="center")

    def _draw_arrow(self, surface: pygame.Surface, move: str) -> None:
        """A large arrow over the grid pointing the hinted way."""
        dx, dy = VECTORS[move]
        cx, cy = self.grid.center
        length, width = self.grid.width * 0.36, self.grid.width * 0.08
        px, py = -dy, dx  # perpendicular
        tip = (cx + dx * length, cy + dy * length)
        neck = (cx + dx * length * 0.35, cy + dy * length * 0.35)
        tail = (cx - dx * length, cy - dy * length)
        pts = [(tail[0] + px * width, tail[1] + py * width),
               (neck[0] + px * width, neck[1] + py * width),
               (neck[0] + px * width * 2.4, neck[1] + py * width * 2.4), tip,
               (neck[0] - px * width * 2.4, neck[1] - py * width * 2.4),
               (neck[0] - px * width, neck[1] - py * width),
               (tail[0] - px * width, tail[1] - py * width)]
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        pygame.draw.polygon(layer, (*theme.ACCENT, 140), pts)
        pygame.draw.polygon(layer, (*theme.INK, 200), pts, width=max(2, self.gap // 3))
        surface.blit(layer, (0, 0))

    def _draw_banner(self, surface: pygame.Surface) -> None:
        alpha = int(235 * min(1.0, self.banner / 0.6))
        band = pygame.Rect(self.grid.x, self.grid.centery - self.grid.height // 7,
                           self.grid.width, 2 * (self.grid.height // 7))
        layer = pygame.Surface(band.size, pygame.SRCALPHA)
        layer.fill((*TILE_COLORS[2048], alpha))
        surface.blit(layer, band.topleft)
        size = max(14, band.height // 3)
        ink = (*LIGHT_DIGITS, alpha)
        img = theme.font(size, True).render(_("You reached 2048!"), True, ink[:3])
        img.set_alpha(alpha)
        surface.blit(img, img.get_rect(center=(band.centerx, band.y + band.height * 0.36)))
        img = theme.font(max(12, size * 2 // 3)).render(_("Keep going for a bigger tile"), True,
                                                        ink[:3])
        img.set_alpha(alpha)
        surface.blit(img, img.get_rect(center=(band.centerx, band.y + band.height * 0.74)))
