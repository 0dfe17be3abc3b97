"""Seeds of Wars armies: unit types from `units.toml`, armies from `armies.toml`, the inline
syntax, validation and interactive building.

An army's JSON form carries every unit's full profile, so a save replays the same battle even
after someone edits the TOML data.
"""

from __future__ import annotations

import copy
import re
import tomllib
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

from wargame_cli.engine.requests import Choice, Option
from wargame_cli.errors import TeamError
from wargame_cli.kit import teamtext, unitstats
from wargame_cli.kit.filekeys import Keys
from wargame_cli.ruleset import TeamBuilder, quick_pick, refusal
from wargame_cli.wording import plural

HERE = Path(__file__).parent
STATS = ("Mv", "Ra", "Me", "De", "Mo", "Ht")
ORDER_RANGE = (0, 5)
STAT_RANGE = (-10, 40)
BUILD_ORDER_DEFAULT = 2
BUILD_SIZE_DEFAULT = 5
SCOUT = "Scout"
# The keys an army file may hold (`kit.filekeys`): any other is refused, naming the nearest.
FILE_KEYS: Keys = {
    "name": None,
    "order": None,
    "units": {"type": None, **{stat: None for stat in STATS}, "tags": None},
    "carried": {"taken": None, "state": None},  # what a campaign carries, unit by unit
    "pronouns": None,
}


@dataclass(frozen=True, slots=True)
class UnitType:
    """A unit profile (the card's Mv, Ra, Me, De, Mo, Ht); `ra` None: it cannot shoot."""

    name: str
    mv: int
    ra: int | None
    me: int
    de: int
    mo: int
    ht: int
    tags: tuple[str, ...] = ()

    @property
    def scout(self) -> bool:
        return SCOUT in self.tags

    def to_data(self) -> dict[str, Any]:
        return {
            "type": self.name,
            "Mv": self.mv,
            "Ra": self.ra,
            "Me": self.me,
            "De": self.de,
            "Mo": self.mo,
            "Ht": self.ht,
            "tags": list(self.tags),
        }

    def profile(self) -> str:
        ra = "-" if self.ra is None else f"{self.ra:+d}"
        tags = f" [{', '.join(self.tags)}]" if self.tags else ""
        return (
            f"Mv {self.mv} Ra {ra} Me {self.me:+d} De {self.de} Mo {self.mo:+d} Ht {self.ht}{tags}"
        )


@dataclass(frozen=True)
class Catalogue:
    types: dict[str, UnitType]
    aliases: dict[str, str]
    armies: dict[str, dict[str, Any]]
    defaults: dict[str, str]

    def lookup(self, name: str) -> UnitType:
        key = _norm(name)
        if key not in self.aliases:
            raise TeamError(f"unknown unit type {name!r}; types: {', '.join(self.types)}")
        return self.types[self.aliases[key]]


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _unit_type(name: str, row: dict[str, Any], base: UnitType | None = None) -> UnitType:
    """A profile from a TOML/JSON row; stats missing from the row come from `base`."""
    values: dict[str, Any] = {}
    for stat in STATS:
        if stat in row:
            value = row[stat]
        elif base is not None:
            value = getattr(base, stat.lower())
        elif stat == "Ra":
            value = None
        else:
            raise TeamError(f"unit {name!r} has no {stat}")
        if value is None and stat == "Ra":
            values[stat] = None
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise TeamError(f"unit {name!r}: {stat} must be a whole number, not {value!r}")
        if not STAT_RANGE[0] <= value <= STAT_RANGE[1]:
            raise TeamError(f"unit {name!r}: {stat} {value} is out of range {STAT_RANGE}")
        values[stat] = value
    if values["Ht"] < 1:
        raise TeamError(f"unit {name!r}: Ht must be at least 1")
    if values["Mv"] < 0:
        raise TeamError(f"unit {name!r}: Mv cannot be negative")
    tags = row.get("tags", list(base.tags) if base else [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise TeamError(f"unit {name!r}: tags must be a list of words")
    return UnitType(
        name,
        values["Mv"],
        values["Ra"],
        values["Me"],
        values["De"],
        values["Mo"],
        values["Ht"],
        tuple(tags),
    )


@cache
def catalogue() -> Catalogue:
    units = tomllib.loads((HERE / "units.toml").read_text(encoding="utf-8"))
    armies = tomllib.loads((HERE / "armies.toml").read_text(encoding="utf-8"))
    types: dict[str, UnitType] = {}
    aliases: dict[str, str] = {}
    for name, row in units["units"].items():
        types[name] = _unit_type(name, row)
        for alias in [name, *row.get("aliases", [])]:
            aliases[_norm(alias)] = name
    return Catalogue(
        types=types,
        aliases=aliases,
        armies={a["name"]: a for a in armies["armies"]},
        defaults=dict(armies["defaults"]),
    )


@cache
def sheet() -> unitstats.Sheet:
    """Every unit type's six stats with the ranges a profile may hold (`--unit Knights.De=11`,
    and the same change written in an army file, `{type="Knights", De=11}`)."""
    low = {"Mv": 0, "Ht": 1}
    return {
        t.name: {
            stat: unitstats.Stat(
                stat, t.to_data()[stat], low.get(stat, STAT_RANGE[0]), STAT_RANGE[1]
            )
            for stat in STATS
        }
        for t in catalogue().types.values()
    }


def restat(team: dict[str, Any], changes: unitstats.Changes) -> dict[str, Any]:
    """The army with the stats of each changed type's units as `changes` says."""
    rows = [{**row, **changes.get(row["type"], {})} for row in team["units"]]
    return {**team, "units": rows}


def labelled(kind: UnitType) -> str:
    """A unit type as `simulate`'s figures name it: `Knights (De=11)` where its profile
    differs from the stock one, so changed units stay apart from stock ones."""
    return unitstats.label(kind.name, unitstats.differing(sheet(), kind.name, kind.to_data()))


# -- validation ---------------------------------------------------------------------------
def capacity(options: dict[str, Any]) -> int:
    """How many units a side can deploy: its home spaces times the stacking limit."""
    home = (1 + options["battle_lines"]) * options["columns"]
    return home * options["stack_limit"]


def max_units(options: dict[str, Any]) -> int:
    return min(options["army_size"], capacity(options))


UNNAMED = "Army"  # the name an army's JSON form holds when its team text or file gave none


def army(name: str, order: Any, units: list[UnitType], options: dict[str, Any]) -> dict[str, Any]:
    """The checked JSON form of an army."""
    who = "the army" if name == UNNAMED else f"army {name!r}"  # an inline army has no name
    if not isinstance(order, int) or isinstance(order, bool):
        raise TeamError(f"{who}: order must be a whole number, not {order!r}")
    if not ORDER_RANGE[0] <= order <= ORDER_RANGE[1]:
        raise TeamError(f"{who}: order {order} is outside {ORDER_RANGE[0]}-{ORDER_RANGE[1]}")
    if not units:
        raise TeamError(f"{who} has no units")
    limit = max_units(options)
    if len(units) > limit:
        raise TeamError(
            f"{who} has {plural(len(units), 'unit')}; at most {limit} (army_size, and "
            "the home spaces times stack_limit)"
        )
    return {"name": name, "order": order, "units": [u.to_data() for u in units]}


def parse_inline(text: str, options: dict[str, Any]) -> dict[str, Any]:
    """`"order=2, Knights, 2 Spearmen, Archers x2"`: units by type, an optional Order rating;
    a pronoun for the report may follow a type (`Knights (they)`)."""
    cat = catalogue()
    order = BUILD_ORDER_DEFAULT
    units: list[UnitType] = []
    text, said = teamtext.spoken(text)
    for part in teamtext.parts(text):
        match = re.fullmatch(r"order\s*[=:]?\s*(-?\d+)", part, flags=re.I)
        if match:
            order = int(match.group(1))
            continue
        entry = teamtext.counted(part)
        if entry.count > max_units(options):
            raise TeamError(
                f"{entry.count} {entry.text}: an army has at most {max_units(options)} units"
            )
        units += [cat.lookup(entry.text)] * entry.count
    if not units:
        raise TeamError('an empty army: name unit types, e.g. "order=2, Knights, 2 Spearmen"')
    out = army(UNNAMED, order, units, options)
    if said:  # for the battle report only: the rules read `units`
        out["pronouns"] = {cat.lookup(name).name: p for name, p in said}
    return out


def from_data(data: Any, options: dict[str, Any]) -> dict[str, Any]:
    """An army file or a saved army: `units` lists type names or profile tables."""
    if not isinstance(data, dict) or not isinstance(data.get("units"), list):
        raise TeamError("an army needs `units`: a list of unit type names or profiles")
    cat = catalogue()
    units: list[UnitType] = []
    for row in data["units"]:
        if isinstance(row, str):
            units.append(cat.lookup(row))
        elif isinstance(row, dict) and isinstance(row.get("type"), str):
            name = row["type"]
            base = cat.types.get(cat.aliases.get(_norm(name), ""))
            if base is not None:  # a listed type's changed stats, checked as --unit checks them
                given = {k: v for k, v in row.items() if k in STATS and v is not None}
                unitstats.row(sheet(), base.name, given, f"army unit {name!r}")
            units.append(_unit_type(name, row, base))
        else:
            raise TeamError(f"army unit {row!r}: a type name or a table with `type`")
    name = data.get("name", UNNAMED)
    if not isinstance(name, str):
        raise TeamError("an army's name must be text")
    out = army(name, data.get("order", BUILD_ORDER_DEFAULT), units, options)
    if said := teamtext.pronouns_by_name(data.get("pronouns")):
        out["pronouns"] = said
    if data.get("carried"):
        out["carried"] = carried(data["carried"], units)
    return out


def carried(rows: Any, units: list[UnitType]) -> list[dict[str, Any]]:
    """What each unit brings from an earlier battle (a campaign's), in the army's order: `taken`
    (Ht taken, d14: below its Ht) and its morale `state` (Steady, Shaken or Routed)."""
    states = ("Steady", "Shaken", "Routed")  # state.STATES (state.py imports this module)
    if not isinstance(rows, list) or len(rows) != len(units):
        raise TeamError("`carried` lists one {taken, state} table per unit, in order")
    out = []
    for row, unit in zip(rows, units, strict=True):
        taken = row.get("taken", 0) if isinstance(row, dict) else None
        state = row.get("state", "Steady") if isinstance(row, dict) else None
        if not isinstance(taken, int) or isinstance(taken, bool) or not 0 <= taken < unit.ht:
            raise TeamError(f"{unit.name}: Ht taken must be 0-{unit.ht - 1}, not {taken!r}")
        if state not in states:
            raise TeamError(f"{unit.name}: state must be one of {', '.join(states)}")
        out.append({"taken": taken, "state": state})
    return out


def types_of(team: dict[str, Any]) -> list[UnitType]:
    """The profiles of a team's units (worked out once while the same list of units comes
    back unchanged: `simulate` sets up the same armies game after game)."""
    rows = team["units"]
    last = _LAST_TYPES.get(id(rows))
    if last is not None and last[0] is rows and last[1] == rows:
        return list(last[2])
    found = tuple(_unit_type(row["type"], row) for row in rows)
    if len(_LAST_TYPES) >= 16:
        _LAST_TYPES.clear()
    # The rows themselves (so the id stays theirs), a copy to see them unchanged, and the types.
    _LAST_TYPES[id(rows)] = (rows, copy.deepcopy(rows), found)
    return list(found)


_LAST_TYPES: dict[int, tuple[Any, Any, tuple[UnitType, ...]]] = {}


def default_army(side: str, options: dict[str, Any]) -> tuple[dict[str, Any], str]:
    cat = catalogue()
    name = cat.defaults[side]
    return from_data(cat.armies[name], options), name


# -- building -----------------------------------------------------------------------------
def builder(side: str, options: dict[str, Any]) -> TeamBuilder:
    """A quick pick (the default army first), or Order then units one by one."""
    cat = catalogue()
    default_name = cat.defaults[side]
    picks = []
    for name, data in cat.armies.items():
        reason = refusal(partial(from_data, data, options))
        listed = ", ".join(data["units"])
        picks.append(Option(f"army:{name}", f"{name} (Order {data['order']}): {listed}", reason))
    key = yield quick_pick(
        side,
        "pick an army",
        picks,
        f"army:{default_name}",
        ("d1",),
        "Build an army unit by unit",
    )
    if key.startswith("army:"):
        return from_data(cat.armies[key.removeprefix("army:")], options)
    order = yield Choice(
        side=side,
        prompt="the Order rating of the army (added to deployment and initiative)",
        options=tuple(
            Option(str(n), f"Order {n}") for n in range(ORDER_RANGE[0], ORDER_RANGE[1] + 1)
        ),
        default=str(BUILD_ORDER_DEFAULT),
        rules=("d1", "d6"),
        kind="team",
    )
    units: list[UnitType] = []
    limit = max_units(options)
    while len(units) < limit:
        opts = [
            Option(
                "done",
                f"Done ({plural(len(units), 'unit')})",
                None if units else "an army needs at least one unit",
            )
        ]
        opts += [Option(t.name, f"{t.name}: {t.profile()}") for t in cat.types.values()]
        picked = yield Choice(
            side=side,
            prompt=f"unit {len(units) + 1} of at most {limit}"
            + (f" (so far: {', '.join(u.name for u in units)})" if units else ""),
            options=tuple(opts),
            default=_suggest_unit(units, cat) if len(units) < BUILD_SIZE_DEFAULT else "done",
            rules=("d1",),
            kind="team",
        )
        if picked == "done":
            break
        units.append(cat.types[picked])
    return army(f"Side {side} army", int(order), units, options)


def _suggest_unit(units: list[UnitType], cat: Catalogue) -> str:
    """A balanced line: the core types in turn, fewest first."""
    core = [
        n for n in ("Spearmen", "Swordsmen", "Archers", "Knights", "Light Horse") if n in cat.types
    ]
    if not core:
        return next(iter(cat.types))
    return min(core, key=lambda n: (sum(u.name == n for u in units), core.index(n)))
