"""Writing `simulate --html FILE`: the page made whole, then written as the battle report is
(`report/output.write`: atomically, never over a save, over a file only with --force)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.report import output
from wargame_cli.simulate.page import page


def write(target: Path, result: dict[str, Any], force: bool) -> None:
    name = registry.get(result["ruleset"]).name
    output.write(target, page(result, name), None, force, "--html")
