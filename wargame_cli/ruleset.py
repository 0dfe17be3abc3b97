"""What a ruleset is: metadata, options, teams, a game generator, a reference, a view and the
optional hooks for simulation and reports, each declared with its default.

Rulesets subclass `Ruleset`. The engine and the CLI only talk to this interface, so nothing
about a particular ruleset is special-cased anywhere else.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from wargame_cli.engine.requests import Choice, Event, Option, Outcome, Play, Roll
from wargame_cli.errors import OptionError, TeamError
from wargame_cli.kit.filekeys import Keys, unknown_key
from wargame_cli.kit.near import near_names, plain
from wargame_cli.kit.sides import SIDES as SIDES  # the sides, for the modules that import them here
from wargame_cli.view import View
from wargame_cli.wording import either

if TYPE_CHECKING:
    from wargame_cli.engine.edits import Edit
    from wargame_cli.kit.unitstats import Changes
    from wargame_cli.kit.unitstats import Sheet as UnitSheet
    from wargame_cli.registry import RulesetInfo
    from wargame_cli.report.hooks import Teller
    from wargame_cli.report.voice import Voice

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
    at_most: str | None = None  # another option this one may not exceed (rating_min, rating_max)

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
                if not math.isfinite(value):
                    raise OptionError(f"option {self.name}: {_short(text)} is not a finite number")
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
    `minimum`, `maximum`, `at_most` (the name of an option this one may not exceed)."""
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
            at_most=row.get("at_most"),
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
    _fill(out, by_name, given)
    for spec in specs:
        other = spec.at_most
        if other is not None and out[spec.name] > out[other]:
            raise OptionError(
                f"option {spec.name}={out[spec.name]} is above {other}={out[other]}: "
                f"{spec.name} must be at most {other}"
            )
    return out


def _fill(
    out: dict[str, Any], by_name: dict[str, OptionSpec], given: dict[str, Any] | list[str]
) -> None:
    """Overlay `given` on the defaults in `out`, each value checked by its own spec."""
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
        return
    for key, value in given.items():
        if key not in by_name:
            raise OptionError(f"unknown option {key!r}; options: {', '.join(by_name) or 'none'}")
        out[key] = by_name[key].check(value)


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


def refusal(check: Callable[[], object]) -> str | None:
    """Why `check()` refuses (its TeamError's words), or None when it passes: a ready team
    the options forbid is offered disabled with the reason."""
    try:
        check()
    except TeamError as exc:
        return str(exc)
    return None


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


def _no_such(spec: str, near: list[str]) -> str:
    return f"no ready team is called {spec.strip()!r}: did you mean {either(near)}?"


_LONE_NAME = re.compile(r"[^\W\d_]+(?:[ '-][^\W\d_]+)*")  # words alone: no count, rating or list


class Odds(Protocol):
    """Exact odds (the `odds()` hook): for two teams, for every pair of legal pools, and from a
    game's position. `exact*` results carry `.a`, `.b` (each side's chance) and `.turns`."""

    def exact(self, team_a: Any, team_b: Any, options: dict[str, Any]) -> Any: ...

    def matrix(self, options: dict[str, Any]) -> Any: ...

    def exact_from_state(self, state: Any, options: dict[str, Any] | None = None) -> Any: ...

    def chance_from_state(
        self, state: Any, options: dict[str, Any] | None = None
    ) -> dict[str, float]: ...


@dataclass(frozen=True)
class Parts:
    """What a ruleset shows beside its rules, handed out by `Ruleset.parts()`: its view, its
    report's storyteller (a `Teller` subclass), its SVG picture of the table and side A's
    chance from a position (`replay --html`), and its exact odds. None: it has none."""

    view: View = field(default_factory=View)
    teller: Callable[[dict[str, Any], Voice], Teller] | None = None
    picture: Callable[[Any, dict[str, str], Sequence[dict[str, Any]]], str] | None = None
    chance: Callable[[Any], float] | None = None
    odds: Odds | None = None


@dataclass
class UnitFacts:
    """One unit in one finished game, for `simulate`'s table per unit type: what it is, whose
    it was, the enemy units it destroyed, whether it was destroyed, and the damage it dealt
    (None where the ruleset has no damage). A kill shared by several units (a mob's one pool)
    may be told in fractions that sum to one."""

    kind: str
    side: str
    kills: float = 0
    died: bool = False
    damage: float | None = None


@dataclass
class GameFacts:
    """What `simulate` tallies of one game beyond its winner: its units, and who won the
    contests that might decide it (`{"deployment roll-off": "A", "first initiative": "B"}`)."""

    units: list[UnitFacts] = field(default_factory=list)
    firsts: dict[str, str] = field(default_factory=dict)


class FactWatcher(Protocol):
    """Made afresh for each bot game (`Ruleset.sim_watcher`): sees every Event as the game
    plays, then tells the game's facts from them and the final state."""

    def event(self, event: Event) -> None: ...

    def facts(self, game: Any, outcome: Outcome) -> GameFacts: ...


@dataclass(frozen=True)
class ExactSpread:
    """A match-up's exact distribution (`Ruleset.exact_spread`): turn -> the chance the game
    ends then, and each ending's chance (its outcome as a game would report it)."""

    lengths: dict[int, float]
    endings: list[tuple[Outcome, float]]


@dataclass(frozen=True)
class NamedRoll:
    """A roll of the rules, asked for by name (`wargame dice RULESET NAME --PARAM VALUE`):
    its parameters, each an `OptionSpec` (default, doc, choices, bounds; `--PARAM` alone sets
    a true/false one), and `expression`, which makes the parameters' values (every one given,
    checked by its spec) into a dice expression (`wargame_cli/kit/dice_expr.py`'s grammar).
    Pure data: the rules' own constants go into the expression, so a change to the rules
    changes the roll."""

    name: str
    doc: str
    rules: tuple[str, ...]
    params: tuple[OptionSpec, ...]
    expression: Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class TableEdits:
    """A ruleset's own table edits (the `table_edits()` hook): each action with its words,
    and `apply(state, edit)`, the line told, or `EditRefused`."""

    usage: dict[str, str]
    apply: Callable[[Any, Edit], str]
    # the after-battle steps the rules give a battle an `end` edit ended, on the state, with
    # the declared winner and reason, returning its Outcome (e.g. the casualties' survival
    # rolls); None: the battle ends there and then
    after: Callable[[Any, str | None, str], Play] | None = None


@dataclass(frozen=True)
class ExactPoints:
    """Unit values that exact odds settle (`Ruleset.exact_points`): each type's points and
    the statement that makes them exact, checked when made."""

    points: dict[str, float]
    statement: str


Played = tuple[Outcome, int]  # a fast game's outcome and the turns it took
Below = Callable[[int], int]  # a die source: `below(sides)` is 0 to sides-1


class Ruleset:
    """The contract a ruleset meets, in one place. Subclasses set the class attributes and
    implement the required methods (`parse_team`, `team_from_data`, `default_team`,
    `build_team`, `new_game`); every other hook has a default here, so the engine calls it
    without asking whether it exists. A hook's default returns None (or empty) where that
    means "this ruleset has none". `docs/writing-a-ruleset.md` says when each is called.

    Keep the module that defines a subclass light (rules imported inside the methods): the
    registry imports it to list the rulesets, and `INFO` is made from its class attributes."""

    # -- what it is (read without loading the rules) ------------------------------------------
    id: str = ""
    name: str = ""
    seed_file: str = ""  # the seed rule text it implements
    summary: str = ""  # one line for `wargame rulesets`
    version: str = "1"
    # the behaviour played, where it is not the version's own: a version whose number stayed
    # while its behaviour changed (see `variants`); None: the version's own
    behaviour: int | None = None
    has_decisions: bool = True
    turn_word: str = "turn"  # what the ruleset calls a game turn ("round"), for the screen
    # options that only keep computer games finite: off (0) whenever a person plays a side,
    # unless the player sets them with --option
    safeguards: tuple[str, ...] = ()
    team_syntax: str = ""
    folder: Path = Path()

    @classmethod
    def info(cls, loader: str) -> RulesetInfo:
        """The light `RulesetInfo` listed by `wargame rulesets`, from the class attributes;
        `loader` ("package.module:ATTRIBUTE") names the instance."""
        from wargame_cli.registry import RulesetInfo

        return RulesetInfo(cls.id, cls.name, cls.seed_file, cls.summary, loader)

    # -- options ------------------------------------------------------------------------------
    @cached_property
    def options(self) -> tuple[OptionSpec, ...]:
        """The declared options, read once when first needed (listing never reads them)."""
        return self.read_options()

    def read_options(self) -> tuple[OptionSpec, ...]:
        """The options, e.g. `load_options(self.folder / "options.toml")`. Default: none."""
        return ()

    # -- reference ------------------------------------------------------------------------
    def reference(self) -> Reference:
        return Reference.load(self.folder / "reference.toml")

    def units(self) -> list[dict[str, Any]]:
        """Rows for the reference's unit table."""
        return []

    # -- unit stats (`--unit`, `--sweep UNIT.STAT`, `wargame_cli/kit/unitstats.py`) --------
    def unit_sheet(self) -> UnitSheet | None:
        """Every unit type and its numeric stats, each with its stock value and range, for
        `simulate --unit UNIT.STAT=V` and team files that change a type's stats. None (the
        default): the ruleset has none to change, and `--unit` is refused in one line."""
        return None

    def restat(self, team: Any, changes: Changes, options: dict[str, Any]) -> Any:
        """`team` (the JSON team form) with the stats of its units of each changed type as
        `changes` says (checked against `unit_sheet()` already), as a team file changing
        them would give it. Declare it with `unit_sheet`."""
        raise NotImplementedError

    def points_sizes(self) -> tuple[int, ...]:
        """`--points`: how many unit types the random teams it measures are made of (each
        drawn, then written out in the inline syntax as `parse_team` reads it)."""
        return (2, 3, 4)

    def points_team(self, counts: dict[str, int]) -> str:
        """`--points`, `--budget`: a team of `counts` models of each unit type, written as
        `parse_team` reads it. Default: `2 Sebeki, To-Tanem`; a ruleset whose unit types
        are ratings of named models names them."""
        return ", ".join(f"{n} {unit}" if n > 1 else unit for unit, n in counts.items())

    def exact_points(self, options: dict[str, Any], changes: Changes) -> ExactPoints | None:
        """`--points`: each unit type's value where exact odds settle it, with the statement
        that holds. None (the default): values measured from play only."""
        return None

    # -- teams ----------------------------------------------------------------------------
    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        """An inline team spec (a flag's value) in the ruleset's JSON team form."""
        raise NotImplementedError

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        """Validate a team read from a file or a save; returns the JSON team form."""
        raise NotImplementedError

    def team_file_keys(self) -> Keys | None:
        """The keys a team file may hold (`kit.filekeys`): a file with any other is refused,
        naming the key and the nearest known one. Default None: not checked."""
        return None

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
            keys = self.team_file_keys()
            if keys is not None and (problem := unknown_key(data, keys)) is not None:
                raise TeamError(f"team file {spec}: {problem}")
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
        near = near_names(spec, self.preset_teams(options))
        try:
            team = self.parse_team(spec, options)
        except TeamError as exc:
            if near:
                raise TeamError(
                    f"{_no_such(spec, near)} (read as a team written out: {exc})"
                ) from None
            raise
        if near and _LONE_NAME.fullmatch(spec.strip()):
            raise TeamError(f"{_no_such(spec, near)} ({self.spelled_out(spec.strip())})")
        return team, None

    def spelled_out(self, name: str) -> str:
        """How to ask for a team whose one member is called `name`, where the inline syntax
        would read a lone name as such a team (said when that name is close to a ready team's)."""
        return f"see `wargame rules {self.id}` for how to write a team"

    def preset_teams(self, options: dict[str, Any]) -> dict[str, Any]:
        """The ready teams the menus offer, by name, in the JSON team form (unchecked)."""
        return {}

    def preset_named(self, spec: str, options: dict[str, Any]) -> tuple[Any, str] | None:
        """A preset named by `spec` (case, spaces and punctuation aside), checked against the
        options, with its name; None when no preset has that name."""
        wanted = plain(spec)
        for name, data in self.preset_teams(options).items():
            if plain(name) == wanted:
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

    # -- positions (`engine/position.py`) -------------------------------------------------
    def snapshot(self, game: Any) -> dict[str, Any] | None:
        """The game's position while its `TurnStart` waits for an answer, as JSON-safe data
        that `new_game_at` turns back into the same game: e.g. `serial.dump(game.state,
        {"options": options})` (`wargame_cli/kit/serial.py`). Default: None, the ruleset
        keeps no positions and its games are always replayed from their start. Declare both
        hooks or neither."""
        return None

    def new_game_at(self, setup: Setup, options: dict[str, Any], snapshot: dict[str, Any]) -> Any:
        """A game standing at `snapshot`: its generator's first request is the `TurnStart`
        the position was taken at, and from there it asks and does exactly what the game
        it was taken from did. Default: none (see `snapshot`)."""
        raise NotImplementedError

    def variants(self) -> tuple[int, ...]:
        """Other behaviours a save of `self.version` may have been played with, where the
        rules changed without a new version number: a save is replayed under the version's
        own, else under the first of these it replays under (`versions.number` then gives
        it). Default: none, the version's own only."""
        return ()

    def migrate_entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        """A saved log entry that an older version of these rules (`self.version`, as the
        save was played) wrote in another shape, in today's shape: a migration, where a change
        renamed what the rules decide without changing it (an event's kind or data keys).
        Replay judges the result; the file keeps its bytes, which the hash chain covers.
        Must leave an entry already in today's shape as it is. Default: every entry as written."""
        return entry

    def parts(self) -> Parts:
        """The ruleset's view, storyteller, pictures and odds, imported here when asked for
        (the rules never load rich). Default: none of them (the ui's generic lines, every
        event told by its own text, no pictures, no exact odds)."""
        return Parts()

    def view(self) -> View:
        """How the state looks on screen. Default: the view in `parts()`."""
        return self.parts().view

    # -- table edits ----------------------------------------------------------------------
    def table_edits(self) -> TableEdits | None:
        """Its own table edits (`TableEdits`), imported when asked for. Default: None, only
        the engine's (`end`, `die`)."""
        return None

    def edit_actions(self) -> dict[str, str]:
        """The table edits this ruleset's state takes (`wargame edit`, "Table…", `wargame
        rules ID`), each with its words: its `table_edits()`, and the engine's `end` and
        `die`, which every ruleset has."""
        from wargame_cli.engine.edits import ENGINE_ACTIONS, usage

        own = self.table_edits()
        engine = {a: usage(a).removeprefix("usage: ") for a in ENGINE_ACTIONS}
        return {**(own.usage if own else {}), **engine}

    def apply_edit(self, game: Any, edit: Edit) -> str:
        """Change `game`'s state as `edit` says, between two requests of its rules, and say
        what changed in one line (the log's); raise `EditRefused` with the reason when the
        state cannot take it (nothing changed then). Default: `table_edits().apply(game.state,
        edit)`; with none, or an action it lacks, the edit is refused."""
        from wargame_cli.engine.edits import EditRefused

        own = self.table_edits()
        if own is None or edit.action not in own.usage:
            raise EditRefused(
                f"{self.name} takes no {edit.action!r} edit; it takes "
                f"{', '.join(self.edit_actions())}"
            )
        return own.apply(game.state, edit)

    def after_declared_hook(self) -> Callable[[Any, str | None, str], Play] | None:
        """The after-battle steps of a battle an `end` edit ends, on the game (the runner's
        `after_end`): the `after` of `table_edits()`, or None (it ends there and then)."""
        own = self.table_edits()
        if own is None or own.after is None:
            return None
        after = own.after
        return lambda game, winner, reason: after(game.state, winner, reason)

    # -- simulation -----------------------------------------------------------------------
    def fast_games(
        self, setup: Setup, options: dict[str, Any], below: Below
    ) -> Iterator[Played] | None:
        """`wargame simulate`: `(Outcome, turns)` for game after game, each set up afresh.
        None: one `new_game` per game, driven by the one driver (`engine/drive.py`)."""
        return None

    def sim_figures(self, game: Any, outcome: Outcome) -> dict[str, Any] | None:
        """`wargame simulate`: numbers to average over the games (e.g. survivors per side).
        None: the numbers, and the lengths of lists, in `outcome.data`."""
        return None

    def sim_watcher(self) -> FactWatcher | None:
        """`wargame simulate`: a fresh watcher for one bot game, for the figures per unit type
        and the win rate of who won the deployment roll-off and the first initiative. None
        (the default): the ruleset tells none; its games are played without watching."""
        return None

    def exact_spread(self, team_a: Any, team_b: Any, options: dict[str, Any]) -> ExactSpread | None:
        """`simulate --exact`: the exact distribution of game length and of the endings.
        None (the default): the exact odds alone."""
        return None

    def odds(self) -> Odds | None:
        """Exact odds for `simulate --exact/--matrix`, `--exact --from SAVE` and the chances a
        replay shows at every turn. Default: those in `parts()`; None: only bot games."""
        return self.parts().odds

    def named_rolls(self, options: dict[str, Any]) -> tuple[NamedRoll, ...]:
        """`wargame dice RULESET [NAME]`: the rules' main rolls, by name, under `options` (the
        ruleset's, resolved: a die size or target set there reaches the rolls). Default:
        none, so a ruleset that names no rolls keeps working."""
        return ()

    # -- battle reports -------------------------------------------------------------------
    def teller(self, save: dict[str, Any], voice: Voice) -> Teller | None:
        """The report's storyteller: a `wargame_cli.report.hooks.Teller` subclass telling each
        event in prose from its kind and data. None: every event told by its own text."""
        make = self.parts().teller
        return make(save, voice) if make is not None else None

    def picture(
        self, state: Any, names: dict[str, str], events: Sequence[dict[str, Any]] = ()
    ) -> str | None:
        """`replay --html` and `--pictures`: the table at the end of a turn as one SVG
        element; `events` (each `{"kind", "data"}`) are the turn's, for a picture that draws
        its moves and attacks. None: no pictures."""
        draw = self.parts().picture
        return draw(state, names, events) if draw is not None else None

    def chance(self, state: Any) -> float | None:
        """`replay --html`: side A's chance of winning from this position, charted over the
        game. None: no chart."""
        reckon = self.parts().chance
        return reckon(state) if reckon is not None else None

    # -- campaigns (`wargame campaign`) ----------------------------------------------------
    def carrying(self) -> Carrying:
        """What carries from one battle of a campaign to the next: a `Carrying`, imported
        when asked for. Default: `NOTHING_CARRIES` (each side keeps its team as given)."""
        return NOTHING_CARRIES

    # -- bots (`wargame_cli/bots/`) -------------------------------------------------------
    default_bot_level = "default"
    """The level `--bot-level` plays when none is given (one of `bot_policies()`)."""
    search_budget: dict[str, float] | None = None
    """Fields of the search bot's `Budget` (`bots/search.py`) this ruleset plays with instead
    of the defaults, e.g. `{"margin": 0.3}` where `evaluate` counts in smaller steps, or more
    candidates and samples where a lookahead is cheap. None: the defaults."""

    def bot_policies(self) -> dict[str, Callable[[Ruleset], Any]]:
        """The bot levels this ruleset offers, each a function making its policy: by default
        `default` (the rules' hints), `random` and `search`. A ruleset may add its own."""
        from wargame_cli.bots.base import policies

        return policies()

    def evaluate(self, game: Any, side: str) -> float:
        """How good the position is for `side` (higher is better; only comparisons matter):
        what the search bot judges its lookaheads by. Default: material and health, each
        side's pieces still in the game and the health they keep, read from `game.state`
        (`bots/evaluate.py`). Override it where the state says this another way."""
        from wargame_cli.bots.evaluate import material

        return material(game, side)


class StatePositions:
    """Positions (`Ruleset.snapshot`, `Ruleset.new_game_at`) for a ruleset whose game keeps
    everything it plays in `game.state`, a tree of dataclasses with the game's `options`
    (serialised by `wargame_cli/kit/serial.py`), and whose game class takes the state and
    `at_turn=True` to start at a turn's start. Mix it in before `Ruleset` and name the
    class in `game_type`; nothing else is needed."""

    def game_type(self) -> Callable[..., Any]:
        """The game class (imported here: the rules load when a game is made)."""
        raise NotImplementedError

    def snapshot(self, game: Any) -> dict[str, Any] | None:
        from wargame_cli.kit import serial

        state = game.state
        return serial.dump(state, serial.option_values(state.options))

    def new_game_at(self, setup: Setup, options: dict[str, Any], snapshot: dict[str, Any]) -> Any:
        from wargame_cli.kit import serial

        make = self.game_type()  # imports the rules, whose classes the snapshot names
        return make(serial.load(snapshot, serial.option_values(options)), at_turn=True)


# -- campaigns: what carries from one battle to the next ----------------------------------------
FIGURE_STATES = ("ready", "wounded", "missing", "dead", "captured", "prisoner", "gone")
"""A roster figure's state: `ready` fights in the next battle; `wounded` and `missing` miss it
(back when their `back` battle comes); `dead` and `gone` never fight again; `captured` is held
by the other side (listed there as its `prisoner`)."""


@dataclass
class Figure:
    """One named figure on a campaign roster: what `campaign show` lists and what the next
    battle's team is mustered from. `entry` is its line in the ruleset's team form (the JSON
    a save stores), carried state included (an Ixu model's `damage`); `wounds` says the same
    for the roster's reader; `back` is the battle a wounded or missing figure returns for."""

    name: str
    entry: dict[str, Any]
    state: str = "ready"
    battles: int = 0
    kills: int = 0
    wounds: int = 0
    joined: int = 1
    back: int | None = None
    deeds: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        out = {
            "name": self.name,
            "state": self.state,
            "battles": self.battles,
            "kills": self.kills,
            "wounds": self.wounds,
            "joined": self.joined,
            "entry": self.entry,
            "deeds": list(self.deeds),
        }
        return out | ({"back": self.back} if self.back is not None else {})

    @classmethod
    def from_json(cls, data: Any) -> Figure:
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            raise ValueError("a roster figure needs a name")
        numbers = ("battles", "kills", "wounds", "joined")
        back = data.get("back")
        if any(not _whole(data.get(k, 0)) for k in numbers) or not (back is None or _whole(back)):
            raise ValueError(f"figure {data['name']!r}: its counts are not whole numbers")
        if data.get("state", "ready") not in FIGURE_STATES:
            raise ValueError(f"figure {data['name']!r}: no state {data.get('state')!r}")
        if not isinstance(data.get("entry"), dict) or not isinstance(data.get("deeds", []), list):
            raise ValueError(f"figure {data['name']!r}: no team entry")
        return cls(
            name=data["name"],
            entry=dict(data["entry"]),
            state=data.get("state", "ready"),
            battles=data.get("battles", 0),
            kills=data.get("kills", 0),
            wounds=data.get("wounds", 0),
            joined=data.get("joined", 1),
            back=data.get("back"),
            deeds=[str(d) for d in data.get("deeds", [])],
        )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_NUMBER


@dataclass
class Roster:
    """A side's roster between battles: its figures, and what the ruleset keeps beside them
    (`extra`: a league's record, a team that has no named figures), JSON-safe."""

    figures: list[Figure] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def named(self, name: str) -> Figure | None:
        return next((f for f in self.figures if f.name.casefold() == name.casefold()), None)

    def ready(self) -> list[Figure]:
        return [f for f in self.figures if f.state == "ready"]

    def as_json(self) -> dict[str, Any]:
        return {"figures": [f.as_json() for f in self.figures], "extra": self.extra}

    @classmethod
    def from_json(cls, data: Any) -> Roster:
        if not isinstance(data, dict) or not isinstance(data.get("figures"), list):
            raise ValueError("a roster needs `figures`")
        extra = data.get("extra", {})
        if not isinstance(extra, dict):
            raise ValueError("a roster's `extra` is a table")
        return cls([Figure.from_json(f) for f in data["figures"]], dict(extra))


@dataclass(frozen=True)
class Finished:
    """A finished battle as the campaign hands it to `Carrying.after`: the replayed game's
    end state (`game.state`), its teams (JSON form, as saved) and names, the winner, the
    log's events (`{"kind", "data"}`), the options it was played with and its number."""

    state: Any
    teams: dict[str, Any]
    names: dict[str, str]
    winner: str | None
    events: list[dict[str, Any]]
    options: dict[str, Any]
    number: int


@dataclass
class Aftermath:
    """What `Carrying.after` returns: each side's roster after the battle, and what befell
    whom in words (kept in the campaign file beside the after-battle dice)."""

    rosters: dict[str, Roster]
    told: list[str] = field(default_factory=list)


# `after` yields a `Roll` for every after-battle die (the campaign throws and records them
# with their provenance, as a game's) and returns the Aftermath
AfterBattle = Generator[Roll, tuple[int, ...], Aftermath]


class Carrying:
    """What carries from one battle to the next (`Ruleset.carrying()`), each method pure: no
    printing, prompting or rolling (a die is a yielded `Roll`). This base class is the
    default, "nothing carries": a side keeps its team as it was first given (a new
    `--team-a` replaces it), and nothing of one battle reaches the next. A ruleset that
    keeps named figures overrides `enlist`, `muster` and `after`, and declares its campaign
    options, which a campaign stores: built with its folder (`Carrying(Path(__file__).parent)`)
    it reads them once from the `options_file` there, so no ruleset reads its own."""

    options: tuple[OptionSpec, ...] = ()
    options_file = "campaign.toml"
    # rule points of the battle's own rolls that decide what carries (Mobs and Morale's e30
    # survival rolls): the campaign file records them beside the after-battle dice it throws
    battle_rolls: frozenset[str] = frozenset()
    kind = "roster"  # "league": a table of results between teams, not figures (Tug)

    def __init__(self, folder: Path | None = None) -> None:
        """The campaign options declared in `folder / options_file` (the ruleset's folder, as
        `load_options` reads an `options.toml`); no folder: none."""
        if folder is not None:
            self.options = load_options(folder / self.options_file)

    def enlist(
        self,
        roster: Roster,
        team: Any,
        battle: int,
        options: dict[str, Any],
        name: str | None = None,
    ) -> Roster:
        """`roster` with `team` (the ruleset's JSON form; `name`: its ready team's or file's
        name, if any) joined before battle `battle`: refuse (TeamError) a figure whose name
        the roster has. Default: the team replaces the side's, whole."""
        return Roster([], {"team": team})

    def recruits(
        self, ruleset: Ruleset, spec: str, options: dict[str, Any]
    ) -> tuple[Any, str | None]:
        """A `--team-a` of recruits in the team's JSON form, with its ready team's or file's
        name (None: none). Default: a whole team, read as `play` reads one
        (`Ruleset.load_team`); a ruleset whose teams have a least size may take fewer, to
        join those already on the roster."""
        return ruleset.load_team(spec, options)

    def fielded(self, roster: Roster, side_name: str) -> str:
        """The name the side fights the next battle under (its save's side name). Default:
        the side's own; a league's, the club's."""
        return side_name

    def returning(self, roster: Roster, battle: int) -> Roster:
        """`roster` before battle `battle`: a wounded or missing figure whose `back` has
        come is ready again."""
        for figure in roster.figures:
            away = figure.state in ("wounded", "missing") and figure.back is not None
            if away and figure.back is not None and figure.back <= battle:
                figure.state, figure.back = "ready", None
                figure.deeds.append(f"back for battle {battle}")
        return roster

    def muster(self, roster: Roster, battle: int, options: dict[str, Any]) -> Any:
        """The team (JSON form) that fights battle `battle`: its ready figures, with what they
        carry. TeamError when the roster cannot field a legal team. Default: the team kept."""
        if "team" not in roster.extra:
            raise TeamError("this side has no team: give one with --team-a/--team-b")
        return roster.extra["team"]

    def matches(self, roster: Roster, team: Any, battle: int, options: dict[str, Any]) -> bool:
        """Whether a save played outside the campaign (`campaign add`) fought with the team
        this roster musters. Default: the same team exactly."""
        try:
            return bool(self.muster(roster, battle, options) == team)
        except TeamError:
            return False

    def after(
        self, rosters: dict[str, Roster], finished: Finished, options: dict[str, Any]
    ) -> AfterBattle:
        """The rosters after `finished`. Default: as they were."""
        yield from ()  # a generator: this default throws no dice
        return Aftermath(rosters)

    def standings(
        self, rosters: dict[str, Roster], battle: int, options: dict[str, Any], game: dict[str, Any]
    ) -> list[str]:
        """Lines `campaign show` adds under the rosters before battle `battle` (a league's
        table, the odds of its next pairing under the game options `game`). Default: none."""
        return []


NOTHING_CARRIES = Carrying()
