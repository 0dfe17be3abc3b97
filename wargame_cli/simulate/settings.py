"""Settings to compare: `--compare KEY=VALUE,KEY=VALUE` (one setting each) and
`--sweep KEY=V1,V2,...` (one setting per value; numbers also as a range `3..9` or
`3..9:2`), each checked against the ruleset's options before any game is played.

A KEY is an option, a unit's stat (`Sebeki.die`, checked against the ruleset's unit sheet),
or, in `--compare`, a side's team (`team-a="2 Sebeki, To-Tanem"`: the commas of a team's
text stay in it)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from wargame_cli.errors import BadInput
from wargame_cli.kit import unitstats
from wargame_cli.kit.unitstats import Changes, Sheet
from wargame_cli.ruleset import OptionSpec, resolve_options

MAX_SETTINGS = 200  # more than a terminal can show, or a study needs in one run
_RANGE = re.compile(r"^\s*(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)\s*(?::\s*([\d.]+)\s*)?$")


@dataclass(frozen=True)
class Setting:
    """One setting: the keys it changes (as given) and the whole options it plays with."""

    changed: dict[str, Any]
    options: dict[str, Any]
    units: Changes = field(default_factory=dict)  # unit stats it changes (`Sebeki.die=8`)
    teams: dict[str, str] = field(default_factory=dict)  # side -> the team it plays there

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={_shown(v)}" for k, v in self.changed.items()) or "as given"


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


TEAM_KEYS = {"team-a": "A", "team_a": "A", "team-b": "B", "team_b": "B"}


@dataclass(frozen=True)
class Lab:
    """What a setting may change: the ruleset's options and unit sheet (None: no unit
    stats), and its id for the words of a refusal."""

    specs: tuple[OptionSpec, ...]
    sheet: Sheet | None = None
    ruleset_id: str = ""


def _items(text: str, lab: Lab) -> list[str]:
    """`team-a=2 Sebeki, To-Tanem,start=4` as its KEY=VALUE items: a piece whose key is no
    option, team or unit stat belongs to the team before it."""
    names = {s.name for s in lab.specs}
    out: list[str] = []
    for piece in text.split(","):
        key = piece.partition("=")[0].strip()
        known = "=" in piece and (
            key in names or key.lower() in TEAM_KEYS or unitstats.is_unit_key(key)
        )
        if out and not known and out[-1].partition("=")[0].strip().lower() in TEAM_KEYS:
            out[-1] += "," + piece
        elif piece.strip():
            out.append(piece.strip())
    return out


def _setting(lab: Lab, base: list[str], items: list[str], flag: str) -> Setting:
    """One setting from its KEY=VALUE items, each checked."""
    changed: dict[str, Any] = {}
    units: Changes = {}
    teams: dict[str, str] = {}
    option_items: list[str] = []
    names = {s.name for s in lab.specs}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if sep and key.lower() in TEAM_KEYS:
            if not value.strip():
                raise BadInput(f'{flag} {item!r}: name the team, e.g. team-a="Sebeki, Asar, Asar"')
            side = TEAM_KEYS[key.lower()]
            teams[side] = value.strip()
            changed[f"team-{side.lower()}"] = value.strip()
        elif sep and key not in names and unitstats.is_unit_key(key):
            one = unitstats.parse(lab.sheet, [item], lab.ruleset_id, flag)
            units = unitstats.merged(units, one)
            for unit, stats in one.items():
                for stat, number in stats.items():
                    changed[f"{unit}.{stat}"] = number
        else:
            option_items.append(item)
    options = resolve_options(lab.specs, [*base, *option_items])
    keys = [item.partition("=")[0].strip() for item in option_items]
    changed = {**{k: options[k] for k in keys}, **changed}
    return Setting(changed, options, units, teams)


def compared(
    specs: tuple[OptionSpec, ...] | Lab, base: list[str], given: list[str]
) -> list[Setting]:
    """`--compare` settings: each a comma-separated list of KEY=VALUE over `--option`s; a
    KEY is an option, a unit stat (`Sebeki.die=8`) or a side's team (`team-a=...`)."""
    lab = specs if isinstance(specs, Lab) else Lab(specs)
    if len(given) < 2:
        raise BadInput("--compare needs at least two settings to compare" + example(lab.specs))
    if len(given) > MAX_SETTINGS:
        raise BadInput(f"--compare: at most {MAX_SETTINGS} settings")
    out = []
    for text in given:
        items = _items(text, lab)
        if not items:
            raise BadInput(f"--compare {text!r}: expected KEY=VALUE[,KEY=VALUE...]")
        out.append(_setting(lab, base, items, "--compare"))
    return out


def example(specs: tuple[OptionSpec, ...]) -> str:
    """`, e.g. --compare rounding=exact --compare rounding=down`: two values the ruleset's
    own options take (every value shown passes its checks), or nothing without options."""
    for spec in specs:
        values: list[Any] = []
        if spec.choices is not None and len(spec.choices) > 1:
            values = list(spec.choices[:2])
        elif spec.kind is bool:
            values = [spec.default, not spec.default]
        if values:
            return ", e.g. " + " ".join(f"--compare {spec.name}={_shown(v)}" for v in values)
    for spec in specs:
        if spec.kind in (int, float):
            for other in (spec.default + 1, spec.default - 1):
                try:
                    spec.check(spec.kind(other))
                except BadInput:
                    continue
                return (
                    f", e.g. --compare {spec.name}={_shown(spec.default)} "
                    f"--compare {spec.name}={_shown(spec.kind(other))}"
                )
    return ""


def swept(specs: tuple[OptionSpec, ...] | Lab, base: list[str], given: str) -> list[Setting]:
    """`--sweep KEY=V1,V2,...`: one setting per value, in the order given; KEY an option or
    a unit's stat (`Knights.De=10..14`)."""
    lab = specs if isinstance(specs, Lab) else Lab(specs)
    key, sep, values = given.partition("=")
    key = key.strip()
    by_name = {s.name: s for s in lab.specs}
    if not sep:
        raise BadInput(
            f"--sweep {given!r}: expected KEY=V1,V2,... or KEY=LOW..HIGH[:STEP] "
            "(KEY an option or UNIT.STAT)"
        )
    if key not in by_name and unitstats.is_unit_key(key):
        return _swept_stat(lab, base, key, values, given)
    if key not in by_name:
        raise BadInput(f"--sweep: unknown option {key!r}; options: {', '.join(by_name) or 'none'}")
    texts = expand(key, values)
    if len(texts) < 2:
        raise BadInput(f"--sweep {given!r}: a sweep needs at least two values")
    out = []
    for text in texts:
        options = resolve_options(lab.specs, [*base, f"{key}={text}"])
        out.append(Setting({key: options[key]}, options))
    return out


def _swept_stat(lab: Lab, base: list[str], key: str, values: str, given: str) -> list[Setting]:
    """`--sweep Knights.De=10..14`: one setting per value of a unit's stat."""
    if lab.sheet is None:
        raise BadInput(f"--sweep: {lab.ruleset_id} declares no unit stats to change")
    unit, stat = unitstats.stat_of(lab.sheet, key, "--sweep")
    name = f"{unit}.{stat.name}"
    texts = expand(name, values)
    if len(texts) < 2:
        raise BadInput(f"--sweep {given!r}: a sweep needs at least two values")
    options = resolve_options(lab.specs, base)
    out = []
    for text in texts:
        try:
            value = stat.parse(unit, text)
        except BadInput as exc:
            raise BadInput(f"--sweep {exc}") from None
        out.append(Setting({name: value}, options, {unit: {stat.name: value}}))
    return out


def expand(key: str, values: str) -> list[str]:
    """The values of a sweep as text: a comma list, each item a value or a numeric range."""
    out: list[str] = []
    for item in (v.strip() for v in values.split(",")):
        if not item:
            continue
        match = _RANGE.match(item)
        if match is None:
            out.append(item)
            continue
        out.extend(_range(key, *match.groups()))
        if len(out) > MAX_SETTINGS:
            raise BadInput(f"--sweep {key}: at most {MAX_SETTINGS} values")
    if len(out) > MAX_SETTINGS:
        raise BadInput(f"--sweep {key}: at most {MAX_SETTINGS} values")
    return out


def _range(key: str, low: str, high: str, step: str | None) -> list[str]:
    whole = all(_is_int(t) for t in (low, high, step or "1"))
    try:
        lo, hi, by = float(low), float(high), float(step or "1")
    except ValueError:
        raise BadInput(f"--sweep {key}: {low}..{high} is not a range of numbers") from None
    if by <= 0:
        raise BadInput(f"--sweep {key}: the step of {low}..{high} must be above 0")
    if hi < lo:
        raise BadInput(f"--sweep {key}: {low}..{high} is empty (it counts up)")
    count = int((hi - lo) / by + 1e-9) + 1
    if count > MAX_SETTINGS:
        raise BadInput(f"--sweep {key}: at most {MAX_SETTINGS} values")
    values = [lo + i * by for i in range(count)]
    return [str(int(v)) if whole else f"{v:g}" for v in values]


def _is_int(text: str) -> bool:
    return re.fullmatch(r"-?\d+", text.strip()) is not None
