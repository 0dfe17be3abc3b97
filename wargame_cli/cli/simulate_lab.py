"""`wargame simulate` studies: one match-up (in both seats with `--swap`), settings side by
side (`--compare`, `--sweep`) and every team against every other (`--matrix --games N`).

Each study plans its jobs (`simulate/lab.py`), plays them on this machine's cores or a
cluster, and shows the result: JSON, the terminal, and the `--html` page. Ctrl-C stops the
games and shows what was finished (then exits 130).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from wargame_cli.cli.output import emit_json
from wargame_cli.cli.simulate import SimulateArgs, changes_json, run_about, setup_for
from wargame_cli.errors import BadInput, Interrupted, TeamError
from wargame_cli.ruleset import SIDES, Ruleset, Setup
from wargame_cli.simulate import batch, lab
from wargame_cli.simulate.batch import Job, Progress, Tally
from wargame_cli.simulate.replay import Recipe
from wargame_cli.simulate.summary import summarise
from wargame_cli.text import shown


def _seed(args: SimulateArgs) -> int:
    from wargame_cli.engine.session import draw_seed

    return args.seed if args.seed is not None else draw_seed()


def play(jobs: list[Job], ruleset: Ruleset, args: SimulateArgs) -> tuple[list[Tally], bool]:
    """Every job's tally, and whether Ctrl-C stopped the games first. A progress bar on a
    terminal only (not with --json, nor when stderr is not a terminal)."""
    games = sum(job.games for job in jobs)
    if args.csv is not None or args.out is not None:
        jobs = [replace(job, record=True) for job in jobs]
    run: Callable[[list[Job], Ruleset, int | None, Progress | None], list[Tally]]
    run = batch.run_all
    if args.cluster is not None:
        from wargame_cli.simulate import cluster

        run = cluster.runner(args.cluster)
    try:
        if args.json_out or not sys.stderr.isatty():
            return run(jobs, ruleset, args.workers, None), False
        from wargame_cli.cli import simulated as render

        with render.progress_bar(games) as advance:
            return run(jobs, ruleset, args.workers, advance), False
    except batch.Stopped as stopped:
        if not any(t.games for t in stopped.tallies):
            raise Interrupted("interrupted before any game finished") from None
        return stopped.tallies, True


def _out(
    result: dict[str, Any],
    args: SimulateArgs,
    stopped: bool,
    shown: Any,
    rows: list[dict[str, Any]] | None = None,
) -> None:
    """The files asked for (the page, `--csv`, `--out`), then JSON or the terminal; a
    stopped run says so and exits 130."""
    if stopped:
        result["stopped"] = True
    if args.html is not None:
        from wargame_cli.cli import simulate_page

        simulate_page.write(args.html, result, args.force)
    if args.csv is not None or args.out is not None:
        from wargame_cli.report import output
        from wargame_cli.simulate import runs

        kept = rows or []
        if args.csv is not None:
            output.write(args.csv, runs.csv_text(kept), None, args.force, "--csv")
        if args.out is not None:
            output.write(args.out, runs.saved_text(result, kept), None, args.force, "--out")
    if args.json_out:
        emit_json(result)
    else:
        if stopped:
            from wargame_cli.cli.output import console

            console().print("Stopped by Ctrl-C: the result of the games finished so far")
        shown()
        from wargame_cli.cli import simulated

        simulated.about_block(result["run"])
    if stopped:
        raise Interrupted("interrupted: the result above is of the games finished so far")


def _header(ruleset: Ruleset, options: dict[str, Any], setup: Setup) -> dict[str, Any]:
    return {
        "ruleset": ruleset.id,
        "options": options,
        "teams": {side: {"name": setup.names[side], "team": setup.teams[side]} for side in SIDES},
    }


def match(
    ruleset: Ruleset,
    setup: Setup,
    options: dict[str, Any],
    args: SimulateArgs,
    result: dict[str, Any],
    answers: tuple[Any, ...] | None = None,
    at: dict[str, Any] | None = None,
) -> None:
    """One match-up: as given, or in both seats (`--swap`); a mirror match tells the seat's
    advantage by itself."""
    from wargame_cli.cli import simulated as render

    assert args.games is not None
    seed = _seed(args)
    job = Job(ruleset.id, setup, options, seed, args.games, answers, at, levels=args.levels)
    jobs = lab.swap_jobs(job) if args.swap else [job]
    tallies, stopped = play(jobs, ruleset, args)
    result["seed"] = seed
    result["run"]["seed"] = seed
    labels = [{"seats": "as given"}, {"seats": "swapped"}] if args.swap else [{}]
    if args.swap:
        result["swap"] = True
        result.update(lab.swap_result(tallies))
    elif answers is None and lab.is_mirror(setup, args.levels):
        result.update(lab.mirror_result(tallies[0]))
    else:
        result.update(summarise(tallies[0]))
    recipes = None
    if answers is None:  # a game played on from a save (`--from`) is no new game to play
        given: dict[str, str | None] = {"A": args.team_a, "B": args.team_b}
        recipes = [_recipe(args, given)]
        if args.swap:  # the second half: each team in the other's seat, named as given
            spec = {side: given[side] or setup.names[side] for side in SIDES}
            recipes.append(_recipe(args, {"A": spec["B"], "B": spec["A"]}))
    rows = _rows(labels, tallies, recipes)
    _out(result, args, stopped, lambda: render.report(ruleset, result), rows)


def _rows(
    labels: list[dict[str, Any]], tallies: list[Tally], recipes: list[Recipe] | None = None
) -> list[dict[str, Any]]:
    """Every recorded game, labelled with its job (the seats, the setting, the match-up),
    and, where its job's recipe is known, the command that plays it again (`replay`)."""
    out = []
    for i, (label, t) in enumerate(zip(labels, tallies, strict=False)):
        recipe = recipes[i] if recipes is not None else None
        for row in t.rows:
            again = {"replay": recipe.command(row["seed"])} if recipe is not None else {}
            out.append({**label, **row, **again})
    return out


def _recipe(args: SimulateArgs, teams: dict[str, str | None], **more: Any) -> Recipe:
    """The run's own flags as `wargame play` takes them, with these teams (and any
    setting's further options and unit changes)."""
    return Recipe(
        args.ruleset_id,
        options=[*args.options, *more.get("options", [])],
        units=[*args.units, *more.get("units", [])],
        teams=teams,
        bot_level=more.get("bot_level", args.bot_level),
    )


def settings(ruleset: Ruleset, args: SimulateArgs) -> None:
    """`--compare` or `--sweep`: every setting on the same seeds, each against the first."""
    from wargame_cli.kit.unitstats import merged
    from wargame_cli.simulate.about import by_setting
    from wargame_cli.simulate.settings import Lab, compared, swept

    assert args.games is not None
    known = Lab(ruleset.options, ruleset.unit_sheet(), ruleset.id)
    if args.compare:
        chosen = compared(known, args.options, args.compare)
    else:
        assert args.sweep is not None
        chosen = swept(known, args.options, args.sweep)
    planned = [
        lab.Planned(
            s,
            setup_for(
                ruleset,
                s.options,
                s.teams.get("A", args.team_a),
                s.teams.get("B", args.team_b),
                merged(args.changes, s.units),
            ),
        )
        for s in chosen
    ]
    seed = _seed(args)
    jobs = lab.setting_jobs(ruleset.id, planned, seed, args.games, args.levels)
    tallies, stopped = play(jobs, ruleset, args)
    kept = [(p, t) for p, t in zip(planned, tallies, strict=True) if t.games]
    result = _header(ruleset, planned[0].setting.options, planned[0].setup)
    result.update(changes_json(args.changes))
    result["mode"] = "compare" if args.compare else "sweep"
    if args.sweep is not None:
        result["key"] = next(iter(chosen[0].changed))
    result["seed"] = seed
    result["games"] = args.games
    result["settings"] = lab.settings_result(
        [p for p, _ in kept], [t for _, t in kept], args.levels
    )
    odds = ruleset.odds()
    if odds is not None and not args.levels:  # the exact odds are of the default bots
        for (p, _), row in zip(kept, result["settings"], strict=True):
            exact = odds.exact(p.setup.teams["A"], p.setup.teams["B"], p.setting.options)
            row["exact"] = {"A": exact.a, "B": exact.b}
    found = [row["seat_advantage"] for row in result["settings"] if "seat_advantage" in row]
    if len(found) > 1:
        result["seat_tests"] = lab.seat_family(found)
    result["run"] = run_about(ruleset, planned[0].setting.options, planned[0].setup, args, seed)
    result["run"]["studied"] = [p.setting.label for p in planned]
    each = by_setting(
        ruleset,
        [
            (p.setting.label, {side: (p.setup.names[side], p.setup.teams[side]) for side in SIDES})
            for p in planned
        ],
    )
    if each is not None:  # the teams (or their stats) change with the setting
        result["run"]["by_setting"] = each
    recipes = [_setting_recipe(args, p.setting) for p in planned]
    rows = _rows([{"setting": p.setting.label} for p in planned], tallies, recipes)
    _out(result, args, stopped, lambda: shown_lab().settings(ruleset, result), rows)


def _setting_recipe(args: SimulateArgs, setting: Any) -> Recipe:
    """A setting's games as `wargame play` takes them: its options and unit stats after the
    run's, its teams where it changes them."""
    from wargame_cli.kit.unitstats import is_unit_key
    from wargame_cli.simulate.settings import TEAM_KEYS

    options = [
        f"{key}={str(value).lower() if isinstance(value, bool) else value}"
        for key, value in setting.changed.items()
        if key.lower() not in TEAM_KEYS and not is_unit_key(key)
    ]
    units = [
        f"{unit}.{stat}={value}"
        for unit, stats in setting.units.items()
        for stat, value in stats.items()
    ]
    teams = {"A": setting.teams.get("A", args.team_a), "B": setting.teams.get("B", args.team_b)}
    return _recipe(args, teams, options=options, units=units)


def team_matrix(ruleset: Ruleset, options: dict[str, Any], args: SimulateArgs) -> None:
    """Every ready team the options allow, and the team files given, against each other in
    both seats, ranked by their mean share."""

    assert args.games is not None
    specs: dict[str, str] = {}  # each team's name -> how `wargame play` is given it
    if args.teams_dir is not None:
        entries = folder_teams(ruleset, options, args.teams_dir, specs)
    else:
        entries = ready_teams(ruleset, options)
        specs.update((name, name) for name, _ in entries)
        for spec in (args.team_a, args.team_b):
            if spec is not None:
                team, name = ruleset.load_team(spec, options)
                entries.append((name or spec, team))
                specs[name or spec] = spec
    if args.changes:
        entries = [(name, ruleset.restat(team, args.changes, options)) for name, team in entries]
    if len(entries) < 2:
        where = f"the folder {args.teams_dir}" if args.teams_dir is not None else ruleset.id
        raise BadInput(f"--matrix: {where} needs at least two teams to rank")
    if args.games < 2:
        raise BadInput("--matrix --games N: at least 2 games a match-up (one in each seat)")
    seed = _seed(args)
    jobs = lab.matrix_jobs(ruleset.id, entries, options, seed, args.games, args.levels)
    tallies, stopped = play(jobs, ruleset, args)
    result: dict[str, Any] = {"ruleset": ruleset.id, "options": options, "seed": seed}
    result.update(changes_json(args.changes))
    result["games"] = args.games
    result["matrix"] = lab.matrix_result([name for name, _ in entries], tallies)
    result["matrix"]["described"] = [ruleset.describe_team(team) for _, team in entries]
    from wargame_cli.simulate.about import about

    result["run"] = about(
        ruleset, _with_changes(options, args), entries, seed, args.games, args.bots
    )
    labels = [{"team_a": job.setup.names["A"], "team_b": job.setup.names["B"]} for job in jobs]
    recipes = [
        _recipe(args, {side: specs.get(job.setup.names[side]) for side in SIDES}) for job in jobs
    ]
    _out(
        result,
        args,
        stopped,
        lambda: shown_lab().team_matrix(ruleset, result),
        _rows(labels, tallies, recipes),
    )


def _with_changes(options: dict[str, Any], args: SimulateArgs) -> dict[str, Any]:
    """The run's settings as every report states them: the options and the unit changes."""
    settings = dict(options)
    if args.changes:
        settings["unit changes"] = {unit: dict(stats) for unit, stats in args.changes.items()}
    return settings


def mirrors(ruleset: Ruleset, options: dict[str, Any], args: SimulateArgs) -> None:
    """`--mirrors`: every ready team against itself, at every level the ruleset's bots play
    (or `--bot-level`'s, one level for both sides): how much of a seat's edge is the rules'
    and how much each bot's; the seat tests are many, so corrected for their number."""
    from wargame_cli.bots.base import levels_of
    from wargame_cli.simulate.about import about

    assert args.games is not None
    if args.bot_level is not None:
        if args.bots["A"] != args.bots["B"]:
            raise BadInput("--mirrors: one --bot-level for both sides (a mirror's bots match)")
        levels = [args.bots["A"]]
    else:
        levels = list(ruleset.bot_policies())
    entries = ready_teams(ruleset, options)
    if args.changes:  # the ready teams with the run's unit changes, as every study plays them
        entries = [(name, ruleset.restat(team, args.changes, options)) for name, team in entries]
    if not entries:
        raise BadInput(f"--mirrors: {ruleset.id} has no ready team the options allow")
    seed = _seed(args)
    default = levels_of(None, ruleset, {"A": "bot"})["A"]
    jobs = lab.mirror_jobs(ruleset.id, entries, options, seed, args.games, levels, default)
    tallies, stopped = play(jobs, ruleset, args)
    result: dict[str, Any] = {"ruleset": ruleset.id, "options": options, "seed": seed}
    result.update(changes_json(args.changes))
    result["mode"] = "mirrors"
    result["games"] = args.games
    result["levels"] = levels
    result.update(lab.mirrors_result(entries, levels, tallies))
    bots = {"A": ", ".join(levels), "B": ", ".join(levels)}
    result["run"] = about(ruleset, _with_changes(options, args), entries, seed, args.games, bots)
    labels = [
        {"team_a": job.setup.names["A"], "level": level}
        for level in levels
        for job in jobs[: len(entries)]
    ]
    recipes = [
        _recipe(args, {"A": label["team_a"], "B": label["team_a"]}, bot_level=label["level"])
        for label in labels
    ]
    _out(
        result,
        args,
        stopped,
        lambda: shown_lab().mirrors(ruleset, result),
        _rows(labels, tallies, recipes),
    )


TEAM_FILES = (".toml", ".json")


def folder_teams(
    ruleset: Ruleset, options: dict[str, Any], folder: Path, specs: dict[str, str] | None = None
) -> list[tuple[str, Any]]:
    """Every team file (.toml, .json) in `folder`, by file name: each by the name it carries,
    else its file's stem (`specs`, where given, gets each name's file). A file the ruleset
    refuses is refused, naming it."""
    if not folder.is_dir():
        raise BadInput(f"--teams {shown(folder)}: no such folder")
    out: list[tuple[str, Any]] = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in TEAM_FILES or not path.is_file():
            continue
        try:
            team, name = ruleset.load_team(str(path), options)
        except TeamError as exc:
            raise TeamError(f"--teams: {path.name}: {exc}") from None
        out.append((name or path.stem, team))
        if specs is not None:
            specs[name or path.stem] = str(path)
    names = [name for name, _ in out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise BadInput(f"--teams {shown(folder)}: two teams are called {twice[0]!r}")
    return out


def ready_teams(ruleset: Ruleset, options: dict[str, Any]) -> list[tuple[str, Any]]:
    """The ruleset's ready teams the options allow, by name, in its order."""
    out = []
    for name in ruleset.preset_teams(options):
        try:
            found = ruleset.preset_named(name, options)
        except TeamError:
            continue  # the options forbid it (the menus offer it disabled)
        if found is not None:
            out.append((found[1], found[0]))
    return out


def shown_lab() -> Any:
    from wargame_cli.cli import simulated_lab

    return simulated_lab
