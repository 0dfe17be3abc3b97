"""A table as a ruleset option: given as a TOML file path, stored as the table's data so a
save carries its own table and replays without the file."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wargame_cli.errors import OptionError
from wargame_cli.kit.filekeys import TABLE_KEYS, unknown_key
from wargame_cli.ruleset import OptionSpec, load_options
from wargame_cli.tabletop.areas import named_areas
from wargame_cli.tabletop.table import Table, read_file


class TableData(dict[str, Any]):
    """A table's data (JSON-able, stored in saves) that prints as a one-line summary."""

    def __str__(self) -> str:
        areas = len(self.get("areas", []))
        return (
            f'{self.get("name", "table")} ({self.get("width", 0):g}"x{self.get("height", 0):g}", '
            f"{len(self.get('terrain', []))} terrain pieces"
            + (f", {areas} deployment area{'s' if areas != 1 else ''})" if areas else ")")
        )


def table_data(raw: dict[str, Any]) -> TableData:
    """A table's raw data as checked, normalised data: the table, and its named deployment
    areas when it has any (`[[areas]]`, see `areas.named_areas`)."""
    table = Table.from_data(raw)
    data = TableData(table.to_data())
    if "areas" in raw:
        data["areas"] = named_areas(raw["areas"], table)
    if "teams" in raw:  # a premade scenario's own teams: the ones the game starts with
        data["teams"] = scenario_teams(raw["teams"])
    return data


def scenario_teams(raw: Any) -> dict[str, str]:
    """A table's `[teams]` (`A = "team name"`, `B = ...`): each side's ready team when the
    game is played on this table and no team is given."""
    if not isinstance(raw, dict) or not all(
        side in ("A", "B") and isinstance(name, str) and name.strip() for side, name in raw.items()
    ):
        raise OptionError('a table\'s [teams] names a ready team per side: A = "…", B = "…"')
    return {side: name.strip() for side, name in raw.items()}


def load_data(path: str | Path) -> TableData:
    """A table TOML file as checked, normalised data."""
    raw = read_file(path)
    if not isinstance(raw, dict):
        raise OptionError(f"table file {path}: expected a table of width, height and terrain")
    if (problem := unknown_key(raw, TABLE_KEYS)) is not None:
        raise OptionError(f"table file {path}: {problem}")
    try:
        return table_data(raw)
    except OptionError as exc:
        raise OptionError(f"table file {path}: {exc}") from None


@dataclass(frozen=True)
class TableOption(OptionSpec):
    """`--option table=FILE` reads the file; the option's value is the table data (a dict).
    `default` is the ruleset's default scenario data."""

    premade: Path | None = None  # a folder of premade tables, named without `.toml`

    def parse(self, text: str) -> Any:
        text = text.strip()
        if text in ("", "default"):
            return TableData(self.default)
        named = self.premade_file(text)
        if named is not None:
            return load_data(named)
        path = Path(text).expanduser()
        if not path.is_file():
            raise OptionError(f"option {self.name}: table file {text} not found")
        return load_data(path)

    def premade_file(self, name: str) -> Path | None:
        """The premade table `name` (a file stem in the ruleset's `premade` folder), if any."""
        if self.premade is None or not name.replace("_", "").replace("-", "").isalnum():
            return None
        path = self.premade / f"{name}.toml"
        return path if path.is_file() else None

    def check(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.parse(value)
        if not isinstance(value, dict):
            raise OptionError(f"option {self.name}: expected table data or a TOML file path")
        return table_data(value)


def load_options_with_tables(path: Path) -> tuple[OptionSpec, ...]:
    """A ruleset's `options.toml` read with `load_options`, where every option marked
    `kind = "table"` becomes a `TableOption` whose default is the table file it names
    (relative to the options file), so the declaration and its doc stay in the TOML:

        [table]
        kind = "table"
        default = "table.toml"
        doc = "the table: a TOML file path"
        premade = "tables"  # optional: `--option table=NAME` opens tables/NAME.toml
    """
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    out: list[OptionSpec] = []
    for spec in load_options(path):
        if raw[spec.name].get("kind") != "table":
            out.append(spec)
            continue
        if not isinstance(spec.default, str):
            raise OptionError(f"option {spec.name}: a table option's default is a file name")
        premade = raw[spec.name].get("premade")  # a folder of premade tables, by name
        out.append(
            TableOption(
                spec.name,
                load_data(path.parent / spec.default),
                spec.doc,
                rule=spec.rule,
                premade=path.parent / premade if isinstance(premade, str) else None,
            )
        )
    return tuple(out)
