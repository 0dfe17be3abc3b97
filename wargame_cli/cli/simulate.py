"""`wargame simulate`: many seeded bot-vs-bot games with the real rules, and exact odds where
a ruleset can compute them.

Generic over rulesets. The hooks it calls are declared, with their defaults, on `Ruleset`
(`wargame_cli/ruleset.py`): `odds()` (exact odds: `--exact`, `--matrix`, `--exact --from`;
None: bot games only), `fast_games` (a cheaper path for the same games) and
`sim_figures(game, outcome)` (per-game figures; None: the numbers in `Outcome.data`).

`--from SAVE` replays a saved game, then finishes it from there: N times by bots with fresh
seeded dice (`--games`), or exactly (`--exact`, where the ruleset can).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.cli.output import emit_json
from wargame_cli.errors import BadInput
from wargame_cli.invoked import command
from wargame_cli.kit import unitstats
from wargame_cli.kit.unitstats import Changes
from wargame_cli.limits import MAX_GAMES
from wargame_cli.ruleset import SIDES, Ruleset, Setup, resolve_options
from wargame_cli.text import shown


@dataclass
class SimulateArgs:
    ruleset_id: str
    team_a: str | None = None
    team_b: str | None = None
    games: int | None = None
    seed: int | None = None
    workers: int | None = None  # None: the machine's cores
    options: list[str] = field(default_factory=list)
    exact: bool = False
    matrix: bool = False
    json_out: bool = False
    from_save: Path | None = None
    swap: bool = False
    compare: list[str] = field(default_factory=list)
    sweep: str | None = None
    html: Path | None = None
    force: bool = False
    cluster: str | None = None
    bot_level: str | None = None  # `--bot-level`: how the computer plays each side
    levels: dict[str, str] | None = None  # read from it: None when both play the default
    units: list[str] = field(default_factory=list)  # `--unit UNIT.STAT=VALUE`
    changes: Changes = field(default_factory=dict)  # read from them, checked
    teams_dir: Path | None = None  # `--matrix --teams DIR`: its team files, ranked
    points: bool = False  # `--points`: each unit type's value, measured from play
    budget: int | None = None  # `--budget N`: both teams built to N points
    budget_info: dict[str, Any] | None = None  # what they were built with, and cost
    csv: Path | None = None  # `--csv FILE`: one row per game
    out: Path | None = None  # `--out RUN.json`: the run saved, for `--diff`
    bots: dict[str, str] = field(default_factory=dict)  # each side's level, as reported
    mirrors: bool = False  # `--mirrors`: every ready team against itself, at each bot level


def simulate(args: SimulateArgs) -> None:
    ruleset = registry.get(args.ruleset_id)
    options = resolve_options(ruleset.options, args.options)
    _check(args, ruleset)
    if args.units:
        args.changes = unitstats.parse(ruleset.unit_sheet(), args.units, ruleset.id, "--unit")
    from wargame_cli.bots.base import DEFAULT, levels_of

    args.bots = levels_of(args.bot_level, ruleset, {"A": "bot", "B": "bot"})
    if args.bot_level is not None:
        args.levels = args.bots if set(args.bots.values()) != {DEFAULT} else None
    if args.from_save is not None:
        _from_save(ruleset, args)
        return
    if args.points or args.budget is not None:
        from wargame_cli.cli import simulate_points

        if args.points:
            simulate_points.points(ruleset, options, args)
            return
        simulate_points.budget_teams(ruleset, options, args)
    if args.matrix and args.games is None:
        _matrix(ruleset, options, args)
        return
    from wargame_cli.cli import simulate_lab as lab

    if args.matrix:
        lab.team_matrix(ruleset, options, args)
        return
    if args.compare or args.sweep is not None:
        lab.settings(ruleset, args)
        return
    if args.mirrors:
        lab.mirrors(ruleset, options, args)
        return
    setup = setup_for(ruleset, options, args.team_a, args.team_b, args.changes)
    result: dict[str, Any] = {
        "ruleset": ruleset.id,
        "options": options,
        **changes_json(args.changes),
        "teams": {side: {"name": setup.names[side], "team": setup.teams[side]} for side in SIDES},
        "run": run_about(ruleset, options, setup, args, None),
    }
    if args.budget_info is not None:
        result["budget"] = args.budget_info
    if args.exact:
        odds = ruleset.odds()
        assert odds is not None  # checked with the arguments
        exact = odds.exact(setup.teams["A"], setup.teams["B"], options)
        result["exact"] = {"A": exact.a, "B": exact.b}
        result["exact_turns"] = exact.turns
        found = ruleset.exact_spread(setup.teams["A"], setup.teams["B"], options)
        if found is not None:
            from wargame_cli.simulate.exact import spread_json

            result.update(spread_json(found))
    if args.games is None:
        _show(ruleset, result, args)
        return
    lab.match(ruleset, setup, options, args, result)


def run_about(
    ruleset: Ruleset, options: dict[str, Any], setup: Setup, args: SimulateArgs, seed: int | None
) -> dict[str, Any]:
    """The run's description (`simulate/about.py`) for one match-up: its settings are the
    options, and any other setting the run holds (changed units' stats: `unit changes`)."""
    from wargame_cli.simulate.about import about

    teams = {side: (setup.names[side], setup.teams[side]) for side in SIDES}
    settings = dict(options)
    if args.changes:
        settings["unit changes"] = {unit: dict(stats) for unit, stats in args.changes.items()}
    return about(ruleset, settings, teams, seed, args.games, args.bots if args.games else {})


def _show(ruleset: Ruleset, result: dict[str, Any], args: SimulateArgs) -> None:
    """Exact odds alone (no bot games): JSON or the terminal, and the page."""
    if args.html is not None:
        from wargame_cli.cli import simulate_page

        simulate_page.write(args.html, result, args.force)
    if args.json_out:
        emit_json(result)
        return
    from wargame_cli.cli import simulated as render

    render.report(ruleset, result)
    render.about_block(result["run"])


def _check(args: SimulateArgs, ruleset: Ruleset) -> None:
    """Every user error before any work, each as one clear line (exit 2)."""
    if args.workers is not None and args.workers < 1:
        raise BadInput(f"--workers {args.workers}: at least 1")
    if args.games is not None and args.games < 1:
        raise BadInput(f"--games {args.games}: play at least 1 game")
    if args.games is not None and args.games > MAX_GAMES:
        raise BadInput(f"--games: at most {MAX_GAMES:,} games in one run")
    studies = [
        flag
        for flag, given in (
            ("--swap", args.swap),
            ("--compare", bool(args.compare)),
            ("--sweep", args.sweep is not None),
            ("--matrix", args.matrix),
            ("--mirrors", args.mirrors),
        )
        if given
    ]
    if args.points:
        studies.append("--points")
    if len(studies) > 1:
        raise BadInput(f"{' and '.join(studies)}: one study at a time")
    if args.units and ruleset.unit_sheet() is None:
        raise BadInput(f"--unit: {ruleset.id} declares no unit stats to change")
    if args.teams_dir is not None and not args.matrix:
        raise BadInput("--teams DIR goes with --matrix: every team file in DIR ranked")
    if args.teams_dir is not None and (args.team_a or args.team_b):
        raise BadInput("--matrix --teams DIR ranks the folder's teams; drop --team-a/--team-b")
    if args.units and args.matrix and args.games is None:
        raise BadInput(
            "--unit with --matrix needs --games N: without it the matrix ranks the stock "
            "dice pools by exact odds"
        )
    if (args.points or args.budget is not None) and ruleset.unit_sheet() is None:
        flag = "--points" if args.points else "--budget"
        raise BadInput(f"{flag}: {ruleset.id} declares no unit types to value")
    if args.points and (args.team_a or args.team_b or args.exact or args.budget is not None):
        raise BadInput(
            "--points draws its own random teams; drop --team-a/--team-b/--exact/--budget"
        )
    if args.budget is not None and (args.team_a or args.team_b):
        raise BadInput("--budget builds both teams; drop --team-a/--team-b")
    if args.budget is not None and (args.matrix or args.from_save is not None):
        raise BadInput("--budget builds one match-up; drop --matrix/--from")
    wants_odds = args.exact or (args.matrix and args.games is None)
    if wants_odds and ruleset.odds() is None:
        flag = "--matrix" if args.matrix else "--exact"
        hint = "add --games N to play each ready team" if args.matrix else "use --games N"
        raise BadInput(f"{flag}: {ruleset.id} has no exact odds; {hint}")
    if args.from_save is not None and (
        args.team_a or args.team_b or args.options or args.units or studies
    ):
        raise BadInput(
            "--from plays on with the save's own teams and options; "
            "drop --team-a/--team-b/--option/--unit/" + "/".join(studies or ["--matrix"])
        )
    if args.matrix and args.games is None and args.teams_dir is not None:
        raise BadInput("--matrix --teams DIR plays the folder's teams: add --games N")
    if args.matrix and args.games is None and (args.team_a or args.team_b):
        raise BadInput(
            "--matrix without --games pits every legal dice pool against every other; "
            "drop --team-a/--team-b, or add --games N to rank teams by bot games"
        )
    if args.mirrors and (args.team_a or args.team_b or args.exact):
        raise BadInput(
            "--mirrors plays every ready team against itself; drop --team-a/--team-b/--exact"
        )
    if args.exact and (args.compare or args.sweep is not None or args.matrix):
        raise BadInput("--exact goes with one match-up; drop --compare/--sweep/--matrix")
    if args.games is None and not wants_odds and not args.points:
        raise BadInput(
            "how many games? pass --games N"
            + (" (or --exact for exact odds)" if ruleset.odds() is not None else "")
        )
    if args.html is not None and args.from_save is not None:
        raise BadInput("--html goes with a new study, not --from")
    if args.cluster is not None and args.from_save is not None:
        raise BadInput("--cluster goes with a new study, not --from")
    for flag, target in (("--html", args.html), ("--csv", args.csv), ("--out", args.out)):
        if target is not None:
            from wargame_cli.report import output

            output.check(target, None, args.force, flag)
    if (args.csv or args.out) and args.games is None:
        raise BadInput(f"{'--csv' if args.csv else '--out'} keeps bot games; add --games N")


def changes_json(changes: Changes) -> dict[str, Any]:
    """`{"unit_changes": {"Sebeki": {"die": 8}}}` where a run changes unit stats; else nothing."""
    return {"unit_changes": unitstats.as_json(changes)} if changes else {}


def setup_for(
    ruleset: Ruleset,
    options: dict[str, Any],
    team_a: str | None,
    team_b: str | None,
    changes: Changes | None = None,
) -> Setup:
    """Both teams as given (the ruleset's defaults where not), with the unit changes."""
    teams: dict[str, Any] = {}
    names: dict[str, str] = {}
    for side, spec in zip(SIDES, (team_a, team_b), strict=True):
        if spec is None:
            teams[side], names[side] = ruleset.default_team(side, options)
        else:
            teams[side], name = ruleset.load_team(spec, options)
            names[side] = name or f"Side {side}"
        if changes:
            teams[side] = ruleset.restat(teams[side], changes, options)
    from wargame_cli.cli.play import check_file_names

    check_file_names(names)
    return Setup(names=names, teams=teams)


def _from_save(ruleset: Ruleset, args: SimulateArgs) -> None:
    """Odds from a saved position: its log replayed, then the game finished from there."""
    from wargame_cli import history

    assert args.from_save is not None
    path = args.from_save
    h = history.load(path)
    session = h.session
    if session.ruleset.id != ruleset.id:
        raise BadInput(
            f"--from {shown(path)}: that save is a {session.ruleset.id} game, not {ruleset.id}"
        )
    if session.runner.finished:
        winner = session.winner
        raise BadInput(
            f"--from {shown(path)}: that game is over "
            f"({session.setup.names[winner] + ' won' if winner else 'a draw'}); "
            f"fork it at an earlier turn first: {command('fork ' + shown(path) + ' --turn N')}"
        )
    options, setup = session.options, session.setup
    result: dict[str, Any] = {
        "ruleset": ruleset.id,
        "options": options,
        "teams": {side: {"name": setup.names[side], "team": setup.teams[side]} for side in SIDES},
        "from": {"save": str(path), "turn": h.last},
        "run": run_about(ruleset, options, setup, args, None),
    }
    if args.exact:
        odds = ruleset.odds()
        assert odds is not None  # checked with the arguments
        exact = odds.exact_from_state(session.game.state, options)
        result["exact"] = {"A": exact.a, "B": exact.b}
        result["exact_turns"] = h.last + exact.turns  # turns played, then those expected
    if args.games is None:
        _show(ruleset, result, args)
        return
    from wargame_cli.cli import simulate_lab as lab

    start = history.resumed(session, h.log)
    lab.match(ruleset, setup, options, args, result, start.answers, start.at)


def _matrix(ruleset: Ruleset, options: dict[str, Any], args: SimulateArgs) -> None:
    """Every legal dice pool against every other, by exact odds (Tug of WarGods)."""
    from wargame_cli.simulate.about import about

    odds = ruleset.odds()
    assert odds is not None  # checked with the arguments
    table = odds.matrix(options)
    order = sorted(range(len(table.labels)), key=table.strength, reverse=True)
    result: dict[str, Any] = {
        "ruleset": ruleset.id,
        "options": options,
        "run": about(ruleset, options, [], None, None, {}),
        "matrix": {
            "pools": table.labels,
            "teams": table.examples,
            "p": table.p,
            "strength": [table.strength(i) for i in range(len(table.labels))],
            "tiers": [table.labels[i] for i in order],
        },
    }
    if args.html is not None:
        from wargame_cli.cli import simulate_page

        simulate_page.write(args.html, result, args.force)
    if args.json_out:
        emit_json(result)
        return
    from wargame_cli.cli import simulated as render

    render.matrix(ruleset, table, order)
    render.about_block(result["run"])


def diff(paths: tuple[Path, Path] | None, ruleset_id: str | None, json_out: bool) -> None:
    """`simulate --diff A.json B.json`: two saved runs compared (`simulate/runs.py`)."""
    if paths is None:
        raise BadInput("which ruleset? `wargame simulate ID ...`, or --diff A.json B.json")
    if ruleset_id is not None:
        raise BadInput("--diff compares two saved runs; drop the ruleset id")
    from wargame_cli.simulate import runs

    found = runs.diff(runs.load(paths[0]), runs.load(paths[1]))
    found["files"] = [str(p) for p in paths]
    if json_out:
        emit_json(found)
        return
    from wargame_cli.cli import simulated as render

    render.diff_report(found)
