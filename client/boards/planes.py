"""The Bomb the Planes board: hide your planes, then call cells on the enemy grid.

Setup: click a plane to select it, drag it, move it with WASD or the arrows, rotate it with R or
the mouse wheel; Tab picks the next plane; a plane that leaves the grid or overlaps shows red.
Play: click (or arrows + Enter) a cell of the enemy grid to shoot. Assist: ghost planes on the
enemy grid (right-drag to move, wheel to rotate, Delete to remove) and a heat map of where the
heads (or any plane part) can still be, exact over every consistent layout.
"""

from __future__ import annotations

import random

import pygame

from ai.worker import Worker
from client.boards.base import BoardBase, Diagram, Store
from client.ui import theme
from game.i18n import N_, _, format_number, ngettext, pgettext, side_label
from game.rules import planes as rules

TURN = {"up": "right", "right": "down", "down": "left", "left": "up"}
# From a plane's head to its middle (where the wings meet the body): the point it turns about.
MIDDLE = {"up": (1, 0), "down": (-1, 0), "left": (0, 1), "right": (0, -1)}
# Each plane being placed has its own ink, so interlocked planes can be told apart.
PLACING_COLOURS = ((60, 90, 150), (40, 130, 120), (120, 80, 160), (150, 110, 50))
MARK = {"miss": (120, 116, 108), "body": (214, 120, 40), "head": (196, 40, 40)}
WATER = (232, 240, 242)
WATER_DARK = (200, 218, 226)
PLANE_INK = (70, 96, 140)
GHOST_INK = (60, 140, 80)
DOWN_INK = (110, 70, 60)  # a plane whose head was hit: shot down
HEAT = (230, 60, 40)
BANNER_SECONDS = 1.3
# The rules page's second picture: a plane in a 5 x 5 corner and shots on it, as its caption
# names them (C1, C2, A4, E1).
DIAGRAM_PLANE = [0, 2, "up"]
DIAGRAM_SHOTS = [[2, "head"], [7, "body"], [15, "miss"], [4, "miss"]]
LEGEND_H = 48  # room under the grids for the legend and the assist controls
COORD_MAX = 20  # px: the grids' letters and numbers at most


def answer_word(answer: str) -> str:
    """A shot's answer as a move list writes it: miss, body, head (落空, 机身, 机头)."""
    words = {"miss": pgettext("a shot's answer", "miss"),
             "body": pgettext("a shot's answer", "body"),
             "head": pgettext("a shot's answer", "head")}
    return words.get(answer, answer)


def cell_name(size: int, cell: int) -> str:
    """A cell as the grids label it: "D5"."""
    row, col = divmod(cell, size)
    return f"{'ABCDEFGHIJ'[col]}{row + 1}"


def head_cell(size: int, plane) -> int:
    r, c = rules.plane_cells(*plane)[0]
    return r * size + c


def downed(size: int, layout, shots) -> list[list]:
    """The planes of a known layout whose head has been hit (none of a layout still "hidden":
    a LAN peer's, until its reveal comes)."""
    if not isinstance(layout, list):
        return []
    hit = {c for c, a in shots if a == "head"}
    return [list(p) for p in layout if head_cell(size, p) in hit]


def downed_unseen(view: dict) -> list[list]:
    """The enemy planes whose head this seat has hit and whose place every layout still
    possible agrees on (so the grid may draw them shot down)."""
    size, count, shots = view["size"], view["planes"], view["shots"]
    heads = {c for c, a in shots if a == "head"}
    if not heads:
        return []
    from ai.planes import consistent
    index, _codes = rules.layouts(size, count)
    live = index[consistent(size, count, shots)]
    every = rules.all_planes(size)
    found: dict[int, set[int]] = {}
    for p in {int(p) for p in live.ravel()}:
        head = head_cell(size, every[p])
        if head in heads:
            found.setdefault(head, set()).add(p)
    return [list(every[next(iter(ids))]) for ids in found.values() if len(ids) == 1]


class Board(BoardBase):
    SCORE_UNIT = N_("heads found")
    # A shot and its answer are known to both players: a hidden game's move list may show them.
    PUBLIC_MOVES = True
    PRIVATE = ("placing", "selected", "drag", "ready", "ghosts", "ghost_drag", "heat_mode",
               "heat", "cursor", "hover", "banner")

    def __init__(self, options: dict, seat_names: tuple[str, ...], prefs: dict | None = None,
                 store: Store | None = None):
        super().__init__(options, seat_names, prefs, store)
        self.size, self.count = 10, 3
        self.rng = random.Random()
        self.placing = [list(p) for p in self._random_layout()]
        self.selected = 0
        self.drag: tuple[int, int, int] | None = None  # plane, row offset, col offset
        self.ready: list | None = None
        self.ghosts: list[list] = []
        self.ghost_drag: tuple[int, int, int] | None = None
        self.heat_mode = 0  # 0 off, 1 heads, 2 any part of a plane
        self.heat: dict | None = None
        self.enemy_down: list[list] = []  # enemy planes known to be shot down, where they lie
        self.captions: list[pygame.Rect] = []  # where the grids' captions were drawn
        self.worker = Worker()
        self.cursor = 44
        self.hover: int | None = None
        self.own_rect = pygame.Rect(0, 0, 300, 300)
        self.enemy_rect = pygame.Rect(0, 0, 300, 300)
        self.cell = 30
        self._laid_out_setup: bool | None = None
        # The answer to the latest shot, shown over its grid for a moment: (answer, grid
        # "enemy" or "own", seconds left).
        self.banner: tuple[str, str, float] | None = None

    def new_viewer(self, viewer: int | None) -> None:
        self.worker.cancel()  # a heat map of the last seat's view never reaches the next
        super().new_viewer(viewer)
        self.heat = None

    def fresh_private(self, viewer: int | None) -> dict:
        """A seat starts from a layout of its own: never the one another seat was shown."""
        fresh = super().fresh_private(viewer)
        fresh["placing"] = [list(p) for p in self._random_layout()]
        return fresh

    def _random_layout(self) -> list:
        index, _layouts = rules.layouts(self.size, self.count)
        planes = rules.all_planes(self.size)
        return [list(planes[p]) for p in index[self.rng.randrange(len(index))]]

    # --- the view
    @property
    def phase(self) -> str:
        return self.view["phase"] if self.view else "setup"

    def set_view(self, view, legal, *, my_turn, viewer, last_move=None, animate=True) -> None:
        old = self.view
        super().set_view(view, legal, my_turn=my_turn, viewer=viewer, last_move=last_move,
                         animate=animate)
        self.ready = None
        self.banner = None
        if animate and old is not None and view.get("phase") != "setup":
            for key, grid in (("shots", "enemy"), ("incoming", "own")):
                if len(view.get(key, [])) > len(old.get(key, [])):
                    self.banner = (view[key][-1][1], grid, BANNER_SECONDS)
        # At the end too while a LAN peer's layout stays hidden (until its reveal comes).
        unseen = view.get("phase") == "play" or (
            view.get("phase") == "over" and not isinstance(view.get("opponent_layout"), list))
        self.enemy_down = downed_unseen(view) if unseen and viewer is not None else []
        self._ask_heat()

    def setting_up(self) -> bool:
        return self.phase == "setup" and self.my_turn

    def _ask_heat(self) -> None:
        if not self.heat_mode or self.view is None or self.phase != "play" or self.viewer is None:
            self.heat = None
            return
        from ai.planes import assist
        view = dict(self.view)
        self.worker.submit(lambda cancel: assist(view))

    def cycle_heat(self) -> None:
        self.heat_mode = (self.heat_mode + 1) % 3
        self._ask_heat()

    def add_ghost(self) -> None:
        if len(self.ghosts) < self.count:
            self.ghosts.append([4, 4, "up"])

    def clear_ghosts(self) -> None:
        self.ghosts = []

    def randomise(self) -> None:
        self.placing = [list(p) for p in self._random_layout()]

    def confirm(self) -> None:
        if self.setting_up() and not self.invalid_planes():
            self.ready = [list(p) for p in self.placing]

    def actions(self):
        if self.phase == "setup":
            return [(_("Random layout"), self.randomise), (_("Rotate (R)"), self.rotate_selected),
                    (_("Ready (Enter)"), self.confirm)] if self.setting_up() else []
        if self.phase == "play" and self.viewer is not None:
            heat = (_("Heat map: off"), _("Heat map: heads"), _("Heat map: planes"))[self.heat_mode]
            return [(heat, self.cycle_heat), (_("Add ghost plane"), self.add_ghost),
                    (_("Clear ghosts"), self.clear_ghosts)]
        return []

    def pending_move(self):
        move, self.ready = self.ready, None
        return move

    # --- geometry
    def layout(self, rect: pygame.Rect) -> None:
        super().layout(rect)
        self._laid_out_setup = self.phase == "setup"
        if self.phase == "setup":
            # the row numbers ("10" at most) left of the grid, as much room on its right
            numbers = 6 + theme.font(COORD_MAX).size("10")[0]
            side = min(rect.width - 2 * max(20, numbers), rect.height - 80)
            self.cell = max(16, side // self.size)
            grid = self.cell * self.size
            self.own_rect = pygame.Rect(rect.centerx - grid // 2, rect.y + 56, grid, grid)
            self.enemy_rect = pygame.Rect(0, 0, 0, 0)
            return
        side = min((rect.width - 70) // 2, rect.height - 66 - LEGEND_H)
        self.cell = max(8, side // self.size)  # a board keeps to its rect, however small
        grid = self.cell * self.size
        gap = max(30, (rect.width - 2 * grid) // 3)
        self.own_rect = pygame.Rect(rect.x + gap, rect.y + 56, grid, grid)
        self.enemy_rect = pygame.Rect(self.own_rect.right + gap, rect.y + 56, grid, grid)

    def cell_at(self, grid: pygame.Rect, pos) -> int | None:
        if not grid.collidepoint(pos):
            return None
        return ((pos[1] - grid.y) // self.cell) * self.size + (pos[0] - grid.x) // self.cell

    def cell_rect(self, grid: pygame.Rect, cell: int) -> pygame.Rect:
        r, c = divmod(cell, self.size)
        return pygame.Rect(grid.x + c * self.cell, grid.y + r * self.cell, self.cell, self.cell)

    def invalid_planes(self) -> set[int]:
        """Planes of the layout being placed that leave the grid or overlap another: of two
        that overlap, the one being moved (else the later one) is the offender."""
        bad, seen = set(), {}
        for i, (r, c, d) in enumerate(self.placing):
            if not rules.fits(self.size, r, c, d):
                bad.add(i)
            for rr, cc in rules.plane_cells(r, c, d):
                other = seen.get((rr, cc))
                if other is not None:
                    bad.add(other if other == self.selected else i)
                seen[(rr, cc)] = i
        return bad

    def _keep_on_board(self, plane: list) -> None:
        """Shift a plane being placed back inside the grid."""
        cells = rules.plane_cells(*plane)
        for axis in (0, 1):
            low = min(cell[axis] for cell in cells)
            high = max(cell[axis] for cell in cells)
            plane[axis] += max(0, -low) - max(0, high - (self.size - 1))

    def _plane_at(self, planes: list, cell: int) -> int | None:
        r, c = divmod(cell, self.size)
        for i, (pr, pc, d) in enumerate(planes):
            if (r, c) in rules.plane_cells(pr, pc, d):
                return i
        return None

    # --- input
    def rotate_selected(self) -> None:
        if self.setting_up():
            p = self.placing[self.selected]
            (mr, mc), new = MIDDLE[p[2]], TURN[p[2]]
            middle = (p[0] + mr, p[1] + mc)
            p[0], p[1], p[2] = middle[0] - MIDDLE[new][0], middle[1] - MIDDLE[new][1], new
            self._keep_on_board(p)

    def handle_event(self, event: pygame.event.Event):
        if self.view is None:
            return None
        if self.setting_up():
            return self._setup_event(event)
        if self.phase == "play":
            return self._play_event(event)
        return None

    def _setup_event(self, event: pygame.event.Event):
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            cell = self.cell_at(self.own_rect, event.pos)
            hit = self._plane_at(self.placing, cell) if cell is not None else None
            if hit is not None:
                self.selected = hit
                r, c = divmod(cell, self.size)
                self.drag = (hit, self.placing[hit][0] - r, self.placing[hit][1] - c)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.drag = None
        elif event.type == pygame.MOUSEMOTION and self.drag is not None:
            cell = self.cell_at(self.own_rect, event.pos)
            if cell is not None:
                i, dr, dc = self.drag
                r, c = divmod(cell, self.size)
                self.placing[i][0], self.placing[i][1] = r + dr, c + dc
        elif event.type == pygame.MOUSEWHEEL:
            self.rotate_selected()
        elif event.type == pygame.KEYDOWN:
            steps = {pygame.K_w: (-1, 0), pygame.K_UP: (-1, 0), pygame.K_s: (1, 0),
                     pygame.K_DOWN: (1, 0), pygame.K_a: (0, -1), pygame.K_LEFT: (0, -1),
                     pygame.K_d: (0, 1), pygame.K_RIGHT: (0, 1)}
            if event.key in steps:
                dr, dc = steps[event.key]
                p = self.placing[self.selected]
                p[0] = max(-3, min(self.size + 2, p[0] + dr))
                p[1] = max(-3, min(self.size + 2, p[1] + dc))
            elif event.key == pygame.K_r:
                self.rotate_selected()
            elif event.key == pygame.K_TAB:
                self.selected = (self.selected + 1) % self.count
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.confirm()
                return self.pending_move()
        return None

    def _play_event(self, event: pygame.event.Event):
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.cell_at(self.enemy_rect, event.pos)
            if self.ghost_drag is not None and self.hover is not None:
                i, dr, dc = self.ghost_drag
                r, c = divmod(self.hover, self.size)
                self.ghosts[i][0], self.ghosts[i][1] = r + dr, c + dc
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            cell = self.cell_at(self.enemy_rect, event.pos)
            hit = self._plane_at(self.ghosts, cell) if cell is not None else None
            if hit is not None:
                r, c = divmod(cell, self.size)
                self.ghost_drag = (hit, self.ghosts[hit][0] - r, self.ghosts[hit][1] - c)
            return None
        if event.type == pygame.MOUSEBUTTONUP and event.button == 3:
            self.ghost_drag = None
            return None
        if event.type == pygame.MOUSEWHEEL and self.hover is not None:
            hit = self._plane_at(self.ghosts, self.hover)
            if hit is not None:
                self.ghosts[hit][2] = TURN[self.ghosts[hit][2]]
            return None
        if event.type == pygame.KEYDOWN and event.key == pygame.K_DELETE and self.hover is not None:
            hit = self._plane_at(self.ghosts, self.hover)
            if hit is not None:
                del self.ghosts[hit]
            return None
        if not self.my_turn:
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            cell = self.cell_at(self.enemy_rect, event.pos)
            if cell is not None and cell in self.legal:
                return cell
        if event.type == pygame.KEYDOWN:
            steps = {pygame.K_UP: -self.size, pygame.K_DOWN: self.size, pygame.K_LEFT: -1,
                     pygame.K_RIGHT: 1}
            if event.key in steps:
                self.cursor = max(0, min(self.size ** 2 - 1, self.cursor + steps[event.key]))
            elif event.key in (pygame.K_RETURN, pygame.K_SPACE) and self.cursor in self.legal:
                return self.cursor
        return None

    def update(self, dt: float) -> None:
        if self.banner is not None:
            answer, grid, left = self.banner
            left -= dt * max(self.animation_speed, 0.5)
            self.banner = (answer, grid, left) if left > 0 else None
        done = self.worker.poll()
        if done is not None and done.error is None:
            self.heat = done.value

    def sound_for(self, old_view, new_view, move) -> str:
        if not isinstance(move, (int, list)) or (isinstance(move, list) and
                                                 move and isinstance(move[0], list)):
            return "move"
        grew = [key for key in ("shots", "incoming") if old_view is not None
                and len(new_view.get(key, [])) > len(old_view.get(key, []))]
        shots = new_view[grew[0]] if grew else new_view.get("shots", []) + new_view.get(
            "incoming", [])
        cell = move if isinstance(move, int) else move[0]
        answers = [a for c, a in shots if c == cell]
        if not answers or answers[-1] == "miss":
            return "miss"
        return "head" if answers[-1] == "head" else "hit"

    def status(self) -> list[str]:
        if self.view is None:
            return []
        v = self.view
        if v["phase"] == "setup":
            if not self.setting_up():
                return [_("Waiting for the other side to hide its planes.")]
            lines = [_("Hide your three planes."), _("Drag or WASD to move, R or wheel to rotate,"),
                     _("Tab: next plane, Enter: ready.")]
            if self.invalid_planes():
                lines.append(_("A red plane is off the grid or overlaps."))
            return lines
        lines = self._tallies(v)
        if self.heat is not None and v["phase"] == "play":
            lines.append(_("Layouts still possible: {n}").format(
                n=format_number(self.heat["count"])))
        if v.get("equal_turns"):
            lines.append(self._evening_line(v) or _("Equal turns is on"))
        return lines

    def _evening_line(self, v: dict) -> str:
        """Under equal turns, once the first player has found every head: the second's shot
        is the game's last ("Blue to move" after 3/3 heads said nothing of it)."""
        first = v["incoming"] if self.viewer == 1 else v["shots"]
        if v["phase"] != "play" or _heads(first) < v["planes"]:
            return ""
        if self.viewer == 1:
            # TRANSLATORS: planes, equal turns: the second player's evening shot
            return _("Your last shot: the other side has found every head")
        # TRANSLATORS: planes, equal turns: the first player has found every head
        return _("All heads found: {side} takes the last shot").format(
            side=side_label(self.side_name(1)))

    def _tallies(self, v: dict) -> list[str]:
        """Heads found and lost, for the seat the view is of; the whole truth (watching, or any
        game's end, where the view is seat 0's shots and seat 1's) has a line for each side."""
        heads = [_heads(shots) for shots in (v["shots"], v["incoming"])]
        if self.viewer is None:
            return [ngettext("{side}: {n}/3 heads in {shots} shot",
                             "{side}: {n}/3 heads in {shots} shots", len(shots)).format(
                side=side_label(self.side_name(seat)), n=heads[seat], shots=len(shots))
                for seat, shots in enumerate((v["shots"], v["incoming"]))]
        return [ngettext("Heads found: {n}/3 in {shots} shot",
                         "Heads found: {n}/3 in {shots} shots",
                         len(v["shots"])).format(n=heads[0], shots=len(v["shots"])),
                _("Your heads hit: {n}/3").format(n=heads[1])]

    # --- drawing
    def draw(self, surface: pygame.Surface) -> None:
        if self.view is None:
            return
        if self._laid_out_setup != (self.phase == "setup"):
            self.layout(self.rect)  # setup shows one grid, play shows two
        if self.phase == "setup":
            self._draw_setup(surface)
            return
        v = self.view
        self.captions = []
        if self.viewer is None and "layouts" in v:  # replays and the end: both sides
            titles = [_("{side}'s planes").format(side=side_label(_(name)))
                      for name in self.seat_names]  # "Red's planes", not "red's planes"
            self._draw_grid(surface, self.own_rect, titles[0], v["layouts"][0],
                            v["incoming"], down=downed(self.size, v["layouts"][0], v["incoming"]))
            self._draw_grid(surface, self.enemy_rect, titles[1], v["layouts"][1],
                            v["shots"], down=downed(self.size, v["layouts"][1], v["shots"]))
            self._draw_legend(surface)
            return
        mine = v.get("layout")
        self._draw_grid(surface, self.own_rect, _("Your planes"), mine, v["incoming"],
                        down=downed(self.size, mine, v["incoming"]))
        enemy = v.get("opponent_layout") if v["phase"] == "over" else None
        down = (downed(self.size, enemy, v["shots"]) if isinstance(enemy, list)
                else self.enemy_down)
        self._draw_grid(surface, self.enemy_rect, _("Enemy grid: call a cell"), enemy, v["shots"],
                        heat=True, target=self.my_turn, down=down)
        self._draw_legend(surface)

    def diagrams(self) -> list[Diagram]:
        """A plane's shape; the three answers a shot can get."""
        plane, shots = DIAGRAM_PLANE, DIAGRAM_SHOTS
        return [Diagram(_("A plane: its head (the round nose), wings five cells wide, the body "
                          "and a tail three wide: ten cells."),
                        lambda s, r: self._draw_mini(s, r, [], plane), "Setting up"),
                Diagram(_("Shots on it: C1 the head (★), C2 a hit on the body, A4 and E1 "
                          "misses (crossed out)."),
                        lambda s, r: self._draw_mini(s, r, shots, plane), "Playing")]

    def _draw_mini(self, surface, rect: pygame.Rect, shots: list, plane: list) -> None:
        """A 5 x 5 corner of a grid with one plane and some shots, drawn as the boards are."""
        board = Board(self.options, self.seat_names, self.prefs)
        board.size = 5
        board.cell = (min(rect.width, rect.height) - 26) // 5
        grid = pygame.Rect(0, 0, board.cell * 5, board.cell * 5)
        grid.center = (rect.centerx + 10, rect.centery + 10)
        board._draw_water(surface, grid)
        board._draw_plane(surface, grid, plane, PLANE_INK, 210)
        for cell, answer in shots:
            board._draw_mark(surface, board.cell_rect(grid, cell), answer)

    def move_text(self, move, before: dict, after: dict) -> str:
        """A shot and its answer ("D5 head"); a layout only as "planes placed"."""
        if before.get("phase") == "setup":
            return _("planes placed")
        cell = move if isinstance(move, int) else move[0]
        grew = [key for key in ("shots", "incoming")
                if len(after.get(key, [])) > len(before.get(key, []))]  # whoever's view
        shots = after[grew[0]] if grew else []
        answer = next((a for c, a in reversed(shots) if c == cell), "")
        return f"{cell_name(after['size'], cell)} {answer_word(answer)}".strip()

    def _coord_size(self) -> int:
        return min(COORD_MAX, max(11, self.cell // 3))

    def _caption_bottom(self, grid: pygame.Rect) -> int:
        """Where a grid's caption ends: above its column letters, whatever the cell size."""
        return grid.y - 4 - theme.font(self._coord_size()).get_linesize()

    def _draw_water(self, surface, grid: pygame.Rect) -> None:
        pygame.draw.rect(surface, WATER, grid)
        for i in range(self.size + 1):
            x, y = grid.x + i * self.cell, grid.y + i * self.cell
            pygame.draw.line(surface, WATER_DARK if 0 < i < self.size else theme.INK,
                             (x, grid.y), (x, grid.bottom), 1)
            pygame.draw.line(surface, WATER_DARK if 0 < i < self.size else theme.INK,
                             (grid.x, y), (grid.right, y), 1)
        size = self._coord_size()
        for i in range(self.size):
            theme.text(surface, "ABCDEFGHIJ"[i], (grid.x + i * self.cell + self.cell // 2,
                                                   grid.y - 4), size, theme.INK_SOFT,
                       anchor="midbottom")
            theme.text(surface, str(i + 1), (grid.x - 5, grid.y + i * self.cell + self.cell // 2),
                       size, theme.INK_SOFT, anchor="midright")

    def _draw_plane(self, surface, grid, plane, colour, alpha: int = 255) -> None:
        """A plane in pencil: a wash over its cells, their outline, and the aircraft drawn on
        them (fuselage, wings, tailplane, a round nose at the head)."""
        k = self.cell
        cells = rules.plane_cells(*plane)
        layer = pygame.Surface(grid.size, pygame.SRCALPHA)
        own = set(cells)
        for rr, cc in cells:
            layer.fill((*colour, alpha // 4), pygame.Rect(cc * k, rr * k, k, k))
        edge = max(1, k // 16)
        for rr, cc in cells:
            x, y = cc * k, rr * k
            sides = (((-1, 0), (x, y), (x + k, y)), ((1, 0), (x, y + k), (x + k, y + k)),
                     ((0, -1), (x, y), (x, y + k)), ((0, 1), (x + k, y), (x + k, y + k)))
            for (dr, dc), a, b in sides:
                if (rr + dr, cc + dc) not in own:
                    pygame.draw.line(layer, (*colour, alpha * 2 // 3), a, b, edge)

        def centre(i: int) -> tuple[int, int]:
            return cells[i][1] * k + k // 2, cells[i][0] * k + k // 2

        ink = (*colour, alpha)
        for a, b, width in ((0, 8, 0.34), (1, 5, 0.26), (7, 9, 0.22)):  # body, wings, tail
            w = max(3, int(k * width))
            pygame.draw.line(layer, ink, centre(a), centre(b), w)
            for end in (a, b):
                pygame.draw.circle(layer, ink, centre(end), w // 2)
        pygame.draw.circle(layer, ink, centre(0), max(4, int(k * 0.3)))
        pygame.draw.circle(layer, (255, 255, 255, alpha), centre(0), max(2, k // 9))
        surface.blit(layer, grid.topleft)

    def heat_shades(self, shots) -> dict[int, int]:
        """The heat map's alpha per cell not yet called, the likeliest at full strength: a
        called cell's answer is known, so it neither shows nor sets the scale (a found head,
        certain, would fade every other cell to nothing)."""
        if self.heat is None or not self.heat_mode:
            return {}
        probs = self.heat["head" if self.heat_mode == 1 else "plane"]
        called = {c for c, _a in shots}
        open_cells = [c for c in range(self.size ** 2) if c not in called]
        top = max((float(probs[c]) for c in open_cells), default=0.0)
        if top <= 0:
            return {}
        return {c: int(200 * probs[c] / top) for c in open_cells if probs[c] > 0}

    def _draw_grid(self, surface, grid, title, layout, shots, heat=False, target=False,
                   down=()):
        gap = max(30, self.enemy_rect.x - self.own_rect.right)  # one grid in setup
        room = min(grid.width + gap - 8,  # clear of the other grid's, inside the rect
                   2 * min(grid.centerx - self.rect.x, self.rect.right - grid.centerx))
        size, title = theme.fit(title, room, 20, bold=True)
        self.captions.append(theme.text(surface, title, (grid.centerx, self._caption_bottom(grid)),
                                        size, bold=True, anchor="midbottom"))
        self._draw_water(surface, grid)
        if heat:
            layer = pygame.Surface(grid.size, pygame.SRCALPHA)
            for cell, alpha in self.heat_shades(shots).items():
                r, c = divmod(cell, self.size)
                layer.fill((*HEAT, alpha),
                           pygame.Rect(c * self.cell, r * self.cell, self.cell, self.cell))
            surface.blit(layer, grid.topleft)
        if isinstance(layout, list):
            for plane in layout:
                if list(plane) not in down:
                    self._draw_plane(surface, grid, plane, PLANE_INK, 210)
        for plane in down:
            self._draw_plane(surface, grid, plane, DOWN_INK, 150)
            self._draw_strike(surface, grid, plane)
        if heat:
            for ghost in self.ghosts:
                self._draw_plane(surface, grid, ghost, GHOST_INK, 120)
        for cell, answer in shots:
            self._draw_mark(surface, self.cell_rect(grid, cell), answer)
        if shots:
            pygame.draw.rect(surface, theme.HILITE, self.cell_rect(grid, shots[-1][0]), width=3)
        if target:
            for cell in {self.cursor, self.hover} - {None}:
                if cell in self.legal:
                    pygame.draw.rect(surface, theme.INK, self.cell_rect(grid, cell).inflate(-4, -4),
                                     width=2)
        if self.banner is not None and self.banner[1] == ("enemy" if heat else "own"):
            self._draw_banner(surface, grid)

    def _draw_strike(self, surface, grid: pygame.Rect, plane) -> None:
        """A shot-down plane: struck through along its body, head to tail."""
        cells = rules.plane_cells(*plane)
        (r0, c0), (r1, c1) = cells[0], cells[8]
        k = self.cell
        a = (grid.x + c0 * k + k // 2, grid.y + r0 * k + k // 2)
        b = (grid.x + c1 * k + k // 2, grid.y + r1 * k + k // 2)
        pygame.draw.line(surface, DOWN_INK, a, b, max(2, k // 8))

    def _draw_mark(self, surface, rect: pygame.Rect, answer: str) -> None:
        """A miss crossed out in pencil, a hit an ink blot, a head a red ring with a star."""
        c = rect.center
        k = max(3, rect.width * 3 // 10)
        if answer == "miss":
            k = max(3, rect.width // 5)
            w = max(2, rect.width // 16)
            pygame.draw.line(surface, MARK["miss"], (c[0] - k, c[1] - k), (c[0] + k, c[1] + k), w)
            pygame.draw.line(surface, MARK["miss"], (c[0] - k, c[1] + k + 1),
                             (c[0] + k, c[1] - k + 1), w)
        elif answer == "body":
            pygame.draw.circle(surface, MARK["body"], c, k)
            pygame.draw.circle(surface, theme.INK, c, k, max(1, rect.width // 20))
        else:
            pygame.draw.circle(surface, MARK["head"], c, k + 3)
            pygame.draw.circle(surface, theme.INK, c, k + 3, max(1, rect.width // 20))
            theme.text(surface, "★", c, max(10, rect.height * 3 // 5), (255, 255, 255),
                       anchor="center")

    def _draw_banner(self, surface, grid: pygame.Rect) -> None:
        answer, _grid, left = self.banner
        words = {"miss": _("Miss"), "body": _("Hit!"), "head": _("Head!")}[answer]
        colour = {"miss": theme.INK_SOFT, "body": MARK["body"], "head": MARK["head"]}[answer]
        size = max(28, grid.height // 7)
        img = theme.render(words, size, colour, bold=True)
        box = img.get_rect(center=grid.center).inflate(size, size // 2)
        card = pygame.Surface(box.size, pygame.SRCALPHA)
        fade = min(1.0, left / 0.3)
        pygame.draw.rect(card, (*theme.PAPER, int(235 * fade)), card.get_rect(), border_radius=10)
        pygame.draw.rect(card, (*colour, int(255 * fade)), card.get_rect(), 3, border_radius=10)
        img.set_alpha(int(255 * fade))
        card.blit(img, img.get_rect(center=card.get_rect().center))
        surface.blit(card, box)

    def _draw_legend(self, surface) -> None:
        """What the marks mean, the heat map's scale and the ghost planes' controls."""
        grid = self.enemy_rect
        size = max(13, min(17, self.cell // 3))
        y = self.own_rect.bottom + 10
        x = self.own_rect.x
        box = max(14, size + 2)
        for answer, words in (("miss", _("miss")), ("body", _("hit")), ("head", _("head"))):
            self._draw_mark(surface, pygame.Rect(x, y, box, box), answer)
            x = theme.text(surface, words, (x + box + 4, y + box // 2), size, theme.INK,
                           anchor="midleft").right + 16
        px, py = x, y
        if x + box * 2 + 8 + theme.font(size).size(_("plane"))[0] >= grid.x - 8:
            px, py = self.own_rect.x, y + box + 6  # a narrow window: under the marks
        if py + box <= self.rect.bottom:
            self._draw_plane_icon(surface, pygame.Rect(px, py, box * 2, box), PLANE_INK)
            theme.text(surface, _("plane"), (px + box * 2 + 8, py + box // 2), size,
                       anchor="midleft")
        if self.viewer is None or self.phase != "play":
            return
        ex = grid.x
        if self.heat_mode and self.heat is not None:
            ex = theme.text(surface, _("unlikely"), (ex, y + box // 2), size, theme.INK_SOFT,
                            anchor="midleft").right + 6
            for i in range(8):
                pygame.draw.rect(surface, tuple(int(p + (h - p) * (i + 1) / 8 * 0.8)
                                                for p, h in zip(WATER, HEAT)),
                                 (ex + i * 8, y + 2, 8, box - 4))
            ex = theme.text(surface, _("likely"), (ex + 70, y + box // 2), size, theme.INK_SOFT,
                            anchor="midleft").right + 16
        hint = (_("Ghost planes: right-drag to move, wheel to turn, Delete to remove")
                if self.ghosts else _("Ghost planes mark your guesses: add one in the panel"))
        lines = theme.wrap(hint, grid.width, size)
        top = y + box + 6 if ex > grid.x else y
        for i, line in enumerate(lines[:2]):
            theme.text(surface, line, (grid.x, top + i * (size + 3)), size, theme.INK_SOFT)

    def _draw_plane_icon(self, surface, rect: pygame.Rect, colour) -> None:
        """A small plane pointing right, for the legend."""
        cy, h = rect.centery, rect.height
        pygame.draw.line(surface, colour, (rect.x, cy), (rect.right, cy), max(2, h // 5))
        pygame.draw.line(surface, colour, (rect.right - h, rect.y), (rect.right - h, rect.bottom),
                         max(2, h // 6))
        pygame.draw.line(surface, colour, (rect.x + 2, cy - h // 3), (rect.x + 2, cy + h // 3),
                         max(2, h // 7))
        pygame.draw.circle(surface, colour, (rect.right, cy), max(2, h // 4))

    def _draw_setup(self, surface: pygame.Surface) -> None:
        grid = self.own_rect
        if not self.setting_up():
            words = (_("Both sides are hiding their planes…") if self.viewer is None
                     else _("The other side is hiding its planes…"))  # None: replay, watching
            mine = self.view.get("layout") if self.viewer is not None else None
            if not mine:
                size, words = theme.fit(words, self.rect.width - 20, 24)
                theme.text(surface, words, self.rect.center, size, theme.INK_SOFT, anchor="center")
                return
            self.captions = []  # hidden already: the player sees the planes they hid
            self._draw_grid(surface, grid, _("Your planes"), mine, [])
            size, words = theme.fit(words, self.rect.width - 20, 20)
            theme.text(surface, words, (grid.centerx, grid.bottom + 10), size, theme.INK_SOFT,
                       anchor="midtop")
            return
        theme.text(surface, _("Hide your planes"), (grid.centerx, self._caption_bottom(grid)), 22,
                   bold=True,
                   anchor="midbottom")
        self._draw_water(surface, grid)
        bad = self.invalid_planes()
        for i, plane in enumerate(self.placing):
            colour = (200, 60, 60) if i in bad else PLACING_COLOURS[i % len(PLACING_COLOURS)]
            self._draw_plane(surface, grid, plane, colour, 235 if i == self.selected else 170)


def _heads(shots) -> int:
    """Heads found by these (cell, answer) shots."""
    return sum(1 for _, answer in shots if answer == "head")
