"""A campaign's battles: begin it, muster each side's roster into the next battle's teams,
take up a finished battle (played by `campaign next` or adopted by `campaign add`) and carry
its end into the rosters with the ruleset's `Carrying`. After-battle dice are thrown here,
never by the rules, and recorded in the campaign file with their provenance."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.campaigns import book
from wargame_cli.engine.dice import AUTO, DiceSource, RngDice, table_dice
from wargame_cli.engine.requests import Roll
from wargame_cli.errors import BadInput, DiceError, Interrupted, OptionError, SaveError
from wargame_cli.ruleset import (
    SIDES,
    AfterBattle,
    Aftermath,
    Carrying,
    Finished,
    Roster,
    Ruleset,
    resolve_options,
)
from wargame_cli.text import shown


@dataclass(frozen=True)
class AfterDice:
    """Where after-battle faces come from, as a game's do (`engine/dice.table_dice`): after
    `rolls` (`--after-rolls`), the generator of `seed`, or, where `dice` (`--dice`) has a
    side throw real dice, that side's faces typed with `ask` (None: no one at the keyboard,
    so a roll past `rolls` is refused)."""

    seed: int
    rolls: str | None = None
    dice: str = AUTO
    ask: Callable[[Roll], list[int]] | None = None

    def source(self) -> DiceSource:
        return table_dice(self.dice, self.rolls, RngDice(self.seed), self.ask)


def split_options(
    ruleset: Ruleset, carrying: Carrying, given: Sequence[str]
) -> tuple[dict[str, Any], list[str]]:
    """`--option` words for a new campaign: the campaign's own (what carries) resolved, and
    the game options every battle starts from (checked now, kept as written)."""
    own = {spec.name for spec in carrying.options}
    mine = [g for g in given if g.partition("=")[0].strip() in own]
    games = [g for g in given if g.partition("=")[0].strip() not in own]
    try:
        resolve_options(ruleset.options, games)
    except OptionError as exc:
        known = ", ".join(sorted(own))
        raise OptionError(f"{exc} (campaign options: {known or 'none'})") from None
    files = {spec.name for spec in ruleset.options if isinstance(spec.default, dict)}
    return resolve_options(carrying.options, mine), [_absolute(g, files) for g in games]


def _absolute(given: str, files: set[str]) -> str:
    """A file-valued option (`table=ford.toml`) with its file's whole path, so every battle
    finds it wherever `campaign next` is run from."""
    key, _, value = given.partition("=")
    path = Path(value.strip())
    if key.strip() in files and path.is_file():
        return f"{key.strip()}={path.resolve()}"
    return given


def begin(
    name: str,
    ruleset: Ruleset,
    given: Sequence[str],
    teams: dict[str, tuple[Any, str, str | None]],
    saves_dir: Path | None,
) -> book.Campaign:
    """A new campaign file holding each side's first roster (`teams`: each side's team, its
    side's name and the team's own name); refused if the name is taken."""
    path = book.path_of(name, saves_dir)
    if path.exists():
        raise BadInput(f"a campaign called {name!r} exists already ({shown(path)})")
    carrying = ruleset.carrying()
    options, games = split_options(ruleset, carrying, given)
    rosters = {s: carrying.enlist(Roster(), teams[s][0], 1, options, teams[s][2]) for s in SIDES}
    campaign = book.Campaign(
        path=path,
        ruleset={"id": ruleset.id, "version": ruleset.version},
        options=options,
        setup={"name": name, "names": {s: teams[s][1] for s in SIDES}, "game_options": games},
        rosters=rosters,
    )
    book.write(campaign)
    return campaign


def ruleset_of(campaign: book.Campaign) -> Ruleset:
    return registry.get(campaign.ruleset["id"])


def carrying_of(campaign: book.Campaign) -> tuple[Ruleset, Carrying, dict[str, Any]]:
    """The campaign's ruleset, what carries in it, and its options checked again."""
    ruleset = ruleset_of(campaign)
    carrying = ruleset.carrying()
    try:
        options = resolve_options(carrying.options, campaign.options)
    except OptionError as exc:
        raise SaveError(f"campaign {shown(campaign.path)}: {exc}") from None
    return ruleset, carrying, options


def next_number(campaign: book.Campaign) -> int:
    return len(campaign.battles) + 1


def recruit(
    campaign: book.Campaign, specs: dict[str, str | None], options: dict[str, Any]
) -> dict[str, list[str]]:
    """Join `--team-a/--team-b` to the sides' rosters before the next battle; the names of
    those who joined, by side."""
    ruleset, carrying, own = carrying_of(campaign)
    number = next_number(campaign)
    joined: dict[str, list[str]] = {}
    for side in SIDES:
        spec = specs.get(side)
        if spec is None:
            continue
        team, called = carrying.recruits(ruleset, spec, options)
        before = {f.name for f in campaign.rosters[side].figures}
        roster = campaign.rosters[side]
        campaign.rosters[side] = carrying.enlist(roster, team, number, own, called)
        joined[side] = [f.name for f in campaign.rosters[side].figures if f.name not in before]
    return joined


def muster(campaign: book.Campaign) -> dict[str, Any]:
    """Each side's team for the next battle, as its roster stands (wounded figures whose
    time is up back in it)."""
    _, carrying, own = carrying_of(campaign)
    number = next_number(campaign)
    for side in SIDES:
        campaign.rosters[side] = carrying.returning(campaign.rosters[side], number)
    return {s: carrying.muster(campaign.rosters[s], number, own) for s in SIDES}


def pending(campaign: book.Campaign) -> dict[str, Any] | None:
    """The last battle, while it is not yet taken up."""
    if campaign.battles and campaign.battles[-1]["status"] == "playing":
        return campaign.battles[-1]
    return None


def settle(campaign: book.Campaign, dice: AfterDice) -> str | None:
    """Take up the last battle if it was left playing (a game stopped with `--turns`, or a
    run killed): finished, its end carries; gone before its first save, it is dropped; in
    progress, the reason the next cannot start."""
    battle = pending(campaign)
    if battle is None:
        return None
    save = campaign.save_path(battle)
    if not save.exists():
        campaign.battles.pop()  # it never reached its first save: it did not happen
        return None
    from wargame_cli.saves import store

    data = store.load(save)
    if data["status"] != "finished":
        return (
            f"battle {battle['n']} is not finished: `wargame resume {shown(save)}`, then "
            "`wargame campaign next` again"
        )
    take_up(campaign, battle, save, dice)
    return None


def finished_of(save: Path, number: int) -> tuple[Finished, Any]:
    """A finished save replayed: what the campaign hands its ruleset, and the session."""
    from wargame_cli.saves import games

    session = games.open_save(save)
    if session.runner.outcome is None:
        raise BadInput(f"{shown(save)}: that game is not finished (`wargame resume` it first)")
    events = [
        {"kind": e.get("kind", ""), "data": e.get("data") or {}}
        for e in session.runner.log
        if e["t"] == "event"
    ]
    finished = Finished(
        state=session.game.state,
        teams=dict(session.setup.teams),
        names=dict(session.setup.names),
        winner=session.runner.outcome.winner,
        events=events,
        options=dict(session.options),
        number=number,
    )
    return finished, session


def take_up(
    campaign: book.Campaign,
    battle: dict[str, Any],
    save: Path,
    dice: AfterDice,
    kept: str = "",
) -> None:
    """Carry a finished battle into the rosters: the ruleset's after-battle, its dice thrown
    and recorded. `kept`: what becomes of the battle if a die is refused or Ctrl-C stops
    them (by default: it stays the campaign's, taken up by the next `campaign next`)."""
    _, carrying, own = carrying_of(campaign)
    finished, session = finished_of(save, battle["n"])
    copies = {s: Roster.from_json(campaign.rosters[s].as_json()) for s in SIDES}
    kept = kept or f"battle {battle['n']} is saved; `campaign next` takes it up again"
    try:
        aftermath, rolls = throw(carrying.after(copies, finished, own), dice.source())
    except DiceError as exc:  # the battle stands: the next `campaign next` takes it up
        told = str(exc).replace("--rolls", "--after-rolls")
        raise DiceError(f"{told} ({kept})") from None
    except (KeyboardInterrupt, EOFError):  # Ctrl-C at a typed after-battle die
        told = f"interrupted before the after-battle dice were all thrown; {kept}"
        raise Interrupted(told) from None
    rolls = [*in_battle(session.runner.log, carrying.battle_rolls), *rolls]
    campaign.rosters = {s: aftermath.rosters[s] for s in SIDES}
    battle["status"] = "finished"
    battle["winner"] = finished.winner
    battle["after"] = {
        "seed": dice.seed,
        "rolls": rolls,
        "told": list(aftermath.told),
        "rosters": {s: campaign.rosters[s].as_json() for s in SIDES},
    }


def in_battle(log: Sequence[Any], rules: frozenset[str]) -> list[dict[str, Any]]:
    """The battle's own rolls that decide what carries (a roll of any rule point in `rules`:
    Mobs and Morale's survival rolls, e30), as the campaign file records its own after-battle
    dice: each with its faces and where they came from (typed, `manual`, or the generator)."""
    out = []
    for entry in log:
        if entry["t"] != "roll" or not rules & set(entry["rules"]):
            continue
        source = entry["source"]
        out.append(
            {
                "reason": entry["reason"],
                "dice": list(entry["dice"]),
                "faces": list(entry["faces"]),
                "source": list(entry["sources"]) if source == "mixed" else source,
                "rules": list(entry["rules"]),
                "side": entry["side"],
                "labels": list(entry.get("labels") or []),
                "in_battle": True,
            }
        )
    return out


def throw(after: AfterBattle, dice: DiceSource) -> tuple[Aftermath, list[dict[str, Any]]]:
    """Drive an after-battle (through the one driver): every `Roll` it yields thrown by
    `dice` and recorded."""
    from wargame_cli.engine.drive import drive

    rolls: list[dict[str, Any]] = []

    def answer(roll: Any) -> tuple[int, ...]:
        thrown = dice.throw(roll)
        source = thrown.source if isinstance(thrown.source, str) else list(thrown.source)
        rolls.append(
            {
                "reason": roll.reason,
                "dice": list(roll.dice),
                "faces": list(thrown.faces),
                "source": source,
                "rules": list(roll.rules),
                "side": roll.side,
            }
        )
        return tuple(thrown.faces)

    return drive(after, answer), rolls


def adopt(campaign: book.Campaign, save: Path, dice: AfterDice) -> dict[str, Any]:
    """A finished save played outside the campaign taken in as its next battle, if it is
    this campaign's ruleset and each side fought with the team its roster musters."""
    from wargame_cli.saves import store

    if pending(campaign) is not None:
        raise BadInput(f"battle {len(campaign.battles)} of the campaign is not taken up yet")
    data = store.load(save)
    ruleset, carrying, own = carrying_of(campaign)
    if data["ruleset"]["id"] != ruleset.id:
        raise BadInput(
            f"{shown(save)} is a {data['ruleset']['id']} game; campaign {campaign.name!r} "
            f"plays {ruleset.id}"
        )
    if data["status"] != "finished":
        raise BadInput(f"{shown(save)}: that game is not finished (`wargame resume` it first)")
    number = next_number(campaign)
    teams = muster(campaign)
    for side in SIDES:
        if not carrying.matches(campaign.rosters[side], data["setup"]["teams"][side], number, own):
            raise BadInput(
                f"{shown(save)}: side {side}'s team is not {campaign.names[side]}'s roster as "
                f"it stands before battle {number} (`wargame campaign show {campaign.name} "
                "--json` gives the teams to play)"
            )
    del teams
    battle: dict[str, Any] = {
        "t": "battle",
        "n": number,
        "save": campaign.relative(save),
        "status": "playing",
        "adopted": True,
    }
    campaign.battles.append(battle)
    take_up(campaign, battle, save, dice, f"{shown(save)} is not adopted yet: add it again")
    return battle
