"""A run's tally as the JSON `simulate` reports: wins with Wilson intervals, game length,
how the games ended and the ruleset's own figures."""

from __future__ import annotations

from collections import Counter
from typing import Any

from wargame_cli.ruleset import SIDES
from wargame_cli.simulate.batch import Tally
from wargame_cli.simulate.stats import mean_interval, spread, wilson

DRAW = "draw"


def summarise(tally: Tally) -> dict[str, Any]:
    games = tally.games
    wins: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    endings: dict[str, Counter[str]] = {side: Counter() for side in (*SIDES, DRAW)}
    for (winner, turns, how), count in tally.results.items():
        key = winner if winner is not None else DRAW
        wins[key] += count
        lengths[turns] += count
        endings.setdefault(key, Counter())[how] += count
    keys = (*SIDES, DRAW)
    mean = mean_interval(lengths)
    return {
        "games": games,
        "wins": {k: wins[k] for k in keys},
        "win_rate": {k: wins[k] / games for k in SIDES},
        "ci95": {k: list(wilson(wins[k], games)) for k in keys},
        "turns": spread(lengths).as_json(),
        "turns_mean_ci95": [mean.lo, mean.hi],
        "lengths": {str(t): lengths[t] for t in sorted(lengths)},
        "endings": {
            k: dict(sorted(endings[k].items(), key=lambda kv: (-kv[1], kv[0])))
            for k in keys
            if endings[k]
        },
        "figures": {
            name: tally.figures[name] / tally.figure_games[name] for name in sorted(tally.figures)
        },
        **facts(tally),
    }


def facts(tally: Tally) -> dict[str, Any]:
    """Per unit type and per contest (`Ruleset.sim_watcher`), where the ruleset tells them:
    `units`: games fought in, units fielded, kills and damage per unit fielded, deaths and
    the share that survived; `firsts`: the win rate of the side that won each contest."""
    out: dict[str, Any] = {}
    if tally.units:
        out["units"] = {
            kind: {
                "games": int(games),
                "fielded": int(fielded),
                "kills": kills / fielded,
                "deaths": int(deaths),
                "survival": (fielded - deaths) / fielded,
                "damage": damage / damaged if damaged else None,
            }
            for kind, (games, fielded, kills, deaths, damage, damaged) in sorted(
                tally.units.items()
            )
        }
    if tally.firsts:
        contests = sorted({contest for contest, _ in tally.firsts})
        out["firsts"] = {}
        for contest in contests:
            won = tally.firsts[(contest, "won")]
            games = won + tally.firsts[(contest, "lost")] + tally.firsts[(contest, "draw")]
            out["firsts"][contest] = {
                "games": games,
                "won": won,
                "win_rate": won / games,
                "ci95": list(wilson(won, games)),
            }
    return out
