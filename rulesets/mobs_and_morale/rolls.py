"""Mobs and Morale's rolls by name (`wargame dice mobs-and-morale`), made from the rules' own
numbers: success pools of the `die` option's dice counting `success_on` or more (e6, e12),
defence dice cancelling a success each on the defence number or more (e13, e14), morale
dice under the morale score (e24) and the survival roll (e30, `pools`)."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.mobs_and_morale.pools import SURVIVAL_DIE, SURVIVES_ON

from wargame_cli.ruleset import MAX_TEAM_NUMBER, NamedRoll, OptionSpec


def _dice(name: str, default: int, doc: str) -> OptionSpec:
    return OptionSpec(name, default, doc, minimum=1, maximum=100)


def named_rolls(options: dict[str, Any]) -> tuple[NamedRoll, ...]:
    die, success_on = int(options["die"]), int(options["success_on"])
    return (
        NamedRoll(
            "attack",
            f"an attack: Fierce d{die}s, each {success_on}+ a success; the defender rolls a "
            "die per success and each at or over the defence cancels one: the damage dealt",
            ("e12", "e13", "e14"),
            (
                _dice("fierce", 4, "the dice rolled (Fierce, summed over a mob's figures)"),
                OptionSpec(
                    "defence",
                    min(8, die),
                    "the target's defence number",
                    minimum=1,
                    maximum=MAX_TEAM_NUMBER,
                ),
            ),
            lambda p: f"pool {p['fierce']}d{die} >= {success_on} vs defence {p['defence']}",
        ),
        NamedRoll(
            "presence",
            f"a Presence roll (initiative, or saving fleeing figures): d{die}s, each "
            f"{success_on}+ a success",
            ("e6", "e25"),
            (_dice("presence", 3, "the Presence rating"),),
            lambda p: f"pool {p['presence']}d{die} >= {success_on}",
        ),
        NamedRoll(
            "morale",
            f"a mob's morale: a d{die} per creature in its dead pool, each under the morale "
            "score puts one in danger of fleeing",
            ("e24",),
            (
                _dice("dead", 2, "creatures in the dead pool"),
                OptionSpec(
                    "morale", 5, "the mob's morale score", minimum=1, maximum=MAX_TEAM_NUMBER
                ),
            ),
            lambda p: f"pool {p['dead']}d{die} < {p['morale']}",
        ),
        NamedRoll(
            "survival",
            f"after the battle, a casualty lives on {SURVIVES_ON} or more on a d{SURVIVAL_DIE}",
            ("e30",),
            (),
            lambda p: f"d{SURVIVAL_DIE} >= {SURVIVES_ON}",
        ),
    )
