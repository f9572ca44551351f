"""The Paper Arcade look: a page with grain, ink lines with a hand-drawn wobble, stamped pieces,
pencil shading, and small drawn icons.

Everything costly is made once and cached (the grain per window size, a stamp per radius and
colour); the wobble of a line is seeded by the line's own coordinates, so the same line is drawn
the same way every frame and nothing shimmers.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pygame

Colour = tuple[int, int, int] | tuple[int, int, int, int]
Point = tuple[float, float]

PAPER = (246, 241, 228)
CARD = (240, 233, 214)
SQUARES = (232, 224, 205)  # the printed squares of the page
SQUARE = 24
PENCIL = (92, 90, 96)


def _seed(*values: float) -> int:
    """A stable seed from coordinates (hash() of floats and tuples is stable, but not of str)."""
    h = 2166136261
    for v in values:
        h = ((h ^ (int(round(v * 4)) & 0xFFFFFFFF)) * 16777619) & 0xFFFFFFFF
    return h


def _noise(seed: int, n: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, n)


# --- the ground --------------------------------------------------------------------------------
def _grain(size: tuple[int, int], base: tuple[int, int, int], seed: int, squares: bool,
           vignette: float = 0.0) -> pygame.Surface:
    w, h = max(1, size[0]), max(1, size[1])
    rng = np.random.default_rng(seed)
    fine = rng.normal(0.0, 2.2, (w, h))
    # fibres: noise stretched along x, the way paper's fibres lie
    fibres = rng.normal(0.0, 1.0, (max(1, w // 9), h)).repeat(9, axis=0)[:w]
    if fibres.shape[0] < w:
        fibres = np.pad(fibres, ((0, w - fibres.shape[0]), (0, 0)), mode="edge")
    # clouds: a few soft darker patches, upscaled from a coarse grid
    cw, ch = w // 96 + 2, h // 96 + 2
    coarse = rng.normal(0.0, 1.0, (cw, ch))
    xi = np.linspace(0, cw - 1, w)
    yi = np.linspace(0, ch - 1, h)
    x0, y0 = np.floor(xi).astype(int), np.floor(yi).astype(int)
    x1, y1 = np.minimum(x0 + 1, cw - 1), np.minimum(y0 + 1, ch - 1)
    fx, fy = (xi - x0)[:, None], (yi - y0)[None, :]
    clouds = (coarse[x0][:, y0] * (1 - fx) * (1 - fy) + coarse[x1][:, y0] * fx * (1 - fy)
              + coarse[x0][:, y1] * (1 - fx) * fy + coarse[x1][:, y1] * fx * fy)
    # a faint darkening towards the edges of the sheet
    vx = np.linspace(-1.0, 1.0, w)[:, None] ** 2
    vy = np.linspace(-1.0, 1.0, h)[None, :] ** 2
    shade = fine + 1.6 * fibres + 2.6 * clouds - vignette * (vx + vy) ** 2
    rgb = np.empty((w, h, 3), dtype=np.float32)
    for i, (c, warmth) in enumerate(zip(base, (1.0, 1.0, 1.25))):
        rgb[:, :, i] = c + shade * warmth
    sheet = pygame.surfarray.make_surface(np.clip(rgb, 0, 255).astype(np.uint8))
    if squares:
        for x in range(SQUARE, w, SQUARE):
            pygame.draw.line(sheet, SQUARES, (x, 0), (x, h))
        for y in range(SQUARE, h, SQUARE):
            pygame.draw.line(sheet, SQUARES, (0, y), (w, y))
    return sheet.convert() if pygame.display.get_surface() is not None else sheet


@lru_cache(maxsize=4)
def ground(size: tuple[int, int]) -> pygame.Surface:
    """The window's page: squared paper with grain, made once per window size."""
    return _grain(size, PAPER, 29, squares=True, vignette=5.0)


@lru_cache(maxsize=96)
def card_sheet(size: tuple[int, int], base: tuple[int, int, int] = CARD) -> pygame.Surface:
    """Plain paper with grain for a card or panel of this size, made once per size."""
    return _grain(size, base, 7 + size[0] * 31 + size[1], squares=False)


# --- ink lines ---------------------------------------------------------------------------------
@lru_cache(maxsize=8192)
def wobble_points(a: Point, b: Point, amp: float) -> tuple[Point, ...]:
    """The points of a hand-drawn line from a to b: a gentle sideways wander of up to amp
    pixels, the same every time for the same line."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    if length < 1 or amp <= 0:
        return (a, b)
    n = max(2, min(24, int(length // 28) + 2))
    nx, ny = -(by - ay) / length, (bx - ax) / length
    r = _noise(_seed(ax, ay, bx, by), n + 2)
    bow = r[-1] * amp * 0.8  # the whole stroke bows a little one way
    pts = []
    for i in range(n + 1):
        t = i / n
        off = bow * math.sin(math.pi * t) + (0.0 if i in (0, n) else r[i] * amp * 0.45)
        pts.append((ax + (bx - ax) * t + nx * off, ay + (by - ay) * t + ny * off))
    return tuple(pts)


def line(surface: pygame.Surface, colour: Colour, a: Point, b: Point, width: int = 2,
         amp: float | None = None) -> None:
    """An ink line with a hand-drawn wobble (amp: how far it wanders; by default, with its
    length, up to 1.6 px)."""
    if amp is None:
        amp = min(1.6, math.hypot(b[0] - a[0], b[1] - a[1]) / 90)
    pts = wobble_points((float(a[0]), float(a[1])), (float(b[0]), float(b[1])), amp)
    if width <= 1:  # (aalines would cost ten times as much, and a frame draws hundreds)
        pygame.draw.lines(surface, colour, False, pts, 1)
    else:
        pygame.draw.lines(surface, colour, False, pts, width)
        for p in pts[1:-1]:  # round the joints so thick strokes do not notch
            pygame.draw.circle(surface, colour, p, width / 2 - 0.2)


def rect(surface: pygame.Surface, colour: Colour, box: pygame.Rect, width: int = 2,
         amp: float | None = None) -> None:
    """A rectangle's outline in wobbly ink, the corners slightly overdrawn as a pen does."""
    x0, y0, x1, y1 = box.left, box.top, box.right - 1, box.bottom - 1
    o = min(3, max(1, min(box.width, box.height) // 30))
    line(surface, colour, (x0 - o, y0), (x1 + o, y0), width, amp)
    line(surface, colour, (x1, y0 - o), (x1, y1 + o), width, amp)
    line(surface, colour, (x1 + o, y1), (x0 - o, y1), width, amp)
    line(surface, colour, (x0, y1 + o), (x0, y0 - o), width, amp)


@lru_cache(maxsize=2048)
def ring_points(centre: Point, radius: float, amp: float) -> tuple[Point, ...]:
    """A hand-drawn circle: the radius breathes a little, and the stroke runs on past its
    start, as a pen's circle does."""
    cx, cy = centre
    n = max(12, min(72, int(radius * 1.2)))
    r = _noise(_seed(cx, cy, radius), 6)
    start = r[0] * math.pi
    over = 0.22 + 0.1 * r[1]
    pts = []
    steps = int(n * (1 + over / (2 * math.pi)))
    for i in range(steps + 1):
        t = start + i * 2 * math.pi / n
        k = radius + amp * (0.6 * math.sin(2 * t + r[2] * 3) + 0.4 * math.sin(3 * t + r[3] * 3))
        k += amp * 0.5 * (i / steps)  # the overlap lands a little outside the start
        pts.append((cx + k * math.cos(t), cy + k * math.sin(t)))
    return tuple(pts)


def ring(surface: pygame.Surface, colour: Colour, centre: Point, radius: float,
         width: int = 2, amp: float | None = None) -> None:
    """An ink ring drawn by hand around centre."""
    if radius < 2:
        return
    if amp is None:
        amp = min(1.8, radius / 14)
    pts = ring_points((float(centre[0]), float(centre[1])), float(radius), amp)
    if width <= 1:
        pygame.draw.aalines(surface, colour, False, pts)
    else:
        pygame.draw.lines(surface, colour, False, pts, width)


FOCUS_OUTSET = 6  # how far the focus ring reaches outside its box, its wobble included


def focus_ring(surface: pygame.Surface, box: pygame.Rect, colour: Colour) -> None:
    """Keyboard focus: a firm ink outline drawn twice round the box, just outside it
    (within FOCUS_OUTSET)."""
    outer = box.inflate(6, 6)
    rect(surface, colour, outer, 3, amp=1.2)
    rect(surface, colour, outer.inflate(4, 2), 1, amp=1.8)


# --- pencil ------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _hatch(size: tuple[int, int], alpha: int) -> pygame.Surface:
    w, h = size
    s = pygame.Surface((max(1, w), max(1, h)), pygame.SRCALPHA)
    step = 6
    for i in range(-h, w, step):
        pts = wobble_points((float(i), float(h)), (float(i + h), 0.0), 0.8)
        pygame.draw.aalines(s, (*PENCIL, alpha), False, pts)
    return s


def pencil_shade(surface: pygame.Surface, box: pygame.Rect, alpha: int = 70) -> None:
    """Light diagonal pencil hatching over box (hover)."""
    surface.blit(_hatch(box.size, alpha), box.topleft)


def underline(surface: pygame.Surface, a: Point, b: Point, colour: Colour = PENCIL) -> None:
    """A soft pencil underline, drawn twice slightly apart."""
    line(surface, colour, a, b, 2, amp=1.2)
    line(surface, colour, (a[0] + 3, a[1] + 2), (b[0] - 2, b[1] + 2), 1, amp=1.5)


@lru_cache(maxsize=64)
def _marker(size: tuple[int, int], colour: tuple[int, int, int]) -> pygame.Surface:
    w, h = size
    s = pygame.Surface((max(1, w), max(1, h)))
    s.fill((255, 255, 255))
    top = wobble_points((3.0, 1.0), (w - 2.0, 2.0), 1.2)
    bottom = wobble_points((w - 4.0, h - 2.0), (1.0, h - 1.0), 1.2)
    pygame.draw.polygon(s, colour, list(top) + list(bottom))
    return s


def highlight(surface: pygame.Surface, box: pygame.Rect, colour: tuple[int, int, int]) -> None:
    """A highlighter's stroke over box: slanted ends, wavy edges, the paper's grain showing
    through (multiplied, not painted over)."""
    surface.blit(_marker(box.size, _lighter(tuple(colour[:3]), 0.35)), box.topleft,
                 special_flags=pygame.BLEND_RGB_MULT)


# --- stamps ------------------------------------------------------------------------------------
def _lighter(c: tuple[int, int, int], k: float) -> tuple[int, int, int]:
    return tuple(int(v + (255 - v) * k) for v in c)  # type: ignore[return-value]


def _darker(c: tuple[int, int, int], k: float) -> tuple[int, int, int]:
    return tuple(int(v * (1 - k)) for v in c)  # type: ignore[return-value]


@lru_cache(maxsize=256)
def stamp_image(radius: int, colour: tuple[int, int, int], rim: bool = True) -> pygame.Surface:
    """A rubber-stamped disc: the ink a little uneven (paper shows through in specks), a darker
    rim where the stamp pressed hardest, and a thin inner circle cut into the stamp."""
    r = max(2, radius)
    d = 2 * r + 4
    yy, xx = np.mgrid[0:d, 0:d].astype(np.float32)
    c = (d - 1) / 2.0
    dist = np.hypot(xx - c, yy - c).T  # surfarray is (x, y)
    rng = np.random.default_rng(radius * 1009 + sum(colour))
    rough = min(1.0, r / 30)  # a small stamp shows less of its texture, or it reads as noise
    edge = r + rng.normal(0, 0.35 * rough, (d, d)).astype(np.float32)
    cover = np.clip(edge - dist + 0.5, 0.0, 1.0)  # anti-aliased, slightly ragged edge
    ink = 1.0 - 0.18 * rough * rng.random((d, d)).astype(np.float32)
    ink = np.where(rng.random((d, d)) < 0.035 * rough, 0.6, ink)  # specks where the ink missed
    press = np.clip((dist - r * 0.78) / (r * 0.22), 0.0, 1.0) * 0.22  # more ink at the rim
    if rim:
        groove = np.exp(-((dist - r * 0.72) ** 2) / (2 * max(0.6, r * 0.03) ** 2)) * 0.5
    else:
        groove = np.zeros_like(dist)
    base = np.array(colour, dtype=np.float32)
    paper = np.array(PAPER, dtype=np.float32)
    strength = np.clip(ink + press, 0.0, 1.0)[..., None]
    rgb = paper + (base - paper) * strength
    rgb = rgb * (1 - groove[..., None] * 0.55) + paper * groove[..., None] * 0.55
    img = pygame.Surface((d, d), pygame.SRCALPHA)
    pygame.surfarray.pixels3d(img)[...] = np.clip(rgb, 0, 255).astype(np.uint8)
    pygame.surfarray.pixels_alpha(img)[...] = (cover * 255).astype(np.uint8)
    return img


def stamp(surface: pygame.Surface, colour: tuple[int, int, int], centre: Point, radius: float,
          squash: float = 1.0, outline: Colour | None = None, rim: bool = True) -> pygame.Rect:
    """A stamped disc of the seat's ink at centre (squash < 1 narrows it, for a flip), with
    a hand-drawn ink outline; returns where it went."""
    img = stamp_image(int(radius), tuple(colour[:3]), rim)  # type: ignore[arg-type]
    if squash < 0.999:
        img = pygame.transform.smoothscale(img, (max(1, int(img.get_width() * squash)),
                                                 img.get_height()))
    at = img.get_rect(center=(int(centre[0]), int(centre[1])))
    surface.blit(img, at)
    if outline is not None and squash >= 0.999 and radius >= 6:
        ring(surface, outline, centre, radius, 2 if radius > 14 else 1)
    elif outline is not None:
        pygame.draw.ellipse(surface, outline, at.inflate(-4, -4), 1)
    return at


def ink_dot(surface: pygame.Surface, colour: Colour, centre: Point, radius: float) -> None:
    """A small blot of ink (a dot on a Dots board, a clone target)."""
    pygame.draw.circle(surface, colour, centre, radius)
    ring(surface, colour, centre, radius, 1, amp=min(0.8, radius / 6))


def tile(surface: pygame.Surface, box: pygame.Rect, fill: tuple[int, int, int],
         ink: Colour) -> None:
    """A square of coloured paper glued on: grain, a soft shadow under its lower edge, and an
    ink outline."""
    shadow = box.move(2, 3)
    pygame.draw.rect(surface, (214, 204, 182), shadow, border_radius=4)
    surface.blit(card_sheet(box.size, fill), box.topleft)
    rect(surface, ink, box, 2 if box.width > 40 else 1)


# --- icons -------------------------------------------------------------------------------------
ICONS = ("first", "previous", "play", "pause", "next", "last")


def _triangle(cx: float, cy: float, s: float, right: bool) -> list[Point]:
    d = 1 if right else -1
    return [(cx - d * s * 0.5, cy - s * 0.62), (cx + d * s * 0.58, cy),
            (cx - d * s * 0.5, cy + s * 0.62)]


def _shape(surface: pygame.Surface, colour: Colour, pts: list[Point]) -> None:
    pygame.draw.polygon(surface, colour, pts)
    for a, b in zip(pts, pts[1:] + pts[:1]):
        line(surface, colour, a, b, 2, amp=0.6)


def icon(surface: pygame.Surface, name: str, box: pygame.Rect, colour: Colour) -> pygame.Rect:
    """One of ICONS drawn in ink, centred in box; returns the inked area."""
    s = max(8.0, min(box.width, box.height) * 0.42)
    cx, cy = box.centerx, box.centery
    bar_w = max(2.0, s * 0.16)
    half = s * 0.62

    def bar(x: float) -> None:
        _shape(surface, colour, [(x - bar_w / 2, cy - half), (x + bar_w / 2, cy - half),
                                 (x + bar_w / 2, cy + half), (x - bar_w / 2, cy + half)])

    if name == "play":
        _shape(surface, colour, _triangle(cx + s * 0.06, cy, s * 1.05, True))
    elif name == "pause":
        bar(cx - s * 0.25)
        bar(cx + s * 0.25)
    elif name in ("next", "previous"):
        right = name == "next"
        d = 1 if right else -1
        _shape(surface, colour, _triangle(cx - d * s * 0.15, cy, s, right))
        bar(cx + d * s * 0.52)
    elif name in ("first", "last"):
        right = name == "last"
        d = 1 if right else -1
        _shape(surface, colour, _triangle(cx - d * s * 0.5, cy, s * 0.85, right))
        _shape(surface, colour, _triangle(cx + d * s * 0.05, cy, s * 0.85, right))
        bar(cx + d * s * 0.6)
    else:
        raise ValueError(f"no icon {name!r}")
    area = pygame.Rect(0, 0, int(s * 1.6) + 4, int(s * 1.3) + 4)
    area.center = (cx, cy)
    return area
