"""`wargame rules ID --points`, `wargame simulate ID --points` and `--budget N`: what each
unit type is worth, measured from seeded bot games of random small teams (the fit is
`simulate/points.py`'s), with the exact values where the ruleset's odds settle them; and
both teams of a match-up built to a points total.

A measurement is kept in the cache folder (`$WARGAME_CACHE_DIR`, else the user's cache
folder's `wargame`), by everything it depends on: the ruleset and its version, the options,
the unit changes, the games and the seed. The same question asked again is answered at once.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wargame_cli import registry
from wargame_cli.cli.output import emit_json
from wargame_cli.errors import BadInput
from wargame_cli.kit import unitstats
from wargame_cli.kit.unitstats import Changes
from wargame_cli.ruleset import Ruleset, resolve_options

if TYPE_CHECKING:
    from wargame_cli.cli.simulate import SimulateArgs

DEFAULT_GAMES = 2000  # 500 match-ups: every type of a ruleset in a hundred or more of them
DEFAULT_SEED = 1  # a measurement is reproducible, and cached, unless --seed says otherwise
CACHE_VERSION = 3  # bump when the fit changes: older cached answers are then not read


def cache_dir() -> Path:
    given = os.environ.get("WARGAME_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wargame"


def measured(
    ruleset: Ruleset,
    options: dict[str, Any],
    changes: Changes,
    games: int,
    seed: int,
    args: SimulateArgs | None,
) -> dict[str, Any]:
    """The fitted values, from the cache or played now (on `args`' workers or cluster)."""
    key = {
        "cache": CACHE_VERSION,
        "ruleset": ruleset.id,
        "version": ruleset.version,
        "options": options,
        "units": unitstats.as_json(changes),
        "games": games,
        "seed": seed,
        "levels": args.levels if args is not None else None,
    }
    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()
    path = cache_dir() / f"points-{ruleset.id}-{digest[:16]}.json"
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(kept, dict) and kept.get("key") == json.loads(json.dumps(key, default=str)):
            return dict(kept["measured"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    found = _play(ruleset, options, changes, games, seed, args)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        spare = path.with_suffix(".part")
        spare.write_text(json.dumps({"key": key, "measured": found}, default=str), "utf-8")
        spare.replace(path)
    except OSError:
        pass  # an unwritable cache: the answer stands, it is only not kept
    return found


def _play(
    ruleset: Ruleset,
    options: dict[str, Any],
    changes: Changes,
    games: int,
    seed: int,
    args: SimulateArgs | None,
) -> dict[str, Any]:
    from wargame_cli.cli.simulate import SimulateArgs
    from wargame_cli.cli.simulate_lab import play
    from wargame_cli.simulate import points

    levels = args.levels if args is not None else None
    drawn, jobs = points.plan(ruleset, options, changes, seed, games, levels)
    run_args = args if args is not None else SimulateArgs(ruleset.id, json_out=True)
    tallies, stopped = play(jobs, ruleset, run_args)
    if stopped:
        from wargame_cli.errors import Interrupted

        raise Interrupted("interrupted: no points were measured")
    units = list(ruleset.unit_sheet() or {})
    values, seat, fixed = points.fit(units, drawn, tallies)
    rows = []
    for v in values:
        mid, lo, hi = v.points()
        rows.append(
            {
                "unit": v.unit,
                "strength": round(v.strength, 4),
                "ci95": [round(v.lo, 4), round(v.hi, 4)],
                "points": round(mid, 1),
                "points_ci95": [round(lo, 1), round(hi, 1)],
                "games": v.games,
            }
        )
    return {
        "games": sum(t.games for t in tallies),
        "match_ups": len(jobs),
        "seed": seed,
        "seat": round(seat, 4),
        "relative": fixed,
        "values": rows,
    }


def result_for(
    ruleset: Ruleset,
    options: dict[str, Any],
    changes: Changes,
    games: int,
    seed: int,
    args: SimulateArgs | None,
) -> dict[str, Any]:
    """The whole answer: the measured values, and the exact ones where there are."""
    out: dict[str, Any] = {"ruleset": ruleset.id, "options": options}
    if changes:
        out["unit_changes"] = unitstats.as_json(changes)
    out["points"] = measured(ruleset, options, changes, games, seed, args)
    exact = ruleset.exact_points(options, changes)
    if exact is not None:
        out["exact"] = {"points": exact.points, "statement": exact.statement}
    return out


def points(ruleset: Ruleset, options: dict[str, Any], args: SimulateArgs) -> None:
    """`simulate ID --points`: with the run's options, unit changes, games and seed."""
    if args.html is not None:
        raise BadInput("--points shows a table; drop --html")
    games = args.games if args.games is not None else DEFAULT_GAMES
    seed = args.seed if args.seed is not None else DEFAULT_SEED
    if games < 2 * len(ruleset.unit_sheet() or {}):
        raise BadInput(f"--points --games {games}: too few games to value every unit type")
    _show(ruleset, result_for(ruleset, options, args.changes, games, seed, args), args.json_out)


def for_rules(ruleset_id: str, json_out: bool, only: list[str]) -> None:
    """`rules ID --points`: the default options, games and seed (cached)."""
    ruleset = registry.get(ruleset_id)
    if only:
        raise BadInput("--points values every unit type; drop the rule points")
    if ruleset.unit_sheet() is None:
        raise BadInput(f"--points: {ruleset.id} declares no unit types to value")
    options = resolve_options(ruleset.options, None)
    _show(ruleset, result_for(ruleset, options, {}, DEFAULT_GAMES, DEFAULT_SEED, None), json_out)


def budget_teams(ruleset: Ruleset, options: dict[str, Any], args: SimulateArgs) -> None:
    """`--budget N`: both teams built to N points, by the exact values where the odds settle
    them, else by the measured ones (the default games and seed: cached); they become
    `--team-a`/`--team-b`, and the run tells what each cost."""
    from wargame_cli.simulate.points import built

    assert args.budget is not None
    exact = ruleset.exact_points(options, args.changes)
    if exact is not None:
        values, how = exact.points, "exact"
    else:
        found = measured(ruleset, options, args.changes, DEFAULT_GAMES, DEFAULT_SEED, args)
        values, how = {row["unit"]: row["points"] for row in found["values"]}, "measured"
    seed = args.seed if args.seed is not None else DEFAULT_SEED
    teams = built(ruleset, options, args.changes, values, args.budget, seed)
    args.team_a, args.team_b = (ruleset.points_team(counts) for counts, _ in teams)
    args.budget_info = {
        "points": args.budget,
        "values": how,
        "cost": {"A": teams[0][1], "B": teams[1][1]},
    }


def _show(ruleset: Ruleset, result: dict[str, Any], json_out: bool) -> None:
    if json_out:
        emit_json(result)
        return
    from rich.markup import escape
    from rich.table import Table

    from wargame_cli.cli.output import console

    out = console()
    found = result["points"]
    exact = result.get("exact")
    relative = found["relative"]
    table = Table(title=f"{escape(ruleset.name)}: what each unit type is worth")
    table.add_column("unit type")
    table.add_column("strength (95%)", justify="right")
    table.add_column("points (95%)", justify="right")
    if exact is not None:
        table.add_column("exact points", justify="right")
    table.add_column("games", justify="right")
    rows = sorted(found["values"], key=lambda r: -r["points"])
    for row in rows:
        lo, hi = row["ci95"]
        plo, phi = row["points_ci95"]
        cells = [
            escape(row["unit"]),
            f"{row['strength']:+.2f} ±{(hi - lo) / 2:.2f}" if row["games"] else "-",
            f"{row['points']:.1f} ±{(phi - plo) / 2:.1f}" if row["games"] else "not drawn",
        ]
        if exact is not None:
            cells.append(f"{exact['points'].get(row['unit'], 0):g}")
        cells.append(str(row["games"]))
        table.add_row(*cells)
    out.print(table)
    out.print(
        f"Measured over {found['games']:,} seeded bot games of {found['match_ups']:,} random "
        f"match-ups (seed {found['seed']}): strength is the log-odds of winning a model of "
        "the type adds to its team; a point is a tenth of that (a team 10 points ahead wins "
        "about 73%)"
        + (
            "; every team has as many models here, so strengths are relative to the average "
            "type, and points count up from the weakest type, worth 1."
            if relative
            else "."
        )
    )
    if result.get("unit_changes"):
        out.print(f"Unit changes: {escape(unitstats.shown(result['unit_changes']))}")
    if exact is not None:
        out.print(escape(exact["statement"][0].upper() + exact["statement"][1:]))
