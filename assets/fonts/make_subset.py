"""Regenerate chars.txt and the two subset fonts from LXGW WenKai (see README.md)."""

from __future__ import annotations

import copy
import subprocess
from pathlib import Path

from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._g_l_y_f import GlyphCoordinates

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SOURCE = Path("/usr/share/fonts/truetype/lxgw-wenkai")
RANGES = ((0x20, 0x7E), (0xA0, 0xFF), (0x2010, 0x2027), (0x2030, 0x203A), (0x2190, 0x21FF),
          (0x2500, 0x257F), (0x25A0, 0x25FF), (0x2600, 0x266F), (0x3000, 0x303F),
          (0xFF01, 0xFF5E))
FAMILY = "Paper Arcade Kai"
# Klee One's 9 has a straight tail and reads as a q at the sizes the arcade draws (Jungle's
# rank 9, Planes' A9, 2048's 4096): the subsets' 9 is their own 6 turned half round.
TURNED = (("six", "nine"), ("uniFF16", "uniFF19"))


def common_hanzi() -> set[str]:
    """GB2312 level 1 (simplified) and Big5 level 1 (traditional)."""
    found = set()
    for hi in range(0xB0, 0xD8):
        for lo in range(0xA1, 0xFF):
            try:
                found.add(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    for hi in range(0xA4, 0xC7):
        for lo in (*range(0x40, 0x7F), *range(0xA1, 0xFF)):
            try:
                ch = bytes([hi, lo]).decode("big5")
            except UnicodeDecodeError:
                continue
            if "\u4e00" <= ch <= "\u9fff":
                found.add(ch)
    return found


def characters() -> str:
    chars = common_hanzi()
    for a, b in RANGES:
        chars |= {chr(c) for c in range(a, b + 1)}
    for path in ROOT.rglob("*.py"):
        chars |= {c for c in path.read_text(encoding="utf-8", errors="ignore") if ord(c) > 126}
    return "".join(sorted(c for c in chars if c.isprintable()))


def turn_half_round(font: TTFont, source: str, target: str) -> None:
    """Glyph target becomes glyph source turned 180 degrees within the same box."""
    glyf = font["glyf"]
    glyph = copy.deepcopy(glyf[source])
    coords, _ends, _flags = glyph.getCoordinates(glyf)
    x0, y0, x1, y1 = glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax
    glyph.coordinates = GlyphCoordinates([(x0 + x1 - x, y0 + y1 - y) for x, y in coords])
    glyph.recalcBounds(glyf)
    glyf[target] = glyph
    advance, _lsb = font["hmtx"][target]
    font["hmtx"][target] = (advance, glyph.xMin)


def main() -> None:
    (HERE / "chars.txt").write_text(characters(), encoding="utf-8")
    for weight in ("Regular", "Bold"):
        out = HERE / f"PaperArcadeKai-{weight}.ttf"
        subprocess.run(["pyftsubset", str(SOURCE / f"LXGWWenKai-{weight}.ttf"),
                        f"--text-file={HERE / 'chars.txt'}", "--no-hinting",
                        "--layout-features=kern,liga", f"--output-file={out}"], check=True)
        font = TTFont(out)
        names = font["name"]
        for nid in (1, 3, 4, 6, 16, 17, 21, 22):
            names.removeNames(nameID=nid)
        for nid, value in ((1, FAMILY), (2, weight),
                           (3, f"PaperArcadeKai-{weight}; subset of LXGW WenKai"),
                           (4, f"{FAMILY} {weight}"), (6, f"PaperArcadeKai-{weight}")):
            names.setName(value, nid, 3, 1, 0x409)
            names.setName(value, nid, 1, 0, 0)
        for source, target in TURNED:
            turn_half_round(font, source, target)
        font.save(out)


if __name__ == "__main__":
    main()
