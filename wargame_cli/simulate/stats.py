"""The statistics `simulate` reports: Wilson intervals and the spread of game lengths.

Integer tallies only (counts and a histogram of lengths), so results merged from any number
of workers are bit-for-bit the same.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: sensible at 0 and at n (unlike the Wald one)."""
    if trials < 1:
        raise ValueError("an interval needs at least one trial")
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return lo, hi


@dataclass(frozen=True)
class Spread:
    """Mean, standard deviation and quantiles of a whole-number measure (game length)."""

    mean: float
    sd: float
    min: int
    median: int
    p90: int
    max: int

    def as_json(self) -> dict[str, float | int]:
        return {
            "mean": self.mean,
            "sd": self.sd,
            "min": self.min,
            "median": self.median,
            "p90": self.p90,
            "max": self.max,
        }


def spread(histogram: Mapping[int, int]) -> Spread:
    """From value -> count; the sample standard deviation (n - 1)."""
    n = sum(histogram.values())
    if n < 1:
        raise ValueError("no values")
    values = sorted(histogram)
    total = sum(v * c for v, c in histogram.items())
    mean = total / n
    squares = sum(c * (v - mean) ** 2 for v, c in histogram.items())
    sd = math.sqrt(squares / (n - 1)) if n > 1 else 0.0
    return Spread(
        mean=mean,
        sd=sd,
        min=values[0],
        median=quantile(histogram, 0.5),
        p90=quantile(histogram, 0.9),
        max=values[-1],
    )


def quantile(histogram: Mapping[int, int], q: float) -> int:
    """The smallest value with at least a fraction `q` of the counts at or below it."""
    n = sum(histogram.values())
    need = max(1, math.ceil(q * n))
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= need:
            return value
    raise ValueError("no values")  # pragma: no cover - unreachable with n >= 1


@dataclass(frozen=True)
class Difference:
    """An estimate with its 95% interval: a difference between two settings, or a mean."""

    estimate: float
    lo: float
    hi: float

    def as_json(self) -> dict[str, float]:
        return {"estimate": self.estimate, "lo": self.lo, "hi": self.hi}


def mean_interval(histogram: Mapping[int, int], z: float = Z95) -> Difference:
    """The mean of a whole-number measure with its normal 95% interval (games are many)."""
    s = spread(histogram)
    n = sum(histogram.values())
    half = z * s.sd / math.sqrt(n)
    return Difference(s.mean, s.mean - half, s.mean + half)


def paired_difference(first: Sequence[float], then: Sequence[float], z: float = Z95) -> Difference:
    """Mean of `then[i] - first[i]` over games played on the same dice (common random
    numbers), with the normal interval of that mean: the closer the two settings' games
    track each other, the narrower it is."""
    n = len(first)
    if n != len(then) or n < 2:
        raise ValueError("a paired difference needs two equally long runs of at least 2 games")
    diffs = [b - a for a, b in zip(first, then, strict=True)]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = z * sd / math.sqrt(n)
    return Difference(mean, mean - half, mean + half)


def proportion_difference(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> Difference:
    """`k2/n2 - k1/n1` for independent runs, with Newcombe's interval (from each run's
    Wilson interval: sound near 0 and 1)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return Difference(d, lo, hi)


def stratified_share(
    strata: Sequence[tuple[int, int]], z: float = Z95
) -> tuple[float, float, float]:
    """The pooled share `sum(k) / sum(n)` of strata (k successes of n each, each with its own
    chance) and its normal interval, from the strata's own binomial variances:
    `Var = sum(n_h p_h (1 - p_h)) / N^2`. Each p_h is taken as (k + 1) / (n + 2) in the
    variance, so a stratum all won or all lost still counts as uncertain."""
    total = sum(n for _, n in strata)
    if total < 1:
        raise ValueError("no trials")
    share = sum(k for k, _ in strata) / total
    variance = sum(n * _smoothed(k, n) * (1 - _smoothed(k, n)) for k, n in strata) / total**2
    half = z * math.sqrt(variance)
    return share, share - half, share + half


def _smoothed(k: int, n: int) -> float:
    return (k + 1) / (n + 2)


def normal_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down correction: which of several tests reject at family-wise level
    `alpha` (the chance that any true null is flagged at all stays below `alpha`, however
    many tests; never less power than Bonferroni's `alpha / m` each)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    rejected = [False] * m
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (m - rank):
            break
        rejected[i] = True
    return rejected
