"""A table as a ruleset option: given as a TOML file path, stored as the table's data so a
save carries its own table and replays without the file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wargame_cli.errors import OptionError
from wargame_cli.ruleset import OptionSpec
from wargame_cli.tabletop.table import Table


def load_data(path: str | Path) -> dict[str, Any]:
    """A table TOML file as checked, normalised data."""
    return Table.load(path).to_data()


@dataclass(frozen=True)
class TableOption(OptionSpec):
    """`--option table=FILE` reads the file; the option's value is the table data (a dict).
    `default` is the ruleset's default scenario data."""

    def parse(self, text: str) -> Any:
        text = text.strip()
        if text in ("", "default"):
            return dict(self.default)
        path = Path(text).expanduser()
        if not path.is_file():
            raise OptionError(f"option {self.name}: table file {text} not found")
        return load_data(path)

    def check(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.parse(value)
        if not isinstance(value, dict):
            raise OptionError(f"option {self.name}: expected table data or a TOML file path")
        return Table.from_data(value).to_data()
