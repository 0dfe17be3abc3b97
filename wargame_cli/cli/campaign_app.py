"""`wargame campaign`'s commands (typer alone: each imports what it needs when run)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from wargame_cli.cli.app import (
    BotLevelOpt,
    BotOpt,
    ChoicesOpt,
    DiceOpt,
    JsonOpt,
    NoInputOpt,
    OptionOpt,
    RollsOpt,
    RulesetArg,
    SavesDirOpt,
    TurnsOpt,
    _complete_saves,
    _complete_teams,
)
from wargame_cli.limits import MAX_INT

campaign_app = typer.Typer(
    name="campaign",
    help="Campaigns: the same sides from battle to battle, with what carries between them.",
    no_args_is_help=True,
)

NameArg = Annotated[str, typer.Argument(metavar="NAME", help="The campaign's name.")]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        min=-MAX_INT,
        max=MAX_INT,
        help="Seed for the battle's dice and its after-battle dice (drawn if absent).",
    ),
]
AfterRollsOpt = Annotated[
    str | None,
    typer.Option(
        "--after-rolls",
        help='Faces for the after-battle dice, in the order asked ("5,2"); then the seed rolls.',
    ),
]

AfterDiceOpt = Annotated[
    str | None,
    typer.Option(
        "--dice",
        help="Who throws the after-battle dice: auto (seeded), manual (type the faces of real "
        "dice at a prompt; empty: the computer rolls it), or each side's, e.g. A=manual,B=auto.",
    ),
]


def _team(side: str, what: str) -> object:
    return typer.Option(
        f"--team-{side}",
        help=f"Side {side.upper()}'s {what}: a preset's name, an inline spec or a "
        ".toml/.json file.",
        autocompletion=_complete_teams,
    )


@campaign_app.command("new")
def new_cmd(
    name: NameArg,
    ruleset_id: RulesetArg,
    team_a: Annotated[str | None, _team("a", "first roster")] = None,
    team_b: Annotated[str | None, _team("b", "first roster")] = None,
    name_a: Annotated[str | None, typer.Option("--name-a", help="Side A's name.")] = None,
    name_b: Annotated[str | None, typer.Option("--name-b", help="Side B's name.")] = None,
    option: OptionOpt = None,
    json_out: JsonOpt = False,
    saves_dir: SavesDirOpt = None,
) -> None:
    """Begin a campaign: each side's first roster (default teams unless given) and its
    options, the campaign's own (what carries) and the game options every battle starts from."""
    from wargame_cli.cli import campaign

    campaign.new(
        name, ruleset_id, option or [], team_a, team_b, name_a, name_b, saves_dir, json_out
    )


@campaign_app.command("next")
def next_cmd(
    name: NameArg,
    team_a: Annotated[str | None, _team("a", "recruits")] = None,
    team_b: Annotated[str | None, _team("b", "recruits")] = None,
    battle_name: Annotated[
        str | None, typer.Option("--battle-name", help="The battle's name, for the chronicle.")
    ] = None,
    place: Annotated[
        str | None, typer.Option("--place", help="Where it is fought, for the chronicle.")
    ] = None,
    seed: SeedOpt = None,
    bot: BotOpt = None,
    bot_level: BotLevelOpt = None,
    no_input: NoInputOpt = False,
    dice: DiceOpt = None,
    rolls: RollsOpt = None,
    after_rolls: AfterRollsOpt = None,
    choices: ChoicesOpt = None,
    turns: TurnsOpt = None,
    option: OptionOpt = None,
    json_out: JsonOpt = False,
    saves_dir: SavesDirOpt = None,
) -> None:
    """Play the campaign's next battle: each side's roster as the last battle left it, with
    any recruits; then what carries goes into the rosters."""
    from wargame_cli.cli import campaign

    campaign.next_battle(
        campaign.NextArgs(
            name=name,
            team_a=team_a,
            team_b=team_b,
            seed=seed,
            bots=bot or [],
            bot_level=bot_level,
            no_input=no_input,
            dice=dice,
            rolls=rolls,
            choices=choices,
            turns=turns,
            options=option or [],
            json_out=json_out,
            saves_dir=saves_dir,
            battle_name=battle_name,
            place=place,
            after_rolls=after_rolls,
        )
    )


@campaign_app.command("show")
def show_cmd(name: NameArg, json_out: JsonOpt = False, saves_dir: SavesDirOpt = None) -> None:
    """Each side's roster: every named figure with its state, wounds, kills and battles."""
    from wargame_cli.cli import campaign

    campaign.show(name, saves_dir, json_out)


@campaign_app.command("add")
def add_cmd(
    name: NameArg,
    save: Annotated[
        Path,
        typer.Argument(
            metavar="SAVE",
            help="A finished save played outside the campaign.",
            autocompletion=_complete_saves,
        ),
    ],
    seed: SeedOpt = None,
    after_rolls: AfterRollsOpt = None,
    dice: AfterDiceOpt = None,
    json_out: JsonOpt = False,
    saves_dir: SavesDirOpt = None,
) -> None:
    """Adopt a finished save as the campaign's next battle, if its teams are the rosters'."""
    from wargame_cli.cli import campaign

    campaign.add(name, save, seed, after_rolls, saves_dir, json_out, dice)


@campaign_app.command("report")
def report_cmd(
    name: NameArg,
    report: Annotated[
        Path | None,
        typer.Option("--report", metavar="FILE", help="Write the Markdown to FILE (else stdout)."),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", metavar="FILE", help="Write the chronicle as one HTML page."),
    ] = None,
    pictures: Annotated[
        Path | None,
        typer.Option(
            "--pictures", metavar="DIR", help="Write each battle's field as DIR/battle-N.svg."
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Let --report, --html or --pictures replace files.")
    ] = False,
    saves_dir: SavesDirOpt = None,
) -> None:
    """The campaign told as one story: each battle, its turning points, every figure's deeds
    and fate, a roster table and the field of each battle."""
    from wargame_cli.cli import campaign

    campaign.report(name, saves_dir, report, html, pictures, force)
