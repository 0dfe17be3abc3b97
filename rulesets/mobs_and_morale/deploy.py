"""Setup (e1-e3): each side deploys in its own area along its table edge. A surprised side
deploys all first (e2); otherwise both deploy "simultaneously", which at one terminal means
side A then side B, each in its own area. With `deploy_order=initiative` (e3) an initiative
round is rolled and the lowest deploys first, each character with the mobs it controls."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from rulesets.mobs_and_morale import initiative
from rulesets.mobs_and_morale.state import RADIUS, SIDES, Battle, Creature
from wargame_cli.engine.requests import Choice, Event, Option, Request
from wargame_cli.tabletop.areas import fit_group
from wargame_cli.tabletop.geometry import Point

Steps = Generator[Request, Any, Any]


def units_of(b: Battle, side: str) -> list[str]:
    """A side's deployment units: its characters, then its mobs, in team order."""
    chars = [c.id for c in b.creatures.values() if c.side == side and c.mob is None]
    return chars + [f"mob:{m.name}" for m in b.mobs.values() if m.side == side]


def deploy(b: Battle) -> Steps:
    b.phase = "deployment"
    surprised = b.options["surprised"]
    rules: tuple[str, ...] = ("e1", "e2")
    if surprised in SIDES:
        order = units_of(b, surprised) + units_of(b, "B" if surprised == "A" else "A")
        why = f"{b.sides[surprised].name} is surprised and deploys first"
    elif b.options["deploy_order"] == "initiative":
        rules = ("e1", "e3")
        ranked, scores = yield from initiative.roll_initiative(
            initiative.contenders(b, setup=True),
            b.options["die"],
            b.options["success_on"],
            "initiative for deployment",
        )
        order = [u for slot in reversed(ranked) for u in _all_mobs_of(b, slot.key)]
        why = "lowest initiative deploys first: " + ", ".join(
            initiative.describe(s, ranked, scores, [m[4:] for m in _all_mobs_of(b, s.key)[1:]])
            for s in reversed(ranked)
        )
    else:
        order = units_of(b, "A") + units_of(b, "B")
        why = "both sides deploy at once (side A's choices first at one terminal)"
    yield Event(f"Deployment: {why}", rules=rules, kind="deployment", data={"order": order})
    placed: dict[str, int] = {}
    for unit in order:
        yield from _place(b, unit, placed, rules)


def _all_mobs_of(b: Battle, key: str) -> list[str]:
    if key.startswith("mob:"):
        return [key]
    return [key] + [f"mob:{m.name}" for m in b.mobs.values() if m.controller == key]


def _members(b: Battle, unit: str) -> list[Creature]:
    if unit.startswith("mob:"):
        return [b.creatures[i] for i in b.mobs[unit[4:]].members]
    return [b.creatures[unit]]


def _place(b: Battle, unit: str, placed: dict[str, int], rules: tuple[str, ...]) -> Steps:
    members = _members(b, unit)
    side = members[0].side
    area = b.areas[side]
    others = b.bodies()
    n = len(members)
    options, fits = [], []
    for label, anchor in area.anchors():
        spots = fit_group(b.table, area, anchor, n, RADIUS, others)
        ok = len(spots) == n
        if ok:
            fits.append(anchor.key())
        options.append(
            Option(
                anchor.key(),
                f"{label.capitalize()} of the deployment area ({anchor.key()})",
                disabled=None if ok else f"no room there for {n} figure{'s' if n > 1 else ''}",
            )
        )
    if not fits:
        raise RuntimeError(f"no room in side {side}'s deployment area for {unit}")
    turn = placed.get(side, 0)
    placed[side] = turn + 1
    default = fits[turn % len(fits)]

    def check(text: str) -> str | None:
        try:
            anchor = Point.parse(text)
        except ValueError as exc:
            return str(exc)
        if not area.rect.contains(anchor):
            return f"{anchor.key()} is outside {area.name}"
        if len(fit_group(b.table, area, anchor, n, RADIUS, others)) < n:
            return f"no room around {anchor.key()} for {n} figure{'s' if n > 1 else ''}"
        return None

    key = yield Choice(
        side=side,
        prompt=f"Deploy {b.unit_name(unit)} ({n} figure{'s' if n > 1 else ''}) where?",
        options=tuple(options),
        default=default,
        rules=rules,
        kind="deploy",
        free_hint="x,y",
        check=check,
    )
    anchor = Point.parse(key)
    for member, spot in zip(
        members, fit_group(b.table, area, anchor, n, RADIUS, others), strict=True
    ):
        member.pos = spot
    yield Event(
        f"{b.unit_name(unit)} deploys around {anchor.key()}",
        rules=rules,
        kind="deploy",
        data={"unit": b.unit_name(unit), "at": {m.id: m.at.as_list() for m in members}},
    )
