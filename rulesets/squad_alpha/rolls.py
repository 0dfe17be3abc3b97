"""Squad Alpha's rolls by name (`wargame dice squad-alpha`), made from the rules' own numbers:
the dice a training level rolls (b12), the step less morale a die must be at or under (b13,
b24, b25: `odds.highest_passing`), and the cover saves (b16)."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.squad_alpha.odds import DIE, SAVE_NEEDED, highest_passing
from wargame_cli.rulesets.squad_alpha.teams import TRAINING_DICE

from wargame_cli.ruleset import MAX_TEAM_NUMBER, NamedRoll, OptionSpec
from wargame_cli.tabletop.table import TerrainKind


def _test(p: dict[str, Any]) -> str:
    """Any die at or under the highest face that passes: the lowest die decides."""
    passing = highest_passing(p["step"], p["modifier"])
    return f"{TRAINING_DICE[p['training']]}d{DIE} best 1 <= {passing}"


def named_rolls() -> tuple[NamedRoll, ...]:
    levels = ", ".join(f"{t} {n}" for t, n in TRAINING_DICE.items())
    return (
        NamedRoll(
            "test",
            "an action test (move, shoot, melee): it passes when any die is at or under the "
            "step, less a negative morale; a 1 always passes, a 6 never",
            ("b12", "b13", "b24", "b25"),
            (
                OptionSpec(
                    "training", "regular", f"dice rolled: {levels}", choices=tuple(TRAINING_DICE)
                ),
                OptionSpec("step", 3, "the step it activates at", minimum=1, maximum=DIE),
                OptionSpec(
                    "modifier",
                    0,
                    "the leader's rating less casualties: only below 0 does it count",
                    minimum=-MAX_TEAM_NUMBER,
                    maximum=MAX_TEAM_NUMBER,
                ),
            ),
            _test,
        ),
        NamedRoll(
            "save",
            "a cover save against a hit; saves are never modified",
            ("b16",),
            (
                OptionSpec(
                    "cover",
                    TerrainKind.HARD.value,
                    "hard: cover from fire; soft: cover from view",
                    choices=tuple(k.value for k in SAVE_NEEDED),
                ),
            ),
            lambda p: f"d{DIE} >= {SAVE_NEEDED[TerrainKind(p['cover'])]}",
        ),
    )
