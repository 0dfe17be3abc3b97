"""Tug of WarGods teams: the unit list, team limits (a1, a3-a8) and team building."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from wargame_cli.engine.requests import Choice, Option, side_prompt
from wargame_cli.errors import TeamError
from wargame_cli.kit import teamtext, unitstats
from wargame_cli.kit.filekeys import Keys
from wargame_cli.ruleset import TeamBuilder, quick_pick
from wargame_cli.wording import plural

# The keys a team file may hold (`kit.filekeys`): any other is refused, naming the nearest.
FILE_KEYS: Keys = {"name": None, "models": None, "pronouns": None}

TEAM_SIZE = 3  # a1
DIE_RANGE = (2, 20)  # the sides a changed unit's die may have (`--unit Sebeki.die=8`)
DATA = Path(__file__).with_name("units.toml")


@dataclass(frozen=True)
class Unit:
    name: str
    die: int
    line: str
    group: str = ""
    base: str = ""  # a changed unit (`Sebeki (die=8)`): the listed unit it changes


# a7's "other Greeks": beside the four the list names, a Greek of the player's naming, written
# `Greek:NAME` and kept as `NAME (other Greek)`, at the tier's die (units.toml, [other_greek])
_GREEK_WRITTEN = re.compile(r"(?:other\s+)?greek\s*:\s*(?P<name>.*)", re.I)
_GREEK_KEPT = re.compile(r"(?P<name>.+?)\s*\(other greek\)", re.I)
_GREEK_NAME = re.compile(r"[^\W\d_][\w' -]{0,29}")
GREEKS = "other Greeks"


@dataclass(frozen=True)
class Catalogue:
    units: dict[str, Unit]
    aliases: dict[str, str]
    tier_limits: dict[int, int]
    forbidden_pairs: tuple[tuple[str, str], ...]
    examples: tuple[tuple[str, tuple[str, ...]], ...]
    defaults: dict[str, str]
    other_greek: Unit  # the die and line of a free-named Greek (its name is the player's)

    def lookup(self, name: str) -> Unit:
        key = _norm(name)
        if key in self.aliases:
            return self.units[self.aliases[key]]
        kept = unitstats.read_label(sheet(), name)
        if kept is not None:  # a changed unit as a team keeps it: `Sebeki (die=8)`
            return changed(self.units[kept[0]], kept[1])
        greek = _GREEK_WRITTEN.fullmatch(name.strip()) or _GREEK_KEPT.fullmatch(name.strip())
        if greek is not None:
            return self._greek(greek.group("name").strip())
        known = ", ".join(self.units)
        raise TeamError(
            f"unknown unit {name!r}; units: {known}, or another Greek as Greek:NAME (a7)"
        )

    def unit(self, name: str) -> Unit:
        """A team's model by the name a team keeps: a listed unit or a free-named Greek."""
        return self.units.get(name) or self.lookup(name)

    def _greek(self, name: str) -> Unit:
        """a7's other Greeks: one the list names is that unit; any other is the player's."""
        if _norm(name) in self.aliases:
            listed = self.units[self.aliases[_norm(name)]]
            if listed.group == GREEKS:
                return listed
            raise TeamError(f"{listed.name} is not a Greek: write it as {listed.name} (a7)")
        if not _GREEK_NAME.fullmatch(name):
            raise TeamError(
                f"other Greek {name!r}: name it in letters (at most 30), e.g. Greek:Myrmidon (a7)"
            )
        base = self.other_greek
        return Unit(f"{name} (other Greek)", base.die, base.line, GREEKS)

    def example(self, name: str) -> tuple[str, ...]:
        return dict(self.examples)[name]


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


@cache
def catalogue() -> Catalogue:
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    units: dict[str, Unit] = {}
    aliases: dict[str, str] = {}
    for name, row in data["units"].items():
        units[name] = Unit(name, int(row["die"]), row.get("line", ""), row.get("group", ""))
        for alias in [name, *row.get("aliases", [])]:
            aliases[_norm(alias)] = name
    return Catalogue(
        units=units,
        aliases=aliases,
        tier_limits={int(k): int(v) for k, v in data["limits"]["tier"].items()},
        forbidden_pairs=tuple(tuple(p) for p in data["restrictions"]["forbidden_pairs"]),
        examples=tuple((e["name"], tuple(e["models"])) for e in data["examples"]),
        defaults=dict(data["defaults"]),
        other_greek=Unit(
            "other Greek", int(data["other_greek"]["die"]), data["other_greek"]["line"], GREEKS
        ),
    )


def sheet() -> unitstats.Sheet:
    """Every listed unit's one numeric stat, its die (`--unit Sebeki.die=8`)."""
    return {
        u.name: {"die": unitstats.Stat("die", u.die, *DIE_RANGE)}
        for u in catalogue().units.values()
    }


def changed(unit: Unit, stats: dict[str, unitstats.Number]) -> Unit:
    """A listed unit with its die changed, named by its label (`Sebeki (die=8)`) wherever
    the team, the game, its log and its save name it; the stock die keeps the stock unit."""
    stock = catalogue().units[unit.base or unit.name]
    die = int(stats.get("die", unit.die))
    if die == stock.die:
        return stock
    return Unit(unitstats.label(stock.name, {"die": die}), die, stock.line, stock.group, stock.name)


def restat(models: list[str], changes: unitstats.Changes) -> list[str]:
    """The models with the changed units' dice as `changes` says (`--unit`)."""
    cat = catalogue()
    out = []
    for name in models:
        unit = cat.unit(name)
        stats = changes.get(unit.base or unit.name)
        out.append(changed(unit, stats).name if stats else name)
    return out


@cache
def dice_of() -> dict[str, int]:
    """Each unit's die (a2)."""
    return {name: unit.die for name, unit in catalogue().units.items()}


def dice_for(models: list[str]) -> dict[str, int]:
    """The die of every model named in `models` (a2), free-named Greeks too."""
    cat = catalogue()
    return {**dice_of(), **{m: cat.unit(m).die for m in models}}


def problems(models: list[str], options: dict[str, Any], complete: bool = True) -> list[str]:
    """Every limit the (partial) team breaks, with the rule behind it."""
    cat = catalogue()
    units = [cat.unit(m) for m in models]
    out: list[str] = []
    if complete and len(units) != TEAM_SIZE:
        out.append(f"a team has exactly {TEAM_SIZE} models, not {len(units)} (a1)")
    if len(units) > TEAM_SIZE:
        out.append(f"a team has at most {TEAM_SIZE} models (a1)")
    if options["restrictions"] == "off":
        return out
    if options["limits"] == "tier":
        for die, n in sorted(Counter(u.die for u in units).items(), reverse=True):
            limit = cat.tier_limits.get(die, TEAM_SIZE)
            if n > limit:
                rule = {12: "a4", 10: "a5", 8: "a6", 6: "a7", 4: "a8"}.get(die, "a2")
                out.append(f"at most {plural(limit, f'd{die} model')} per team, not {n} ({rule})")
    else:
        for name, n in Counter(u.base or u.name for u in units).items():
            die = cat.unit(name).die
            limit = cat.tier_limits.get(die, TEAM_SIZE)
            if n > limit:
                rule = {12: "a4", 10: "a5", 8: "a6", 6: "a7", 4: "a8"}.get(die, "a2")
                out.append(f"at most {limit} {name} per team, not {n} ({rule})")
    present = {u.base or u.name for u in units}  # a changed Heru is still a Heru (a3)
    for first, second in cat.forbidden_pairs:
        if first in present and second in present:
            out.append(f"{first} may not be on a team with {second} (a3)")
    if options["restrictions"] == "strict":
        lines = sorted({u.line for u in units})
        if len(lines) > 1:
            out.append(
                f"restrictions=strict: one game line per team, not {' and '.join(lines)} (a3)"
            )
    return out


def validate(models: list[str], options: dict[str, Any]) -> list[str]:
    found = problems(models, options)
    if found:
        raise TeamError(f"team {', '.join(models)}: {found[0]}")
    return models


def parse_inline(text: str, options: dict[str, Any]) -> list[str]:
    """`"Sebeki,Asar,Asar"`, `"2 Asar, Sebeki"`, `"Asar x2, Sebeki"`: front to back."""
    models: list[str] = []
    for entry in teamtext.entries(text):
        if entry.count > TEAM_SIZE:
            raise TeamError(
                f"{entry.count} {entry.text}: a team has exactly {TEAM_SIZE} models (a1)"
            )
        models += [catalogue().lookup(entry.text).name] * entry.count
    if not models:
        raise TeamError('an empty team: name three models, e.g. "Sebeki,Asar,Asar" (a1)')
    return validate(models, options)


def from_data(data: Any, options: dict[str, Any]) -> list[str]:
    """A team file or a saved team: `{"models": [...]}` or a plain list of unit names; a
    model may be a table changing its unit's die, `{unit="Sebeki", die=8}`."""
    models = data.get("models") if isinstance(data, dict) else data
    if not isinstance(models, list) or not all(isinstance(m, str | dict) for m in models):
        raise TeamError("a team needs `models`: a list of unit names, front to back")
    return validate([_model(m, i) for i, m in enumerate(models)], options)


def _model(written: str | dict[str, Any], index: int) -> str:
    """One model of a team file: a unit's name, or `{unit=NAME, die=N}` (a changed die)."""
    cat = catalogue()
    if isinstance(written, str):
        return cat.lookup(written).name
    where = f"model {index + 1}"
    name = written.get("unit")
    if not isinstance(name, str):
        raise TeamError(f'{where}: a table names its unit, e.g. {{unit="Sebeki", die=8}}')
    unit = cat.lookup(name)
    if unit.name not in cat.units:
        raise TeamError(f"{where}: only a listed unit's die can change, not {unit.name}'s")
    stats = {k: v for k, v in written.items() if k != "unit"}
    return changed(unit, unitstats.row(sheet(), unit.name, stats, where)).name


def builder(side: str, options: dict[str, Any]) -> TeamBuilder:
    """Quick picks first, then model by model; illegal units are shown with the reason."""
    cat = catalogue()
    default_name = cat.defaults[side]
    picks = [
        Option(
            f"example:{name}",
            f"{name}: {', '.join(models)}",
            disabled=next(iter(problems(list(models), options)), None),
        )
        for name, models in cat.examples
    ]
    key = yield quick_pick(
        side,
        side_prompt(side, "pick a team"),
        picks,
        f"example:{default_name}",
        ("a1", "a3"),
        "Build a team model by model",
    )
    if key.startswith("example:"):
        return list(cat.example(key.removeprefix("example:")))
    models: list[str] = []
    while len(models) < TEAM_SIZE:
        options_now = []
        for unit in cat.units.values():
            trial = [*models, unit.name]
            reason = next(iter(problems(trial, options, complete=False)), None)
            if reason is None and len(trial) < TEAM_SIZE and not _completable(trial, options):
                reason = "no legal team can be completed from here"
            options_now.append(Option(unit.name, f"{unit.name} (d{unit.die})", disabled=reason))
        legal = [o.key for o in options_now if o.disabled is None]
        suggestion = max(legal, key=lambda n: cat.units[n].die)
        chosen = yield Choice(
            side=side,
            prompt=side_prompt(side, f"model {len(models) + 1} of {TEAM_SIZE} (front to back)"),
            options=tuple(options_now),
            default=suggestion,
            rules=("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"),
            kind="team",
        )
        models.append(chosen)
    return models


def _completable(models: list[str], options: dict[str, Any]) -> bool:
    if len(models) >= TEAM_SIZE:
        return not problems(models, options)
    return any(
        not problems([*models, u], options, complete=False) and _completable([*models, u], options)
        for u in catalogue().units
    )


def told_apart(units: Sequence[str], side: str, index: int) -> str:
    """A model as play, logs and reports name it: its unit, with its place in the column
    (`B1 Sebeki`, `B2 Sebeki`) when the team has more than one of that unit."""
    unit = units[index]
    return f"{side}{index + 1} {unit}" if units.count(unit) > 1 else unit
