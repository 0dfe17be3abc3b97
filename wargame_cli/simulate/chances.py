"""Each side's chance of winning on one line, e.g. `Greentoe 73% · Clearsky 27%`."""

from __future__ import annotations

from collections.abc import Mapping

from wargame_cli.kit.sides import SIDES
from wargame_cli.wording import percent


def line(chances: Mapping[str, float], names: Mapping[str, str]) -> str:
    """The sides' chances by name; a draw only where it can happen."""
    parts = [f"{names[side]} {percent(chances[side])}" for side in SIDES]
    if chances.get("draw"):
        parts.append(f"draw {percent(chances['draw'])}")
    return " · ".join(parts)
