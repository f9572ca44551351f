"""Draw the arcade's icon with pygame and write it under assets/icons.

    python packaging/make_icon.py            # writes the PNGs, .ico and .icns (committed files)

The PNGs go to the Linux desktop entry (game/shortcut.py) and the window; the .ico (Windows)
and .icns (macOS) hold the same PNGs, both formats allow PNG entries, so no image library
beyond pygame is needed.
"""

from __future__ import annotations

import argparse
import io
import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from client.ui.theme import ACCENT, INK, PAPER, PAPER_DARK, SEAT_COLORS  # noqa: E402

NAME = "paper-arcade"
SIZES = (48, 128, 256, 512)
ICO_SIZES = (48, 256)
ICNS_TYPES = {128: b"ic07", 256: b"ic08", 512: b"ic09"}
DRAW = 1024  # drawn large, scaled down smooth


def draw(size: int = DRAW) -> pygame.Surface:
    """The icon: a sheet of paper with a stone, a box of dots, a plane and a tile on it."""
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    u = size / 64
    r = pygame.Rect(round(3 * u), round(3 * u), round(58 * u), round(58 * u))
    corner = round(10 * u)
    pygame.draw.rect(s, (0, 0, 0, 70), r.move(round(u), round(1.5 * u)), border_radius=corner)
    pygame.draw.rect(s, PAPER, r, border_radius=corner)
    pygame.draw.rect(s, PAPER_DARK, r, width=round(1.5 * u), border_radius=corner)
    cx, cy = r.centerx, r.centery
    line = max(1, round(1.6 * u))
    pygame.draw.line(s, INK, (cx, r.top + 8 * u), (cx, r.bottom - 8 * u), line)
    pygame.draw.line(s, INK, (r.left + 8 * u, cy), (r.right - 8 * u, cy), line)
    q = 29 * u / 2  # the centre of each quarter, from the middle
    # top left: an Ataxx stone in red ink
    c = (cx - q, cy - q)
    pygame.draw.circle(s, SEAT_COLORS[0], c, 9 * u)
    pygame.draw.circle(s, INK, c, 9 * u, max(1, round(1.2 * u)))
    # top right: dots and a claimed box
    x0, y0, d = cx + q - 8 * u, cy - q - 8 * u, 16 * u
    pygame.draw.rect(s, SEAT_COLORS[1], (x0, y0, d, d))
    for i in range(2):
        for j in range(2):
            pygame.draw.circle(s, INK, (x0 + i * d, y0 + j * d), 2.6 * u)
    pygame.draw.line(s, INK, (x0, y0), (x0 + d, y0), max(1, round(1.6 * u)))
    # bottom left: a plane seen from above
    px, py = cx - q, cy + q
    plane = [(0, -10), (2, -6), (2, -2), (10, 1), (10, 4), (2, 3), (1.5, 8), (4, 10), (-4, 10),
             (-1.5, 8), (-2, 3), (-10, 4), (-10, 1), (-2, -2), (-2, -6)]
    pygame.draw.polygon(s, INK, [(px + a * u, py + b * u) for a, b in plane])
    # bottom right: a 2048 tile
    t = pygame.Rect(0, 0, round(18 * u), round(18 * u))
    t.center = (round(cx + q), round(cy + q))
    pygame.draw.rect(s, ACCENT, t, border_radius=round(3 * u))
    inner = t.inflate(-round(8 * u), -round(8 * u))
    pygame.draw.rect(s, PAPER, inner, border_radius=round(1.5 * u))
    return s


def png_bytes(surface: pygame.Surface) -> bytes:
    buf = io.BytesIO()
    pygame.image.save(surface, buf, "icon.png")
    return buf.getvalue()


def ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico whose entries are PNGs (allowed since Windows Vista)."""
    sizes = sorted(pngs)
    head = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, blobs = b"", b""
    for n in sizes:
        data = pngs[n]
        side = 0 if n >= 256 else n  # 0 means 256
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
        blobs += data
    return head + entries + blobs


def icns(pngs: dict[int, bytes]) -> bytes:
    """A macOS .icns whose entries are PNGs (ic07 128, ic08 256, ic09 512)."""
    body = b"".join(ICNS_TYPES[n] + struct.pack(">I", 8 + len(pngs[n])) + pngs[n]
                    for n in sorted(pngs))
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def write(out: Path) -> list[Path]:
    """Write every size and both bundle formats into out; returns the files written."""
    big = draw()
    pngs = {n: png_bytes(pygame.transform.smoothscale(big, (n, n))) for n in SIZES}
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for n, data in pngs.items():
        path = out / f"{NAME}-{n}.png"
        path.write_bytes(data)
        written.append(path)
    (out / f"{NAME}.ico").write_bytes(ico({n: pngs[n] for n in ICO_SIZES}))
    (out / f"{NAME}.icns").write_bytes(icns({n: pngs[n] for n in ICNS_TYPES}))
    written += [out / f"{NAME}.ico", out / f"{NAME}.icns"]
    return written


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "assets" / "icons")
    args = p.parse_args()
    for path in write(args.out):
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
              f"  {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
