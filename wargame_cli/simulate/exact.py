"""An exact distribution (`Ruleset.exact_spread`) as `simulate --exact` reports it: the
chance of each ending, worded as the bot games' endings are, and the game length's
percentiles, as the games' are (the smallest length with at least that share at or below)."""

from __future__ import annotations

from typing import Any

from wargame_cli.ruleset import ExactSpread
from wargame_cli.simulate.batch import ending
from wargame_cli.simulate.summary import DRAW

PERCENTILES = (10, 25, 50, 75, 90, 99)


def spread_json(found: ExactSpread) -> dict[str, Any]:
    endings: dict[str, dict[str, float]] = {}
    for outcome, chance in sorted(found.endings, key=lambda pair: -pair[1]):
        side = outcome.winner or DRAW
        how = ending(outcome)
        endings.setdefault(side, {})[how] = endings.get(side, {}).get(how, 0.0) + chance
    return {
        "exact_endings": endings,
        "exact_lengths": {f"p{q}": percentile(found.lengths, q / 100) for q in PERCENTILES},
    }


def percentile(lengths: dict[int, float], q: float) -> int:
    """The smallest length whose cumulative chance reaches `q` (of what was reckoned)."""
    total = sum(lengths.values())
    seen = 0.0
    for turns in sorted(lengths):
        seen += lengths[turns]
        if seen >= q * total - 1e-12:
            return turns
    return max(lengths)
