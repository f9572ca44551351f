"""Elo arithmetic: the score, the difference, the 95% margin and their edge cases."""

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ai import elo


def test_even_score_is_zero_elo():
    e = elo.estimate(30, 40, 30)
    assert e.score == 0.5
    assert e.elo == 0.0
    assert e.margin > 0


def test_known_values():
    # s = 0.7: -400 log10(1/0.7 - 1) = 147.19; per-game variance 0.16, so the 95% interval of
    # the score is 0.7 ± 1.96 * 0.04, i.e. Elo 86.2 .. 218.2, a margin of 66.0.
    e = elo.estimate(60, 20, 20)
    assert e.score == pytest.approx(0.7)
    assert e.elo == pytest.approx(147.19, abs=0.01)
    assert elo.score_stdev(60, 20, 20) == pytest.approx(0.4)
    assert e.margin == pytest.approx(66.0, abs=0.1)


def test_sides_are_mirror_images():
    a, b = elo.estimate(13, 5, 7), elo.estimate(7, 5, 13)
    assert a.elo == pytest.approx(-b.elo)
    assert a.margin == pytest.approx(b.margin)


def test_more_games_narrow_the_margin():
    small, big = elo.estimate(6, 2, 2), elo.estimate(600, 200, 200)
    assert big.elo == pytest.approx(small.elo)
    assert big.margin < small.margin / 5


def test_all_draws_have_no_spread():
    e = elo.estimate(0, 12, 0)
    assert e.elo == 0.0 and e.margin == 0.0


def test_perfect_and_zero_scores_are_infinite():
    win, loss = elo.estimate(10, 0, 0), elo.estimate(0, 0, 10)
    assert win.elo == math.inf and win.margin == math.inf
    assert loss.elo == -math.inf and loss.margin == math.inf


def test_interval_reaching_the_edge_gives_infinite_margin():
    e = elo.estimate(9, 0, 1)
    assert math.isfinite(e.elo) and e.elo > 300
    assert e.margin == math.inf


def test_no_games_and_bad_counts():
    assert math.isnan(elo.estimate(0, 0, 0).elo)
    with pytest.raises(ValueError):
        elo.estimate(-1, 2, 3)


def test_summary_line_format():
    line = elo.summary_line("builtin:hard", "builtin:easy", 60, 20, 20)
    assert line == ("builtin:hard vs builtin:easy: W-D-L = 60-20-20, score 70.0%, "
                    "Elo +147.2 ± 66.0 (95%)")
    assert "Elo +0.0 ± " in elo.summary_line("A", "B", 3, 0, 3)  # never "-0.0"
    assert elo.summary_line("A", "B", 0, 0, 4).endswith("score 0.0%, Elo -inf ± inf (95%)")
    pattern = r"^A vs B: W-D-L = 3-1-4, score 43\.8%, Elo -\d+\.\d ± \d+\.\d \(95%\)$"
    assert re.match(pattern, elo.summary_line("A", "B", 3, 1, 4))


@pytest.mark.parametrize("k, n, lo, hi", [
    (9, 26, 0.1941, 0.5378),  # 2048's 32768 at 270 ms, seeds 1-26
    (25, 26, 0.8111, 0.9932),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
])
def test_a_rates_interval_is_wilsons(k, n, lo, hi):
    """The Wilson score interval (z = 1.96): the rates p whose normal interval around p holds
    k / n, i.e. the roots of (k/n - p)^2 = z^2 p (1 - p) / n (worked out apart by bisection)."""
    assert elo.rate_interval(k, n) == pytest.approx((lo, hi), abs=1e-4)


@given(n=st.integers(1, 500), data=st.data())
def test_a_rates_interval_holds_the_rate_inside_0_and_1(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = elo.rate_interval(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0 and hi - lo > 0


def test_an_interval_open_on_one_side_still_gives_its_other_bound():
    """30-0-2 against an engine: "± inf" said nothing of how sure the win was; the bound on
    the closed side is what a reader needs (and a perfect or zero score has none)."""
    e = elo.estimate(30, 0, 2)
    half = elo.Z95 * elo.score_stdev(30, 0, 2) / math.sqrt(32)
    low = elo.elo_from_score(e.score - half)
    assert 0 < low < e.elo
    assert elo.summary_line("A", "B", 30, 0, 2).endswith(
        f"Elo +{e.elo:.1f}, at least +{low:.1f} (95%)")
    assert elo.summary_line("A", "B", 2, 0, 30).endswith(
        f"Elo -{e.elo:.1f}, at most -{low:.1f} (95%)")
    assert elo.summary_line("A", "B", 4, 0, 0).endswith("Elo +inf ± inf (95%)")
