"""What each unit type is worth, measured from play (`--points`), and teams built to a points
total (`--budget N`).

Random small teams (each a handful of unit types drawn at random, written out in the
ruleset's inline syntax, kept when legal) meet in short seeded runs; a logistic model in the
teams' unit counts, `logit P(A wins) = seat + sum over types of (count in A - count in B) *
strength`, is fitted by Newton's method (a draw counts half) with a weak prior on each
strength (a ridge, sd 1.4 log-odds), which keeps it finite where one team always wins, and
each strength gets a 95% interval from the fit's information. A point is a tenth of a
log-odds: a team 10 points ahead of another wins about 73% (e^1 : 1). Where every team has
as many models (Tug of WarGods' three), only differences between types are measured:
strengths are then relative to the average type, and points count up from the weakest type,
worth 1. Pure: no terminal, no processes.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from wargame_cli.errors import BadInput, TeamError
from wargame_cli.kit.unitstats import Changes
from wargame_cli.ruleset import Ruleset, Setup
from wargame_cli.simulate.batch import Job, Tally

PER_MATCH = 4  # games a drawn match-up plays: enough match-ups to spread over every type
TRIES = 200  # draws before a ruleset whose inline teams are rarely legal is given up on
POINT = 0.1  # log-odds a point is worth
RIDGE = 0.5  # a weak prior (sd 1.4 log-odds a type): finite where one team always wins
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Drawn:
    """A random team: its unit types and how many of each, and its JSON team form."""

    counts: dict[str, int]
    team: Any


def legal(
    ruleset: Ruleset, counts: dict[str, int], options: dict[str, Any], changes: Changes
) -> Any | None:
    """The team these counts make, with the run's unit changes; None where it is not legal."""
    try:
        team = ruleset.parse_team(ruleset.points_team(counts), options)
        return ruleset.restat(team, changes, options) if changes else team
    except TeamError:
        return None


def draw(ruleset: Ruleset, options: dict[str, Any], changes: Changes, rng: random.Random) -> Drawn:
    """One random legal team of `points_sizes()` models, each type equally likely."""
    sheet = ruleset.unit_sheet() or {}
    names, sizes = list(sheet), ruleset.points_sizes()
    for _ in range(TRIES):
        picked = [rng.choice(names) for _ in range(rng.choice(sizes))]
        counts = dict(Counter(picked))
        team = legal(ruleset, counts, options, changes)
        if team is not None:
            return Drawn(counts, team)
    raise BadInput(f"--points: no legal team of {ruleset.id}'s unit types came up at random")


def plan(
    ruleset: Ruleset,
    options: dict[str, Any],
    changes: Changes,
    seed: int,
    games: int,
    levels: dict[str, str] | None = None,
) -> tuple[list[tuple[Drawn, Drawn]], list[Job]]:
    """The drawn match-ups and their jobs: `games` in all, PER_MATCH a match-up, each on dice
    streams of its own (the bots at `levels`, where not the default)."""
    rng = random.Random(seed)
    matches = max(1, games // PER_MATCH)
    drawn = [(draw(ruleset, options, changes, rng), draw(ruleset, options, changes, rng))]
    while len(drawn) < matches:
        drawn.append((draw(ruleset, options, changes, rng), draw(ruleset, options, changes, rng)))
    jobs = []
    for i, (a, b) in enumerate(drawn):
        count = PER_MATCH if i < matches - 1 else games - PER_MATCH * (matches - 1)
        setup = Setup(names={"A": "Side A", "B": "Side B"}, teams={"A": a.team, "B": b.team})
        jobs.append(
            Job(ruleset.id, setup, options, seed, count, offset=i * PER_MATCH, levels=levels)
        )
    return drawn, jobs


@dataclass(frozen=True)
class Value:
    """One unit type's fitted value: its strength (log-odds it adds to a team) and points,
    each with its 95% interval, and how many games it played in."""

    unit: str
    strength: float
    lo: float
    hi: float
    games: int

    offset: float = 0.0  # added to points where strengths are relative (the weakest: 1)

    def points(self) -> tuple[float, float, float]:
        """Its points and their 95% interval."""
        lo, mid, hi = (x / POINT + self.offset for x in (self.lo, self.strength, self.hi))
        return mid, lo, hi


def fit(
    units: list[str], drawn: list[tuple[Drawn, Drawn]], tallies: list[Tally]
) -> tuple[list[Value], float, bool]:
    """Each type's value, the seat's own log-odds, and whether every team had as many models
    (strengths relative to the average type then)."""
    rows: list[tuple[list[float], float, int]] = []
    seen: Counter[str] = Counter()
    sizes: set[int] = set()
    for (a, b), tally in zip(drawn, tallies, strict=True):
        if not tally.games:
            continue
        wins = sum(c for (w, _, _), c in tally.results.items() if w == "A")
        draws = sum(c for (w, _, _), c in tally.results.items() if w is None)
        x = [1.0] + [float(a.counts.get(u, 0) - b.counts.get(u, 0)) for u in units]
        rows.append((x, wins + draws / 2, tally.games))
        sizes.update((sum(a.counts.values()), sum(b.counts.values())))
        for unit in {*a.counts, *b.counts}:
            seen[unit] += tally.games
    beta, cov = _newton(rows, len(units) + 1)
    fixed = len(sizes) <= 1
    k = len(units)
    mean = sum(beta[1:]) / k if fixed else 0.0
    # as many models a team: only differences count, and the weakest type drawn costs 1
    floor = min((beta[i + 1] for i, u in enumerate(units) if seen[u]), default=mean)
    offset = 1.0 - (floor - mean) / POINT if fixed else 0.0
    values = []
    for i, unit in enumerate(units):
        if fixed:  # the contrast of this type with the average type
            e = [0.0] + [(1.0 if j == i else 0.0) - 1.0 / k for j in range(k)]
        else:
            e = [1.0 if j == i + 1 else 0.0 for j in range(k + 1)]
        var = sum(e[r] * cov[r][c] * e[c] for r in range(k + 1) for c in range(k + 1))
        half = Z95 * math.sqrt(max(var, 0.0))
        s = beta[i + 1] - mean
        values.append(Value(unit, s, s - half, s + half, seen[unit], offset))
    return values, beta[0], fixed


def _newton(rows: list[tuple[list[float], float, int]], k: int) -> tuple[list[float], Any]:
    """The penalised maximum-likelihood fit of a binomial logistic model, and the inverse of
    its information (the covariance of the estimates)."""
    beta = [0.0] * k
    info: list[list[float]] = []
    for _ in range(50):
        grad = [-RIDGE * b if j else 0.0 for j, b in enumerate(beta)]
        info = [[RIDGE if r == c and r else 0.0 for c in range(k)] for r in range(k)]
        for x, y, n in rows:
            eta = sum(xi * bi for xi, bi in zip(x, beta, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, eta))))
            w = n * p * (1 - p)
            for r in range(k):
                if x[r]:
                    grad[r] += (y - n * p) * x[r]
                    for c in range(k):
                        if x[c]:
                            info[r][c] += w * x[r] * x[c]
        info[0][0] += 1e-9  # a run of mirror match-ups tells the seat nothing
        step = _solve(info, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-10:
            break
    inverse = [_solve(info, [1.0 if r == c else 0.0 for r in range(k)]) for c in range(k)]
    return beta, [[inverse[c][r] for c in range(k)] for r in range(k)]


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """`matrix @ x = rhs` by Gaussian elimination with partial pivoting."""
    n = len(rhs)
    a = [[*row, b] for row, b in zip(matrix, rhs, strict=True)]
    for k in range(n):
        pivot = max(range(k, n), key=lambda r: abs(a[r][k]))
        a[k], a[pivot] = a[pivot], a[k]
        if abs(a[k][k]) < 1e-300:
            continue
        for r in range(k + 1, n):
            f = a[r][k] / a[k][k]
            if f:
                a[r] = [x - f * y for x, y in zip(a[r], a[k], strict=True)]
    x = [0.0] * n
    for k in range(n - 1, -1, -1):
        if abs(a[k][k]) < 1e-300:
            continue
        x[k] = (a[k][n] - sum(a[k][j] * x[j] for j in range(k + 1, n))) / a[k][k]
    return x


# -- teams to a budget ------------------------------------------------------------------------
def built(
    ruleset: Ruleset,
    options: dict[str, Any],
    changes: Changes,
    points: dict[str, float],
    budget: float,
    seed: int,
) -> list[tuple[dict[str, int], float]]:
    """Two legal teams of `points_sizes()` models costing as near `budget` as any can without
    going over (`--budget N`), chosen in a seeded order: the second, where one is, of other
    unit costs than the first, so that the match-up tests the points rather than a mirror."""
    units = [u for u in (ruleset.unit_sheet() or {}) if u in points]
    candidates: list[tuple[float, dict[str, int]]] = []
    for size in ruleset.points_sizes():
        for combo in itertools.combinations_with_replacement(units, size):
            cost = round(sum(points[u] for u in combo), 6)
            if cost <= budget + 1e-9:
                candidates.append((cost, dict(Counter(combo))))
    random.Random(seed).shuffle(candidates)
    candidates.sort(key=lambda pair: -pair[0])  # stable: the seeded order within a cost
    top: float | None = None
    found: list[dict[str, int]] = []
    for cost, counts in candidates:
        if top is not None and cost < top:
            break
        if legal(ruleset, counts, options, changes) is not None:
            top = cost
            found.append(counts)
    if top is None:
        raise BadInput(f"--budget {budget:g}: no legal team costs {budget:g} points or less")
    first = found[0]
    other = [c for c in found[1:] if _costs(c, points) != _costs(first, points)]
    second = (other or found[1:] or [first])[0]
    return [(first, top), (second, top)]


def _costs(counts: dict[str, int], points: dict[str, float]) -> list[float]:
    return sorted(points[u] for u, n in counts.items() for _ in range(n))
