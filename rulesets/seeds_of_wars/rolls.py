"""Seeds of Wars' rolls by name (`wargame dice seeds-of-wars`), made from the card's own
numbers (`checks`): 1d20 plus a bonus must exceed De to hit (d10, d12, +2 charging or
flanking), and 1d20 plus Mo, 10 or greater, to recover or hold (d4, d14)."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.seeds_of_wars.checks import DIE, MAX_BONUS, TARGET

from wargame_cli.ruleset import MAX_TEAM_NUMBER, NamedRoll, OptionSpec


def _stat(name: str, default: int, doc: str) -> OptionSpec:
    return OptionSpec(name, default, doc, minimum=-MAX_TEAM_NUMBER, maximum=MAX_TEAM_NUMBER)


def _signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def _melee(p: dict[str, Any]) -> str:
    bonus = p["me"] + (MAX_BONUS if p["charging"] else 0)
    return f"d{DIE} {_signed(bonus)} > {p['de']}"


def named_rolls() -> tuple[NamedRoll, ...]:
    de = _stat("de", 12, "the target's defence")
    return (
        NamedRoll(
            "attack",
            f"a melee attack: 1d{DIE} + Me, +{MAX_BONUS} if charging or flanking, must exceed De",
            ("d12",),
            (
                _stat("me", 4, "the attacker's melee bonus (Me)"),
                de,
                OptionSpec("charging", False, f"charging or flanking: +{MAX_BONUS}"),
            ),
            _melee,
        ),
        NamedRoll(
            "ranged",
            f"a ranged attack: 1d{DIE} + Ra must exceed De",
            ("d10",),
            (_stat("ra", 2, "the attacker's ranged bonus (Ra)"), de),
            lambda p: f"d{DIE} {_signed(p['ra'])} > {p['de']}",
        ),
        NamedRoll(
            "recovery",
            f"a Shaken or Routed unit's recovery: 1d{DIE} + Mo, {TARGET} or more",
            ("d4",),
            (_stat("mo", 2, "the unit's morale (Mo)"),),
            lambda p: f"d{DIE} {_signed(p['mo'])} >= {TARGET}",
        ),
        NamedRoll(
            "morale",
            f"a damaged unit's morale: 1d{DIE} + Mo - hits taken in the battle, {TARGET} or more",
            ("d14",),
            (
                _stat("mo", 2, "the unit's morale (Mo)"),
                OptionSpec(
                    "taken", 1, "hits taken in the whole battle", minimum=0, maximum=MAX_TEAM_NUMBER
                ),
            ),
            lambda p: f"d{DIE} {_signed(p['mo'] - p['taken'])} >= {TARGET}",
        ),
    )
