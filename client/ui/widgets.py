"""Buttons and button groups that work with the mouse and the keyboard alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

import pygame

from client.ui import paper, theme
from game.i18n import _

LABEL_MARGIN = 22  # a label's room in a button: clear of its pencilled edge on both sides


@dataclass
class Button:
    """A labelled button; on_click runs when it is clicked or activated with Enter/Space."""

    label: str
    on_click: Callable[[], None]
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 160, 40))
    enabled: bool = True
    hotkey: int | None = None
    selected: bool = False  # a toggle or choice that is currently on

    icon: str | None = None  # one of paper.ICONS, drawn in ink instead of the label

    def label_size(self) -> int:
        """The largest text size (at most half the height) at which the label fits."""
        return theme.fit(self.label, self.rect.width - LABEL_MARGIN,
                         max(12, min(26, int(self.rect.height * 0.5))))[0]

    def draw(self, surface: pygame.Surface, focused: bool = False,
             hovered: bool | None = None, size: int | None = None) -> None:
        """Hover and focus look different: the pointer over a button pencils it in (hatching
        and an underline), the keyboard's focus rings it in ink; both can show at once. The
        label is drawn at `size` if given: a group's shared one, which every label in it fits."""
        if hovered is None:
            hovered = self.rect.collidepoint(pygame.mouse.get_pos())
        hover = hovered and self.enabled
        box = self.rect
        if not self.enabled:
            fill, ink = theme.PAPER_DARK, theme.INK_SOFT
        elif self.selected:
            fill, ink = theme.INK, theme.PAPER
        else:
            fill, ink = theme.PANEL, theme.INK
        pygame.draw.rect(surface, (214, 204, 182), box.move(2, 3), border_radius=6)
        if self.selected and self.enabled:
            pygame.draw.rect(surface, fill, box, border_radius=6)
        else:
            surface.blit(paper.card_sheet(box.size, fill), box.topleft)
        if hover:
            paper.pencil_shade(surface, box.inflate(-6, -6), 60 if not self.selected else 90)
        paper.rect(surface, theme.INK_SOFT if self.enabled else theme.GRID, box, 1)
        if focused and self.enabled:
            paper.focus_ring(surface, box, theme.FOCUS)
        if self.icon is not None:
            paper.icon(surface, self.icon, box, ink)
            if hover:
                paper.underline(surface, (box.centerx - box.height * 0.4, box.bottom - 8),
                                (box.centerx + box.height * 0.4, box.bottom - 8), ink)
            return
        size = self.label_size() if size is None else size
        # at the smallest size a label too long for its button is cut, never drawn past it
        _size, label = theme.fit(self.label, box.width - LABEL_MARGIN, size, smallest=size)
        drawn = theme.text(surface, label, box.center, size, ink, anchor="center")
        if hover:
            y = min(box.bottom - 5, drawn.bottom + 1)
            paper.underline(surface, (drawn.x, y), (drawn.right, y), ink)

    def hit(self, pos: tuple[int, int]) -> bool:
        return self.enabled and self.rect.collidepoint(pos)


# the arrows across a group's own direction: to the next column or row of its buttons, if any
ACROSS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1),
          pygame.K_DOWN: (0, 1)}


class ButtonGroup:
    """Buttons with one keyboard focus: arrows or Tab move it, Enter or Space presses."""

    def __init__(self, buttons: list[Button] | None = None, vertical: bool = True):
        self.buttons: list[Button] = list(buttons or [])
        self.vertical = vertical
        self.focus = 0 if self.buttons else -1
        # Where the pointer was last seen: the button under it is hovered, while the keyboard's
        # focus stays where the keyboard put it.
        self.pointer: tuple[int, int] | None = None

    def set(self, buttons: list[Button]) -> None:
        """New buttons; the focus stays on the button of the same label if there is one (a
        button added above it must not move it onto another)."""
        had = self.buttons[self.focus].label if 0 <= self.focus < len(self.buttons) else None
        self.buttons = list(buttons)
        same = [i for i, b in enumerate(self.buttons) if b.label == had]
        self.focus = same[0] if same else min(max(self.focus, 0), len(self.buttons) - 1)

    def layout_column(self, x: int, y: int, width: int, height: int, gap: int = 10) -> int:
        """Stack the buttons from (x, y) down; returns the y below the last one."""
        for b in self.buttons:
            b.rect = pygame.Rect(x, y, width, height)
            y += height + gap
        return y

    def layout_row(self, x: int, y: int, width: int, height: int, gap: int = 10) -> int:
        for b in self.buttons:
            b.rect = pygame.Rect(x, y, width, height)
            x += width + gap
        return x

    def _step(self, delta: int) -> None:
        if not self.buttons:
            return
        n = len(self.buttons)
        for _step in range(n):
            self.focus = (self.focus + delta) % n
            if self.buttons[self.focus].enabled:
                return

    def _across(self, dx: int, dy: int) -> bool:
        """Focus the nearest enabled button wholly beyond the focused one that way (the next
        column of a menu in columns, the next row of buttons in rows); False if there is none,
        so the key is left to the scene."""
        if not 0 <= self.focus < len(self.buttons):
            return False
        here = self.buttons[self.focus].rect
        beyond = {(1, 0): lambda r: r.left >= here.right, (-1, 0): lambda r: r.right <= here.left,
                  (0, 1): lambda r: r.top >= here.bottom, (0, -1): lambda r: r.bottom <= here.top}

        def distance(r: pygame.Rect) -> tuple[int, int]:  # the nearest line, then its nearest
            along, across = abs(r.centerx - here.centerx), abs(r.centery - here.centery)
            return (along, across) if dx else (across, along)
        found = [(distance(b.rect), i) for i, b in enumerate(self.buttons)
                 if b.enabled and beyond[(dx, dy)](b.rect)]
        if not found:
            return False
        self.focus = min(found)[1]
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Returns True if the event was used."""
        if event.type == pygame.MOUSEMOTION:
            self.pointer = event.pos
            return False
        if event.type == pygame.WINDOWSIZECHANGED:  # laid out anew: where the pointer was is
            self.pointer = None  # over another button now, and no motion said so (F11, a WM)
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.pointer = event.pos
            for i, b in enumerate(self.buttons):
                if b.hit(event.pos):
                    self.focus = i
                    b.on_click()
                    return True
            return False
        if event.type != pygame.KEYDOWN:
            return False
        if self.press_hotkey(event):
            return True
        back, forward = ((pygame.K_UP, pygame.K_DOWN) if self.vertical
                         else (pygame.K_LEFT, pygame.K_RIGHT))
        side = ACROSS.get(event.key)
        if event.key not in (back, forward) and side is not None and self._across(*side):
            return True
        if event.key == back or (event.key == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT):
            self._step(-1)
            return True
        if event.key in (forward, pygame.K_TAB):
            self._step(1)
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if 0 <= self.focus < len(self.buttons) and self.buttons[self.focus].enabled:
                self.buttons[self.focus].on_click()
                return True
        return False

    def press_hotkey(self, event: pygame.event.Event) -> bool:
        """Presses the enabled button whose hotkey this key is; True if there was one."""
        for b in self.buttons:
            if b.enabled and b.hotkey is not None and event.key == b.hotkey:
                b.on_click()
                return True
        return False

    def draw(self, surface: pygame.Surface, show_focus: bool = True) -> None:
        """Labelled buttons of one height share one text size: the one the longest fits."""
        shared: dict[int, int] = {}
        for b in self.buttons:
            if b.icon is None:
                shared[b.rect.height] = min(shared.get(b.rect.height, 99), b.label_size())
        for i, b in enumerate(self.buttons):
            b.draw(surface, focused=show_focus and i == self.focus,
                   hovered=self.pointer is not None and b.rect.collidepoint(self.pointer),
                   size=shared.get(b.rect.height))


def card_rect(size: tuple[int, int], width: int, height: int) -> pygame.Rect:
    """Where a card of this size goes: centred in a window of the given size."""
    w, h = size
    box = pygame.Rect(0, 0, min(width, w - 40), height)
    box.center = (w // 2, h // 2)
    return box


def card(surface: pygame.Surface, box: pygame.Rect, title: str, title_size: int = 26,
         title_y: int = 40) -> None:
    """A card (placed by card_rect) with its title at the top, centred title_y below it."""
    panel(surface, box)
    theme.text(surface, title, (box.centerx, box.y + title_y), title_size, bold=True,
               anchor="center")


def panel(surface: pygame.Surface, rect: pygame.Rect, fill=theme.PANEL) -> None:
    """A card of paper laid on the page: its own grain, a soft shadow, a pencilled edge."""
    pygame.draw.rect(surface, (222, 212, 190), rect.move(3, 4), border_radius=4)
    pygame.draw.rect(surface, (214, 203, 180), rect.move(1, 2), border_radius=4)
    surface.blit(paper.card_sheet(rect.size, tuple(fill)), rect.topleft)
    paper.rect(surface, theme.GRID, rect, 1)


def sheet(surface: pygame.Surface, rect: pygame.Rect, fill=theme.PANEL) -> None:
    """A panel anchored to the window's edge: paper ruled off from the page by an ink line on
    each side that does not touch the window's border."""
    surface.blit(paper.card_sheet(rect.size, tuple(fill)), rect.topleft)
    w, h = surface.get_size()
    if rect.x > 0:
        paper.line(surface, theme.GRID, (rect.x, rect.y), (rect.x, rect.bottom), 2)
    if rect.right < w:
        paper.line(surface, theme.GRID, (rect.right - 1, rect.y), (rect.right - 1, rect.bottom), 2)
    if rect.y > 0:
        paper.line(surface, theme.GRID, (rect.x, rect.y), (rect.right, rect.y), 2)
    if rect.bottom < h:
        paper.line(surface, theme.GRID, (rect.x, rect.bottom - 1), (rect.right, rect.bottom - 1), 2)


def scroll_thumb(track: pygame.Rect, first: float, shown: float,
                 total: float) -> pygame.Rect | None:
    """Where a scrollbar's thumb sits on its track: its length the part shown, its place the
    part above; None when all is shown (no bar)."""
    if total <= shown or total <= 0:
        return None
    length = max(track.width * 3, round(track.height * shown / total))
    room = track.height - length
    top = track.y + round(room * min(1.0, max(0.0, first / (total - shown))))
    return pygame.Rect(track.x, top, track.width, length)


def scrollbar(surface: pygame.Surface, track: pygame.Rect, first: float, shown: float,
              total: float) -> None:
    """A thin bar beside a list or page that has more than it shows (nothing if it shows all)."""
    thumb = scroll_thumb(track, first, shown, total)
    if thumb is None:
        return
    pygame.draw.line(surface, theme.GRID, track.midtop, track.midbottom, 1)
    pygame.draw.rect(surface, theme.INK_SOFT, thumb, border_radius=track.width // 2)


def _draw_row_label(surface: pygame.Surface, label: str, rect: pygame.Rect, focused: bool,
                    room: int | None = None, shared: int | None = None
                    ) -> tuple[int, tuple[int, int, int]]:
    """A form row's label within room pixels, at the form's shared size if it has one; returns
    the text size and ink colour the row goes on with."""
    size = row_text_size(rect.height)
    color = theme.ACCENT if focused else theme.INK
    at_shared = _lines_at(label, shared, rect.height, room, focused) if shared and room else None
    label_size, lines = (shared, at_shared) if shared and at_shared else \
        row_label_lines(label, size, rect.height, room, focused)
    step = theme.font(label_size, focused).get_linesize() - 2
    top = rect.centery - step * (len(lines) - 1) // 2
    for i, line in enumerate(lines):
        theme.text(surface, line, (rect.x, top + i * step), label_size, color, bold=focused,
                   anchor="midleft")
    return size, color


# a row's label ends this far before its control: clear of the control's focus ring
LABEL_GAP = 6 + paper.FOCUS_OUTSET


class FormRow(Protocol):
    """A row of a form: a label, then its control (ChoiceRow, TextField)."""

    label: str

    def layout(self, rect: pygame.Rect, label_width: int, label_size: int | None = None
               ) -> None: ...


@lru_cache(maxsize=256)
def row_label_lines(label: str, size: int, height: int, room: int | None, bold: bool = False
                    ) -> tuple[int, tuple[str, ...]]:
    """How a row's label is laid out: one line a little smaller if that fits, else two lines
    at the largest size both fit the row's height (not one line squeezed unreadable), else
    one line as small as it must be."""
    if not room:
        return size, (label,)
    one, text = theme.fit(label, room, size, smallest=max(13, size * 4 // 5), bold=bold)
    if text == label:
        return one, (label,)
    for two in range(size, 12, -1):
        lines = _lines_at(label, two, height, room, bold)
        if lines is not None and len(lines) == 2:
            return two, lines
    small, text = theme.fit(label, room, size, bold=bold)
    return small, (text,)


def row_text_size(height: int) -> int:
    """The size of a form row's label, and of its choices, for a row this high (a large
    window's taller rows take larger words)."""
    return max(14, min(30, height // 2))


def form_label_width(labels: Sequence[str], height: int, column_width: int) -> int:
    """Room for a form's labels in rows this high: the widest at the rows' text size, at
    least 190 pixels and at most two fifths of the column."""
    size = row_text_size(height)
    widest = max((theme.font(size).size(label)[0] for label in labels), default=0) + 16
    return min(max(190, widest), column_width * 2 // 5)


@lru_cache(maxsize=512)
def _lines_at(label: str, size: int, height: int, room: int, bold: bool
              ) -> tuple[str, ...] | None:
    """The label at exactly this size: one line, or two that fit the row's height; None if
    it fits neither way."""
    font = theme.font(size, bold)
    if font.size(label)[0] <= room:
        return (label,)
    lines = theme.wrap(label, room, size, bold)
    if len(lines) == 2 and font.get_linesize() - 2 + font.get_height() <= height + 4 and \
            all(font.size(line)[0] <= room for line in lines):
        return tuple(lines)
    return None


def lay_out_form(placed: Sequence[tuple[FormRow, pygame.Rect]], label_width: int) -> None:
    """Lay out a form's rows with one label size, so the labels down a form match and none
    changes size as the focus moves: the largest at which every label fits its room (bold,
    as a focused label is) on one line, but for those too long for one line even a fifth
    smaller, which take two. Where none fits them all, each row finds its own."""
    room = label_width - LABEL_GAP
    lowest = min((rect.height for _row, rect in placed), default=0)
    size = row_text_size(max((rect.height for _row, rect in placed), default=0))
    floor = max(13, size * 4 // 5)

    def lines(label: str, at: int) -> int:  # 3: fits neither on one line nor on two
        return len(_lines_at(label, at, lowest, room, True) or "...")
    most = {row.label: 1 if lines(row.label, floor) == 1 else 2 for row, _rect in placed}

    def fits(at: int) -> bool:
        return all(lines(label, at) <= n for label, n in most.items())
    shared = next((at for at in range(size, 12, -1) if fits(at)), None)
    for row, rect in placed:
        row.layout(rect, label_width, shared)


MIN_CHIP_SCALE = 0.8  # below this the chips' labels would not be readable


class ChoiceRow:
    """A label and a row of choices, one selected: click a chip, or Left/Right when focused."""

    def __init__(self, label: str, choices: list[tuple[object, str]], value: object,
                 on_change: Callable[[object], None] | None = None):
        self.label = label
        self.choices = list(choices)
        values = [v for v, _ in self.choices]
        self.index = values.index(value) if value in values else 0
        self.on_change = on_change
        self.rect = pygame.Rect(0, 0, 600, 40)
        self.chips: list[pygame.Rect] = []
        self.label_width = 0  # set by layout
        self.label_size: int | None = None  # the form's shared label size, set by layout
        # When the chips do not fit at a readable size: one chip showing the choice, with
        # arrows either side (its left half goes back, its right half on).
        self.spinner: pygame.Rect | None = None

    @property
    def value(self) -> object:
        return self.choices[self.index][0]

    def show(self, value: object) -> None:
        """Select value without telling on_change: the row set right from outside."""
        self.index = [v for v, _ in self.choices].index(value)

    def select(self, index: int) -> None:
        index %= len(self.choices)
        if index != self.index:
            self.index = index
            if self.on_change:
                self.on_change(self.value)

    def layout(self, rect: pygame.Rect, label_width: int, label_size: int | None = None
               ) -> None:
        """Place the row; `label_size` is its form's shared label size (lay_out_form)."""
        self.rect = pygame.Rect(rect)
        self.label_width = label_width
        self.label_size = label_size
        x = rect.x + label_width
        width_left = rect.right - x
        half = rect.height // 2  # the chips' words: two points under the label's, 20 at most
        size = max(14, min(20, half), min(28, half - 2))  # but in a large window's tall rows
        widths = [theme.font(size).size(lbl)[0] + 24 for _, lbl in self.choices]
        scale = min(1.0, (width_left - 6 * len(widths)) / max(1, sum(widths)))
        self.chips, self.spinner = [], None
        if scale < MIN_CHIP_SCALE:
            self.spinner = pygame.Rect(x, rect.y + 3, width_left, rect.height - 6)
            return
        for w in widths:
            chip = pygame.Rect(x, rect.y + 3, int(w * scale), rect.height - 6)
            self.chips.append(chip)
            x = chip.right + 6

    def handle_event(self, event: pygame.event.Event, focused: bool) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.spinner is not None and self.spinner.collidepoint(event.pos):
                self.select(self.index + (1 if event.pos[0] >= self.spinner.centerx else -1))
                return True
            for i, chip in enumerate(self.chips):
                if chip.collidepoint(event.pos):
                    self.select(i)
                    return True
        if focused and event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_LEFT, pygame.K_a):
                self.select(self.index - 1)
                return True
            if event.key in (pygame.K_RIGHT, pygame.K_d):
                self.select(self.index + 1)
                return True
        return False

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        size, color = _draw_row_label(surface, self.label, self.rect, focused,
                                      self.label_width - LABEL_GAP, self.label_size)
        if self.spinner is not None:
            self._draw_spinner(surface, size, color if focused else theme.GRID)
        for i, (chip, (_value, lbl)) in enumerate(zip(self.chips, self.choices)):
            on = i == self.index
            # a chip is a slip of paper; the chosen one is inked in, and rung in ink when the
            # row has the keyboard's focus
            pygame.draw.rect(surface, theme.INK if on else theme.PANEL, chip, border_radius=4)
            paper.rect(surface, theme.INK if on else theme.GRID, chip, 1)
            if focused and on:
                paper.focus_ring(surface, chip, theme.FOCUS)
            chip_size, lbl = theme.fit(lbl, chip.width - 6, size - 2, smallest=10)
            theme.text(surface, lbl, chip.center, chip_size,
                       theme.PAPER if on else theme.INK, anchor="center")


    def _draw_spinner(self, surface: pygame.Surface, size: int, border) -> None:
        chip = self.spinner
        pygame.draw.rect(surface, theme.INK, chip, border_radius=4)
        if border != theme.GRID:  # focused
            paper.focus_ring(surface, chip, theme.FOCUS)
        theme.text(surface, "‹", (chip.x + 14, chip.centery), size + 4, theme.PAPER,
                   anchor="center")
        theme.text(surface, "›", (chip.right - 14, chip.centery), size + 4, theme.PAPER,
                   anchor="center")
        choice = self.choices[self.index][1]
        label = spinner_label(choice, self.index, len(self.choices))
        room = chip.width - SPINNER_ARROWS
        text_size = theme.shrink(label, room, size - 2)
        if text_size < min(14, size - 2):  # narrow: the choice alone, cut if it must be
            text_size, label = theme.fit(choice, room, size - 2)
        theme.text(surface, label, chip.center, text_size, theme.PAPER, anchor="center")


SPINNER_ARROWS = 64  # a spinner's width kept for its arrows and the air beside them


def spinner_label(choice: str, index: int, count: int) -> str:
    """A spinner's words: the choice and where it stands among them, "Hard  (4/4)"."""
    # TRANSLATORS: a choice and its place among the choices, in a selector ("Hard  (4/4)")
    return _("{choice}  ({n}/{count})").format(choice=choice, n=index + 1, count=count)


CARET_ROOM = 6  # the text field's caret and the air before it

_INPUT_METHOD_AT: list[pygame.Rect | None] = [None]  # where SDL was last told, for all fields


def _place_input_method(box: pygame.Rect) -> None:
    """The input method's window by the focused field; SDL is told when it moves, not each
    frame."""
    if _INPUT_METHOD_AT[0] != box:
        pygame.key.set_text_input_rect(box)
        _INPUT_METHOD_AT[0] = pygame.Rect(box)


class TextField:
    """A one-line text entry; it takes typed text while focused."""

    def __init__(self, label: str, value: str = "", max_len: int = 200):
        self.label = label
        self.value = value
        self.max_len = max_len
        self.rect = pygame.Rect(0, 0, 600, 40)
        self.box = pygame.Rect(0, 0, 400, 34)
        self.label_width = 0  # set by layout
        self.label_size: int | None = None  # the form's shared label size, set by layout
        self.all_selected = False  # Ctrl+A: the next text or Backspace replaces it all

    def layout(self, rect: pygame.Rect, label_width: int, label_size: int | None = None
               ) -> None:
        """Place the row; `label_size` is its form's shared label size (lay_out_form)."""
        self.rect = pygame.Rect(rect)
        self.label_width = label_width
        self.label_size = label_size
        self.box = pygame.Rect(rect.x + label_width, rect.y + 3, rect.right - rect.x - label_width,
                               rect.height - 6)

    def handle_event(self, event: pygame.event.Event, focused: bool) -> bool:
        """Text comes as TEXTINPUT, as an input method (Chinese pinyin) or a paste gives it;
        a key that types is taken here, so no hotkey fires while a name is typed."""
        if not focused:
            return False
        if event.type == pygame.TEXTINPUT:
            typed = "".join(ch for ch in event.text if ch.isprintable())
            if typed and self.all_selected:
                self.value, self.all_selected = "", False
            self.value = (self.value + typed)[:self.max_len]
            return bool(typed)
        if event.type != pygame.KEYDOWN:
            return False
        if event.key == pygame.K_a and event.mod & pygame.KMOD_CTRL:
            self.all_selected = bool(self.value)
            return True
        if event.key == pygame.K_BACKSPACE:
            self.value = "" if self.all_selected else self.value[:-1]
            self.all_selected = False
            return True
        if event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_HOME, pygame.K_END):
            self.all_selected = False  # the caret stays at the end: only the selection goes
        return bool(event.unicode and event.unicode.isprintable()
                    and event.key not in (pygame.K_RETURN, pygame.K_TAB, pygame.K_ESCAPE))

    def draw(self, surface: pygame.Surface, focused: bool) -> None:
        size, color = _draw_row_label(surface, self.label, self.rect, focused,
                                      self.label_width - LABEL_GAP, self.label_size)
        pygame.draw.rect(surface, (255, 253, 246), self.box)
        paper.rect(surface, theme.GRID, self.box, 1)
        if focused:
            paper.focus_ring(surface, self.box, theme.FOCUS)
            _place_input_method(self.box)
        selected = focused and self.all_selected
        caret = focused and not selected
        shown, f = self.value, theme.font(size - 2)
        room = self.box.width - 12 - (CARET_ROOM if caret else 0)
        while f.size(shown)[0] > room and len(shown) > 1:
            shown = shown[1:]
        if selected:  # the selection's wash under the words
            wash = pygame.Rect(self.box.x + 4, self.box.y + 4, f.size(shown)[0] + 4,
                               self.box.height - 8)
            pygame.draw.rect(surface, theme.HILITE, wash)
        words = theme.text(surface, shown, (self.box.x + 6, self.box.centery), size - 2,
                           theme.INK, anchor="midleft")
        if caret:  # a drawn bar the field's height, not a "|" that reads as the letter I
            x = (words.right if shown else self.box.x + 6) + 3
            pygame.draw.line(surface, theme.FOCUS, (x, self.box.y + 6), (x, self.box.bottom - 7),
                             2)
