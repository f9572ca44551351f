"""Elo difference and its 95% error margin from a match's wins, draws and losses.

The score s = (w + d/2) / n gives the Elo difference -400 log10(1/s - 1). The margin comes from
the per-game variance of the score (each game scores 1, 1/2 or 0): the 95% interval of the mean
score, s ± 1.96 sqrt(var / n), mapped through the same formula, half its width. At 0% or 100%
the difference is infinite, and so is the margin whenever the interval reaches 0 or 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


def score(w: int, d: int, l: int) -> float:
    """The mean score per game (nan with no games)."""
    n = w + d + l
    return (w + 0.5 * d) / n if n else math.nan


def elo_from_score(s: float) -> float:
    """The Elo difference that expects the score s (±inf at 0 and 1)."""
    if math.isnan(s):
        return math.nan
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return 0.0 - 400.0 * math.log10(1.0 / s - 1.0)  # 0.0 - : never a negative zero


def score_stdev(w: int, d: int, l: int) -> float:
    """The standard deviation of one game's score around the mean."""
    n = w + d + l
    if not n:
        return math.nan
    s = score(w, d, l)
    var = (w * (1.0 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
    return math.sqrt(var)


def rate_interval(k: int, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of a rate seen k times in n (a bench's "reached 32768 in 9 of
    26"): unlike the mean's normal interval it stays inside 0..1 and is not empty at 0 or n."""
    if not 0 <= k <= n or n == 0:
        raise ValueError(f"{k} of {n}")
    p, z2 = k / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if k == 0 else max(0.0, centre - half)  # exact at the ends, not 5e-17 off
    return lo, 1.0 if k == n else min(1.0, centre + half)


@dataclass(frozen=True)
class EloEstimate:
    w: int
    d: int
    l: int
    score: float
    elo: float
    margin: float


def estimate(w: int, d: int, l: int) -> EloEstimate:
    """Elo difference and 95% margin for the side that scored w-d-l."""
    if min(w, d, l) < 0:
        raise ValueError(f"negative game count in {w}-{d}-{l}")
    n = w + d + l
    s = score(w, d, l)
    if not n:
        return EloEstimate(w, d, l, s, math.nan, math.nan)
    half = Z95 * score_stdev(w, d, l) / math.sqrt(n)
    lo, hi = s - half, s + half
    if lo <= 0.0 or hi >= 1.0:
        margin = math.inf
    else:
        margin = (elo_from_score(hi) - elo_from_score(lo)) / 2.0
    return EloEstimate(w, d, l, s, elo_from_score(s), margin)


def _signed(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.1f}"


def _plain(x: float) -> str:
    if math.isnan(x) or math.isinf(x):
        return "nan" if math.isnan(x) else "inf"
    return f"{x:.1f}"


def bound(w: int, d: int, l: int) -> float:
    """The closed end of the 95% interval in Elo where the other reaches 0% or 100% (nan if
    both ends are closed or neither is): the least a 30-0-2 is worth, say."""
    e = estimate(w, d, l)
    if not math.isinf(e.margin) or not math.isfinite(e.elo):
        return math.nan
    half = Z95 * score_stdev(w, d, l) / math.sqrt(w + d + l)
    return elo_from_score(e.score - half if e.elo > 0 else e.score + half)


def summary_line(a: str, b: str, w: int, d: int, l: int) -> str:
    """`A vs B: W-D-L = w-d-l, score s%, Elo +e ± m (95%)` (from A's side); with an interval
    open on one side, `Elo +e, at least +b (95%)` (or `at most`)."""
    e = estimate(w, d, l)
    pct = "nan" if math.isnan(e.score) else f"{100.0 * e.score:.1f}"
    low = bound(w, d, l)
    spread = f" ± {_plain(e.margin)}" if math.isnan(low) else \
        f", {'at least' if e.elo > 0 else 'at most'} {_signed(low)}"
    return f"{a} vs {b}: W-D-L = {w}-{d}-{l}, score {pct}%, Elo {_signed(e.elo)}{spread} (95%)"
