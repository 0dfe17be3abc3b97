"""The combat round's dice steps: 1 recovery (d4, d5), 2 initiative (d6), the flight of Routed
units that opens step 3 (gap 8), and 6 morale (d14, d15)."""

from __future__ import annotations

from collections.abc import Generator
from functools import partial
from typing import Any

from wargame_cli.rulesets.seeds_of_wars.checks import (
    DIE,
    TARGET,
    Contender,
    better,
    d20s,
    morale_passes,
    recovery_passes,
    worse,
)
from wargame_cli.rulesets.seeds_of_wars.movement import rout_path
from wargame_cli.rulesets.seeds_of_wars.state import (
    DESTROYED,
    REMOVED,
    ROUTED,
    SHAKEN,
    Battle,
)

from wargame_cli.engine.events import EventData
from wargame_cli.engine.requests import Event, Roll
from wargame_cli.engine.rolloffs import roll_off
from wargame_cli.kit.sides import SIDES, other

Steps = Generator[Any, Any, None]


def recovery(battle: Battle) -> Steps:
    """Step 1. Routed units in their Reserve leave the battle first (d5, gap 8); then every
    Shaken or Routed unit rolls 1d20 + Mo, 10 or greater improving it one step (d4)."""
    battle.step = "recovery"
    for unit in battle.fighting():
        if unit.state == ROUTED and battle.in_reserve(unit):
            unit.fate = REMOVED
            yield Event(
                f"{unit.name} is Routed in its Reserve and is removed from battle",
                rules=("d5",),
                kind="removed",
                data={"unit": unit.uid},
            )
    for side in SIDES:
        for unit in battle.fighting(side):
            if unit.state not in (SHAKEN, ROUTED):
                continue
            mo = unit.kind.mo
            faces = yield Roll(
                dice=(DIE,),
                reason=lambda n=battle.round, unit=unit, was=unit.state, mo=mo: (
                    f"Round {n} recovery: {unit.name} ({was}) rolls 1d20 + Mo {mo}, needs "
                    f"{TARGET} or greater"
                ),
                side=side,
                rules=("d4",),
                labels=(unit.name,),
            )
            total = faces[0] + mo
            before = unit.state
            passed = recovery_passes(faces[0], mo)
            if passed:
                unit.state = better(before)
            yield Event(
                partial(_recovered, unit.name, f"{faces[0]} + Mo {mo} = {total}", passed, before),
                rules=("d4",),
                kind="recovery",
                data={
                    "unit": unit.uid,
                    "face": faces[0],
                    "total": total,
                    "from": before,
                    "to": unit.state,
                },
            )


def _recovered(name: str, sums: str, passed: bool, before: str) -> str:
    """The words of a recovery check's result (d4)."""
    if passed:
        return f"{name} recovers ({sums}): {before} to {better(before)}"
    return f"{name} fails to recover ({sums}, under {TARGET}): still {before}"


def initiative(battle: Battle) -> Steps:
    """Step 2: opposed 1d20 + Order (d6); a tie is rolled again or goes to a side
    (`initiative_ties`)."""
    battle.step = "initiative"
    ties = battle.options["initiative_ties"]
    totals: dict[str, int] = {}

    def tied(
        group: list[Contender], shown: list[int], attempt: int
    ) -> Generator[Event, Any, list[Contender] | None]:
        if ties != "reroll":  # the tie goes to a side
            first = battle.attacker if ties == "attacker" else battle.defender
            return sorted(group, key=lambda c: c.side != first)
        yield Event(
            f"Initiative tied at {shown[0]}: roll again", rules=("d6",), kind="initiative_tie"
        )
        return None

    order = yield from roll_off(
        [
            Contender(s, battle.names[s], battle.orders[s], f"Order {battle.orders[s]}")
            for s in SIDES
        ],
        d20s(f"Round {battle.round} initiative", ("d6",)),
        seen=lambda c, total: totals.__setitem__(c.side, total),
        tied=tied,
    )
    winner, a, b = order[0].side, totals["A"], totals["B"]
    battle.initiative = winner
    yield Event(
        f"Initiative: {battle.names['A']} {a}, {battle.names['B']} {b}; "
        f"{battle.names[winner]} acts first in steps 3-5",
        rules=("d6", "d7"),
        kind="initiative",
        data={"totals": {"A": a, "B": b}, "winner": winner},
    )


def flight(battle: Battle) -> Steps:
    """Opening step 3: Routed units flee towards their Reserve, initiative side first."""
    assert battle.initiative is not None
    for side in (battle.initiative, other(battle.initiative)):
        for unit in battle.fighting(side):
            if unit.state != ROUTED:
                continue
            path = rout_path(battle, unit)
            if not path:
                continue
            start = battle.space_name(unit)
            unit.space = path[-1]
            unit.charged = frozenset()
            stopped = " and stops among the enemy (d9)" if battle.engaged(unit) else ""
            yield Event(
                f"{unit.name} (Routed) flees {start} to {battle.space_name(unit)}{stopped}",
                rules=("d8", "d9"),
                kind="flee",
                data={"unit": unit.uid, "from": start, "to": battle.space_name(unit)},
            )


def morale(battle: Battle) -> Steps:
    """Step 6: every unit damaged this round rolls 1d20 + Mo - Ht taken in the battle, 10 or
    greater holding (d14); a failure worsens it one step, and a Routed unit is destroyed (d15)."""
    battle.step = "morale"
    for side in SIDES:
        for unit in battle.fighting(side):
            if not unit.damaged_this_round:
                continue
            mo, taken = unit.kind.mo, unit.taken
            faces = yield Roll(
                dice=(DIE,),
                reason=lambda n=battle.round, unit=unit, mo=mo, taken=taken: (
                    f"Round {n} morale: {unit.name} rolls 1d20 + Mo {mo} - {taken} Ht taken, "
                    f"needs {TARGET} or greater"
                ),
                side=side,
                rules=("d14",),
                labels=(unit.name,),
            )
            total = faces[0] + mo - taken
            before = unit.state
            data: EventData = {"unit": unit.uid, "face": faces[0], "total": total, "from": before}
            sums = f"{faces[0]} + Mo {mo} - {taken} Ht taken = {total}"
            if morale_passes(faces[0], mo, taken):
                yield Event(
                    lambda unit=unit, sums=sums: f"{unit.name} holds its morale ({sums})",
                    rules=("d14",),
                    kind="morale",
                    data={**data, "to": before},
                )
                continue
            after = worse(before)
            if after is None:
                unit.fate = DESTROYED
                yield Event(
                    f"{unit.name} fails morale again while Routed ({sums}, under {TARGET}) "
                    "and is destroyed",
                    rules=("d14", "d15"),
                    kind="destroyed",
                    data={**data, "to": DESTROYED},
                )
                continue
            unit.state = after
            yield Event(
                f"{unit.name} fails morale ({sums}, under {TARGET}): {before} to {after}",
                rules=("d14",),
                kind="morale",
                data={**data, "to": after},
            )
