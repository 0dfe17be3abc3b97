"""The Battle of Ixu's rolls by name (`wargame dice battle-of-ixu`), made from the rules' own
numbers: an attack's combat dice, each beating the defence when it shows more (c6, gap 3),
and the d10 health check (c8, `odds.HEALTH_DIE`). The die is the `die` option's."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.battle_of_ixu.odds import HEALTH_DIE
from wargame_cli.rulesets.battle_of_ixu.teams import EXPERIENCE

from wargame_cli.ruleset import MAX_TEAM_NUMBER, NamedRoll, OptionSpec


def named_rolls(options: dict[str, Any]) -> tuple[NamedRoll, ...]:
    die = int(options["die"])
    return (
        NamedRoll(
            "combat",
            f"an attack: as many d{die} as the combat value, each beating the target's defence "
            "(showing more) deals 1 damage: the damage dealt",
            ("c6", "c7"),
            (
                OptionSpec(
                    "dice", min(3, die), "the attacker's combat value", minimum=1, maximum=die
                ),
                OptionSpec(
                    "defence", min(3, die), "the target's defence value", minimum=1, maximum=die
                ),
            ),
            lambda p: f"pool {p['dice']}d{die} > {p['defence']}",
        ),
        NamedRoll(
            "check",
            f"the health check of a model damaged this turn: it falls when the d{HEALTH_DIE} "
            "shows its damage so far or less",
            ("c8",),
            (
                OptionSpec(
                    "damage",
                    3,
                    "its damage so far in the game",
                    minimum=0,
                    maximum=MAX_TEAM_NUMBER,
                ),
            ),
            lambda p: f"d{HEALTH_DIE} <= {p['damage']}",
        ),
        NamedRoll(
            "experience",
            f"the turn's dice: as many d{die} as the model's experience, to attribute to "
            "movement, combat and defence: their sum",
            ("c1", "c2"),
            (
                OptionSpec(
                    "experience",
                    min(EXPERIENCE),
                    ", ".join(f"{n} {word}" for n, word in EXPERIENCE.items()),
                    choices=tuple(EXPERIENCE),
                ),
            ),
            lambda p: f"{p['experience']}d{die}",
        ),
    )
