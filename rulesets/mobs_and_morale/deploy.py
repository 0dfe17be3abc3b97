"""Setup (e1-e3): each side deploys in its own area along its table edge. A surprised side
deploys all first (e2); otherwise both deploy "simultaneously", which at one terminal means
side A then side B, each in its own area. With `deploy_order=initiative` (e3) an initiative
round is rolled and the lowest deploys first, each character with the mobs it controls."""

from __future__ import annotations

from collections.abc import Generator
from functools import lru_cache
from typing import Any

from wargame_cli.rulesets.mobs_and_morale import initiative
from wargame_cli.rulesets.mobs_and_morale.state import RADIUS, Battle, Creature

from wargame_cli.engine.requests import SPOT_HINT, Choice, Event, Option, Request, menu_or
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.tabletop.areas import Area, fit_group
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body
from wargame_cli.tabletop.table import Table
from wargame_cli.wording import plural, possessive

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
        order = units_of(b, surprised) + units_of(b, other(surprised))
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
        if b.rules_version >= 3 and b.options.get("deployment", "open") == "hidden":
            b.hidden = not _areas_overlap(b)
            why = (
                "both sides deploy at once, unseen: side A places its pieces, then side B "
                "without seeing them; then both are revealed"
                if b.hidden
                else "both sides deploy at once, in the open: their areas overlap, so side "
                "B sees where side A stands"
            )
    yield Event(f"Deployment: {why}", rules=rules, kind="deployment", data={"order": order})
    placed: dict[str, int] = {}
    for unit in order:
        yield from _place(b, unit, placed, rules)
    if b.hidden:
        b.hidden = False
        yield Event(
            "Deployment revealed: both sides' pieces are on the table",
            rules=("e2",),
            kind="revealed",
            data={"A": [c.id for c in b.standing("A")], "B": [c.id for c in b.standing("B")]},
        )


def _areas_overlap(b: Battle) -> bool:
    """Do the two sides' areas share ground (deep edge strips)? Then neither can deploy
    unseen: a base could land on the other side's."""
    return any(
        a.rect.x0 < o.rect.x1
        and o.rect.x0 < a.rect.x1
        and a.rect.y0 < o.rect.y1
        and o.rect.y0 < a.rect.y1
        for a in b.areas["A"]
        for o in b.areas["B"]
    )


def room_problem(b: Battle) -> str | None:
    """Why the sides cannot all deploy as the default answers place them (a table or a
    deployment depth that leaves too little open ground), or None. Checked before the game
    starts: a table covered by terrain is one clear line, not a game stuck at its first unit."""
    surprised = b.options["surprised"]
    first = surprised if surprised in SIDES else "A"
    order = units_of(b, first) + units_of(b, "B" if first == "A" else "A")
    units = tuple((_members(b, u)[0].side, b.unit_name(u), len(_members(b, u))) for u in order)
    return _room(b.table, tuple(sorted(b.areas.items())), units)


@lru_cache(maxsize=64)
def _room(
    table: Table,
    areas: tuple[tuple[str, tuple[Area, ...]], ...],
    units: tuple[tuple[str, str, int], ...],
) -> str | None:
    """`room_problem` for hashable values, so a batch of games on one table checks it once."""
    area_of = dict(areas)
    others: list[Body] = []
    placed: dict[str, int] = {}
    for side, name, n in units:
        fits = [
            (area, anchor)
            for area, _, anchor in anchors(area_of[side])
            if len(fit_group(table, area, anchor, n, RADIUS, others)) == n
        ]
        if not fits:
            where = " or ".join(a.name for a in area_of[side])
            return f"no room in {where} for {name} ({plural(n, 'figure')})"
        turn = placed.get(side, 0)
        placed[side] = turn + 1
        area, anchor = fits[turn % len(fits)]
        spots = fit_group(table, area, anchor, n, RADIUS, others)
        others = others + [Body(f"#{len(others) + i}", p, RADIUS) for i, p in enumerate(spots)]
    return None


def anchors(areas: tuple[Area, ...]) -> list[tuple[Area, str, Point]]:
    """Every area's five named spots (`Area.anchors`), area by area; a side with several
    areas names each spot with its area ("Centre of the ford")."""
    return [
        (area, f"{label} of {area.name}" if len(areas) > 1 else label, spot)
        for area in areas
        for label, spot in area.anchors()
    ]


def spot_label(label: str, areas: tuple[Area, ...], strip: str) -> str:
    """A deployment spot's menu label: "Centre of the deployment area" for a side's one
    edge strip (`strip` is its name), "Centre of the caravan" for a scenario's named area."""
    if len(areas) == 1:
        label += " of the deployment area" if areas[0].name == strip else f" of {areas[0].name}"
    return label[0].upper() + label[1:]


def _any_room(b: Battle, areas: tuple[Area, ...], n: int, others: list[Body]) -> list[Point]:
    """Spots on a 1" grid of the areas where the whole unit fits, when none of the named
    spots has room (earlier units took them)."""
    out = []
    for area in areas:
        r = area.rect
        for i in range(int(r.x1 - r.x0) + 1):
            for j in range(int(r.y1 - r.y0) + 1):
                spot = Point(r.x0 + i + 0.5, r.y0 + j + 0.5).rounded(2)
                if r.contains(spot) and len(fit_group(b.table, area, spot, n, RADIUS, others)) == n:
                    out.append(spot)
    return out


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
    areas = b.areas[side]
    others = b.bodies()
    n = len(members)
    options, fits = [], []
    strip = f"{possessive(b.sides[side].name)} deployment area"
    for area, label, anchor in anchors(areas):
        spots = fit_group(b.table, area, anchor, n, RADIUS, others)
        ok = len(spots) == n
        if ok:
            fits.append(anchor.key())
        options.append(
            Option(
                anchor.key(),
                f"{spot_label(label, areas, strip)} ({anchor.key()})",
                disabled=None if ok else f"no room there for {plural(n, 'figure')}",
            )
        )
    if not fits:
        fits = [p.key() for p in _any_room(b, areas, n, others)[:1]]
    if not fits:  # room_problem, checked before the game, makes this unreachable
        raise RuntimeError(f"no room in side {side}'s deployment area for {unit}")
    turn = placed.get(side, 0)
    placed[side] = turn + 1
    default = fits[turn % len(fits)]

    def area_at(anchor: Point) -> Area | None:
        """The area holding `anchor` with room there for the whole unit, else the first
        holding it (a side's areas may overlap one another), else None."""
        holding = [a for a in areas if a.rect.contains(anchor)]
        roomy = (a for a in holding if len(fit_group(b.table, a, anchor, n, RADIUS, others)) == n)
        return next(roomy, holding[0] if holding else None)

    def check(text: str) -> str | None:
        try:
            anchor = Point.parse(text)
        except ValueError as exc:
            return str(exc)
        area = area_at(anchor)
        if area is None:
            return f"{anchor.key()} is outside {' and '.join(a.name for a in areas)}"
        if len(fit_group(b.table, area, anchor, n, RADIUS, others)) < n:
            return f"no room around {anchor.key()} for {plural(n, 'figure')}"
        return None

    key = yield Choice(
        side=side,
        prompt=f"Deploy {b.unit_name(unit)} ({plural(n, 'figure')}) where?",
        options=tuple(options),
        default=default,
        rules=rules,
        kind="deploy",
        free_hint=SPOT_HINT,
        judge=menu_or(options, check),
    )
    anchor = Point.parse(key)
    into = area_at(anchor)
    assert into is not None  # the judge saw to it
    for member, spot in zip(
        members, fit_group(b.table, into, anchor, n, RADIUS, others), strict=True
    ):
        member.pos = spot
    yield Event(
        f"{b.unit_name(unit)} {'deploy' if unit.startswith('mob:') else 'deploys'} around "
        f"{anchor.key()}",
        rules=rules,
        kind="deploy",
        data={"unit": b.unit_name(unit), "at": {m.id: m.at.as_list() for m in members}},
    )
