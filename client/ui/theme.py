"""Colours and fonts. Paper and ink: a light page, dark lines, two player inks."""

from __future__ import annotations

import re
import sys
from functools import cache, lru_cache
from pathlib import Path

import pygame
from pygame.typing import ColorLike

from client.ui import paper as paper_look
from game.text import clean_text

PAPER = (246, 241, 228)
PAPER_DARK = (230, 222, 202)
PANEL = (236, 229, 211)
INK = (44, 44, 52)
INK_SOFT = (120, 116, 108)
GRID = (170, 160, 140)
ACCENT = (214, 120, 40)
GOOD = (60, 150, 80)
BAD = (200, 60, 60)
SEAT_COLORS = ((196, 60, 60), (52, 96, 180))  # seat 0 red ink, seat 1 blue ink
# a reviewed move's class as the move lists mark it, in its colour
MOVE_MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
MARK_COLOURS = {"inaccuracy": (206, 160, 30), "mistake": ACCENT, "blunder": BAD}


def light(colour: tuple[int, int, int], share: float = 0.62) -> tuple[int, int, int]:
    """A seat's ink washed out toward white (share of the way), for areas under its ink."""
    r, g, b = colour[:3]
    return (round(r + (255 - r) * share), round(g + (255 - g) * share),
            round(b + (255 - b) * share))


SEAT_LIGHT = tuple(light(c) for c in SEAT_COLORS)  # a box a seat closed, under its ink
HILITE = (255, 214, 90)
PENCIL = paper_look.PENCIL  # hover: a soft graphite shade, never the focus ink
FOCUS = (30, 34, 64)  # keyboard focus: a firm ink ring
SHADOW = (0, 0, 0, 60)
PAPER_LINE = (233, 226, 208)  # the faint squares of the page
SQUARE = 24

FONT_DIR = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parents[2])) / "assets" / "fonts"
FONT_FILES = {False: "PaperArcadeKai-Regular.ttf", True: "PaperArcadeKai-Bold.ttf"}


def window_scale(size: tuple[int, int]) -> float:
    """How much larger a screen of fixed measures draws on a tall window: 1 up to 800 pixels
    high, then with the height, to 1.35 at 1080 and no more."""
    return max(1.0, min(1.35, size[1] / 800))


def paper(surface: pygame.Surface) -> None:
    """Fill the window with the page: squared paper with grain, faint enough never to fight the
    ink (made once per window size, see client/ui/paper.py)."""
    surface.blit(paper_look.ground(surface.get_size()), (0, 0))


def _ensure_font() -> None:
    if not pygame.font.get_init():
        pygame.font.init()


def font_path(bold: bool = False) -> Path:
    """The arcade's own font file (Latin and Chinese alike); no system font is ever used."""
    return FONT_DIR / FONT_FILES[bool(bold)]


def _latin_ellipsis(s: str) -> str:
    """s with its "…" as three full stops where the line has no Chinese: the font's ellipsis
    is a Chinese one, drawn at mid-height, which reads wrong after Latin letters."""
    return s.replace("…", "...") if "…" in s and not has_cjk(s) else s


_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Where a Chinese character meets a Latin letter or a digit ("Bob想和你下一局", "第3步").
_HAN_MEETS_LATIN = re.compile(f"(?<=[{_HAN}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{_HAN}])")
_HAN_CHAR = re.compile(f"[{_HAN}]")  # most lines have none: the cheap look first
QUARTER_SPACE = "\u2005"  # a four-per-em space: the gap Chinese typesetting puts there


def autospaced(s: str) -> str:
    """s with a quarter-em space wherever a Chinese character touches a Latin letter or a digit,
    as Chinese typesetting spaces them (CSS text-autospace): a name or a number set into a
    Chinese sentence does not run into its characters."""
    return _HAN_MEETS_LATIN.sub(QUARTER_SPACE, s) if _HAN_CHAR.search(s) else s


def _typeset(s: str) -> str:
    return autospaced(_latin_ellipsis(s))


class ArcadeFont(pygame.font.Font):
    """The arcade's font, whose ellipsis follows the line's script and which spaces Chinese from
    Latin, measured as it is drawn."""

    def size(self, text: str | bytes) -> tuple[int, int]:
        return super().size(_typeset(text) if isinstance(text, str) else text)

    def render(self, text: str | bytes | None, antialias: bool, color: ColorLike,
               bgcolor: ColorLike | None = None, wraplength: int = 0) -> pygame.Surface:
        if isinstance(text, str):
            text = _typeset(text)
        return super().render(text, antialias, color, bgcolor, wraplength)


@cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The UI font at this pixel size."""
    _ensure_font()
    return ArcadeFont(str(font_path(bold)), max(8, int(size)))


def cjk_font_path() -> Path:
    """The font that draws Chinese: the same file as everything else."""
    return font_path(False)


def cjk_font(size: int) -> pygame.font.Font:
    return font(size)


def has_cjk(s: str) -> bool:
    return any("\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in s)


def reading_seconds(s: str) -> float:
    """About how long a line takes to read: 15 letters a second, 6 Chinese characters (each
    says about a word), and a moment to look; 12 s at most (a long line is cut to three)."""
    han = len(_HAN_CHAR.findall(s))
    return min(12.0, 1.5 + (len(s) - han) / 15 + han / 6)


def missing_glyphs(s: str, bold: bool = False) -> str:
    """The characters of s that the arcade's font cannot draw."""
    if _unsafe(s, WRAP_MAX):
        s = clean_text(s, WRAP_MAX, lines=True)
    metrics = font(16, bold).metrics(s)
    return "".join(ch for ch, m in zip(s, metrics) if m is None and not ch.isspace())


_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _unsafe(s: object, limit: int) -> bool:
    """Whether s is anything but a string a font takes as it is (cleaning costs a frame's
    time on long texts, so text already clean is passed through untouched)."""
    return type(s) is not str or len(s) > limit or _UNSAFE.search(s) is not None


RENDER_MAX = 1000  # characters in one drawn line: more than any window is wide
WRAP_MAX = 20_000  # characters of a text wrapped into lines (the longest rules page is ~3,000)


def render(s: str, size: int, color, bold: bool = False) -> pygame.Surface:
    """Text as an image. Never raises on the text: whatever reached here is cleaned once more
    (the font refuses U+0000 and lone surrogates), as a last guard behind the entry points."""
    f = font(size, bold)
    if _unsafe(s, RENDER_MAX):
        s = clean_text(s, RENDER_MAX)
    try:
        return f.render(s, True, color)
    except (ValueError, TypeError, UnicodeError, pygame.error):
        pass
    try:
        return f.render(clean_text(s, RENDER_MAX), True, color)
    except (ValueError, TypeError, UnicodeError, pygame.error):
        return f.render("", True, color)


def text(surface: pygame.Surface, s: str, pos: tuple[int, int], size: int = 20,
         color=INK, bold: bool = False, anchor: str = "topleft") -> pygame.Rect:
    """Draw one line of text with the given rect anchor ("center", "midleft", ...)."""
    img = render(s, size, color, bold)
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    return rect


def move_mark(surface: pygame.Surface, cls: str, right: tuple[int, int], size: int) -> pygame.Rect:
    """A reviewed move's mark (?!, ?, ??) in its colour, its right edge's middle at `right`."""
    return text(surface, MOVE_MARKS[cls], right, size, MARK_COLOURS[cls], bold=True,
                anchor="midright")


_NO_LINE_START = "，。、；：！？）」』》〉】…%,.;:!?)"


# A short bracketed run, kept on one line: （U）, (Ctrl+Z), 「wolf over dog」.
_BRACKETED = r"[（(「『《〈【][^（(「『《〈【）)」』》〉】\n]{0,16}[）)」』》〉】]"
_OPENERS = "（(「『《〈【"
_LATIN_RUN = r"[A-Za-z0-9_.,:%/+\-×'’]+ ?|."
_GAP_EMS = 3  # a bracketed run kept whole may leave this much of a line empty, no more


def _wrap_chars(para: str, width: int, f: pygame.font.Font) -> list[str]:
    """Greedy lines of Chinese text: breaks between characters, never inside a Latin word or
    number, nor inside a short bracketed run unless keeping it whole would leave more than
    three characters' room empty at the line's end; never after an opening bracket, never
    before closing punctuation (the character before it moves down too; where none can, as
    after a number as wide as the line, the punctuation hangs past the width), and a last line
    is not one character alone."""
    tokens = re.findall(_BRACKETED + r" ?|" + _LATIN_RUN, para)
    gap = _GAP_EMS * f.get_height()
    lines: list[list[str]] = []
    line: list[str] = []
    while tokens:
        tok = tokens.pop(0)
        if tok[0] in _OPENERS and len(tok) > 1:
            room, whole = width - f.size("".join(line))[0], f.size(tok.rstrip())[0]
            if whole > room and (room > gap or whole > width):
                tokens[:0] = re.findall(_LATIN_RUN, tok)  # broken inside, as any run of text
                continue
        if line and f.size("".join(line) + tok.rstrip())[0] > width:
            carry: list[str] = []
            while tok[0] in _NO_LINE_START and len(line) > 1 and (
                    not carry or carry[0][0] in _NO_LINE_START):  # "玩家……": 家 goes down too
                carry.insert(0, line.pop())
            if tok[0] in _NO_LINE_START and (not carry or carry[0][0] in _NO_LINE_START):
                line += carry + [tok]  # nothing can go down with it ("4747，"): it hangs
                continue
            if not carry and len(line) > 1 and line[-1] in _OPENERS:
                carry = [line.pop()]  # an opening bracket goes down with what it opens
            lines.append(line)
            line = carry
        line.append(tok)
    lines.append(line)
    alone = len(line[0].rstrip()) == 1 and all(tok[0] in _NO_LINE_START for tok in line[1:])
    if len(lines) > 1 and alone and len(lines[-2]) > 1 and len("".join(lines[-2])) > 2 \
            and lines[-2][-1][0] not in _NO_LINE_START \
            and f.size(lines[-2][-1] + "".join(line).rstrip(_NO_LINE_START))[0] <= width:
        # no character left alone on the last line ("决 / 定"), its punctuation aside ("地 / 方。")
        line.insert(0, lines[-2].pop())
    return ["".join(part).rstrip() for part in lines]


def shrink(s: str, width: int, size: int, smallest: int = 11, bold: bool = False) -> int:
    """The largest text size, from size down to smallest, at which s fits width pixels
    (smallest if none does)."""
    while size > smallest and font(size, bold).size(s)[0] > width:
        size -= 1
    return size


def fit(s: str, width: int, size: int, smallest: int = 11, bold: bool = False) -> tuple[int, str]:
    """One line in width pixels: the largest text size, from size down to smallest, at which s
    fits, and s (cut short with an ellipsis if it does not fit even at smallest)."""
    size = shrink(s, width, size, smallest, bold)
    return size, _cut(s, width, size, bold)


def _cut(s: str, width: int, size: int, bold: bool = False) -> str:
    """s, or as much of it as fits width pixels with an ellipsis after it."""
    f = font(size, bold)
    if f.size(s)[0] <= width:
        return s
    low, high = 0, len(s)  # s[:low] + "…" fits; s[:high] + "…" does not (a long line: halve)
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if f.size(s[:mid] + "…")[0] <= width else (low, mid)
    return s[:low].rstrip() + "…"


@lru_cache(maxsize=64)  # the same block is drawn every frame
def fit_lines(lines: tuple[str, ...], width: int, height: int, size: int,
              smallest: int = 11) -> tuple[int, tuple[tuple[int, str], ...]]:
    """Paragraphs wrapped into a box, each line (size + 4) pixels high: the largest size,
    from size down to smallest, at which every line fits, and the (paragraph, line) pairs to
    draw. At smallest, the lines that do not fit are left out and the last one drawn ends in
    an ellipsis; a line wider than the box, too."""
    while True:
        parts = tuple((i, part) for i, line in enumerate(lines)
                      for part in wrap(line, width, size))
        room = max(1, height // (size + 4))
        if len(parts) <= room or size <= smallest:
            break
        size -= 1
    if len(parts) > room:
        last, words = parts[room - 1]
        parts = parts[:room - 1] + ((last, _cut(words + "…", width, size)),)
    # a word wider than the box (a long file name: wrap never breaks one) ends where it does
    return size, tuple((i, _cut(words, width, size)) for i, words in parts)


def wrap(s: str, width: int, size: int = 18, bold: bool = False) -> list[str]:
    """Split text into lines that fit width pixels."""
    if _unsafe(s, WRAP_MAX):
        s = clean_text(s, WRAP_MAX, lines=True)
    f = font(size, bold)
    lines: list[str] = []
    for para in s.split("\n"):
        if has_cjk(para):  # Chinese has no spaces: break between characters
            lines += _wrap_chars(para, width, f)
            continue
        words = para.split(" ")
        line = ""
        for w in words:
            trial = w if not line else line + " " + w
            if f.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = w
        lines.append(line)
    return lines
