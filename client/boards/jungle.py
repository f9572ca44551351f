"""The Jungle board: the rivers, traps and dens, the animals as discs with their characters
(or letters), the selected animal's targets and the last move. Seat 1 sees the board turned
round, its own animals at the bottom."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from client.boards.base import (
    Diagram,
    Setting,
    SquareBoard,
    Store,
    coordinate_room,
    coordinate_size,
)
from client.ui import paper, theme
from game.i18n import N_, _, language, ngettext
from game.rules import jungle as rules

GLYPHS = {"E": "象", "L": "獅", "T": "虎", "P": "豹", "D": "狗", "W": "狼", "C": "貓", "R": "鼠"}
SIMPLIFIED = {**GLYPHS, "L": "狮", "C": "猫"}  # the 简体 set: only the lion and the cat differ
LAND, LAND_ALT = (206, 222, 170), (198, 216, 160)
WATER, WAVE = (120, 170, 214), (170, 204, 232)
TRAP, DEN = (196, 168, 120), (150, 110, 72)
DISC = (248, 240, 220)
MOVE_SECONDS = 0.18
SMALL_RADIUS = 12  # a disc smaller than this has no room for a rank badge
PICTURE_SCALE = 1.35  # a rules picture of 63 squares, larger than most: its ranks are read


@dataclass(frozen=True)
class Face:
    """How one piece is drawn: its disc, the words on it, and the rank badge (none: 0)."""

    radius: int
    text: str
    cjk: bool
    size: int
    badge: int = 0
    badge_size: int = 0


class Board(SquareBoard):
    SCORE_UNIT = N_("animals left")
    SETTINGS = (Setting("jungle_glyphs", "auto", "Jungle pieces",
                        (("auto", "Follow the language"),
                         ("traditional", "Traditional (獅 貓)"),
                         ("simplified", "Simplified (狮 猫)"), ("letters", "Letters"))),)

    def __init__(self, options: dict, seat_names: tuple[str, ...], prefs: dict | None = None,
                 store: Store | None = None):
        super().__init__(options, seat_names, prefs, store)
        self.squares: list[str] = list(rules.parse_board(rules.START))
        self.selected: int | None = None
        self.cursor = rules.sq_of(3, 2)
        self.cell = 60
        self.origin = (0, 0)
        self.slide: tuple[int, int, float] | None = None  # from, to, seconds done

    # --- the view
    def set_view(self, view, legal, *, my_turn, viewer, last_move=None, animate=True) -> None:
        super().set_view(view, legal, my_turn=my_turn, viewer=viewer, last_move=last_move,
                         animate=animate)
        self.squares = list(rules.parse_board(view["board"]))
        self.selected = None
        self.slide = None
        last = self._last()
        if animate and last and self.animation_speed > 0:
            self.slide = (last[0], last[1], 0.0)

    @property
    def flipped(self) -> bool:
        return self.viewer == 1

    def glyph(self, piece: str) -> tuple[str, bool]:
        """The text to draw for a piece and whether it is a Chinese character."""
        mode = self.prefs.get("jungle_glyphs", "auto")
        if mode == "letters" or not theme.cjk_font_path():
            return piece.upper(), False
        if mode == "simplified" or (mode == "auto" and language() == "zh_CN"):
            return SIMPLIFIED[piece.upper()], True
        return GLYPHS[piece.upper()], True

    # --- geometry
    def layout(self, rect: pygame.Rect) -> None:
        super().layout(rect)
        cell = max(8, min((rect.width - 40) // rules.FILES, (rect.height - 40) // rules.RANKS))
        # it keeps to its rect, the coordinates above and left of the squares included
        while cell > 8 and (rules.FILES * cell + 2 * coordinate_room(cell, 10) > rect.width or
                            rules.RANKS * cell + 2 * coordinate_room(cell, 10) > rect.height):
            cell -= 1
        self.cell = cell
        w, h = self.cell * rules.FILES, self.cell * rules.RANKS
        self.origin = (rect.centerx - w // 2, rect.centery - h // 2)

    def _cell_xy(self, sq: int) -> tuple[int, int]:
        r, f = divmod(sq, rules.FILES)
        if self.flipped:
            return rules.FILES - 1 - f, r
        return f, rules.RANKS - 1 - r

    def square_rect(self, sq: int) -> pygame.Rect:
        x, y = self._cell_xy(sq)
        return pygame.Rect(self.origin[0] + x * self.cell, self.origin[1] + y * self.cell,
                           self.cell, self.cell)

    def square_at(self, pos) -> int | None:
        x, y = (pos[0] - self.origin[0]) // self.cell, (pos[1] - self.origin[1]) // self.cell
        if not (0 <= x < rules.FILES and 0 <= y < rules.RANKS):
            return None
        if self.flipped:
            return rules.sq_of(rules.FILES - 1 - x, y)
        return rules.sq_of(x, rules.RANKS - 1 - y)

    def targets(self, sq: int) -> list[int]:
        name = rules.square_name(sq)
        return [rules.parse_square(m[2:]) for m in self.legal if m[:2] == name]

    def _last(self) -> tuple[int, int] | None:
        last = (self.view or {}).get("last") or ""
        if len(last) != 4:
            return None
        return rules.parse_square(last[:2]), rules.parse_square(last[2:])

    # --- input
    def press(self, sq: int) -> str | None:
        if self.selected is not None and sq in self.targets(self.selected):
            move = rules.square_name(self.selected) + rules.square_name(sq)
            self.selected = None
            return move
        self.selected = sq if self.targets(sq) and sq != self.selected else None
        return None

    def handle_event(self, event: pygame.event.Event) -> str | None:
        if not self.my_turn:
            return None
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE \
                and self.selected is not None:
            self.selected = None
            return None
        return self.pick(event)

    def step_cursor(self, dx: int, dy: int) -> int:
        x, y = self._cell_xy(self.cursor)
        x = max(0, min(rules.FILES - 1, x + dx))
        y = max(0, min(rules.RANKS - 1, y + dy))
        rect = pygame.Rect(self.origin[0] + x * self.cell, self.origin[1] + y * self.cell,
                           self.cell, self.cell)
        return self.square_at(rect.center)

    def update(self, dt: float) -> None:
        if self.slide is not None:
            a, b, t = self.slide
            t += dt * max(self.animation_speed, 0.01)
            self.slide = None if t >= MOVE_SECONDS else (a, b, t)

    def busy(self) -> bool:
        return self.slide is not None

    def sound_for(self, old_view, new_view, move) -> str:
        if old_view is None:
            return "move"
        before = sum(1 for p in rules.parse_board(old_view["board"]) if p != ".")
        now = sum(1 for p in rules.parse_board(new_view["board"]) if p != ".")
        return "capture" if now < before else "move"

    def status(self) -> list[str]:
        if self.view is None:
            return []
        v = self.view
        counts = [sum(1 for p in self.squares if p != "." and rules.owner(p) == s)
                  for s in (0, 1)]
        lines = [ngettext("{side}: {n} animal", "{side}: {n} animals", counts[s]).format(
            side=_(self.seat_names[s]).capitalize(), n=counts[s]) for s in (0, 1)]
        limit = v["options"]["quiet_limit"]
        lines.append(_("Moves without a capture: {n}/{limit}").format(n=v["quiet_plies"],
                                                                     limit=limit))
        if v["options"]["ranks"] == "wolf_over_dog":
            lines.append(_("Wolf 4 over dog 3"))
        if v["options"]["traps"] == "any":
            lines.append(_("Every trap takes away rank"))
        return lines + (self.turn_hint() if self.my_turn else [])

    def turn_hint(self) -> list[str]:
        return [_("Click an animal, then where it goes.")]

    def diagrams(self) -> list[Diagram]:
        """The tiger's jump over a river; an elephant made rank 0 by a trap."""
        options = rules.normalize_options(None)

        def position(pieces: dict[tuple[int, int], str], sq: int) -> tuple[dict, list, Any]:
            board = ["."] * rules.SIZE
            for (f, r), p in pieces.items():
                board[rules.sq_of(f, r)] = p
            view = {"board": rules.board_text(board), "to_move": 0, "plies": 0,
                    "quiet_plies": 0, "options": options, "last": "", "history": []}
            legal = rules.legal_moves_from_view(view, options)

            def prepare(b: Board) -> None:
                b.selected = b.cursor = sq

            return view, legal, prepare

        river = position({(1, 2): "T", (4, 4): "r", (6, 8): "l", }, rules.sq_of(1, 2))
        trap = position({(2, 1): "C", (3, 1): "e", (0, 8): "l"}, rules.sq_of(2, 1))
        return [
            Diagram(_("The red tiger on b3 jumps the river to b7, or steps (dots). A rat "
                      "swimming in the way would block the jump."),
                    self.picture(river[0], legal=river[1], my_turn=True, prepare=river[2]),
                    "The rivers", rules.FILES / rules.RANKS, PICTURE_SCALE),
            Diagram(_("The blue elephant stands in red's trap on d2 next to red's den: it has "
                      "rank 0, and even the red cat on c2 may take it (ring)."),
                    self.picture(trap[0], legal=trap[1], my_turn=True, prepare=trap[2]),
                    "Traps", rules.FILES / rules.RANKS, PICTURE_SCALE),
        ]

    # --- drawing
    def draw(self, surface: pygame.Surface) -> None:
        if self.view is None:
            return
        c = self.cell
        frame = pygame.Rect(self.origin, (rules.FILES * c, rules.RANKS * c))
        pygame.draw.rect(surface, (150, 130, 90), frame.inflate(14, 14), border_radius=8)
        last = self._last() or ()
        for sq in range(rules.SIZE):
            self._draw_ground(surface, sq, sq in last)
        targets = self.targets(self.selected) if self.selected is not None else []
        sliding = self.slide[1] if self.slide else None
        for sq in range(rules.SIZE):
            if self.squares[sq] != "." and sq != sliding:
                self._draw_piece(surface, self.squares[sq], self.square_rect(sq).center)
        if self.slide is not None:
            a, b, t = self.slide
            k = min(1.0, t / MOVE_SECONDS)
            ca, cb = self.square_rect(a).center, self.square_rect(b).center
            pos = (round(ca[0] + (cb[0] - ca[0]) * k), round(ca[1] + (cb[1] - ca[1]) * k))
            self._draw_piece(surface, self.squares[b], pos)
        for t in targets:
            rect = self.square_rect(t)
            if self.squares[t] == ".":
                pygame.draw.circle(surface, theme.GOOD, rect.center, max(4, c // 8))
            else:
                pygame.draw.circle(surface, theme.BAD, rect.center, int(c * 0.46), width=4)
        if self.selected is not None:
            pygame.draw.rect(surface, theme.ACCENT, self.square_rect(self.selected), width=3)
        if self.my_turn:
            pygame.draw.rect(surface, theme.INK, self.square_rect(self.cursor).inflate(-4, -4),
                             width=2, border_radius=4)
        self._draw_coordinates(surface)

    def _draw_ground(self, surface, sq: int, is_last: bool) -> None:
        rect = self.square_rect(sq)
        r, f = divmod(sq, rules.FILES)
        if sq in rules.WATER:
            pygame.draw.rect(surface, WATER, rect)
            for i in range(3):
                y = rect.y + rect.height * (i + 1) // 4
                pts = [(rect.x + x, y + round(math.sin((x + sq * 7) / rect.width * 2 * math.pi)
                                              * rect.height * 0.04))
                       for x in range(0, rect.width + 1, max(2, rect.width // 12))]
                pygame.draw.lines(surface, WAVE, False, pts, 2)
        else:
            pygame.draw.rect(surface, LAND if (r + f) % 2 else LAND_ALT, rect)
        if is_last:
            layer = pygame.Surface(rect.size, pygame.SRCALPHA)
            layer.fill((*theme.HILITE, 110))
            surface.blit(layer, rect)
        if sq in rules.ALL_TRAPS:
            inner = rect.inflate(-rect.width // 5, -rect.height // 5)
            pygame.draw.rect(surface, TRAP, inner, width=3, border_radius=4)
            for k in range(1, 4):  # the trap's stakes
                x = inner.x + inner.width * k // 4
                pygame.draw.line(surface, TRAP, (x, inner.y + 3), (x, inner.bottom - 4), 2)
        elif sq in rules.DENS:
            seat = rules.DENS.index(sq)
            pygame.draw.rect(surface, DEN, rect.inflate(-6, -6), border_radius=6)
            pygame.draw.rect(surface, theme.SEAT_COLORS[seat], rect.inflate(-6, -6), width=3,
                             border_radius=6)
            cave = pygame.Rect(0, 0, rect.width // 2, rect.height // 3)
            cave.midbottom = (rect.centerx, rect.bottom - rect.height // 5)
            pygame.draw.ellipse(surface, (70, 50, 36), cave)
        pygame.draw.rect(surface, (140, 150, 110), rect, width=1)

    def face(self, piece: str) -> Face:
        """How a piece is drawn at this cell size. Below SMALL_RADIUS a badge would hide the
        disc, so one glyph fills it: the character for a player who reads it, else the rank,
        which is what the rules turn on."""
        radius = int(self.cell * 0.42)
        text, cjk = self.glyph(piece)
        if radius >= SMALL_RADIUS:
            badge = max(6, int(radius * 0.4))
            return Face(radius, text, cjk, int(radius * (1.15 if cjk else 1.1)), badge,
                        max(11, int(badge * 1.7)))
        radius = max(3, int(self.cell * 0.47))
        mode = self.prefs.get("jungle_glyphs", "auto")
        if cjk and (mode != "auto" or language().startswith("zh")):
            return Face(radius, text, True, int(radius * 1.7))
        return Face(radius, str(self.rank(piece)), False, int(radius * 1.6))

    def rank(self, piece: str) -> int:
        return rules.RANKS_OF[self.view["options"]["ranks"]][piece.upper()]

    def _draw_piece(self, surface, piece: str, centre: tuple[int, int]) -> None:
        ink = theme.SEAT_COLORS[rules.owner(piece)]
        face = self.face(piece)
        radius = face.radius
        paper.stamp(surface, DISC, centre, radius, rim=False)  # a paper counter, inked round
        if face.badge:  # smaller, the ring would cross the glyph: its ink says whose it is
            paper.ring(surface, ink, centre, radius - 1, max(2, radius // 7))
        font = theme.cjk_font(face.size) if face.cjk else theme.font(face.size, bold=True)
        img = font.render(face.text, True, ink)
        surface.blit(img, img.get_rect(center=(centre[0], centre[1] - radius // 10)))
        if face.badge:
            spot = (centre[0] + radius - face.badge // 2, centre[1] + radius - face.badge // 2)
            pygame.draw.circle(surface, ink, spot, face.badge)
            theme.text(surface, str(self.rank(piece)), spot, face.badge_size, DISC, bold=True,
                       anchor="center")

    def _draw_coordinates(self, surface) -> None:
        size = coordinate_size(self.cell)
        for f in range(rules.FILES):
            x = self.square_rect(rules.sq_of(f, 0)).centerx
            theme.text(surface, rules.FILE_NAMES[f], (x, self.origin[1] - 8), size,
                       theme.INK_SOFT, anchor="midbottom")
        for r in range(rules.RANKS):
            y = self.square_rect(rules.sq_of(0, r)).centery
            theme.text(surface, str(r + 1), (self.origin[0] - 10, y), size, theme.INK_SOFT,
                       anchor="midright")
