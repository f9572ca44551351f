"""The Ataxx board: select a stone to see its clone and jump targets, click one to move."""

from __future__ import annotations

import math

import pygame

from client.boards.base import Diagram, SquareBoard, Store, coordinate_room, coordinate_size
from client.ui import paper, theme
from game.i18n import N_, _
from game.rules import ataxx as rules

FLIP_SECONDS = 0.3
PASS_DELAY = 0.9  # seconds the "no moves: pass" notice shows before the pass is played


INKS = ("red", "blue")  # the ink each side's stones are drawn in


class Board(SquareBoard):
    SCORE_UNIT = N_("stones on the board")
    @classmethod
    def side_title(cls, seat_names: tuple[str, ...], seat: int) -> str:
        """x and o are drawn in red and blue ink: the panel and the setup say which is which."""
        return f"{_(seat_names[seat])} · {_(INKS[seat])}"

    def __init__(self, options: dict, seat_names: tuple[str, ...], prefs: dict | None = None,
                 store: Store | None = None):
        super().__init__(options, seat_names, prefs, store)
        self.pos: rules.Position | None = None
        self.selected: int | None = None
        self.cursor = 24  # d4
        self.cell = 60
        self.origin = (0, 0)
        self.flips: dict[int, float] = {}  # square -> seconds of its animation done
        self.appear: dict[int, float] = {}
        self.pass_wait = 0.0
        self.hover: int | None = None

    # --- the view
    def set_view(self, view, legal, *, my_turn, viewer, last_move=None, animate=True) -> None:
        old = self.pos
        super().set_view(view, legal, my_turn=my_turn, viewer=viewer, last_move=last_move,
                         animate=animate)
        self.pos = rules.from_fen(view["fen"])
        self.selected = None
        self.flips, self.appear = {}, {}
        if animate and old is not None and self.animation_speed > 0:
            changed_colour = (old.x & self.pos.o) | (old.o & self.pos.x)
            self.flips = {sq: 0.0 for sq in rules.squares(changed_colour)}
            new = (self.pos.x | self.pos.o) & ~(old.x | old.o)
            self.appear = {sq: 0.0 for sq in rules.squares(new)}
        self.pass_wait = PASS_DELAY if self.legal == [rules.PASS] else 0.0

    def layout(self, rect: pygame.Rect) -> None:
        super().layout(rect)
        # room round the board for its coordinates (left of it and under it, 10 px off)
        side = min(rect.width, rect.height)
        cell = max(20, (side - 64) // 7)
        while cell > 20 and 7 * cell + 2 * coordinate_room(cell, 10) > side:
            cell -= 1
        self.cell = cell
        side = self.cell * 7
        self.origin = (rect.centerx - side // 2, rect.centery - side // 2)

    def square_rect(self, sq: int) -> pygame.Rect:
        r, f = divmod(sq, 7)
        return pygame.Rect(self.origin[0] + f * self.cell,
                           self.origin[1] + (6 - r) * self.cell, self.cell, self.cell)

    def square_at(self, pos: tuple[int, int]) -> int | None:
        x, y = pos[0] - self.origin[0], pos[1] - self.origin[1]
        if not (0 <= x < 7 * self.cell and 0 <= y < 7 * self.cell):
            return None
        return (6 - y // self.cell) * 7 + x // self.cell

    # --- moves of the selected stone
    def targets(self, frm: int) -> tuple[set[int], set[int]]:
        """Clone and jump targets of the stone on frm, from the legal list."""
        clones, jumps = set(), set()
        for move in self.legal:
            if move == rules.PASS:
                continue
            f, t = rules.parse_move(move)
            if f < 0 and rules.NEAR[frm] >> t & 1:
                clones.add(t)
            elif f == frm:
                jumps.add(t)
        return clones, jumps

    def movable(self, sq: int) -> bool:
        return self.pos is not None and bool(self.pos.own() >> sq & 1) and any(
            self.targets(sq))

    def press(self, sq: int) -> str | None:
        """A click or Enter on a square: select, move, or deselect."""
        if self.selected is not None:
            frm = self.selected
            clones, jumps = self.targets(frm)
            if sq in clones or sq in jumps:
                self.selected = None
                return rules.name(sq) if sq in clones else rules.name(frm) + rules.name(sq)
        self.selected = sq if self.movable(sq) and sq != self.selected else None
        return None

    # --- input
    def handle_event(self, event: pygame.event.Event):
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.square_at(event.pos)
            return None
        if not self.my_turn or self.pos is None:
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self.selected = None
        return self.pick(event)

    def step_cursor(self, dx: int, dy: int) -> int:
        r, f = divmod(self.cursor, 7)
        return max(0, min(6, r - dy)) * 7 + max(0, min(6, f + dx))

    def pending_move(self):
        """A forced pass is played for the player once its notice has shown."""
        if self.my_turn and self.legal == [rules.PASS] and self.pass_wait <= 0:
            return rules.PASS
        return None

    def update(self, dt: float) -> None:
        speed = self.animation_speed
        for anim in (self.flips, self.appear):
            for sq in list(anim):
                anim[sq] += dt * speed
                if anim[sq] >= FLIP_SECONDS:
                    del anim[sq]
        self.pass_wait -= dt

    def busy(self) -> bool:
        return bool(self.flips or self.appear)

    def sound_for(self, old_view, new_view, move) -> str:
        if old_view is None:
            return "move"
        a, b = rules.from_fen(old_view["fen"]), rules.from_fen(new_view["fen"])
        return "capture" if (a.x & b.o) | (a.o & b.x) else "move"

    def status(self) -> list[str]:
        if self.pos is None:
            return []
        p = self.pos
        lines = [_("x (red): {n} stones").format(n=p.x.bit_count()),
                 _("o (blue): {n} stones").format(n=p.o.bit_count()),
                 # moves counted one a side's turn, as the move list numbers them
                 _("Game over") if self.over else
                 _("Move {n}, {side} to play").format(n=2 * (p.fullmove - 1) + p.turn + 1,
                                                      side=_(self.seat_names[p.turn])),
                 _("Moves without a clone: {n}/{limit}").format(n=p.halfmove,
                                                                limit=rules.DRAW_HALFMOVES)]
        return lines + (self.turn_hint() if self.my_turn else [])

    def turn_hint(self) -> list[str]:
        if self.legal == [rules.PASS]:
            return [_("No move: you must pass.")]
        return [_("Click a stone, then a dot (clone) or a ring (jump).")]

    def diagrams(self) -> list[Diagram]:
        """A stone's clone and jump targets; a clone turning its neighbours."""
        lone = rules.from_fen("6o/7/7/3x3/7/7/7 x 0 1")
        moves = rules.legal_moves(lone)
        before = rules.from_fen("7/7/7/1o1o3/1o5/3x1o1/7 x 0 1")
        after = rules.apply(before, "c3")

        def select(board: Board) -> None:
            board.selected = board.cursor = 24

        return [
            Diagram(_("The stone on d4 may clone onto a touching square (dots) or jump to a "
                      "square two away (rings), leaving d4 empty."),
                    self.picture(rules.view(lone, None), legal=moves, my_turn=True,
                                 prepare=select), "Moves"),
            Diagram(_("x clones from d2 to c3: the three o stones touching c3 turn to x; "
                      "the o on f2 does not touch it."),
                    self.picture(rules.view(after, None), last_move="c3"), "Conversion"),
        ]

    # --- drawing
    def draw(self, surface: pygame.Surface) -> None:
        if self.pos is None:
            return
        c = self.cell
        board = pygame.Rect(self.origin, (7 * c, 7 * c))
        surface.blit(paper.card_sheet(board.size, (250, 246, 236)), board.topleft)
        last = self._last_squares()
        clones, jumps = self.targets(self.selected) if self.selected is not None else ((), ())
        for sq in range(49):
            rect = self.square_rect(sq)
            if sq in last:  # a highlighter's yellow over the paper
                surface.fill((255, 232, 168), rect, special_flags=pygame.BLEND_RGB_MULT)
            elif (sq // 7 + sq % 7) % 2 == 0:
                surface.fill((244, 240, 232), rect, special_flags=pygame.BLEND_RGB_MULT)
            if self.pos.gaps >> sq & 1:
                self._draw_gap(surface, rect)
        for i in range(8):  # the grid in ink, drawn by hand
            x, y = board.x + i * c, board.y + i * c
            edge = i in (0, 7)
            paper.line(surface, theme.INK if edge else theme.GRID, (x, board.y), (x, board.bottom),
                       2 if edge else 1)
            paper.line(surface, theme.INK if edge else theme.GRID, (board.x, y), (board.right, y),
                       2 if edge else 1)
        for sq in range(49):
            self._draw_stone(surface, sq)
        for t in clones:
            pygame.draw.circle(surface, theme.GOOD, self.square_rect(t).center, c // 7)
        for t in jumps:
            pygame.draw.circle(surface, theme.ACCENT, self.square_rect(t).center, c // 5,
                               width=max(2, c // 18))
        if self.selected is not None:
            pygame.draw.rect(surface, theme.ACCENT, self.square_rect(self.selected), width=3)
        if self.my_turn:
            pygame.draw.rect(surface, theme.INK, self.square_rect(self.cursor).inflate(-4, -4),
                             width=2, border_radius=4)
            if self.hover is not None and self.movable(self.hover) and self.selected is None:
                pygame.draw.rect(surface, theme.HILITE, self.square_rect(self.hover), width=3)
        self._draw_coordinates(surface)

    def _last_squares(self) -> set[int]:
        if not isinstance(self.last_move, str) or self.last_move == rules.PASS:
            return set()
        try:
            frm, to = rules.parse_move(self.last_move)
        except ValueError:
            return set()
        return {to} | ({frm} if frm >= 0 else set())

    def _draw_gap(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, (120, 114, 104), rect)
        clip = surface.get_clip()
        surface.set_clip(rect.clip(clip) if clip else rect)
        for i in range(-rect.width, rect.width, max(6, rect.width // 6)):
            pygame.draw.line(surface, (96, 90, 82), (rect.x + i, rect.bottom),
                             (rect.x + i + rect.height, rect.y), 2)
        surface.set_clip(clip)
        pygame.draw.rect(surface, (120, 114, 104), rect, width=3)

    def _draw_stone(self, surface: pygame.Surface, sq: int) -> None:
        is_x, is_o = self.pos.x >> sq & 1, self.pos.o >> sq & 1
        if not (is_x or is_o):
            return
        seat = 0 if is_x else 1
        rect = self.square_rect(sq)
        radius = self.cell * 0.38
        colour = theme.SEAT_COLORS[seat]
        width_scale = 1.0
        if sq in self.flips:
            t = self.flips[sq] / FLIP_SECONDS
            width_scale = abs(math.cos(math.pi * t))
            if t < 0.5:
                colour = theme.SEAT_COLORS[1 - seat]
        if sq in self.appear:
            radius *= 0.4 + 0.6 * self.appear[sq] / FLIP_SECONDS
        paper.stamp(surface, colour, rect.center, radius, squash=max(0.02, width_scale),
                    outline=theme.INK)

    def _draw_coordinates(self, surface: pygame.Surface) -> None:
        size = coordinate_size(self.cell)
        for f in range(7):
            x = self.origin[0] + f * self.cell + self.cell // 2
            theme.text(surface, "abcdefg"[f], (x, self.origin[1] + 7 * self.cell + 10), size,
                       theme.INK_SOFT, anchor="midtop")
        for r in range(7):
            y = self.origin[1] + (6 - r) * self.cell + self.cell // 2
            theme.text(surface, str(r + 1), (self.origin[0] - 10, y), size, theme.INK_SOFT,
                       anchor="midright")
