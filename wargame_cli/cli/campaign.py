"""`wargame campaign`: new, next, show and add. The battles are played by `play` (each a
normal save) and carried into the rosters by `campaigns/season.py`."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.campaigns import book, season
from wargame_cli.cli.output import console, emit_json
from wargame_cli.engine.dice import AUTO, parse_dice
from wargame_cli.engine.session import draw_seed
from wargame_cli.errors import BadInput
from wargame_cli.invoked import command
from wargame_cli.ruleset import SIDES, Figure, resolve_options
from wargame_cli.saves import store
from wargame_cli.text import name_problem, shown


@dataclass
class NextArgs:
    """`campaign next`: the battle's own flags, as `play` takes them, and the chronicle's."""

    name: str
    team_a: str | None = None  # recruits
    team_b: str | None = None
    seed: int | None = None
    bots: list[str] = field(default_factory=list)
    bot_level: str | None = None
    no_input: bool = False
    dice: str | None = None
    rolls: str | None = None
    choices: str | None = None
    turns: int | None = None
    options: list[str] = field(default_factory=list)
    json_out: bool = False
    saves_dir: Path | None = None
    battle_name: str | None = None
    place: str | None = None
    after_rolls: str | None = None


def _words(flag: str, text: str | None) -> str | None:
    """A battle's name or place, refused as a side's name would be (markup, escapes)."""
    if text is None:
        return None
    text = text.strip()
    if problem := name_problem(text):
        raise BadInput(f"{flag} {text!r}: {problem}")
    return text


def new(
    name: str,
    ruleset_id: str,
    options: list[str],
    team_a: str | None,
    team_b: str | None,
    name_a: str | None,
    name_b: str | None,
    saves_dir: Path | None,
    json_out: bool,
) -> None:
    ruleset = registry.get(ruleset_id)
    book.path_of(name, saves_dir)  # a bad name is refused before anything else
    carrying = ruleset.carrying()
    _, games = season.split_options(ruleset, carrying, options)
    game_options = resolve_options(ruleset.options, games)
    teams: dict[str, tuple[Any, str, str | None]] = {}
    for side, spec, given in (("A", team_a, name_a), ("B", team_b, name_b)):
        if given is not None and (problem := name_problem(given)):
            raise BadInput(f"--name-{side.lower()} {given!r}: {problem}")
        if spec is not None:
            team, called = carrying.recruits(ruleset, spec, game_options)
            teams[side] = (team, given or called or f"Side {side}", called)
        else:
            team, called = ruleset.default_team(side, game_options)
            teams[side] = (team, given or called, called)
    if teams["A"][1].casefold() == teams["B"][1].casefold():
        raise BadInput(f"both sides are named {teams['A'][1]!r}; give --name-a or --name-b")
    campaign = season.begin(name, ruleset, options, teams, saves_dir)
    if json_out:
        emit_json(_shown(campaign))
        return
    out = console()
    out.print(
        f"Campaign {name} begun ({ruleset.name}): {teams['A'][1]} against {teams['B'][1]}.",
        markup=False,
    )
    out.print(f"Play its first battle with: {command('campaign next ' + name)}", markup=False)


def next_battle(args: NextArgs) -> None:
    from wargame_cli.cli import play

    path = book.path_of(args.name, args.saves_dir)
    battle_name = _words("--battle-name", args.battle_name)
    place = _words("--place", args.place)
    book.load(path, args.name)  # an unknown campaign is told as such, before its lock
    with store.locked(path, new=False):
        campaign = book.load(path, args.name)
        before = campaign.as_json()
        ruleset, carrying, _ = season.carrying_of(campaign)
        seed = args.seed if args.seed is not None else draw_seed()
        dice = _after_dice(seed, args.after_rolls, args.dice, args.no_input)
        was = season.pending(campaign)
        if (why := season.settle(campaign, dice)) is not None:
            raise BadInput(why)
        if was is not None:  # the last battle taken up is kept, whatever comes next
            book.write(campaign)
            before = campaign.as_json()
        game_options = [*campaign.setup["game_options"], *args.options]
        resolved = resolve_options(ruleset.options, game_options)
        joined = season.recruit(campaign, {"A": args.team_a, "B": args.team_b}, resolved)
        teams = season.muster(campaign)
        number = season.next_number(campaign)
        names = {s: carrying.fielded(campaign.rosters[s], campaign.names[s]) for s in SIDES}
        if names["A"].casefold() == names["B"].casefold():
            names = campaign.names
        save = _free(store.saves_dir(args.saves_dir) / store.file_name(ruleset.id, names))
        battle: dict[str, Any] = {
            "t": "battle",
            "n": number,
            "save": campaign.relative(save),
            "status": "playing",
            **({"battle_name": battle_name} if battle_name else {}),
            **({"place": place} if place else {}),
            **({"recruits": joined} if joined else {}),
        }
        campaign.battles.append(battle)
        book.write(campaign)  # the battle is the campaign's from its first save on
        given = play.PlayArgs(
            ruleset_id=ruleset.id,
            seed=args.seed,
            bots=args.bots,
            bot_level=args.bot_level,
            no_input=args.no_input,
            dice=args.dice,
            rolls=args.rolls,
            choices=args.choices,
            turns=args.turns,
            options=game_options,
            save=save,
            json_out=args.json_out,
            saves_dir=args.saves_dir,
            ready={s: (teams[s], names[s]) for s in SIDES},
            emit=False,
        )
        try:
            session, _ = play.play(given)
        except BaseException:
            if not save.exists():  # it never began: the campaign is as it was, recruits too
                book.write(book.load(path, args.name).restored(before))
            raise
        if session.runner.outcome is not None:  # the battle's dice throw its after-battle's
            dice = _after_dice(seed, args.after_rolls, session.meta["dice"], args.no_input)
            season.take_up(campaign, battle, save, dice)
            book.write(campaign)
    _told_battle(campaign, battle, save, args.json_out)


def _after_dice(
    seed: int, after_rolls: str | None, kind: str | None, no_input: bool
) -> season.AfterDice:
    """The after-battle dice as `--dice` says the battle's are thrown: where a side throws
    real dice, its after-battle faces are typed at a prompt (an empty answer: the computer
    rolls it), or, with `--no-input`, given by `--after-rolls` alone."""
    from wargame_cli.cli import play

    kind = kind or AUTO
    parse_dice(kind)  # a bad form is refused before anything is played
    ask = None if no_input else play._typist(kind, None)
    return season.AfterDice(seed, after_rolls, kind, ask)


def _free(path: Path) -> Path:
    """`path`, or the first numbered name beside it that no file has (`…-2.json`)."""
    number = 1
    found = path
    while found.exists():
        number += 1
        found = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return found


def _told_battle(
    campaign: book.Campaign, battle: dict[str, Any], save: Path, json_out: bool
) -> None:
    if json_out:
        emit_json({**_shown(campaign), "battle": _battle_json(campaign, battle)})
        return
    out = console()
    number = battle["n"]
    if battle["status"] != "finished":
        out.print(
            f"Battle {number} saved in progress to {shown(save)}; "
            f"{command('resume ' + shown(save))}, then {command('campaign next ' + campaign.name)}"
            " takes it up.",
            markup=False,
            soft_wrap=True,
        )
        return
    winner = battle.get("winner")
    result = f"{campaign.names[winner]} won" if winner else "a draw"
    out.print(f"Battle {number}: {result}. Saved to {shown(save)}", markup=False, soft_wrap=True)
    for line in (battle.get("after") or {}).get("told", []):
        out.print(f"  {line}", markup=False)
    out.print(f"The rosters: {command('campaign show ' + campaign.name)}", markup=False)


def add(
    name: str,
    save: Path,
    seed: int | None,
    after_rolls: str | None,
    saves_dir: Path | None,
    json_out: bool,
    dice_kind: str | None = None,
) -> None:
    path = book.path_of(name, saves_dir)
    book.load(path, name)  # an unknown campaign is told as such, before its lock
    with store.locked(path, new=False):
        campaign = book.load(path, name)
        seed = seed if seed is not None else draw_seed()
        dice = _after_dice(seed, after_rolls, dice_kind, no_input=False)
        if any(campaign.save_path(b).resolve() == save.resolve() for b in campaign.battles):
            raise BadInput(f"{shown(save)} is already a battle of campaign {name!r}")
        was = season.pending(campaign)
        if (why := season.settle(campaign, dice)) is not None:
            raise BadInput(why)
        if was is not None:  # the last battle taken up is kept, whatever comes next
            book.write(campaign)
        battle = season.adopt(campaign, save, dice)
        book.write(campaign)
    _told_battle(campaign, battle, save, json_out)


def show(name: str, saves_dir: Path | None, json_out: bool) -> None:
    path = book.path_of(name, saves_dir)
    campaign = book.load(path, name)
    if json_out:
        emit_json(_shown(campaign))
        return
    _print(campaign)


def _battle_json(campaign: book.Campaign, battle: dict[str, Any]) -> dict[str, Any]:
    keys = ("n", "status", "winner", "battle_name", "place", "adopted", "recruits", "after")
    return {
        **{k: battle[k] for k in keys if k in battle},
        "save": str(campaign.save_path(battle)),
    }


def _shown(campaign: book.Campaign) -> dict[str, Any]:
    """`campaign show --json`: the campaign, its battles, each side's roster and the teams
    its next battle would muster (or why it cannot)."""
    ruleset, carrying, own = season.carrying_of(campaign)
    copy = book.load(campaign.path) if campaign.path.exists() else campaign
    try:
        teams: dict[str, Any] = season.muster(copy)
    except BadInput as exc:
        teams = {"refused": str(exc)}
    return {
        "campaign": campaign.name,
        "path": str(campaign.path),
        "ruleset": ruleset.id,
        "options": own,
        "game_options": list(campaign.setup["game_options"]),
        "battles": [_battle_json(campaign, b) for b in campaign.battles],
        "sides": {
            s: {
                "name": campaign.names[s],
                "figures": [f.as_json() for f in campaign.rosters[s].figures],
                "extra": campaign.rosters[s].extra,
            }
            for s in SIDES
        },
        "next": {"battle": season.next_number(campaign), "teams": teams},
        "standings": _standings(campaign),
    }


def _standings(campaign: book.Campaign) -> list[str]:
    """The ruleset's lines on the campaign as it stands (a league's table and odds)."""
    ruleset, carrying, own = season.carrying_of(campaign)
    copy = book.load(campaign.path) if campaign.path.exists() else campaign
    with suppress(BadInput):
        season.muster(copy)  # the rosters as the next battle would take them
    game = resolve_options(ruleset.options, campaign.setup["game_options"])
    return carrying.standings(copy.rosters, season.next_number(copy), own, game)


def _print(campaign: book.Campaign) -> None:
    from rich.table import Table

    ruleset, carrying, own = season.carrying_of(campaign)
    out = console()
    done = sum(b["status"] == "finished" for b in campaign.battles)
    out.print(
        f"Campaign {campaign.name} ({ruleset.name}): {done} battle{'s' * (done != 1)} fought.",
        markup=False,
    )
    for battle in campaign.battles:
        winner = battle.get("winner")
        result = (
            _pending(campaign, battle)
            if battle["status"] != "finished"
            else (f"{campaign.names[winner]} won" if winner else "a draw")
        )
        title = " at ".join(t for t in (battle.get("battle_name"), battle.get("place")) if t)
        out.print(
            f"  Battle {battle['n']}{': ' + title if title else ''}: {result} "
            f"({shown(campaign.save_path(battle))})",
            markup=False,
            soft_wrap=True,
        )
    for side in SIDES:
        roster = campaign.rosters[side]
        table = Table(title=f"{campaign.names[side]} (side {side})", title_justify="left")
        league = carrying.kind == "league"
        columns = ("club", "played", "results") if league else COLUMNS
        for column in columns:
            table.add_column(column)
        for figure in roster.figures:
            row = _row(figure)
            table.add_row(*((row[0], row[4], row[5]) if league else row))
        if not roster.figures:
            out.print(
                f"{campaign.names[side]} (side {side}): keeps its team, no roster", markup=False
            )
        else:
            out.print(table)
    for line in _standings(campaign):
        out.print(line, markup=False)


def _pending(campaign: book.Campaign, battle: dict[str, Any]) -> str:
    """A battle the campaign has not taken up yet: in progress, or over and waiting."""
    try:
        over = store.read_raw(campaign.save_path(battle)).get("status") == "finished"
    except BadInput:
        return "begun, no turn saved yet"
    if over:
        return f"over; what it left carries at the next `campaign next {campaign.name}`"
    return "in progress"


COLUMNS = ("figure", "state", "wounds", "kills", "battles", "deeds")


def _row(figure: Figure) -> tuple[str, ...]:
    from rich.markup import escape

    state = figure.state + (f" (back for battle {figure.back})" if figure.back else "")
    return (
        escape(figure.name),
        state,
        str(figure.wounds),
        str(figure.kills),
        str(figure.battles),
        escape("; ".join(figure.deeds[-3:])),
    )


def report(
    name: str,
    saves_dir: Path | None,
    markdown: Path | None,
    html: Path | None,
    pictures: Path | None,
    force: bool,
) -> None:
    """`campaign report`: the campaign's finished battles told as one story (the chronicle,
    `report/chronicle.py`): Markdown on stdout, or into `--report FILE`, and/or one HTML
    page (`--html FILE`). Each battle carries the name and place `campaign next` gave it."""
    from wargame_cli.report import output
    from wargame_cli.report.chronicle import ChronicleBattle, write_chronicle

    campaign = book.load(book.path_of(name, saves_dir), name)
    finished = [b for b in campaign.battles if b.get("status") == "finished"]
    if not finished:
        raise BadInput(
            f"campaign {name!r} has no finished battle to tell yet; play one with "
            f"{command(f'campaign next {name}')}"
        )
    battles = [
        ChronicleBattle(campaign.save_path(b), b.get("battle_name"), b.get("place"))
        for b in finished
    ]
    title = f"The {campaign.name} campaign"
    for target, option in ((markdown, "--report"), (html, "--html")):
        if target is not None:
            output.check(target, None, force, option)
    err = console(stderr=True)
    if html is not None:
        page = write_chronicle(battles, title, "html")
        output.write(html, page, None, force, "--html")
        err.print(f"Chronicle written to {shown(html)}", markup=False, soft_wrap=True)
    if markdown is None and html is not None and pictures is None:
        return
    home = markdown.parent if markdown is not None else Path.cwd()
    text = write_chronicle(battles, title, "markdown", pictures, home, force)
    if markdown is None:
        console().print(text, markup=False, highlight=False, soft_wrap=True)
        return
    output.write(markdown, text, None, force, "--report")
    err.print(f"Chronicle written to {shown(markdown)}", markup=False, soft_wrap=True)
