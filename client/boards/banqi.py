"""The Banqi board: face-down discs, flips, moves and captures, and the fog of war's clouds."""

from __future__ import annotations

import math
from collections import Counter

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
from game.i18n import N_, _, language
from game.rules import banqi as rules

GLYPHS = {"K": "帥", "A": "仕", "E": "相", "R": "俥", "N": "傌", "C": "炮", "P": "兵",
          "k": "將", "a": "士", "e": "象", "r": "車", "n": "馬", "c": "砲", "p": "卒"}
# The pieces as 简体 sets print them: red and black share 车 马 炮, told apart by their ink.
SIMPLIFIED = {"K": "帅", "A": "仕", "E": "相", "R": "车", "N": "马", "C": "炮", "P": "兵",
              "k": "将", "a": "士", "e": "象", "r": "车", "n": "马", "c": "炮", "p": "卒"}
COLOURS = {"red": N_("red"), "black": N_("black")}  # a side's colour, once a flip decides it
RED, BLACK = (190, 40, 40), (40, 40, 48)
DISC, DISC_BACK = (246, 232, 200), (160, 120, 80)
FLIP_SECONDS = 0.35
ROOMY_CELL = 40  # px a square: a board smaller than this gives up its tray where that helps
FOG_NOTE = 38  # px under the captured pieces for the fog's legend (two lines when narrow)
RANK_NAMES = {"K": N_("General"), "A": N_("Advisor"), "E": N_("Elephant"), "R": N_("Chariot"),
              "N": N_("Horse"), "C": N_("Cannon"), "P": N_("Soldier")}


def _came_up(before: dict | None, after: dict) -> Counter:
    """The pieces that left the face-down counts between two views: what a flip turned up."""
    return Counter(before or {}) - Counter(after)


def _flipped_square(before: dict, after: dict) -> str:
    """The square a move out of sight turned up (every seat sees the face-down squares), or
    "" when no square or more than one left face down."""
    old, new = rules.parse_board(before["board"]), rules.parse_board(after["board"])
    turned = [sq for sq in range(32) if old[sq] == "?" and new[sq] != "?"]
    return rules.square_name(turned[0]) if len(turned) == 1 else ""


class Board(SquareBoard):
    SCORE_UNIT = N_("pieces left")
    SETTINGS = (Setting("banqi_glyphs", "auto", "Banqi pieces",
                        (("auto", "Follow the language"),
                         ("traditional", "Traditional (帥 俥 傌)"),
                         ("simplified", "Simplified (帅 车 马)"), ("letters", "Letters"))),)
    # What this seat has seen is its own: the squares as it last saw them, the pieces it saw
    # or could tell go under the clouds, and its pieces turned up and not moved since.
    PRIVATE = ("selected", "cursor", "squares", "memory", "turned", "hidden_before")
    # Under the fog a move is listed as its mover's opponent saw it ("~" when unseen).
    PUBLIC_MOVES = True

    def __init__(self, options: dict, seat_names: tuple[str, ...], prefs: dict | None = None,
                 store: Store | None = None):
        super().__init__(options, seat_names, prefs, store)
        self.squares: list[str] = ["?"] * 32
        self.selected: int | None = None
        self.cursor = 0
        self.cell = 70
        self.origin = (0, 0)
        self.flips: dict[int, float] = {}
        self.clock = 0.0
        self.tray = True  # the captured pieces under the board (a diagram has none)
        self.tray_shown = True  # and room for them: layout() leaves them out of a short room
        self.memory: dict[int, str] = {}  # square -> the piece last seen there (fog)
        self.turned: set[int] = set()  # squares turned face up, their pieces not moved since
        self.hidden_before: dict[str, int] | None = None  # the face-down counts last seen

    # --- the view
    def set_view(self, view, legal, *, my_turn, viewer, last_move=None, animate=True) -> None:
        if viewer != self.viewer:
            self.new_viewer(viewer)  # this seat's own last look comes back first
        old = self.squares
        super().set_view(view, legal, my_turn=my_turn, viewer=viewer, last_move=last_move,
                         animate=animate)
        self.squares = list(rules.parse_board(view["board"]))
        self._remember(old, view)
        self.selected = None
        self.flips = {}
        if animate and self.animation_speed > 0:
            self.flips = {sq: 0.0 for sq in range(32)
                          if old[sq] == "?" and self.squares[sq].isalpha()}

    def _remember(self, old: list[str], view: dict) -> None:
        """Under the fog: keep what this seat saw, and what it can tell. A flip is seen by
        both sides (the face-down counts say which piece came up), so a piece turned up stays
        known where it lies until it is seen to move."""
        new, hidden = self.squares, view.get("hidden", {})
        gone = _came_up(self.hidden_before, hidden)
        self.hidden_before = dict(hidden)
        flipped = [sq for sq in range(32) if old[sq] == "?" and new[sq] != "?"]
        unseen = [sq for sq in flipped if new[sq] == "~"]
        left = gone - Counter(new[sq] for sq in flipped if new[sq].isalpha())
        if unseen and len(left) == 1 and sum(left.values()) == len(unseen):
            for sq in unseen:  # turned up out of sight: the counts tell which piece it was
                self.memory[sq] = next(iter(left))
        self.turned |= set(flipped)
        mine = self.my_colour
        for sq in range(32):
            if new[sq] == "~":
                # a seat sees every square its pieces stand on: one of its own remembered
                # under a cloud was taken there
                if mine is not None and rules.colour_of(self.memory.get(sq, "~")) == mine:
                    self.memory.pop(sq)
                continue
            if sq in self.turned and sq not in flipped and new[sq] != self.memory.get(sq):
                self.turned.discard(sq)  # moved away, or taken
            if new[sq].isalpha():
                self.memory[sq] = new[sq]
            else:
                self.memory.pop(sq, None)
        if not view.get("fog"):
            self.memory, self.turned = {}, set()

    @property
    def remembers(self) -> bool:
        return bool(self.options.get("fog"))

    @property
    def my_colour(self) -> str | None:
        if self.view is None or self.viewer is None:
            return None
        return self.view["colors"][self.viewer]

    def glyph(self, piece: str) -> tuple[str, bool]:
        """The text to draw for a piece and whether it is a Chinese character."""
        mode = self.prefs.get("banqi_glyphs", "auto")
        if mode == "letters" or not theme.cjk_font_path():
            return piece.upper(), False
        if mode == "simplified" or (mode == "auto" and language() == "zh_CN"):
            return SIMPLIFIED[piece], True
        return GLYPHS[piece], True

    # --- geometry
    def layout(self, rect: pygame.Rect) -> None:
        super().layout(rect)
        self.tray_shown = self.tray
        cell = self._cell(rect)
        if cell < ROOMY_CELL and self.tray:  # a short room (the review's): the board before
            self.tray_shown = False          # the captured pieces, if that makes it roomy
            bare = self._cell(rect)
            self.tray_shown = bare < ROOMY_CELL
            cell = cell if self.tray_shown else bare
        self.cell = cell
        tray = self._tray_height(cell)
        w, h = self.cell * 8, self.cell * 4
        self.origin = (rect.centerx - w // 2,
                       rect.y + max(coordinate_room(cell, 12), (rect.height - h - tray) // 2))

    def _cell(self, rect: pygame.Rect) -> int:
        """The largest square size at which the board, its coordinates and the room under it
        fit rect."""
        cell = max(30, (rect.width - 40) // 8)
        while cell > 30 and (8 * cell + 2 * coordinate_room(cell, 12) > rect.width or
                             4 * cell + self._tray_height(cell) + coordinate_room(cell, 12) + 20
                             > rect.height):
            cell -= 1  # the tray shrinks with the board: a small window's board is not cramped
        return cell

    def _piece_in_tray(self, cell: int) -> int:
        """The captured pieces' size: each side's sixteen on one line under a board of cell."""
        return max(14, min(cell // 2, (8 * cell - 86) // 16 - 3, 38))

    def _tray_height(self, cell: int) -> int:
        """The room under the board: two lines of captured pieces, and the fog's legend."""
        if not self.tray_shown:
            return 0
        return 20 + 2 * (self._piece_in_tray(cell) + 6) + 8 + \
            (FOG_NOTE if self.options.get("fog") else 0)

    def square_rect(self, sq: int) -> pygame.Rect:
        r, f = divmod(sq, 8)
        return pygame.Rect(self.origin[0] + f * self.cell, self.origin[1] + (3 - r) * self.cell,
                           self.cell, self.cell)

    def square_at(self, pos) -> int | None:
        x, y = pos[0] - self.origin[0], pos[1] - self.origin[1]
        if not (0 <= x < 8 * self.cell and 0 <= y < 4 * self.cell):
            return None
        return (3 - y // self.cell) * 8 + x // self.cell

    def targets(self, sq: int) -> list[int]:
        name = rules.square_name(sq)
        return [rules.parse_square(m[2:]) for m in self.legal if len(m) == 4 and m[:2] == name]

    # --- input
    def press(self, sq: int):
        name = rules.square_name(sq)
        if self.selected is not None and sq in self.targets(self.selected):
            move = rules.square_name(self.selected) + name
            self.selected = None
            return move
        if name in self.legal:  # a face-down piece: flip it
            self.selected = None
            return name
        self.selected = sq if self.targets(sq) and sq != self.selected else None
        return None

    def handle_event(self, event: pygame.event.Event):
        if not self.my_turn:
            return None
        return self.pick(event)

    def step_cursor(self, dx: int, dy: int) -> int:
        r, f = divmod(self.cursor, 8)
        return max(0, min(3, r - dy)) * 8 + max(0, min(7, f + dx))

    def update(self, dt: float) -> None:
        self.clock += dt
        for sq in list(self.flips):
            self.flips[sq] += dt * max(self.animation_speed, 0.01)
            if self.flips[sq] >= FLIP_SECONDS:
                del self.flips[sq]

    def side_name(self, seat: int) -> str:
        colour = self.view["colors"][seat] if self.view is not None else None
        name = _(self.seat_names[seat])
        return f"{name} · {_(COLOURS[colour])}" if colour in COLOURS else name

    def seat_colour(self, seat: int) -> tuple[int, int, int]:
        """The colour the seat plays (red or black), grey until the first flip decides it."""
        colour = self.view["colors"][seat] if self.view is not None else None
        return {"red": RED, "black": BLACK}.get(colour, theme.INK_SOFT)

    def move_text(self, move, before: dict, after: dict) -> str:
        """A flip ("b3 馬"), a step ("b3-b4") or a capture ("b3-b4 x 馬")."""
        if "under" not in after and after.get("fog") and "history" not in after:
            move = after.get("last") or "~"  # a seat's own eyes: as it saw the move
        if len(move) not in (2, 4):  # "~": a move the fog hid, unless it was a flip
            move = _flipped_square(before, after) or move
            if len(move) != 2:
                return self._unseen_text(before, after)
        if len(move) == 2:
            piece = rules.parse_board(after["board"])[rules.parse_square(move)]
            if piece in ".?~":  # turned up out of the mover's sight: the counts say which
                piece = next(iter(_came_up(before.get("hidden", {}), after.get("hidden", {}))), "")
            if not piece:  # a flip not made (the review's better flip): its piece unknown
                # TRANSLATORS: Banqi: a flip the review suggests, its piece not known ("flip f2")
                return _("flip {square}").format(square=move)
            return f"{move} {self.glyph(piece)[0]}"
        victim = rules.parse_board(before["board"])[rules.parse_square(move[2:])]
        step = f"{move[:2]}-{move[2:]}"
        if victim in ".?~":
            return step
        # TRANSLATORS: a capture in a move list: the step, then the piece taken ("b3-b4 x 馬").
        return _("{step} x {piece}").format(step=step, piece=self.glyph(victim)[0])

    def _unseen_text(self, before: dict, after: dict) -> str:
        """A move the fog hid, as its seat knows it: out of sight, and what it took if the
        captured pieces say so."""
        # TRANSLATORS: Banqi's fog: a move the other side made where this side could not see
        unseen = _("(out of sight)")
        taken = Counter(after.get("captured", [])) - Counter(before.get("captured", []))
        if len(taken) != 1:
            return unseen
        return _("{step} x {piece}").format(step=unseen, piece=self.glyph(next(iter(taken)))[0])

    def busy(self) -> bool:
        return bool(self.flips)

    def sound_for(self, old_view, new_view, move) -> str:
        if isinstance(move, str) and len(move) == 2:
            return "flip"
        if old_view and len(new_view.get("captured", [])) > len(old_view.get("captured", [])):
            return "capture"
        return "move"

    def status(self) -> list[str]:
        if self.view is None:
            return []
        v = self.view
        # each seat's colour is on its row of the panel; the help is short, so the move list
        # keeps its room
        lines = [_("Face down: {n}").format(n=sum(v["hidden"].values())),
                 _("Moves without flip or capture: {n}/{limit}").format(
                     n=v["quiet_plies"], limit=rules.QUIET_LIMIT)]
        return lines + (self.turn_hint() if self.my_turn else [])

    def turn_hint(self) -> list[str]:
        if self.view is None or self.view["colors"][0] is not None:
            return []  # once the colours are known the board speaks for itself
        return [_("Click a disc to flip it, or a piece, then where it goes.")]

    def diagrams(self) -> list[Diagram]:
        """The chart of ranks (who takes whom) under both rule sets, and the cannon's jump."""
        squares = ["."] * 32
        for name, piece in (("b2", "C"), ("d2", "?"), ("f2", "n"), ("b4", "a"), ("b3", "p"),
                            ("h2", "k")):
            squares[rules.parse_square(name)] = piece
        options = {"variant": "taiwan", "fog": False}
        view = {"board": rules.board_text(squares), "to_move": 0, "colors": ["red", "black"],
                "hidden": {}, "quiet_plies": 0, "variant": "taiwan", "fog": False,
                "captured": [], "last": "", "history": []}
        legal = rules.legal_moves_from_view(view, options)

        def select(board: Board) -> None:
            board.tray = False
            board.layout(board.rect)
            board.selected = board.cursor = rules.parse_square("b2")

        return [
            Diagram(_("Who takes whom (Taiwan rules): each piece on the left takes the pieces "
                      "ticked in its row, by stepping onto them. Red pieces on the left of each "
                      "pair, black on the right; the cannon takes only by jumping."),
                    lambda s, r: self._draw_chart(s, r, "taiwan"), "Moving and capturing",
                    13.5 / 8, 1.5),
            Diagram(_("The red cannon on b2 jumps the face-down piece on d2 to take the horse "
                      "on f2 (ring); over the soldier on b3 it takes the advisor on b4. The "
                      "general on h2 is out of reach: two pieces stand between."),
                    self.picture(view, legal=legal, my_turn=True, options=options,
                                 prepare=select), "The cannon (Taiwan rules)", 1.7, 1.2),
            Diagram(_("China rules: the cannon takes by rank like the others, and the general "
                      "takes soldiers too."),
                    lambda s, r: self._draw_chart(s, r, "china"), "China rules", 13.5 / 8,
                    1.5),
        ]

    def _draw_chart(self, surface: pygame.Surface, rect: pygame.Rect, variant: str) -> None:
        """Ranks down the left (with names), victims across the top, a tick where one takes."""
        kinds = rules.KINDS
        cell = int(min(rect.width / (len(kinds) + 6.5), rect.height / (len(kinds) + 1)))
        x0 = rect.x + int(cell * 6.5)
        y0 = rect.y + cell
        name_size = max(11, min(20, cell * 3 // 5))
        apart = -max(3, cell // 6)  # room between discs: their pencilled rims wander
        for i, kind in enumerate(kinds):
            pair = pygame.Rect(x0 + i * cell, rect.y, cell, cell).inflate(apart, apart)
            self._disc(surface, pair, kind.lower())
            row_y = y0 + i * cell
            disc = pygame.Rect(rect.x, row_y, cell, cell).inflate(apart, apart)
            self._disc(surface, disc, kind)
            self._disc(surface, disc.move(cell, 0), kind.lower())
            theme.text(surface, _(RANK_NAMES[kind]), (rect.x + 2 * cell + cell // 8,
                                                      row_y + cell // 2),
                       name_size, theme.INK, anchor="midleft")
            for j, victim in enumerate(kinds):
                box = pygame.Rect(x0 + j * cell, row_y, cell, cell)
                pygame.draw.rect(surface, theme.GRID, box, 1)
                if can_take_any(kind, victim, variant):
                    c = box.center
                    k = cell // 5
                    pygame.draw.lines(surface, theme.GOOD, False,
                                      [(c[0] - k, c[1]), (c[0] - k // 3, c[1] + k),
                                       (c[0] + k, c[1] - k)], max(2, cell // 12))
            if variant == "taiwan" and kind == "C":
                theme.text(surface, _("takes by jumping"),
                           (x0 + cell * len(kinds) // 2, row_y + cell // 2), name_size,
                           theme.ACCENT, anchor="center")

    def _disc(self, surface: pygame.Surface, rect: pygame.Rect, piece: str) -> None:
        """A face-up piece as a small disc (captured pieces, the chart)."""
        ink = RED if piece.isupper() else BLACK
        radius = min(rect.width, rect.height) // 2
        paper.stamp(surface, DISC, rect.center, radius, rim=False)
        paper.ring(surface, ink, rect.center, radius - 1, 2 if radius > 12 else 1)
        text, cjk = self.glyph(piece)
        font = theme.cjk_font(int(rect.height * 0.6)) if cjk else theme.font(
            int(rect.height * 0.55), bold=True)
        img = font.render(text, True, ink)
        surface.blit(img, img.get_rect(center=rect.center))

    # --- drawing
    def draw(self, surface: pygame.Surface) -> None:
        if self.view is None:
            return
        c = self.cell
        board = pygame.Rect(self.origin, (8 * c, 4 * c))
        pygame.draw.rect(surface, (214, 186, 140), board.inflate(16, 16), border_radius=10)
        last = self._last_squares()
        for sq in range(32):
            rect = self.square_rect(sq)
            fill = (232, 208, 164) if (sq // 8 + sq % 8) % 2 else (224, 198, 152)
            if sq in last:
                fill = (246, 222, 140)
            pygame.draw.rect(surface, fill, rect)
            pygame.draw.rect(surface, (150, 118, 80), rect, width=1)
        targets = self.targets(self.selected) if self.selected is not None else []
        exposed = self._seen_by_enemy()
        for sq in range(32):
            self._draw_square(surface, sq, exposed)
        for t in targets:
            rect = self.square_rect(t)
            if self.squares[t] == ".":
                pygame.draw.circle(surface, theme.GOOD, rect.center, c // 8)
            else:
                pygame.draw.circle(surface, theme.BAD, rect.center, int(c * 0.45), width=4)
        if self.selected is not None:
            pygame.draw.rect(surface, theme.ACCENT, self.square_rect(self.selected), width=3)
        if self.my_turn:
            pygame.draw.rect(surface, theme.INK, self.square_rect(self.cursor).inflate(-4, -4),
                             width=2, border_radius=4)
        if self.tray_shown:
            self._draw_captured(surface, board)
            note = self.fog_note()
            if note:
                size, lines = theme.fit_lines((note,), board.width, FOG_NOTE, 15)
                for i, (_p, line) in enumerate(lines):
                    top = board.bottom + self._tray_height(self.cell) - FOG_NOTE
                    theme.text(surface, line, (board.x, top + i * (size + 4)), size,
                               theme.INK_SOFT)
        self._draw_coordinates(surface)

    def fog_note(self) -> str:
        """The fog's legend, under the captured pieces (the panel keeps its room for moves)."""
        if self.view is None or not self.view.get("fog") or self.viewer is None:
            return ""
        return _("Clouds: out of your sight (faint: last seen). Faded: yours the other side "
                 "cannot see.")

    def _last_squares(self) -> set[int]:
        """The squares of the move marked: the one given where the whole truth is shown (the
        review's better flip is drawn before it, so the view's own last move is the one
        before), else the last move as the view's seat saw it."""
        given = self.last_move if self.viewer is None and isinstance(self.last_move, str) else ""
        last = given or self.view.get("last") or ""
        if len(last) == 2:
            return {rules.parse_square(last)}
        if len(last) == 4:
            return {rules.parse_square(last[:2]), rules.parse_square(last[2:])}
        return set()

    def _seen_by_enemy(self) -> set[int]:
        """Own pieces the enemy can see (an enemy piece next to them, as far as we can tell)."""
        mine = self.my_colour
        if not self.view.get("fog") or mine is None:
            return set(range(32))
        seen = {sq for sq in self.turned if rules.colour_of(self.squares[sq]) == mine}
        for sq, p in enumerate(self.squares):
            if rules.colour_of(p) == mine and any(
                    rules.colour_of(self.squares[n]) not in (None, mine)
                    for n in rules.NEIGHBOURS[sq]):
                seen.add(sq)
        return seen

    def _draw_square(self, surface, sq: int, exposed: set[int]) -> None:
        piece = self.squares[sq]
        rect = self.square_rect(sq)
        if piece == "~":
            self._draw_cloud(surface, rect, sq)
            if sq in self.memory:
                self._draw_memory(surface, rect, self.memory[sq])
            return
        if piece == ".":
            return
        radius = int(self.cell * 0.42)
        squash = 1.0
        if sq in self.flips:
            t = self.flips[sq] / FLIP_SECONDS
            squash = abs(math.cos(math.pi * t))
            if t < 0.5:
                piece = "?"
        disc = pygame.Rect(0, 0, max(4, int(2 * radius * squash)), 2 * radius)
        disc.center = rect.center
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        local = disc.move(-rect.x, -rect.y)
        unseen = rules.colour_of(piece) == self.my_colour and sq not in exposed
        alpha = 130 if unseen else 255  # own pieces the enemy cannot see are faint
        # stamped counters: a face-down one shows its stamped back, a face-up one its glyph in
        # an inked ring
        if piece == "?":
            paper.stamp(layer, DISC_BACK, local.center, radius, squash=squash,
                        outline=(110, 80, 50))
        else:
            ink = RED if piece.isupper() else BLACK
            paper.stamp(layer, DISC, local.center, radius, squash=squash, outline=(110, 80, 50),
                        rim=False)
            if squash > 0.999:
                paper.ring(layer, ink, local.center, radius - 5, 2)
            if squash > 0.3:
                text, cjk = self.glyph(piece)
                font = theme.cjk_font(int(radius * 1.1)) if cjk else theme.font(
                    int(radius * 1.0), bold=True)
                img = font.render(text, True, ink)
                layer.blit(img, img.get_rect(center=local.center))
        if alpha < 255:
            layer.fill((255, 255, 255, alpha), special_flags=pygame.BLEND_RGBA_MULT)
        surface.blit(layer, rect)

    def _draw_memory(self, surface, rect: pygame.Rect, piece: str) -> None:
        """A piece last seen here, pencilled faintly on the cloud: it may have moved since."""
        ink = RED if piece.isupper() else BLACK
        disc = rect.inflate(-rect.width // 3, -rect.height // 3)
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        local = disc.move(-rect.x, -rect.y)
        pygame.draw.ellipse(layer, (*ink, 150), local, width=2)
        text, cjk = self.glyph(piece)
        size = int(disc.height * 0.6)
        font = theme.cjk_font(size) if cjk else theme.font(size, bold=True)
        img = font.render(text, True, ink)
        img.set_alpha(150)
        layer.blit(img, img.get_rect(center=local.center))
        surface.blit(layer, rect)

    def _draw_cloud(self, surface, rect: pygame.Rect, sq: int) -> None:
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        layer.fill((200, 204, 210, 235))
        t = self.clock * 0.6 + sq * 1.7
        for i in range(4):
            dx = math.sin(t + i * 1.9) * rect.width * 0.18
            dy = math.cos(t * 0.8 + i * 2.3) * rect.height * 0.12
            centre = (int(rect.width * (0.2 + 0.2 * i) + dx), int(rect.height * 0.5 + dy))
            pygame.draw.circle(layer, (236, 238, 242, 230), centre, int(rect.width * 0.28))
        surface.blit(layer, rect)

    def _draw_captured(self, surface, board: pygame.Rect) -> None:
        gone = self.view.get("captured", [])
        # Each side's sixteen pieces on one line: two lines fit the room layout() leaves.
        size = self._piece_in_tray(self.cell)
        y = board.bottom + 20
        theme.text(surface, _("Captured:"), (board.x, y + size // 2), 16, theme.INK_SOFT,
                   anchor="midleft")
        x = board.x + 86
        for group in ([p for p in gone if p.isupper()], [p for p in gone if p.islower()]):
            for p in group:
                self._disc(surface, pygame.Rect(x, y, size, size), p)
                x += size + 3
                if x > board.right - size:
                    x, y = board.x + 86, y + size + 4
            x, y = board.x + 86, y + size + 6

    def _draw_coordinates(self, surface) -> None:
        size = coordinate_size(self.cell)
        for f in range(8):
            x = self.origin[0] + f * self.cell + self.cell // 2
            theme.text(surface, "abcdefgh"[f], (x, self.origin[1] - 10), size, theme.INK_SOFT,
                       anchor="midbottom")
        for r in range(4):
            y = self.origin[1] + (3 - r) * self.cell + self.cell // 2
            theme.text(surface, str(r + 1), (self.origin[0] - 12, y), size, theme.INK_SOFT,
                       anchor="midright")


def can_take_any(attacker: str, victim: str, variant: str) -> bool:
    """Whether the attacker's kind may take the victim's kind by stepping onto it."""
    return rules.can_take(attacker.upper(), victim.lower(), variant)
