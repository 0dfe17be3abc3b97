"""Unit stats a run may change without editing code: `--unit Sebeki.die=8`, `--sweep
Knights.De=10..14`, and a team file's row that names a unit type with some of its stats
changed (`{unit="Sebeki", die=8}`, `{type="Knights", De=11}`).

One mechanism for every ruleset: a ruleset declares its unit types and their numeric stats
with ranges (`Ruleset.unit_sheet()`), and applies a set of changes to a team of its own
form (`Ruleset.restat()`). Reading, checking and naming the changes happen here, so every
ruleset refuses the same mistakes in the same words (one line, exit 2).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from wargame_cli.errors import BadInput, TeamError
from wargame_cli.kit.near import near_names, plain

Number = int | float
Changes = dict[str, dict[str, Number]]  # unit type -> stat -> its value in this run


@dataclass(frozen=True)
class Stat:
    """One numeric stat of a unit type: its stock value (None: the type has none, e.g. a unit
    that cannot shoot) and the values it may take."""

    name: str
    stock: Number | None
    minimum: Number
    maximum: Number
    whole: bool = True  # a whole number; False: any number in range (inches moved)

    def check(self, unit: str, value: Any) -> Number:
        """`value` as this stat holds it, or a `BadInput` naming the unit, stat and range."""
        what = f"{unit}.{self.name}"
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise BadInput(f"{what}: {value!r} is not a number")
        if isinstance(value, float) and not math.isfinite(value):
            raise BadInput(f"{what}: {value!r} is not a finite number")
        if self.whole:
            if isinstance(value, float):
                if not value.is_integer():
                    raise BadInput(f"{what}: {value:g} is not a whole number")
                value = int(value)
        else:
            value = float(value)
        if not self.minimum <= value <= self.maximum:
            raise BadInput(
                f"{what}: {value:g} is outside its range, {self.minimum:g} to {self.maximum:g}"
            )
        return value

    def parse(self, unit: str, text: str) -> Number:
        try:
            value: Number = int(text) if re.fullmatch(r"\s*-?\d+\s*", text) else float(text)
        except ValueError:
            kind = "a whole number" if self.whole else "a number"
            raise BadInput(f"{unit}.{self.name}: {text.strip()!r} is not {kind}") from None
        return self.check(unit, value)


Sheet = dict[str, dict[str, Stat]]  # unit type -> its stats by name (`Ruleset.unit_sheet`)


def find_unit(sheet: Sheet, name: str, flag: str) -> str:
    """The unit type `name` means (case, spaces and punctuation aside), or one line naming
    the nearest known type."""
    for known in sheet:
        if plain(known) == plain(name):
            return known
    closest = next(iter(near_names(name, sheet)), None) or _nearest(name, sheet)
    hint = f"did you mean {closest}?" if closest else f"unit types: {', '.join(sheet)}"
    raise BadInput(f"{flag}: no unit type {name.strip()!r}; {hint}")


def find_stat(sheet: Sheet, unit: str, name: str, flag: str) -> Stat:
    stats = sheet[unit]
    for stat in stats.values():
        if stat.name.lower() == name.strip().lower():
            return stat
    near = _nearest(name, stats)
    hint = f"did you mean {near}?" if near else f"its stats: {', '.join(stats)}"
    raise BadInput(f"{flag}: {unit} has no stat {name.strip()!r}; {hint}")


def _nearest(name: str, names: Collection[str]) -> str | None:
    import difflib

    found = difflib.get_close_matches(name.strip().lower(), [n.lower() for n in names], 1, 0.5)
    if not found:
        return None
    return next(n for n in names if n.lower() == found[0])


def split_key(key: str) -> tuple[str, str] | None:
    """`Tribal Warrior.fierce` as (unit, stat); None when the key names no unit stat."""
    unit, dot, stat = key.rpartition(".")
    if not dot or not unit.strip() or not re.fullmatch(r"\s*[A-Za-z]\w*\s*", stat):
        return None
    return unit.strip(), stat.strip()


def is_unit_key(key: str) -> bool:
    return split_key(key) is not None


def stat_of(sheet: Sheet, key: str, flag: str) -> tuple[str, Stat]:
    """The unit type and stat `UNIT.STAT` names, as declared."""
    parts = split_key(key)
    if parts is None:
        raise BadInput(f"{flag} {key!r}: expected UNIT.STAT (e.g. Sebeki.die)")
    unit = find_unit(sheet, parts[0], flag)
    return unit, find_stat(sheet, unit, parts[1], flag)


def parse(sheet: Sheet | None, given: Iterable[str], ruleset_id: str, flag: str) -> Changes:
    """`--unit UNIT.STAT=VALUE` (repeatable) as checked changes; `sheet` None: the ruleset
    declares no unit stats, and any change is refused."""
    out: Changes = {}
    for item in given:
        key, sep, text = item.rpartition("=")
        if not sep or not key.strip():
            raise BadInput(f"{flag} {item!r}: expected UNIT.STAT=VALUE (e.g. Sebeki.die=8)")
        if sheet is None:
            raise BadInput(f"{flag}: {ruleset_id} declares no unit stats to change")
        unit, stat = stat_of(sheet, key, flag)
        try:
            value = stat.parse(unit, text)
        except BadInput as exc:
            raise BadInput(f"{flag} {exc}") from None
        out.setdefault(unit, {})[stat.name] = value
    return out


def merged(*layers: Changes) -> Changes:
    """Later layers' values over earlier ones' (a sweep's value over `--unit`'s)."""
    out: Changes = {}
    for layer in layers:
        for unit, stats in layer.items():
            out.setdefault(unit, {}).update(stats)
    return out


def row(sheet: Sheet, unit: str, values: Mapping[str, Any], where: str) -> dict[str, Number]:
    """A team file row's changed stats (`{unit="Sebeki", die=8}`): each checked as `--unit`
    checks it, as a `TeamError` naming the row; only those that differ from stock."""
    out: dict[str, Number] = {}
    for name, value in values.items():
        try:
            stat = find_stat(sheet, unit, name, where)
            checked = stat.check(unit, value)
        except BadInput as exc:
            raise TeamError(str(exc)) from None
        if checked != stat.stock:
            out[stat.name] = checked
    return out


def label(unit: str, changed: Mapping[str, Number]) -> str:
    """How a changed unit is named in figures and teams: `Sebeki (die=8)`; stock: `Sebeki`."""
    if not changed:
        return unit
    return f"{unit} ({', '.join(f'{k}={_shown(v)}' for k, v in changed.items())})"


_LABEL = re.compile(
    r"^(?P<unit>.+?)\s*\((?P<stats>\s*\w+\s*=\s*-?[\d.]+(?:\s*,\s*\w+\s*=\s*-?[\d.]+)*)\)$"
)


def unlabel(text: str) -> tuple[str, dict[str, str]] | None:
    """`Sebeki (die=8)` as ("Sebeki", {"die": "8"}); None when `text` is no such label."""
    match = _LABEL.match(text.strip())
    if match is None:
        return None
    stats = {}
    for item in match["stats"].split(","):
        name, _, value = item.partition("=")
        stats[name.strip()] = value.strip()
    return match["unit"], stats


def read_label(sheet: Sheet, text: str) -> tuple[str, dict[str, Number]] | None:
    """A kept label (`Sebeki (die=8)`, as a team or a save holds a changed unit) as its unit
    type and checked changes; None when `text` is no label of a type on the sheet."""
    found = unlabel(text)
    if found is None:
        return None
    unit = next((known for known in sheet if plain(known) == plain(found[0])), None)
    if unit is None:
        return None
    out: dict[str, Number] = {}
    for name, value in found[1].items():
        try:
            stat = find_stat(sheet, unit, name, text)
            out[stat.name] = stat.parse(unit, value)
        except BadInput as exc:
            raise TeamError(str(exc)) from None
    return unit, out


def differing(sheet: Sheet, unit: str, values: Mapping[str, Any]) -> dict[str, Number]:
    """The stats of `values` (a unit's profile) that differ from its type's stock ones, in
    the sheet's order: what its label shows."""
    stats = sheet.get(unit)
    if stats is None:
        return {}
    return {
        name: values[name]
        for name, stat in stats.items()
        if name in values and values[name] != stat.stock and values[name] is not None
    }


def as_json(changes: Changes) -> dict[str, dict[str, Number]]:
    return {unit: dict(stats) for unit, stats in changes.items()}


def shown(changes: Changes) -> str:
    """`Sebeki.die=8, Knights.De=11`: the changes as `--unit` takes them."""
    return ", ".join(
        f"{unit}.{stat}={_shown(value)}"
        for unit, stats in changes.items()
        for stat, value in stats.items()
    )


def _shown(value: Number) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
