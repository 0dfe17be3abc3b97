"""Tug of WarGods' rolls by name (`wargame dice tug-of-wargods`): a team's total, one die per
model sized by its unit type (a2, a11, a12, `units.toml`), and one turn's pull, the higher
total pulling (a13); a tie moves nobody (a15), and the penalty after it falls on both totals
alike (a16), so it never changes who pulls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wargame_cli.rulesets.tug_of_wargods import teams

from wargame_cli.ruleset import NamedRoll, OptionSpec


def dice_text(team: Any) -> str:
    """A team's dice as an expression: `d12 + d10 + d8`, largest first."""
    cat = teams.catalogue()
    return " + ".join(
        f"d{d}" for d in sorted((cat.unit(m).die for m in team["models"]), reverse=True)
    )


def named_rolls(load: Callable[[str], Any]) -> tuple[NamedRoll, ...]:
    """`load` reads a team as `--team-a` does: a ready team's name, a team written out, or
    a team file."""
    cat = teams.catalogue()
    default = {side: ", ".join(cat.example(cat.defaults[side])) for side in ("A", "B")}
    return (
        NamedRoll(
            "roll",
            "a team's total for one turn: one die per model, sized by its unit type",
            ("a2", "a11", "a12"),
            (OptionSpec("team", default["A"], "the team (a ready team's name, or its models)"),),
            lambda p: dice_text(load(p["team"])),
        ),
        NamedRoll(
            "pull",
            "one turn: the chance the first team's total beats the second's and pulls "
            "(the table: the first total less the second; 0 is a tie, nobody moves)",
            ("a11", "a13", "a15"),
            (
                OptionSpec("team-a", default["A"], "the team pulling"),
                OptionSpec("team-b", default["B"], "the team against it"),
            ),
            lambda p: f"{dice_text(load(p['team-a']))} > {dice_text(load(p['team-b']))}",
        ),
    )
