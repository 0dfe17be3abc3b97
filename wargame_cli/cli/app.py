"""`wargame`: the Typer app. Only typer is imported here; each command imports what it needs,
so `wargame --help` stays as fast as a minimal Typer app."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from wargame_cli.limits import MAX_INT

app = typer.Typer(
    name="wargame",
    help="Play tabletop miniature wargames at the terminal: hot-seat, replays and scripts.",
    no_args_is_help=True,
    add_completion=True,  # the completers below import their module only when the shell asks
    pretty_exceptions_enable=False,
)


def _complete_ids(incomplete: str) -> list[str]:
    from wargame_cli.cli import completion

    return completion.ruleset_ids(incomplete)


def _complete_options(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    from wargame_cli.cli import completion

    return completion.options(completion.known(ctx.params, args), incomplete)


def _complete_teams(ctx: typer.Context, args: list[str], incomplete: str) -> list[str]:
    from wargame_cli.cli import completion

    return completion.teams(completion.known(ctx.params, args), incomplete)


def _complete_saves(ctx: typer.Context, incomplete: str) -> list[str]:
    from wargame_cli.cli import completion

    return completion.saves(ctx.params, incomplete)


RulesetArg = Annotated[
    str,
    typer.Argument(help="Ruleset id (see `wargame rulesets`).", autocompletion=_complete_ids),
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON object on stdout, nothing else.")
]
SavesDirOpt = Annotated[
    Path | None,
    typer.Option("--saves-dir", help="Saves folder (default ./saves, or $WARGAME_SAVES_DIR)."),
]
BotOpt = Annotated[
    list[str] | None,
    typer.Option("--bot", help="Side played by the computer: A or B (repeatable)."),
]
BotLevelOpt = Annotated[
    str | None,
    typer.Option(
        "--bot-level",
        help="How the computer plays: default, random or search; one for every side it "
        "plays, or each its own (A=search,B=default).",
    ),
]
NoInputOpt = Annotated[
    bool,
    typer.Option(
        "--no-input",
        help="Never prompt: missing teams take the ruleset's defaults, bots make every decision.",
    ),
]
DiceOpt = Annotated[
    str | None,
    typer.Option(
        "--dice",
        help="auto (seeded generator), manual (type the faces of real dice), or each side's, "
        "e.g. A=manual,B=auto. At a typed roll, an empty answer lets the computer roll it. "
        "Without it: asked at setup when setup asks who plays, else auto.",
    ),
]
ResumeDiceOpt = Annotated[
    str | None,
    typer.Option(
        "--dice",
        help="auto, manual or each side's (A=manual,B=auto); by default, as the save was played.",
    ),
]
RollsOpt = Annotated[
    str | None,
    typer.Option(
        "--rolls",
        help='Die faces in the order the rules ask, e.g. "4,3,6,4,4,3"; then --dice takes over.',
    ),
]
ChoicesOpt = Annotated[
    str | None,
    typer.Option(
        "--choices",
        help='Decisions in the order the rules ask, separated by ";" (keys as in the save\'s log);'
        " then each side's player or bot takes over.",
    ),
]
TurnsOpt = Annotated[
    int | None,
    typer.Option(
        "--turns",
        min=0,
        max=MAX_INT,
        help="Stop after N more turns; the game is saved in progress (0: before the next "
        "turn starts, e.g. after deployment, for a GM's edits before the battle).",
    ),
]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        help="Ruleset option KEY=VALUE (repeatable).",
        autocompletion=_complete_options,
    ),
]
SaveOpt = Annotated[
    Path | None,
    typer.Option("--save", help="Save to this file.", autocompletion=_complete_saves),
]
NoSaveOpt = Annotated[bool, typer.Option("--no-save", help="Do not write a save file.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite the --save file if it exists.")]
SAVE_HELP = "The save: its path, or its number in `wargame saves`"
SaveArg = Annotated[
    str | None,
    typer.Argument(
        metavar="SAVE", help=SAVE_HELP + " (or --last).", autocompletion=_complete_saves
    ),
]
LastOpt = Annotated[bool, typer.Option("--last", help="The newest save in the saves folder.")]


@app.command("rulesets")
def rulesets_cmd(json_out: JsonOpt = False) -> None:
    """List the rulesets: id, name, seed file and a one-line summary."""
    from wargame_cli.cli import info

    info.list_rulesets(json_out)


@app.command("rules")
def rules_cmd(
    ruleset_id: RulesetArg,
    points: Annotated[
        list[str] | None,
        typer.Argument(help="Only these rule points (e.g. a13 a16): why did that happen?"),
    ] = None,
    json_out: JsonOpt = False,
    unit_points: Annotated[
        bool,
        typer.Option(
            "--points",
            help="What each unit type is worth: a strength fitted over seeded bot games of"
            " random small teams (cached), and exact values where the odds settle them.",
        ),
    ] = False,
) -> None:
    """Show a ruleset's reference: rule points, units, options and the team syntax."""
    from wargame_cli.cli import info

    if unit_points:
        from wargame_cli.cli import simulate_points

        simulate_points.for_rules(ruleset_id, json_out, points or [])
        return
    info.show_rules(ruleset_id, json_out, points or [])


@app.command("play")
def play_cmd(
    ruleset_id: Annotated[
        str | None,
        typer.Argument(
            help="Ruleset id; asked for in a terminal when left out.",
            autocompletion=_complete_ids,
        ),
    ] = None,
    team_a: Annotated[
        str | None,
        typer.Option(
            "--team-a",
            help="Side A's team: a preset's name, an inline spec or a .toml/.json file.",
            autocompletion=_complete_teams,
        ),
    ] = None,
    team_b: Annotated[
        str | None,
        typer.Option(
            "--team-b",
            help="Side B's team: a preset's name, an inline spec or a .toml/.json file.",
            autocompletion=_complete_teams,
        ),
    ] = None,
    name_a: Annotated[str | None, typer.Option("--name-a", help="Side A's name.")] = None,
    name_b: Annotated[str | None, typer.Option("--name-b", help="Side B's name.")] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", min=-MAX_INT, max=MAX_INT, help="Seed for the dice (drawn if absent)."
        ),
    ] = None,
    bot: BotOpt = None,
    bot_level: BotLevelOpt = None,
    no_input: NoInputOpt = False,
    dice: DiceOpt = None,
    rolls: RollsOpt = None,
    choices: ChoicesOpt = None,
    turns: TurnsOpt = None,
    option: OptionOpt = None,
    unit: Annotated[
        list[str] | None,
        typer.Option(
            "--unit",
            metavar="UNIT.STAT=VALUE",
            help="Change a unit type's numeric stat for this game, as `simulate --unit` does "
            "(repeatable; `wargame rules ID` lists the types and stats).",
        ),
    ] = None,
    save: SaveOpt = None,
    no_save: NoSaveOpt = False,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
    saves_dir: SavesDirOpt = None,
) -> None:
    """Start a new game."""
    from wargame_cli.cli import play

    play.play(
        play.PlayArgs(
            ruleset_id=ruleset_id,
            team_a=team_a,
            team_b=team_b,
            name_a=name_a,
            name_b=name_b,
            seed=seed,
            bots=bot or [],
            bot_level=bot_level,
            no_input=no_input,
            dice=dice,
            rolls=rolls,
            choices=choices,
            turns=turns,
            options=option or [],
            units=unit or [],
            save=save,
            no_save=no_save,
            force=force,
            json_out=json_out,
            saves_dir=saves_dir,
        )
    )


@app.command("resume")
def resume_cmd(
    save_file: SaveArg = None,
    last: Annotated[
        bool, typer.Option("--last", help="Continue the newest game still in progress.")
    ] = False,
    saves_dir: SavesDirOpt = None,
    bot: BotOpt = None,
    bot_level: BotLevelOpt = None,
    no_input: NoInputOpt = False,
    dice: ResumeDiceOpt = None,
    rolls: RollsOpt = None,
    choices: ChoicesOpt = None,
    turns: TurnsOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Continue an unfinished game from its save (written back in place)."""
    from wargame_cli.cli import play, which_save

    play.resume(
        play.ResumeArgs(
            path=which_save.pick(save_file, last, saves_dir, in_progress=True),
            bots=bot or [],
            bot_level=bot_level,
            no_input=no_input,
            dice=dice,
            rolls=rolls,
            choices=choices,
            turns=turns,
            json_out=json_out,
        )
    )


@app.command("replay")
def replay_cmd(
    save_file: SaveArg = None,
    last: LastOpt = False,
    saves_dir: SavesDirOpt = None,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify", help="Re-run the log through the rules; exit 2 on the first divergence."
        ),
    ] = False,
    no_input: Annotated[bool, typer.Option("--no-input", help="Print it all, no pauses.")] = False,
    report: Annotated[
        str | None,
        typer.Option(
            "--report",  # alone, it means `--report -` (boundary.fill_optional_values)
            help="Write a Markdown battle report to FILE (or to stdout when no FILE is given).",
        ),
    ] = None,
    html: Annotated[
        str | None,
        typer.Option(
            "--html",
            help="Write the battle report as one HTML page, with a picture of the table at the"
            " end of every turn, to FILE.",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Let --report/--html replace an existing file (never a save)."
        ),
    ] = False,
    with_rules: Annotated[
        bool,
        typer.Option(
            "--with-rules",
            help="Cite the rule ids behind each line (and the dice, in reports).",
        ),
    ] = False,
    style: Annotated[
        str,
        typer.Option(
            "--style",
            metavar="brief|full",
            help="Reports: 'full' tells every blow, 'brief' a page (quiet turns in a line).",
        ),
    ] = "full",
    pictures: Annotated[
        Path | None,
        typer.Option(
            "--pictures",
            metavar="DIR",
            help="With --report: draw every turn (moves as arrows, attacks as lines) as SVG "
            "files in DIR, shown in the report.",
        ),
    ] = None,
    json_out: JsonOpt = False,
    turn: Annotated[
        int | None,
        typer.Option(
            "--turn",
            min=0,
            help="Show the table at the end of this turn (0: the deployment); "
            'with --json: {"save", "turn", "state"}.',
        ),
    ] = None,
    dice: Annotated[
        bool,
        typer.Option(
            "--dice",
            help="List every die rolled, numbered from 1 in order (for wargame edit SAVE die N).",
        ),
    ] = False,
    odds: Annotated[
        int | None,
        typer.Option(
            "--odds",
            metavar="[N]",
            help="Each side's chance at the end of every turn, from N bot games per turn "
            "(default 6; exact where the ruleset can).",
        ),
    ] = None,
) -> None:
    """Show a saved game turn by turn (next, previous, jump), one turn, verify it, or write
    its battle report."""
    from wargame_cli.cli import replay, which_save

    replay.replay(
        which_save.pick(save_file, last, saves_dir),
        verify,
        no_input,
        report,
        with_rules,
        json_out,
        turn,
        odds,
        html=html,
        force=force,
        dice=dice,
        style=style,
        pictures=pictures,
    )


@app.command("fork")
def fork_cmd(
    turn: Annotated[
        int,
        typer.Option(
            "--turn", min=0, help="Keep the game up to the end of this turn (0: the deployment)."
        ),
    ],
    save_file: SaveArg = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Write the fork here (default: in the saves folder)."),
    ] = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
    saves_dir: SavesDirOpt = None,
    last: LastOpt = False,
) -> None:
    """Branch a saved game at the end of a turn into a new save, to play on with `resume`."""
    from wargame_cli.cli import fork, which_save

    path = which_save.pick(save_file, last, saves_dir)
    fork.fork(path, turn, save, force, json_out, saves_dir)


@app.command("edit")
def edit_cmd(
    save_file: SaveArg = None,
    action: Annotated[
        str | None,
        typer.Argument(
            help="damage FIGURE N, heal FIGURE N, move FIGURE X,Y, remove FIGURE [HOW], "
            "add SIDE PROFILE [X,Y], status WHO VALUE, end WINNER REASON..., die N FACE "
            "(which a ruleset takes: wargame rules ID)."
        ),
    ] = None,
    words: Annotated[
        list[str] | None, typer.Argument(help="The action's words, as listed above.")
    ] = None,
    why: Annotated[str, typer.Option("--why", help="Why the table is edited (logged).")] = "",
    by: Annotated[
        str, typer.Option("--by", help="Who edits: GM, or A or B (a side's owner).")
    ] = "GM",
    force: Annotated[
        bool, typer.Option("--force", help="Edit a finished game (a die correction).")
    ] = False,
    json_out: JsonOpt = False,
    last: LastOpt = False,
    saves_dir: SavesDirOpt = None,
) -> None:
    """Edit a saved game's table: deal or heal damage, move, remove or add a figure, change
    a status, end the battle, or correct a die to the face really thrown. The edit goes in
    the log, with who made it and why."""
    from wargame_cli.cli import edit, which_save

    words = words or []
    if last and save_file is not None:  # `edit --last die 3 6`: no SAVE, so the words shift
        words = [action, *words] if action is not None else words
        save_file, action = None, save_file
    path = which_save.pick(save_file, last, saves_dir)
    edit.edit(path, action, words, by, why, force, json_out)


@app.command("saves")
def saves_cmd(json_out: JsonOpt = False, saves_dir: SavesDirOpt = None) -> None:
    """List the saves in the saves folder, newest first."""
    from wargame_cli.cli import info

    info.list_saves(saves_dir, json_out)


@app.command("simulate")
def simulate_cmd(
    ruleset_id: Annotated[
        str | None,
        typer.Argument(
            help="Ruleset id (see `wargame rulesets`); none with --diff.",
            autocompletion=_complete_ids,
        ),
    ] = None,
    team_a: Annotated[
        str | None,
        typer.Option(
            "--team-a",
            help="Side A's team (default: the ruleset's).",
            autocompletion=_complete_teams,
        ),
    ] = None,
    team_b: Annotated[
        str | None,
        typer.Option(
            "--team-b",
            help="Side B's team (default: the ruleset's).",
            autocompletion=_complete_teams,
        ),
    ] = None,
    games: Annotated[
        int | None, typer.Option("--games", help="Number of bot-vs-bot games.")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=-MAX_INT, max=MAX_INT, help="Seed (reproducible results)."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Processes to spread games over (default: every core)."),
    ] = None,
    option: OptionOpt = None,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help="Exact win probabilities, for a ruleset that can work them out"
            " (`wargame rules ID` says whether it can).",
        ),
    ] = False,
    matrix: Annotated[
        bool,
        typer.Option(
            "--matrix",
            help="Every ready team (and --team-a/--team-b; or with --teams DIR, the folder's"
            " team files) against each other in both seats,"
            " ranked (needs --games; without it, exact odds for every pairing where the"
            " ruleset has them).",
        ),
    ] = False,
    swap: Annotated[
        bool,
        typer.Option("--swap", help="Play half the games with the teams in each other's seats."),
    ] = False,
    mirrors: Annotated[
        bool,
        typer.Option(
            "--mirrors",
            help="Every ready team against itself, at each bot level (or --bot-level's): "
            "the seat tests, corrected for their number.",
        ),
    ] = False,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            "--compare",
            metavar="KEY=VALUE[,KEY=VALUE...]",
            help="A setting of options to compare (repeat: two or more); all on the same"
            " seeds, each against the first.",
        ),
    ] = None,
    sweep: Annotated[
        str | None,
        typer.Option(
            "--sweep",
            metavar="KEY=V1,V2,...",
            help="One option over several values (numbers also as LOW..HIGH or LOW..HIGH:STEP).",
        ),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write the results as one HTML page with charts."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Let --html, --csv or --out replace a file.")
    ] = False,
    csv: Annotated[
        Path | None,
        typer.Option("--csv", metavar="FILE", help="Also write one row per game (CSV)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="RUN.json", help="Also save the run, for --diff."),
    ] = None,
    diff: Annotated[
        tuple[Path, Path] | None,
        typer.Option(
            "--diff",
            metavar="A.json B.json",
            help="Compare two runs saved with --out (paired where they share seeds).",
        ),
    ] = None,
    bot_level: BotLevelOpt = None,
    unit: Annotated[
        list[str] | None,
        typer.Option(
            "--unit",
            metavar="UNIT.STAT=VALUE",
            help="Change a unit type's numeric stat for this run (repeatable; `wargame rules"
            " ID` lists the types and stats).",
        ),
    ] = None,
    teams_dir: Annotated[
        Path | None,
        typer.Option(
            "--teams",
            metavar="DIR",
            help="With --matrix --games N: rank the team files (.toml/.json) in DIR.",
        ),
    ] = None,
    unit_points: Annotated[
        bool,
        typer.Option(
            "--points",
            help="Each unit type's value measured from play (a fitted strength with its"
            " interval), and where exact odds settle it.",
        ),
    ] = False,
    budget: Annotated[
        int | None,
        typer.Option(
            "--budget",
            min=1,
            max=9999,
            help="Build both teams to this many points (the units' values, as --points).",
        ),
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="ADDRESS",
            help="Play on a Dask cluster (its scheduler's address, or 'local' to start one"
            " here); needs the 'cluster' extra.",
        ),
    ] = None,
    json_out: JsonOpt = False,
    from_save: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="SAVE",
            help="Play on from this save's position (its teams and options): the odds from "
            "here. " + SAVE_HELP + ", or --last: the newest game in progress.",
            autocompletion=_complete_saves,
        ),
    ] = None,
    saves_dir: SavesDirOpt = None,
) -> None:
    """Play many bot-vs-bot games (or compute exact odds) to see how a match-up fares."""
    from wargame_cli.cli import simulate, which_save

    if diff is not None or ruleset_id is None:
        simulate.diff(diff, ruleset_id, json_out)
        return
    simulate.simulate(
        simulate.SimulateArgs(
            ruleset_id=ruleset_id,
            team_a=team_a,
            team_b=team_b,
            games=games,
            seed=seed,
            workers=workers,
            options=option or [],
            exact=exact,
            matrix=matrix,
            json_out=json_out,
            from_save=(
                None
                if from_save is None
                else which_save.pick(from_save, False, saves_dir, in_progress=True)
            ),
            swap=swap,
            compare=compare or [],
            sweep=sweep,
            html=html,
            force=force,
            cluster=cluster,
            bot_level=bot_level,
            units=unit or [],
            teams_dir=teams_dir,
            points=unit_points,
            budget=budget,
            csv=csv,
            out=out,
            mirrors=mirrors,
        )
    )


@app.command("dice", context_settings={"ignore_unknown_options": True})
def dice_cmd(
    words: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="EXPRESSION | RULESET [ROLL --PARAM VALUE...]",
            help='A dice expression ("2d10+d8", "3d6 best 1 <= 2", "d20+3 > 14", "pool 4d10 >= 6'
            ' vs defence 8", "2d10+d8 > 3d6"), or a ruleset id: alone, its rolls; with a roll\'s'
            " name and parameters, that roll.",
        ),
    ] = None,
    option: OptionOpt = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write the table and a chart as one HTML page."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Let --html replace an existing file.")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """The exact odds of one roll, AnyDice style: the whole distribution (each value, at
    least, at most) with a bar chart, and the chance a comparison holds."""
    from wargame_cli.cli import dice

    dice.dice(dice.DiceArgs(words or [], option or [], json_out, html, force))


RemoteTeamOpt = Annotated[
    str | None,
    typer.Option(
        "--team",
        help="This side's team: a preset's name, an inline spec or a .toml/.json file "
        "(default: built here, or the ruleset's with --bot/--no-input).",
    ),
]
RemoteNameOpt = Annotated[str | None, typer.Option("--name", help="This side's name.")]
RemoteBotOpt = Annotated[
    bool, typer.Option("--bot", help="The computer plays this machine's side.")
]
RemoteChoicesOpt = Annotated[
    str | None,
    typer.Option(
        "--choices",
        help='This side\'s decisions in the order the rules ask, separated by ";"; then its '
        "player or bot takes over.",
    ),
]


@app.command("host")
def host_cmd(
    ruleset_id: Annotated[
        str | None,
        typer.Argument(help="Ruleset id (not with --resume).", autocompletion=_complete_ids),
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option(
            "--seat", help="The side this machine plays: A or B (default A, or the save's)."
        ),
    ] = None,
    port: Annotated[
        int | None,
        typer.Option(
            "--port",
            min=0,
            max=65535,
            help="Port to listen on (0: any free one; default 7375, or the resumed game's).",
        ),
    ] = None,
    listen: Annotated[
        str, typer.Option("--listen", help="Address to listen on (default: every interface).")
    ] = "0.0.0.0",
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            metavar="SAVE",
            help="Host this save's game again, with its journal (SAVE.journal); the joiner "
            "rejoins. " + SAVE_HELP + ", or --last: the newest game in progress.",
            autocompletion=_complete_saves,
        ),
    ] = None,
    dice: Annotated[
        str | None,
        typer.Option(
            "--dice",
            help="Propose typed physical dice: manual (both sides) or a side's, e.g. B=manual; "
            "the joiner accepts or declines (declined: every roll shared).",
        ),
    ] = None,
    team: RemoteTeamOpt = None,
    name: RemoteNameOpt = None,
    bot: RemoteBotOpt = False,
    bot_level: BotLevelOpt = None,
    no_input: NoInputOpt = False,
    choices: RemoteChoicesOpt = None,
    option: OptionOpt = None,
    save: SaveOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
    saves_dir: SavesDirOpt = None,
) -> None:
    """Host a game for a player on another machine: prints the `wargame join` line to give
    them. Both machines run the rules; the dice are shared by commit and reveal."""
    from wargame_cli.cli import remote, remote_host, which_save

    remote_host.host(
        remote_host.HostArgs(
            ruleset_id=ruleset_id,
            seat=seat,
            local=remote.Local(
                team, name, bot, no_input, choices, json_out, save, force, saves_dir, bot_level
            ),
            options=option or [],
            port=port,
            listen=listen,
            resume=(
                None
                if resume is None
                else which_save.pick(resume, False, saves_dir, in_progress=True)
            ),
            dice=dice,
        )
    )


@app.command("join")
def join_cmd(
    address: Annotated[
        str, typer.Argument(help="The host's HOST:PORT, as `wargame host` printed.")
    ],
    code: Annotated[str, typer.Option("--code", help="The seat code `wargame host` printed.")],
    team: RemoteTeamOpt = None,
    name: RemoteNameOpt = None,
    bot: RemoteBotOpt = False,
    bot_level: BotLevelOpt = None,
    no_input: NoInputOpt = False,
    choices: RemoteChoicesOpt = None,
    save: SaveOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
    saves_dir: SavesDirOpt = None,
) -> None:
    """Take the seat of a game hosted on another machine (`wargame host`)."""
    from wargame_cli.cli import remote, remote_join

    remote_join.join(
        remote_join.JoinArgs(
            address,
            code,
            remote.Local(
                team, name, bot, no_input, choices, json_out, save, force, saves_dir, bot_level
            ),
        )
    )


@app.command("watch")
def watch_cmd(
    address: Annotated[
        str, typer.Argument(help="The host's HOST:PORT, as `wargame host` printed.")
    ],
    code: Annotated[
        str, typer.Option("--code", help="The spectators' code `wargame host` printed.")
    ],
    json_out: JsonOpt = False,
) -> None:
    """Watch a hosted game, read-only: the board and every line as it happens."""
    from wargame_cli.cli import remote_watch

    remote_watch.watch(address, code, json_out)


from wargame_cli.cli.campaign_app import campaign_app  # noqa: E402 (it reads the flags above)

app.add_typer(campaign_app)


def _unwrapped(doc: str) -> str:
    """A docstring's paragraphs each on one line: the help wraps them at the terminal's width
    (a docstring's own line breaks, kept, cut a sentence mid-line in `wargame --help`)."""
    return "\n\n".join(" ".join(part.split()) for part in doc.strip().split("\n\n"))


for _command in [*app.registered_commands, *campaign_app.registered_commands]:
    if _command.help is None and _command.callback is not None and _command.callback.__doc__:
        _command.help = _unwrapped(_command.callback.__doc__)


def main() -> None:
    """Entry point: turns every user error into one line on stderr and exit code 2."""
    from wargame_cli.cli.boundary import run

    sys.exit(run(app, sys.argv[1:]))
