"""Fox Hunt's field: probes with their numbers, found foxes, the lines a probe sees under the
pointer, an honest heat map (the hint) and autoplay, both from ai/foxhunt.py on a worker thread."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

import pygame

from ai.base import DEFAULT_SECONDS
from ai.worker import AIWorker, Worker
from client.boards.base import BoardBase, Diagram, Setting, autoplay_move, helper_levels
from client.ui import theme
from game.i18n import N_, _
from game.rules import foxhunt as rules

LABEL_ROOM = 26  # px above and left of the field for its coordinates
AUTOPLAY_PAUSE = 0.35  # seconds between autoplay's probes, so a person can follow them
FOX_ORANGE = (214, 110, 40)


def cell_name(size: int, cell: int) -> str:
    """A square as the field's edges label it: columns A, B, ... left to right, rows 1, 2, ...
    from the top (as Bomb the Planes' grids): "D5"."""
    row, col = divmod(cell, size)
    return f"{'ABCDEFGHIJKLMNOP'[col]}{row + 1}"


class Board(BoardBase):
    SCORE_UNIT = N_("probes (fewer is better)")
    SETTINGS = (Setting("foxhunt_level", "hard", "Fox Hunt autoplay", helper_levels()),)
    SETUP = ("foxhunt_level",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.grid = pygame.Rect(0, 0, 400, 400)
        self.cell = 40
        self.hover: int | None = None
        self.cursor = 0
        self.heat: list[float] | None = None
        self.heat_exact = True
        self.heat_known = True  # False: the chances could not be counted in time, nor sampled
        self.heat_on = False
        self.hinter = Worker()
        self.bot = AIWorker()
        self.rng = random.Random()
        self.autoplay = False
        self.auto_move: int | None = None
        self.wait = 0.0
        self.version = 0
        self.asked_for = -1

    @property
    def size(self) -> int:
        return int(self.view["size"]) if self.view else int(self.options.get("size", 10))

    def set_view(self, view, legal, *, my_turn, viewer, last_move=None, animate=True) -> None:
        super().set_view(view, legal, my_turn=my_turn, viewer=viewer, last_move=last_move,
                         animate=animate)
        self.version += 1
        self.heat, self.heat_known, self.auto_move = None, True, None
        self.bot.cancel()
        if self.heat_on:
            self._ask_heat()

    def close(self) -> None:
        self.autoplay = False
        self.bot.cancel()
        self.hinter.cancel()

    # --- geometry
    def layout(self, rect: pygame.Rect) -> None:
        super().layout(rect)
        margin = LABEL_ROOM  # the coordinates above and left of the field
        side = max(80, min(rect.width, rect.height) - 20 - margin)
        self.cell = side // self.size
        side = self.cell * self.size
        self.grid = pygame.Rect(0, 0, side, side)
        self.grid.center = (rect.centerx + margin // 2, rect.centery + margin // 2)

    def cell_rect(self, cell: int) -> pygame.Rect:
        r, c = divmod(cell, self.size)
        return pygame.Rect(self.grid.x + c * self.cell, self.grid.y + r * self.cell,
                           self.cell, self.cell)

    def cell_at(self, pos) -> int | None:
        if not self.grid.collidepoint(pos):
            return None
        c = (pos[0] - self.grid.x) // self.cell
        r = (pos[1] - self.grid.y) // self.cell
        return r * self.size + c if r < self.size and c < self.size else None

    # --- input
    def handle_event(self, event: pygame.event.Event) -> int | None:
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.cell_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            cell = self.cell_at(event.pos)
            if cell is not None:  # the keys go on from the square clicked, as on other boards
                self.cursor = cell
            return self._offer(cell)
        elif event.type == pygame.KEYDOWN:
            step = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_UP: -self.size,
                    pygame.K_DOWN: self.size}.get(event.key)
            if step is not None:
                self.cursor = (self.cursor + step) % (self.size * self.size)
                self.hover = self.cursor
            elif event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER):
                return self._offer(self.cursor)
            elif event.key == pygame.K_h and self.someone_plays:
                self.toggle_heat()
        return None

    def _offer(self, cell: int | None) -> int | None:
        return cell if self.my_turn and cell in self.legal else None

    # --- hint and autoplay
    def actions(self) -> list[tuple[str, Callable[[], None]]]:
        if not self.someone_plays:  # bots watched: the hint and autoplay are a player's
            return []
        return [(_("Hint: on (H)") if self.heat_on else _("Hint: off (H)"), self.toggle_heat),
                (_("Autoplay: on") if self.autoplay else _("Autoplay: off"),
                 self.toggle_autoplay)]

    def toggle_heat(self) -> None:
        self.heat_on = not self.heat_on
        if self.heat_on:
            self._ask_heat()
        else:
            self.hinter.cancel()
            self.heat = None

    def _ask_heat(self) -> None:
        if self.view is None:
            return
        from ai.foxhunt import hint
        view = dict(self.view)
        self.hinter.submit(lambda cancel: hint(view))

    def toggle_autoplay(self) -> None:
        self.autoplay = not self.autoplay
        self.auto_move, self.wait = None, 0.0
        if not self.autoplay:
            self.bot.cancel()

    def pending_move(self) -> int | None:
        """The bot's probe while autoplay is on (polled by the play scene each frame)."""
        level = str(self.prefs.get("foxhunt_level") or "hard")
        return autoplay_move(self, self.bot.busy, lambda: self.bot.request_move(
            rules.ID, self.view, self.legal, level, DEFAULT_SECONDS[level], self.rng))

    def update(self, dt: float) -> None:
        done = self.hinter.poll()
        if done is not None and done.error is None and self.heat_on:
            post = done.value
            self.heat_exact, self.heat_known = post.exact, post.known
            self.heat = post.probs if post.known else None  # even chances would mislead
        done = self.bot.poll()
        if done is not None and self.asked_for == self.version:
            if done.error is not None:
                self.autoplay = False
            else:
                self.auto_move, self.wait = done.value, AUTOPLAY_PAUSE
        self.wait = max(0.0, self.wait - dt)

    # --- what the panel says
    def status(self) -> list[str]:
        if self.view is None:
            return []
        probes = self.view["probes"]
        found = sum(1 for _, a in probes if a == rules.FOX)
        lines = [_("Foxes found: {n} of {total}").format(n=found, total=self.view["foxes"]),
                 _("Probes: {n}").format(n=len(probes))]
        if self.heat_on and not self.over:  # an ended hunt has no chances left to show
            lines.append(_("Hint: too many ways for the foxes to lie: no chances this probe")
                         if not self.heat_known else _("Hint: chance of a fox per square")
                         if self.heat_exact else _("Hint: chance of a fox per square (sampled)"))
        return lines + (self.turn_hint() if self.my_turn else [])

    def turn_hint(self) -> list[str]:
        return [_("Click a square to probe it. A number counts the foxes on its row, "
                  "column and diagonals.")]

    def move_text(self, move, before: dict, after: dict) -> str:
        """A probe by the square's name as the field's edges label it, and its answer: "D5 (2)",
        "C3 (fox)" (no colon: a review says "D5 (2): Mistake")."""
        answer = next((a for c, a in after.get("probes", []) if c == move), None)
        name = cell_name(int(after["size"]), int(move))
        if answer is None:
            return name
        word = _("fox") if answer == rules.FOX else answer  # outside the f-string: extracted
        # TRANSLATORS: Fox Hunt: a probed square and its answer, a count or "fox" ("D5 (2)")
        return _("{square} ({answer})").format(square=name, answer=word)

    def sound_for(self, old_view, new_view, move) -> str:
        probes = new_view.get("probes") or []
        return "hit" if probes and probes[-1][1] == rules.FOX else "miss"

    def diagrams(self) -> list[Diagram]:
        """A probe, the lines it sees and its count; a found fox."""
        size = 8
        foxes = {3 * size + 6, 0, 6 * size + 3, 1 * size + 6, 7 * size + 1}
        probe = 3 * size + 3
        seen = len(rules.sight(size, probe) & foxes)
        view = {"size": size, "foxes": 5, "probes": [[6 * size + 3, rules.FOX], [probe, seen]]}
        options = {"size": size, "foxes": 5}
        return [Diagram(
            _("The probe in the middle counts the foxes on its row, its column and both "
              "diagonals (outlined): {n}, the fox already found below it included.").format(
                n=seen),
            self.picture(view, options=options, last_move=probe,
                         prepare=lambda b: setattr(b, "hover", probe)), "Probing")]

    # --- drawing
    def draw(self, surface: pygame.Surface) -> None:
        if self.view is None:
            return
        answers = {cell: a for cell, a in self.view["probes"]}
        hidden = set(self.view.get("fox_cells", ()))
        seen = rules.sight(self.size, self.hover) if self.hover is not None else frozenset()
        font_size = self.answer_size()
        for cell in range(self.size * self.size):
            rect = self.cell_rect(cell)
            colour = theme.PAPER
            if self.heat is not None and cell not in answers:
                colour = _heat_colour(self.heat[cell])
            elif cell in seen:
                colour = theme.PAPER_DARK
            pygame.draw.rect(surface, colour, rect)
            if cell in answers:
                self._draw_answer(surface, rect, answers[cell], font_size)
            elif cell in hidden:  # the whole truth (a replay's "Everything"): still unfound
                _draw_fox(surface, rect, alpha=150)
            elif self.heat is not None and self.cell >= 34:
                pct = round(100 * self.heat[cell])
                mark = f"{pct}%" if pct else ("·" if self.heat[cell] == 0 else "<1%")
                theme.text(surface, mark, rect.center, max(9, font_size // 2),
                           theme.INK_SOFT, anchor="center")
            if cell in seen and cell not in answers:
                pygame.draw.rect(surface, theme.INK_SOFT, rect.inflate(-6, -6), 1)
        for i in range(self.size + 1):
            x = self.grid.x + i * self.cell
            y = self.grid.y + i * self.cell
            pygame.draw.line(surface, theme.GRID, (x, self.grid.y), (x, self.grid.bottom))
            pygame.draw.line(surface, theme.GRID, (self.grid.x, y), (self.grid.right, y))
        if self.hover is not None:
            pygame.draw.rect(surface, theme.ACCENT, self.cell_rect(self.hover), 3)
        if self.last_move is not None and self.last_move in answers:
            pygame.draw.rect(surface, theme.INK, self.cell_rect(self.last_move), 2)
        self._draw_coordinates(surface)

    def answer_size(self) -> int:
        """The text size of a probe's answer: half the cell, and readable in a small one."""
        return min(self.cell - 2, max(13, int(self.cell * 0.5)))

    def _draw_coordinates(self, surface) -> None:
        """Column letters above the field, row numbers left of it: the move list's names."""
        size = max(11, min(16, self.cell // 3))
        for i in range(self.size):
            name = cell_name(self.size, i)
            theme.text(surface, name[0], (self.grid.x + i * self.cell + self.cell // 2,
                                          self.grid.y - 4), size, theme.INK_SOFT,
                       anchor="midbottom")
            theme.text(surface, str(i + 1), (self.grid.x - 6, self.grid.y + i * self.cell
                                             + self.cell // 2), size, theme.INK_SOFT,
                       anchor="midright")

    def _draw_answer(self, surface, rect: pygame.Rect, answer, font_size: int) -> None:
        if answer == rules.FOX:
            _draw_fox(surface, rect)
            return
        pygame.draw.line(surface, theme.INK_SOFT, (rect.x + 4, rect.bottom - 5),
                         (rect.right - 4, rect.bottom - 5), 1)  # a pencilled underline
        theme.text(surface, str(answer), rect.center, font_size, theme.INK, bold=True,
                   anchor="center")


def _heat_colour(p: float) -> tuple[int, int, int]:
    """Paper for no chance, deepening to the accent for a sure fox."""
    p = max(0.0, min(1.0, p)) ** 0.6
    return tuple(int(a + (b - a) * p) for a, b in zip(theme.PAPER, theme.HILITE))


@functools.lru_cache(maxsize=8)  # one a cell size: drawn once, not a fox a frame
def _faint_fox(size: tuple[int, int], alpha: int) -> pygame.Surface:
    ghost = pygame.Surface(size, pygame.SRCALPHA)
    _draw_fox(ghost, ghost.get_rect())
    ghost.set_alpha(alpha)
    return ghost


def _draw_fox(surface, rect: pygame.Rect, alpha: int = 255) -> None:
    """A fox's head in a few ink strokes: two ears, a face narrowing to the nose; a fox not yet
    found is drawn faint (alpha)."""
    if alpha < 255:
        surface.blit(_faint_fox(rect.size, alpha), rect)
        return
    cx, cy, s = rect.centerx, rect.centery, rect.width * 0.36
    face = [(cx - s, cy - s * 0.5), (cx + s, cy - s * 0.5), (cx, cy + s)]
    ears = [[(cx - s, cy - s * 0.5), (cx - s * 0.75, cy - s * 1.2), (cx - s * 0.25, cy - s * 0.5)],
            [(cx + s, cy - s * 0.5), (cx + s * 0.75, cy - s * 1.2), (cx + s * 0.25, cy - s * 0.5)]]
    for poly in ears + [face]:
        pygame.draw.polygon(surface, FOX_ORANGE, poly)
        pygame.draw.polygon(surface, theme.INK, poly, 2)
    pygame.draw.circle(surface, theme.INK, (int(cx), int(cy + s * 0.85)), max(2, int(s * 0.15)))
