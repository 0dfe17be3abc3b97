"""The statistics `simulate` reports: Wilson intervals and the spread of game lengths.

Integer tallies only (counts and a histogram of lengths), so results merged from any number
of workers are bit-for-bit the same.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
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
