"""Text that came from outside (a peer, a beacon, a file, a program): cleaned once, where it
enters, so that everything after may draw it, log it or store it.

Fonts refuse U+0000 and lone surrogates; control characters draw as boxes or move the
cursor in a terminal; a name of 200,000 characters costs a frame a second. `clean_text` removes
the first, replaces the second, and cuts the length, whatever it is given.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any

NAME_MAX = 40  # a player's or a program's name (the beacon's limit since the first LAN)
LINE_MAX = 200  # one line of a message: a chat line, an error, a reason
REPLACEMENT = "\ufffd"
_SCAN_MAX = 1 << 16  # characters looked at: enough for any limit here, bounded for any input


def _as_str(value: Any) -> str:
    """value as a string, or "" when it has none that can be taken safely."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value[:_SCAN_MAX * 4]).decode("utf-8", "replace")
    if isinstance(value, (bool, int, float)):
        try:
            return str(value)
        except (ValueError, OverflowError):  # an int too long to print
            return ""
    return ""  # a list, a map or an object: its repr is nobody's name


def clean_text(value: Any, limit: int = NAME_MAX, lines: bool = False) -> str:
    """value as one short, drawable line: control characters (U+0000 too) removed, tabs and
    line breaks made spaces (kept as line breaks when lines is true), lone surrogates replaced
    by U+FFFD, runs of spaces kept, the ends stripped, and at most limit characters.
    Never raises, whatever value is."""
    try:
        text = _as_str(value)[:_SCAN_MAX]
        out: list[str] = []
        for ch in text:
            if "\ud800" <= ch <= "\udfff":
                out.append(REPLACEMENT)
            elif ch == "\n" and lines:
                out.append("\n")
            elif ch in "\t\n\r\v\f\x85\u2028\u2029":
                out.append(" ")
            elif unicodedata.category(ch) == "Cc":
                continue
            else:
                out.append(ch)
        size = max(0, int(limit))
        return "".join(out).strip()[:size].rstrip()
    except Exception:  # the last guard: text is never worth a crash
        return ""


def clean_number(value: Any, default: float, low: float, high: float) -> float:
    """value if it is a finite real number, held within [low, high]; default if it is not a
    number at all (a string, a flag, None, NaN)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    try:
        number = float(value)
    except (OverflowError, ValueError):  # an int too large for a float
        number = math.inf if isinstance(value, int) and value > 0 else -math.inf
    if math.isnan(number):
        return default
    return min(high, max(low, number))
