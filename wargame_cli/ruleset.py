"""What a ruleset is: metadata, options, teams, a game generator and a reference.

Rulesets subclass `Ruleset`. The engine and the CLI only talk to this interface, so nothing
about a particular ruleset is special-cased anywhere else.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli.engine.requests import Choice, Option
from wargame_cli.errors import OptionError, TeamError

SIDES = ("A", "B")
MAX_NUMBER = 10**9  # no option counts or measures anything near this
MAX_TEAM_NUMBER = 9999  # counts, ratings, positions: a tabletop team never comes near
MAX_TEAM_BYTES = 2**20
_WHOLE_NUMBER = re.compile(r"(?<![\d.])\d+(?![\d])")


def check_team_numbers(data: Any) -> None:
    """Every number in a team file within `MAX_TEAM_NUMBER` (and finite), so a count of
    five million is refused before five million models are built."""
    from wargame_cli.saves import untrusted

    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif (
            isinstance(item, int | float)
            and not isinstance(item, bool)
            and (not math.isfinite(item) or abs(item) > MAX_TEAM_NUMBER)
        ):
            raise untrusted.Untrusted(
                f"{_short(item)} is out of range (a team's numbers are at most {MAX_TEAM_NUMBER})"
            )


def _short(value: Any) -> str:
    """A value as shown in an error: never thousands of digits."""
    try:
        text = repr(value)
    except ValueError:  # an integer over Python's digit limit
        return "a number with too many digits"
    return text if len(text) <= 40 else f"{text[:37]}..."


@dataclass(frozen=True)
class OptionSpec:
    """A named ruleset option filling a gap in the seed text; stored in every save."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    rule: str = ""
    minimum: float | None = None
    maximum: float | None = None

    @property
    def kind(self) -> type[Any]:
        return type(self.default)

    def parse(self, text: str) -> Any:
        kind = self.kind
        try:
            if kind is bool:
                low = text.strip().lower()
                if low not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                    raise ValueError
                value: Any = low in ("true", "yes", "1", "on")
            elif kind is int:
                value = int(text)
            elif kind is float:
                value = float(text)
            else:
                value = text
        except ValueError:
            raise OptionError(
                f"option {self.name}: {_short(text)} is not a {kind.__name__}"
            ) from None
        return self.check(value)

    def check(self, value: Any) -> Any:
        kind = self.kind
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            try:
                value = float(value)
            except OverflowError:
                raise OptionError(f"option {self.name}: {_short(value)} is too large") from None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise OptionError(f"option {self.name}: {_short(value)} is not a {kind.__name__}")
        if kind is float and not math.isfinite(value):
            raise OptionError(f"option {self.name}: {value!r} is not a finite number")
        if kind in (int, float) and abs(value) > MAX_NUMBER:
            raise OptionError(f"option {self.name}: {_short(value)} is too large")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name}: {value!r} is not one of {allowed}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name}: {value!r} is below {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name}: {value!r} is above {self.maximum}")
        return value


def load_options(path: Path) -> tuple[OptionSpec, ...]:
    """Option declarations from a ruleset's `options.toml`, so players can read and edit the
    defaults: one `[name]` table each with `default`, `doc`, and optional `choices`, `rule`,
    `minimum`, `maximum`."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    specs = []
    for name, row in data.items():
        choices = row.get("choices")
        spec = OptionSpec(
            name=name,
            default=row["default"],
            doc=row.get("doc", ""),
            choices=tuple(choices) if choices is not None else None,
            rule=row.get("rule", ""),
            minimum=row.get("minimum"),
            maximum=row.get("maximum"),
        )
        spec.check(spec.default)  # a bad edit is caught when the ruleset loads
        specs.append(spec)
    return tuple(specs)


def resolve_options(
    specs: tuple[OptionSpec, ...], given: dict[str, Any] | list[str] | None
) -> dict[str, Any]:
    """Defaults overlaid with `KEY=VALUE` strings (flags) or a stored dict (saves)."""
    by_name = {s.name: s for s in specs}
    out = {s.name: s.default for s in specs}
    if not given:
        return out
    if isinstance(given, list):
        for item in given:
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep:
                raise OptionError(f"--option {item!r}: expected KEY=VALUE")
            if key not in by_name:
                raise OptionError(
                    f"unknown option {key!r}; options: {', '.join(by_name) or 'none'}"
                )
            out[key] = by_name[key].parse(value.strip())
        return out
    for key, value in given.items():
        if key not in by_name:
            raise OptionError(f"unknown option {key!r}; options: {', '.join(by_name) or 'none'}")
        out[key] = by_name[key].check(value)
    return out


@dataclass(frozen=True)
class RulePoint:
    id: str
    text: str


@dataclass
class Reference:
    """The rules reference shown by `wargame rules ID`, read from the ruleset's TOML."""

    points: list[RulePoint]
    notes: list[str] = field(default_factory=list)
    json_state: str = ""

    @classmethod
    def load(cls, path: Path) -> Reference:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for point in data.get("points", []):
            extra = set(point) - {"id", "text"}
            if extra:  # top-level keys written after [[points]] land inside the last point
                raise ValueError(f"{path}: rule point {point.get('id')} has stray keys {extra}")
        points = [RulePoint(p["id"], p["text"]) for p in data.get("points", [])]
        return cls(
            points=points,
            notes=list(data.get("notes", [])),
            json_state=str(data.get("json_state", "")),
        )

    def text_of(self, rule_id: str) -> str | None:
        return next((p.text for p in self.points if p.id == rule_id), None)


@dataclass(frozen=True)
class Setup:
    """Who plays: each side's display name and team (the ruleset's JSON form)."""

    names: dict[str, str]
    teams: dict[str, Any]


TeamBuilder = Generator[Choice, str, Any]


def quick_pick(
    side: str,
    prompt: str,
    presets: list[Option],
    suggested: str,
    rules: tuple[str, ...],
    build_label: str,
) -> Choice:
    """The first question of team building: a ready team (the side's own suggested, or the
    first legal one if a rule option forbids it) or "build" to make one piece by piece."""
    options = (*presets, Option("build", build_label))
    legal = [o.key for o in options if o.disabled is None]
    default = suggested if suggested in legal else legal[0]
    return Choice(side, prompt, options, default, rules, "team")


def named_if_preset(team: dict[str, Any], presets: dict[str, Any]) -> dict[str, Any]:
    """A built team that is one of the ruleset's quick picks carries that pick's name, which
    the CLI then offers as the side's name."""
    name = next((n for n, preset in presets.items() if preset == team), None)
    return {**team, "name": name} if name is not None else team


def safeguards_for(
    ruleset: Ruleset, options: dict[str, Any], given: list[str] | None, players: dict[str, str]
) -> dict[str, Any]:
    """The options with the ruleset's safeguards off (0) when a person plays a side and the
    player did not set them: a game between people ends only by its rules."""
    if all(p == "bot" for p in players.values()):
        return options
    named = {item.split("=", 1)[0].strip() for item in given or []}
    return {**options, **{k: 0 for k in ruleset.safeguards if k in options and k not in named}}


def _plain(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


class Ruleset:
    """Base class: subclasses set the class attributes and implement the methods."""

    id: str = ""
    name: str = ""
    version: str = "1"
    options: tuple[OptionSpec, ...] = ()
    has_decisions: bool = True
    turn_word: str = "turn"  # what the ruleset calls a game turn ("round"), for the screen
    # options that only keep computer games finite: off (0) whenever a person plays a side,
    # unless the player sets them with --option
    safeguards: tuple[str, ...] = ()
    team_syntax: str = ""
    folder: Path = Path()
    # Declared, never set here: a ruleset with exact odds defines `odds()` (a module with
    # `exact`, `matrix`...), and `simulate` looks for it with hasattr.
    odds: Callable[[], Any]

    # -- reference ------------------------------------------------------------------------
    def reference(self) -> Reference:
        return Reference.load(self.folder / "reference.toml")

    def units(self) -> list[dict[str, Any]]:
        """Rows for the reference's unit table."""
        return []

    # -- teams ----------------------------------------------------------------------------
    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        """An inline team spec (a flag's value) in the ruleset's JSON team form."""
        raise NotImplementedError

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        """Validate a team read from a file or a save; returns the JSON team form."""
        raise NotImplementedError

    def team_name(self, data: Any) -> str | None:
        """A name carried by a team file, if any."""
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            return data["name"]
        return None

    def load_team(self, spec: str, options: dict[str, Any]) -> tuple[Any, str | None]:
        """A `--team-a` value: a .toml/.json file path, or the inline syntax. Every number in
        it is bounded before the ruleset builds anything from it."""
        from wargame_cli.saves import untrusted

        path = Path(spec)
        if path.suffix.lower() in (".toml", ".json"):
            if not path.exists():
                raise TeamError(f"team file {spec} not found")
            try:
                if path.suffix.lower() == ".toml":
                    data = untrusted.read_toml(path, MAX_TEAM_BYTES)
                else:
                    data = untrusted.read_json(path, MAX_TEAM_BYTES)
                check_team_numbers(data)
            except OSError as exc:
                raise TeamError(f"team file {spec} cannot be read: {exc.strerror}") from None
            except untrusted.Untrusted as exc:
                raise TeamError(f"team file {spec} cannot be read: {exc}") from None
            return self.team_from_data(data, options), self.team_name(data)
        preset = self.preset_named(spec, options)
        if preset is not None:
            return preset
        for number in _WHOLE_NUMBER.findall(spec):
            if len(number) > 4:
                raise TeamError(
                    f"team: the number {_short(number)} is too large "
                    f"(a team's numbers are at most {MAX_TEAM_NUMBER})"
                )
        return self.parse_team(spec, options), None

    def preset_teams(self, options: dict[str, Any]) -> dict[str, Any]:
        """The ready teams the menus offer, by name, in the JSON team form (unchecked)."""
        return {}

    def preset_named(self, spec: str, options: dict[str, Any]) -> tuple[Any, str] | None:
        """A preset named by `spec` (case, spaces and punctuation aside), checked against the
        options, with its name; None when no preset has that name."""
        wanted = _plain(spec)
        for name, data in self.preset_teams(options).items():
            if _plain(name) == wanted:
                return self.team_from_data(data, options), name
        return None

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        """The team and name used by `--no-input` for `side`."""
        raise NotImplementedError

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        """Interactive team building as Choices; returns the JSON team form."""
        raise NotImplementedError

    def describe_team(self, team: Any) -> str:
        return str(team)

    # -- games ----------------------------------------------------------------------------
    def new_game(self, setup: Setup, options: dict[str, Any]) -> Any:
        raise NotImplementedError

    def view(self) -> Any:
        """The module rendering this ruleset's state with rich (imported only when drawing)."""
        raise NotImplementedError
