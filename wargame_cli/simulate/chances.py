"""Each side's chance of winning on one line, e.g. `Greentoe 73% · Clearsky 27%`."""

from __future__ import annotations

from collections.abc import Mapping

from wargame_cli.kit.sides import SIDES


def percent(p: float) -> str:
    """Whole percents; a chance that is not certain never shows as 0% or 100%."""
    if 0.0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1.0:
        return ">99%"
    return f"{100 * p:.0f}%"


def line(chances: Mapping[str, float], names: Mapping[str, str]) -> str:
    """The sides' chances by name; a draw only where it can happen."""
    parts = [f"{names[side]} {percent(chances[side])}" for side in SIDES]
    if chances.get("draw"):
        parts.append(f"draw {percent(chances['draw'])}")
    return " · ".join(parts)
