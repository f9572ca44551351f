"""Colours and fonts. Paper and ink: a light page, dark lines, two player inks."""

from __future__ import annotations

from functools import cache

import pygame

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
SEAT_LIGHT = ((236, 178, 170), (170, 192, 232))
HILITE = (255, 214, 90)
SHADOW = (0, 0, 0, 60)

FONT_FILES = ("dejavusans", "freesans", "arial", "liberationsans")
CJK_FONTS = ("notosanscjksc", "notosanscjk", "notoserifcjksc", "sourcehansans", "wenquanyimicrohei",
             "wenquanyizenhei", "droidsansfallback", "microsoftyahei", "simhei", "simsun",
             "pingfangsc", "heitisc", "arplumingcn", "arplukaicn")


def _ensure_font() -> None:
    if not pygame.font.get_init():
        pygame.font.init()


@cache
def _font_path(bold: bool) -> str | None:
    _ensure_font()
    return pygame.font.match_font(list(FONT_FILES), bold=bold)


@cache
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The UI font at this pixel size."""
    _ensure_font()
    size = max(8, int(size))
    path = _font_path(bold)
    f = pygame.font.Font(path, size)
    if path is None and bold:
        f.set_bold(True)
    return f


@cache
def cjk_font_path() -> str | None:
    """A font file with Chinese characters, or None when the machine has none."""
    _ensure_font()
    for name in CJK_FONTS:
        path = pygame.font.match_font(name)
        if path:
            return path
    return None


@cache
def cjk_font(size: int) -> pygame.font.Font | None:
    path = cjk_font_path()
    return pygame.font.Font(path, max(8, int(size))) if path else None


def has_cjk(s: str) -> bool:
    return any("\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in s)


def render(s: str, size: int, color, bold: bool = False) -> pygame.Surface:
    """Text as an image; Chinese characters use a CJK font, or are left out if there is none."""
    if has_cjk(s):
        cjk = cjk_font(size)
        if cjk is not None:
            return cjk.render(s, True, color)
        s = " ".join("".join(ch for ch in s if not has_cjk(ch)).split())
    return font(size, bold).render(s, True, color)


def text(surface: pygame.Surface, s: str, pos: tuple[int, int], size: int = 20,
         color=INK, bold: bool = False, anchor: str = "topleft") -> pygame.Rect:
    """Draw one line of text with the given rect anchor ("center", "midleft", ...)."""
    img = render(s, size, color, bold)
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    return rect


def wrap(s: str, width: int, size: int = 18, bold: bool = False) -> list[str]:
    """Split text into lines that fit width pixels."""
    f = font(size, bold)
    lines: list[str] = []
    for para in s.split("\n"):
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
