"""The interval maths of `wargame simulate`: Wilson intervals and game-length spreads."""

from __future__ import annotations

import math

import pytest

from wargame_cli.simulate.stats import Z95, quantile, spread, wilson


def wilson_by_the_book(k: int, n: int, z: float) -> tuple[float, float]:
    """Wilson (1927) as usually printed: the roots of (p - k/n)^2 = z^2 p (1 - p) / n."""
    a = 1 + z * z / n
    b = -(2 * k / n + z * z / n)
    c = (k / n) ** 2
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


@pytest.mark.parametrize(("k", "n"), [(1, 2), (5, 10), (81, 263), (9025, 10000), (3, 1000)])
def test_wilson_matches_the_quadratic_roots(k, n):
    lo, hi = wilson(k, n)
    want_lo, want_hi = wilson_by_the_book(k, n, Z95)
    assert lo == pytest.approx(want_lo, abs=1e-12)
    assert hi == pytest.approx(want_hi, abs=1e-12)
    assert lo < k / n < hi


def test_wilson_published_values():
    # 5/10 at 95%: 0.2366-0.7634 (Newcombe 1998, table I)
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    # 81/263 at 95%: 0.2553-0.3662 (Wikipedia's worked example of the Wilson interval)
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)


def test_wilson_at_the_edges_is_closed_and_mirrored():
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 10)[1] == pytest.approx(1 - wilson(10, 10)[0])
    for k in range(11):
        lo, hi = wilson(k, 10)
        mirror_lo, mirror_hi = wilson(10 - k, 10)
        assert lo == pytest.approx(1 - mirror_hi)
        assert hi == pytest.approx(1 - mirror_lo)


def test_wilson_narrows_with_more_games():
    widths = [wilson(n // 2, n)[1] - wilson(n // 2, n)[0] for n in (10, 100, 1000, 10000)]
    assert widths == sorted(widths, reverse=True)
    assert widths[-1] == pytest.approx(2 * Z95 * 0.5 / 100, rel=1e-3)


@pytest.mark.parametrize(("k", "n"), [(1, 0), (-1, 5), (6, 5)])
def test_wilson_refuses_impossible_counts(k, n):
    with pytest.raises(ValueError):
        wilson(k, n)


def test_spread_of_a_histogram():
    s = spread({1: 1, 2: 1, 3: 1})
    assert (s.mean, s.sd, s.min, s.median, s.max) == (2.0, 1.0, 1, 2, 3)
    s = spread({4: 9, 10: 1})
    assert s.mean == pytest.approx(4.6)
    assert s.median == 4
    assert s.p90 == 4
    assert s.max == 10
    assert s.sd == pytest.approx(math.sqrt((9 * 0.6**2 + 5.4**2) / 9))
    assert spread({7: 1}).sd == 0.0


def test_quantile_is_the_smallest_value_reaching_the_share():
    hist = {1: 50, 2: 40, 3: 10}
    assert quantile(hist, 0.5) == 1
    assert quantile(hist, 0.51) == 2
    assert quantile(hist, 0.9) == 2
    assert quantile(hist, 0.91) == 3
