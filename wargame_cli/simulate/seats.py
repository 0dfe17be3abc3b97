"""Both seats: a match-up played with the teams in each seat, and how much the seat itself
is worth.

A bot that breaks ties by absolute position (rows counted from A's edge) favours one seat
in a mirror match; the seat advantage shows it at once. With `--swap` the second half of
the games has the teams exchanged; its tally is turned round to the teams' point of view
(`by_team`), so the teams' results add up over both seats while the seats' own results
stay apart for the advantage.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from wargame_cli.kit.sides import other
from wargame_cli.simulate.batch import Tally
from wargame_cli.simulate.stats import Z95, normal_p, stratified_share, wilson


def by_team(tally: Tally) -> Tally:
    """A tally of games played with the teams exchanged, told from the teams' side: the
    winner A is team B's team (seat A) and so on, per-side figures likewise."""
    turned = Tally()
    for (winner, turns, how), count in tally.results.items():
        turned.results[(other(winner) if winner is not None else None, turns, how)] += count
    for name, value in tally.figures.items():
        turned.figures[_turned(name)] = value
        turned.figure_games[_turned(name)] = tally.figure_games[name]
    turned.sequence = [(other(w) if w is not None else None, t) for w, t in tally.sequence]
    turned.units = {kind: list(row) for kind, row in tally.units.items()}  # by type: no seat
    turned.firsts = Counter(tally.firsts)  # how a contest's winner fared: no seat either
    return turned


def _turned(name: str) -> str:
    return ".".join(other(part) if part in ("A", "B") else part for part in name.split("."))


@dataclass(frozen=True)
class SeatAdvantage:
    """Seat A's share of the decisive games, with its interval; no advantage is one half."""

    a: int
    b: int
    draws: int
    lo: float
    hi: float
    sd: float | None = None  # the share's standard error where strata set it (else binomial)

    @property
    def share(self) -> float:
        return self.a / (self.a + self.b) if self.a + self.b else 0.5

    def fair(self) -> bool:
        """Does the interval hold one half (no seat wins more than chance allows)?"""
        return self.lo <= 0.5 <= self.hi

    def p_value(self) -> float:
        """Two-sided, of "no seat advantage" (one half), by the normal approximation."""
        decisive = self.a + self.b
        if not decisive:
            return 1.0
        sd = self.sd if self.sd is not None else 0.5 / decisive**0.5
        return normal_p((self.share - 0.5) / sd) if sd > 0 else 1.0

    def as_json(self) -> dict[str, Any]:
        return {
            "A": self.a,
            "B": self.b,
            "draws": self.draws,
            "share_a": self.share,
            "ci95": [self.lo, self.hi],
            "fair": self.fair(),
            "p": self.p_value(),
        }


def seat_advantage(tallies: list[Tally], z: float = Z95) -> SeatAdvantage:
    """Over tallies told by seat (the winner is the seat that won).

    One tally (a mirror match): seat A's share of the decisive games is a binomial
    proportion, with its Wilson interval. Several (the halves of `--swap`, each match-up's
    halves in `--matrix`): each holds other teams in seat A, whose strength sets its own
    chance, so the share's variance is that of the paired seat swap, the halves' own
    binomial variances added (`stats.stratified_share`), not Binomial(n, 1/2)'s: a strong
    team that wins 90% in either seat leaves little doubt about the seat."""
    wins: Counter[str | None] = Counter()
    strata: list[tuple[int, int]] = []
    for tally in tallies:
        own: Counter[str | None] = Counter()
        for (winner, _, _), count in tally.results.items():
            own[winner] += count
        wins.update(own)
        if own["A"] + own["B"]:
            strata.append((own["A"], own["A"] + own["B"]))
    a, b = wins["A"], wins["B"]
    if len(strata) > 1:
        share, lo, hi = stratified_share(strata, z)
        return SeatAdvantage(a, b, wins[None], lo, hi, (hi - lo) / (2 * z))
    lo, hi = wilson(a, a + b, z) if a + b else (0.0, 1.0)
    return SeatAdvantage(a, b, wins[None], lo, hi)
