"""The Dots and Boxes board: the line under the mouse lights up before you click."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

import pygame

from ai.worker import Worker
from client.boards.base import BoardBase, Diagram, Store
from client.ui import paper as paper_look
from client.ui import theme
from game.i18n import N_, _, ngettext, pgettext
from game.rules import dots as rules

# what a press on a line the first reply rule takes away is told
BARRED = N_("The first reply rule bars this line: it is the first line mirrored or turned.")


def dashed(surface: pygame.Surface, colour, a: tuple[int, int], b: tuple[int, int],
           width: int, dash: int = 8) -> None:
    """A dashed line from a to b (the keyboard cursor: never mistaken for a drawn line)."""
    length = max(1, int(math.dist(a, b)))
    for start in range(dash, length - dash, 2 * dash):
        t0, t1 = start / length, min(start + dash, length - dash) / length
        p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
        p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
        pygame.draw.line(surface, colour, p0, p1, width)


STROKE_SECONDS = 0.3  # a line drawn with the pen; lines that arrive together take turns


def hatch(surface: pygame.Surface, box: pygame.Rect, colour, step: int = 7) -> None:
    """Pencil shading: thin diagonal strokes across a box."""
    clip = surface.get_clip()
    surface.set_clip(box.clip(clip))
    faint = tuple(int(c + (255 - c) * 0.55) for c in colour)
    for i in range(-box.height, box.width, step):
        pygame.draw.line(surface, faint, (box.x + i, box.bottom), (box.x + i + box.height, box.y))
    surface.set_clip(clip)


def dot_radius(spacing: int) -> int:
    return max(4, spacing // 14)


def label_size(spacing: int) -> int:
    """The text size of the dots' labels."""
    return max(12, min(18, spacing // 4))


def label_room(spacing: int) -> int:
    """The room a label takes beside the dots: the dot, the gap, two digits' width."""
    return dot_radius(spacing) + 12 + label_size(spacing) + 4


def dot_name(row: int, col: int) -> str:
    """A dot as the board labels it: columns a, b, c from the left, rows 1, 2, 3 from the top."""
    return f"{chr(ord('a') + col)}{row + 1}"


def hint_for(view: dict, legal: list, cancel,
             now: Callable[[], float] = time.monotonic) -> tuple[int | None, int]:
    """The hint: (the margin the mover secures with best play, None beyond the solved boards;
    the line to draw), the line the strongest bot would draw; its searches' time read on now."""
    from ai.base import Budget
    from ai.dots import choose, solved_value
    value = solved_value(view, Budget(2.0, cancel, now))
    return value, choose(view, legal, Budget(1.0, cancel, now), "hard", random.Random(0))


class Board(BoardBase):
    SCORE_UNIT = N_("boxes")
    def __init__(self, options: dict, seat_names: tuple[str, ...], prefs: dict | None = None,
                 store: Store | None = None):
        super().__init__(options, seat_names, prefs, store)
        self.rows, self.cols = options["rows"], options["cols"]
        self.lines = rules.geometry(self.rows, self.cols).lines
        self.state: rules.State | None = None
        self.hover: int | None = None
        self.cursor = 0
        self.spacing = 80
        self.origin = (0, 0)
        self.show_hint = False
        self.hint: str = ""
        self.hint_line: int | None = None  # the line the hint says to draw
        self.hint_worker = Worker()
        self.hint_clock: Callable[[], float] = time.monotonic  # tests give their own
        self.drawers: dict[int, int] = {}  # line -> the seat that drew it
        # Lines are shown one by one with the pen: the first `shown` of the view's lines are on
        # the paper, the next is being drawn (`stroke` of the way), the rest wait their turn.
        self.order: list[int] = []
        self.shown = 0
        self.stroke = 0.0
        self.paper: rules.State | None = None  # the position with the shown lines only

    # --- the view
    def set_view(self, view, legal, *, my_turn, viewer, last_move=None, animate=True) -> None:
        had_view = self.state is not None
        super().set_view(view, legal, my_turn=my_turn, viewer=viewer, last_move=last_move,
                         animate=animate)
        self.state = rules.state_from_view(view)
        self.drawers = self._line_drawers()
        order = list(self.state.drawn)
        continues = (had_view and order[:len(self.order)] == self.order
                     and len(self.order) < len(order))
        if not (animate and continues and self.animation_speed > 0):
            self.shown, self.stroke = len(order), 0.0  # a jump (undo, load): all at once
        self.order = order
        self._paper()
        self._ask_hint()

    def _paper(self) -> None:
        state = rules.new_game({"rows": self.rows, "cols": self.cols,
                                "first_reply_rule": self.state.first_reply_rule})
        for line in self.order[:self.shown]:
            state = rules.apply(state, line)
        self.paper = state

    def busy(self) -> bool:
        """Lines still being drawn: a bot's next line (the rest of a chain) waits for them."""
        return self.shown < len(self.order)

    def _ask_hint(self) -> None:
        self.hint, self.hint_line = "", None
        if not self.show_hint or self.state is None or rules.outcome(self.state) is not None:
            return
        view = rules.view(self.state, None)
        legal = rules.legal_moves(self.state)
        self.hint = _("Hint: working it out…")
        clock = self.hint_clock
        self.hint_worker.submit(lambda cancel: hint_for(view, legal, cancel, clock))

    def toggle_hint(self) -> None:
        self.show_hint = not self.show_hint
        self._ask_hint()

    def actions(self):
        return [(_("Hide hint") if self.show_hint else _("Show hint"), self.toggle_hint)]

    # --- geometry on screen
    def layout(self, rect: pygame.Rect) -> None:
        super().layout(rect)
        sp = max(30, min((rect.width - 60) // self.cols, (rect.height - 60) // self.rows))
        # the labels beside the dots grow with them: the room around the dots is theirs
        while sp > 30 and (sp * self.cols + 2 * label_room(sp) > rect.width
                           or sp * self.rows + 2 * label_room(sp) > rect.height):
            sp -= 1
        self.spacing = sp
        w, h = self.spacing * self.cols, self.spacing * self.rows
        self.origin = (rect.centerx - w // 2, rect.centery - h // 2)

    def labels(self) -> list[tuple[str, tuple[int, int], str]]:
        """The column letters over the top dots and the row numbers left of the left ones:
        (text, where, the anchor there), clear of the dots at any spacing."""
        sp, out = self.spacing, []
        gap = dot_radius(sp)
        for c in range(self.cols + 1):
            x, y = self.dot(0, c)
            out.append((dot_name(0, c)[0], (x, y - gap - 10), "midbottom"))
        for r in range(self.rows + 1):
            x, y = self.dot(r, 0)
            out.append((str(r + 1), (x - gap - 12, y), "midright"))
        return out

    def dot(self, r: int, c: int) -> tuple[int, int]:
        return self.origin[0] + c * self.spacing, self.origin[1] + r * self.spacing

    def line_points(self, line: int) -> tuple[tuple[int, int], tuple[int, int]]:
        a, b = rules.line_ends(self.rows, self.cols, line)
        return self.dot(*a), self.dot(*b)

    def line_at(self, pos: tuple[int, int]) -> int | None:
        """The line nearest the point, if it is close enough."""
        best, best_d = None, self.spacing * 0.3
        for line in range(self.lines):
            (x1, y1), (x2, y2) = self.line_points(line)
            px = min(max(pos[0], min(x1, x2)), max(x1, x2))
            py = min(max(pos[1], min(y1, y2)), max(y1, y2))
            d = ((pos[0] - px) ** 2 + (pos[1] - py) ** 2) ** 0.5
            from_end = min(abs(px - x1) + abs(py - y1), abs(px - x2) + abs(py - y2))
            if d < best_d and from_end > self.spacing * 0.12:  # a dot itself is no line
                best, best_d = line, d
        return best

    # --- input
    def handle_event(self, event: pygame.event.Event):
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.line_at(event.pos)
            return None
        if not self.my_turn:
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            line = self.line_at(event.pos)
            if line is not None and line in self.legal:
                return line
            if self.my_turn and self._barred(line):
                self.notice = _(BARRED)
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_TAB):
                self.cursor = self._next_free(1)
            elif event.key in (pygame.K_LEFT, pygame.K_UP):
                self.cursor = self._next_free(-1)
            elif event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER):
                if self.cursor in self.legal:
                    return self.cursor
                if self.my_turn and self._barred(self.cursor):
                    self.notice = _(BARRED)
        return None

    def _next_free(self, step: int) -> int:
        line = self.cursor
        for _step in range(self.lines):
            line = (line + step) % self.lines
            if line in self.legal:
                return line
        return self.cursor

    def update(self, dt: float) -> None:
        if self.shown < len(self.order):
            if self.animation_speed <= 0:
                self.shown, self.stroke = len(self.order), 0.0
            else:
                self.stroke += dt * self.animation_speed / STROKE_SECONDS
            if self.stroke >= 1.0:
                self.shown, self.stroke = self.shown + 1, 0.0
            self._paper()
        done = self.hint_worker.poll()
        if done is not None:
            self.take_hint(done.value if done.error is None else None)

    def take_hint(self, found: tuple[int | None, int] | None) -> None:
        """The hint's answer: its line is drawn on the board and named in the panel."""
        self.hint_line = found[1] if found is not None else None
        self.hint = self._hint_text(found) if found is not None else ""

    def _hint_text(self, found: tuple[int | None, int]) -> str:
        value, line = found
        if self.state is None:
            return ""
        draw = _("Hint: draw {line}").format(line=self.move_text(line, {}, {}))
        verdict = self._verdict(value) if value is not None else ""
        # TRANSLATORS: a hint and what best play gives from here, in brackets
        return _("{hint} ({verdict})").format(hint=draw, verdict=verdict) if verdict else draw

    def _verdict(self, value: int) -> str:
        mover = self.state.turn
        s = self.state.scores
        final = s[mover] - s[1 - mover] + value
        if mover == self.viewer:  # the player's own position, even while it waits on a takeback
            if final > 0:
                return _("you can still win by {n}").format(n=final)
            if final == 0:
                return _("you can still draw")
            return _("against best play you lose by {n}").format(n=-final)
        who = _(self.seat_names[mover])
        if final > 0:
            return _("{side} can still win by {n}").format(side=who, n=final)
        if final == 0:
            return _("{side} can still draw").format(side=who)
        return _("against best play {side} loses by {n}").format(side=who, n=-final)

    def sound_for(self, old_view, new_view, move) -> str:
        old = sum(old_view["scores"]) if old_view else 0
        return "capture" if sum(new_view["scores"]) > old else "move"

    def _barred(self, line: int | None) -> bool:
        """An undrawn line the first reply rule takes from the second player's first move."""
        return line is not None and self.state is not None and self.state.first_reply_rule \
            and line not in self.state.drawn and line not in self.legal

    def status(self) -> list[str]:
        if self.state is None:
            return []
        s = self.state.scores
        drawn = rules.outcome(self.state) is not None
        lines = [ngettext("Red: {n} box", "Red: {n} boxes", s[0]).format(n=s[0]),
                 ngettext("Blue: {n} box", "Blue: {n} boxes", s[1]).format(n=s[1]),
                 _("Every line is drawn") if drawn else _("Game over") if self.over else
                 _("{side} to draw a line").format(
                     side=_(self.seat_names[self.state.turn]).capitalize()),
                 _("Lines left: {n}").format(n=self.lines - len(self.state.drawn))]
        if self.state.first_reply_rule:
            lines.append(_("First reply rule is on"))
        if self.hint:
            lines.append(self.hint)
        return lines

    def diagrams(self) -> list[Diagram]:
        """A box closed by its fourth side (and the extra turn); a chain given away."""
        size = {"rows": 2, "cols": 2, "first_reply_rule": False}

        def line(a: tuple[int, int], b: tuple[int, int]) -> int:
            return next(n for n in range(rules.geometry(2, 2).lines)
                        if set(rules.line_ends(2, 2, n)) == {a, b})

        # Blue and red draw three sides of the top-left box and others; red closes it.
        drawn = [line((0, 0), (0, 1)), line((2, 1), (2, 2)), line((0, 0), (1, 0)),
                 line((1, 2), (2, 2)), line((1, 0), (1, 1))]
        closing = line((0, 1), (1, 1))
        before = rules.new_game(size)
        for move in drawn:
            before = rules.apply(before, move)
        after = rules.apply(before, closing)
        third = rules.apply(after, line((1, 1), (2, 1)))
        return [
            Diagram(_("Three sides of the top-left box are drawn; whoever draws the fourth "
                      "(a dashed pencil line here) takes the box."),
                    self.picture(rules.view(before, None), legal=[closing], my_turn=True,
                                 options=size, prepare=lambda b: setattr(b, "cursor", closing)),
                    "Moves"),
            Diagram(_("Blue drew it: the box is blue's, and blue draws again. Here blue's "
                      "next line gives the bottom-right box a third side: a gift for red."),
                    self.picture(rules.view(third, None), options=size,
                                 last_move=line((1, 1), (2, 1))), "Moves"),
        ]

    # --- drawing
    def move_text(self, move, before: dict, after: dict) -> str:
        """A line by the dots it joins, as labelled on the board: "a1-b1"."""
        (r1, c1), (r2, c2) = rules.line_ends(self.rows, self.cols, move)
        return f"{dot_name(r1, c1)}-{dot_name(r2, c2)}"

    def draw(self, surface: pygame.Surface) -> None:
        if self.state is None or self.paper is None:
            return
        paper = self.paper
        sp = self.spacing
        for words, where, anchor in self.labels():
            theme.text(surface, words, where, label_size(sp), theme.INK_SOFT, anchor=anchor)
        for b, owner in enumerate(paper.owners):
            if owner >= 0:
                r, c = divmod(b, self.cols)
                x, y = self.dot(r, c)
                box = pygame.Rect(x, y, sp, sp).inflate(-6, -6)
                pygame.draw.rect(surface, theme.SEAT_LIGHT[owner], box, border_radius=6)
                hatch(surface, box, theme.SEAT_COLORS[owner])
                theme.text(surface, box_mark(owner), box.center,
                           max(14, sp // 2), theme.SEAT_COLORS[owner], bold=True,
                           anchor="center")
        width = max(4, sp // 12)
        last = self.order[self.shown - 1] if self.shown else None
        drawing = self.order[self.shown] if self.shown < len(self.order) else None
        owner_of = self.drawers
        for line in range(self.lines):
            a, b = self.line_points(line)
            if line == drawing:  # the pen on its way from one dot to the other
                t = min(1.0, self.stroke)
                end = (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t))
                pygame.draw.line(surface, theme.SEAT_COLORS[owner_of.get(line, 0)], a, end,
                                 width + 1)
            elif paper.mask >> line & 1:
                colour = theme.SEAT_COLORS[owner_of.get(line, 0)]
                w = width + (2 if line == last else 0)
                paper_look.line(surface, colour, a, b, w, amp=min(2.0, sp / 40))
                if line == last:
                    mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
                    pygame.draw.circle(surface, theme.HILITE, mid, width + 2)
                    pygame.draw.circle(surface, theme.INK, mid, width + 2, 1)
            elif self.state.mask >> line & 1:
                continue  # drawn, waiting its turn to be shown
            elif line == self.hint_line and line in self.legal:
                dashed(surface, theme.GOOD, a, b, width)  # the hint's line, pencilled in
            elif self.my_turn and line in self.legal and line == self.hover:
                pygame.draw.line(surface, theme.HILITE, a, b, width + 2)
            elif self.my_turn and line in self.legal and line == self.cursor:
                dashed(surface, theme.ACCENT, a, b, max(2, width // 2))  # a pencil mark
            elif self.my_turn and line == self.hover:
                pygame.draw.line(surface, theme.BAD, a, b, 2)  # barred by the first reply rule
        for r in range(self.rows + 1):
            for c in range(self.cols + 1):
                paper_look.ink_dot(surface, theme.INK, self.dot(r, c), dot_radius(sp))

    def _line_drawers(self) -> dict[int, int]:
        """Which seat drew each line (replayed from the order they were drawn)."""
        drawers = {}
        s = rules.new_game({"rows": self.rows, "cols": self.cols})
        for line in self.state.drawn:
            drawers[line] = s.turn
            s = rules.apply(s, line)
        return drawers


def box_mark(owner: int) -> str:
    """The letter (a character in Chinese) written in a box its owner closed."""
    return (pgettext("a box closed by red", "R"), pgettext("a box closed by blue", "B"))[owner]
