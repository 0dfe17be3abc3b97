"""Exact distributions of dice: sums, the highest or lowest of a roll, success pools, and
comparisons, each as whole-number weights over one denominator, so every chance is an exact
fraction (`wargame dice`, Tug of WarGods' exact odds).

Pure arithmetic on integers: no floats until a chance is shown, no random numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm


@dataclass(frozen=True)
class Dist:
    """A distribution over whole numbers: `weights[v] / total` is the chance of `v`. Values
    with weight 0 are left out; `total` is the sum of the weights."""

    weights: dict[int, int]
    total: int

    @classmethod
    def constant(cls, value: int) -> Dist:
        return cls({value: 1}, 1)

    @classmethod
    def die(cls, sides: int) -> Dist:
        """One fair die of `sides` faces, 1 to `sides`."""
        return cls(dict.fromkeys(range(1, sides + 1), 1), sides)

    @classmethod
    def from_chances(cls, chances: dict[int, Fraction]) -> Dist:
        """Exact chances brought to one denominator."""
        total = lcm(*(c.denominator for c in chances.values())) if chances else 1
        weights = {v: c.numerator * (total // c.denominator) for v, c in chances.items() if c}
        return cls(dict(sorted(weights.items())), total)

    def chance(self, value: int) -> Fraction:
        return Fraction(self.weights.get(value, 0), self.total)

    def chances(self) -> dict[int, Fraction]:
        return {v: Fraction(w, self.total) for v, w in sorted(self.weights.items())}

    def where(self, test: Callable[[int], bool]) -> Fraction:
        """The chance that the value passes `test`."""
        return Fraction(sum(w for v, w in self.weights.items() if test(v)), self.total)

    def mean(self) -> Fraction:
        return Fraction(sum(v * w for v, w in self.weights.items()), self.total)

    def plus(self, other: Dist) -> Dist:
        """The sum of two independent values (a convolution)."""
        out: dict[int, int] = {}
        for a, wa in self.weights.items():
            for b, wb in other.weights.items():
                out[a + b] = out.get(a + b, 0) + wa * wb
        return Dist(dict(sorted(out.items())), self.total * other.total)

    def negated(self) -> Dist:
        return Dist({-v: w for v, w in sorted(self.weights.items(), reverse=True)}, self.total)

    def shifted(self, by: int) -> Dist:
        return Dist({v + by: w for v, w in self.weights.items()}, self.total)


def sum_counts(dice: Iterable[int]) -> dict[int, int]:
    """How many ways each sum of the dice can come up (one die of each size in `dice`)."""
    return dict(sum_of(dice).weights)


def sum_of(dice: Iterable[int]) -> Dist:
    """The sum of one die of each size in `dice`: each die added by a running window over
    the sums so far, so a hundred dice cost a hundred passes over the sums."""
    low, counts, total = 0, [1], 1
    for sides in dice:
        prefix = [0]
        for c in counts:
            prefix.append(prefix[-1] + c)
        size = len(counts) + sides - 1
        counts = [
            prefix[min(i, len(counts) - 1) + 1] - prefix[max(0, i - sides + 1)] for i in range(size)
        ]
        low, total = low + 1, total * sides
    return Dist({low + i: c for i, c in enumerate(counts) if c}, total)


def keep(count: int, sides: int, kept: int, highest: bool) -> Dist:
    """The sum of the `kept` highest (or lowest) of `count` dice of `sides` faces. Faces are
    visited from the best down; a state is (dice placed, sum kept so far), and placing `j`
    dice on a face multiplies the ways by the choice of which dice show it."""
    kept = min(kept, count)
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    faces = range(sides, 0, -1) if highest else range(1, sides + 1)
    for face in faces:
        nxt: dict[tuple[int, int], int] = {}
        for (placed, total), ways in states.items():
            left = count - placed
            for j in range(left + 1):
                take = max(0, min(j, kept - placed))
                key = (placed + j, total + take * face)
                nxt[key] = nxt.get(key, 0) + ways * comb(left, j)
        states = nxt
    out = {total: ways for (placed, total), ways in states.items() if placed == count}
    return Dist(dict(sorted(out.items())), sides**count)


def at_least(sides: int, face: int) -> Fraction:
    """One die of `sides` faces showing `face` or more."""
    return Fraction(max(0, min(sides, sides - face + 1)), sides)


def count_dist(count: int, p: Fraction) -> dict[int, Fraction]:
    """How many of `count` independent trials succeed, each with chance `p` (binomial)."""
    return {k: comb(count, k) * p**k * (1 - p) ** (count - k) for k in range(count + 1)}


def thinned(counts: dict[int, Fraction], keep_chance: Fraction) -> dict[int, Fraction]:
    """Each of the counted items kept with chance `keep_chance`, independently: what is left
    of a success pool after each success meets a defence die."""
    out: dict[int, Fraction] = {}
    for n, p in counts.items():
        for k, q in count_dist(n, keep_chance).items():
            out[k] = out.get(k, Fraction(0)) + p * q
    return dict(sorted(out.items()))
