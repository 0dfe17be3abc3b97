"""Where creatures and mobs may move, on the shared tabletop.

A character picks one of the tabletop's offered destinations, a typed `x,y`, or leaving the
table by its own edge. A mob moves as one (e18): it closes on an enemy (each figure into
contact or range), withdraws toward its edge, or shifts all its figures the way its lead
figure goes. Every plan is previewed with the cohesion check (e17) so its label can warn of
stragglers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wargame_cli.rulesets.mobs_and_morale.cohesion import COHESION, split
from wargame_cli.rulesets.mobs_and_morale.state import EDGE, RADIUS, Battle, Creature, Mob

from wargame_cli.engine.events import EventData
from wargame_cli.engine.requests import Event, Option
from wargame_cli.kit.sides import other
from wargame_cli.tabletop.approach import TOUCHING, Foe, approach, entry
from wargame_cli.tabletop.destinations import (
    NEAR,
    NEGLIGIBLE,
    Destination,
    MoveMenu,
    Mover,
    contact_spot,
    menu_entry,
    offer,
    typed_problem,
)
from wargame_cli.tabletop.detours import way_to
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import (
    Body,
    contact_ring,
    farthest_toward,
    gap,
    move_problem,
    nearest_contact_spot,
)
from wargame_cli.tabletop.paths import route_toward
from wargame_cli.tabletop.placement import edge_distance
from wargame_cli.tabletop.table import table_cache

LEAVE = "leave"
NEAREST_OFFERED = 6  # enemies offered as destinations, nearest first
REJOIN_TRIES = 24  # spots tried round a figure of the chain for a straggler to rejoin (e17)
BENT_TRIES = 40  # of those, the nearest tried by a way round bases and terrain
MOB_TARGETS = 4  # enemy units a mob is offered to close on, nearest first
REACH_TRIES = 16  # spots tried round each target base for a figure walking round to it
REACH_BENT_TRIES = 3  # of those, the nearest free ones tried by a way round (the pathfinder)


def edge_goal(b: Battle, side: str, p: Point) -> Point:
    """The spot on the side's own table edge straight behind `p` (a base touching the edge)."""
    return Point(p.x, RADIUS if EDGE[side] == "south" else b.table.height - RADIUS)


def moved(c: Creature, start: Point, rules: tuple[str, ...], how: str = "moves") -> Event:
    """The event of one creature's move (`how`: "moves", "is pushed"), from `start` to
    where it stands now."""
    data: EventData = {"creature": c.id, "from": start.as_list(), "to": c.at.as_list()}
    if c.mob is not None and how == "moves":
        data["mob"] = c.mob
    return Event(
        f"{c.id} {how} from {start.key()} to {c.at.key()}", rules=rules, kind="move", data=data
    )


def can_leave(b: Battle, c: Creature, others: list[Body]) -> bool:
    """Can it reach its own table edge this move (and so leave the battle, e29)?"""
    goal = edge_goal(b, c.side, c.at)
    if edge_distance(b.table, c.at, EDGE[c.side]) - RADIUS > c.move + 1e-6:
        return False
    spot = farthest_toward(b.table, c.body(), goal, c.move, others)
    return spot.distance(goal) < 0.05


def enemy_bodies(b: Battle, c: Creature) -> list[Body]:
    near = sorted(b.standing(other(c.side)), key=lambda e: c.at.distance(e.at))
    return [e.body() for e in near[:NEAREST_OFFERED]]


def destinations(b: Battle, c: Creature, enemies_only: bool = False) -> list[Destination]:
    """The menu of moves; `enemies_only` keeps just what the bot reads: the contact spots, or
    else the first toward spot."""
    return offer(_move_of(b, c, enemies_only=enemies_only, first_only=enemies_only))


def listed_destination(b: Battle, c: Creature, key: str) -> Destination | None:
    """The entry `destinations` lists for the spot `key`, working out the menu only that far."""
    return menu_entry(_move_of(b, c), key)


def _move_of(b: Battle, c: Creature, **how: Any) -> MoveMenu:
    """The tabletop's move question as a person reads it (`how`: a bot's reading of it);
    terrain is scenery here: no cover."""
    enemies, bodies = tuple(enemy_bodies(b, c)), tuple(b.bodies())
    return MoveMenu(b.table, c.body(), c.move, enemies, bodies, tidy=True, cover=False, **how)


def bot_destinations(b: Battle, c: Creature) -> list[Destination]:
    """What the bot reads of the menu: the nearest enemy's contact spot alone when it has
    one (the menu's first entry then, and the bot's pick), else the contact spots or the
    first toward spot (`destinations(enemies_only=True)`)."""
    bodies = enemy_bodies(b, c)
    if bodies:
        m = Mover(b.table, c.body(), c.move, tuple(b.bodies()))
        spot = contact_spot(m, bodies[0])
        if spot is not None and spot != c.pos and m.fits(spot):
            label = f"Into contact with {bodies[0].id}, {m.inches(spot)}"
            return [Destination(f"contact:{bodies[0].id}", label, spot)]
    return destinations(b, c, enemies_only=True)


def toward_edge(b: Battle, c: Creature) -> Point:
    return b.remember(("edge", c.id), lambda: _toward_edge(b, c))


def _toward_edge(b: Battle, c: Creature) -> Point:
    goal = edge_goal(b, c.side, c.at)
    return route_toward(b.table, c.body(), goal, c.move, b.bodies())


def typed_check(b: Battle, c: Creature, bend: bool = False) -> Callable[[str], str | None]:
    """A typed x,y for one creature: a straight move, or with `bend` one that may walk round
    bases and blocking terrain within its allowance."""

    def check(text: str) -> str | None:
        if text.strip() == c.at.key():
            return None  # staying put
        return typed_problem(b.table, c.body(), c.move, b.bodies(), text, bend=bend)

    return check


# -- mobs -------------------------------------------------------------------------------------
@dataclass
class MobPlan:
    key: str
    label: str
    spots: dict[str, Point | None]  # figure id -> new position, None when it leaves the table
    stragglers: list[str]
    moved: int = 0  # figures that would change place (or leave the table)
    in_reach: int = 0  # a closing plan: figures within reach of its target afterwards (e19)
    first: str | None = None  # a shift's lead: its group is the one kept (e17)


def lead(b: Battle, mob: Mob) -> Creature:
    """The figure nearest the enemy: the one the mob's shifts are measured from."""
    figures = b.figures(mob)
    enemies = b.standing(other(mob.side))
    if not enemies:
        return figures[0]
    return min(figures, key=lambda f: min(f.at.distance(e.at) for e in enemies))


def _others(b: Battle, planned: dict[str, Point | None], skip: str) -> list[Body]:
    out = []
    for c in b.standing():
        if c.id == skip:
            continue
        pos = planned.get(c.id, c.pos)
        if pos is not None:
            out.append(Body(c.id, pos, RADIUS))
    return out


def _placed(spots: dict[str, Point | None], first: str | None) -> list[Body]:
    """The figures that stay on the table, `first` (a shift's lead) first: groups of equal
    size keep the one holding the earliest figure (e17), so the lead's group is kept."""
    bodies = [Body(i, p, RADIUS) for i, p in spots.items() if p is not None]
    return sorted(bodies, key=lambda body: body.id != first)


def keep_formation(
    b: Battle, spots: dict[str, Point | None], first: str | None = None
) -> dict[str, Point | None]:
    """e17: a figure the plan would leave out of the chain is placed instead where it keeps
    within 3" of the figures that are in it (as near its planned spot as it gets, within its
    own move); only a figure that cannot is left to straggle. Repeats while figures rejoin."""
    spots = dict(spots)
    for _ in range(len(spots)):
        kept, lost = split(_placed(spots, first), b.options["cohesion"])
        rejoined = False
        for fid in lost:
            spot = _rejoin(b, b.creatures[fid], spots, kept)
            if spot is not None:
                spots[fid] = spot
                kept.append(fid)
                rejoined = True
        if not lost or not rejoined:
            return spots
    return spots


def _rejoin(
    b: Battle, f: Creature, spots: dict[str, Point | None], kept: list[str]
) -> Point | None:
    """The spot within `f`'s move (straight, or round other bases and terrain as a player
    walks a model), within 3" of a figure in the chain and nearest to where the plan sent it;
    None when there is none."""
    want = spots[f.id] or f.at
    others = _others(b, spots, f.id)
    body = f.body()
    near = COHESION + 2 * RADIUS - 0.05  # centre to centre: bases 3" apart at most
    candidates = []
    for fid in kept:
        anchor = spots[fid]
        if anchor is None or body.pos.distance(anchor) > f.move + near:
            continue
        for ring in (near, near * 0.75, near * 0.5):
            for k in range(REJOIN_TRIES):
                angle = 2 * math.pi * k / REJOIN_TRIES
                spot = anchor.offset(math.cos(angle) * ring, math.sin(angle) * ring).rounded(2)
                if body.pos.distance(spot) <= f.move:
                    candidates.append(spot)
    candidates.sort(key=lambda p: (round(want.distance(p), 3), body.pos.distance(p)))
    for spot in candidates:
        if move_problem(b.table, body, spot, f.move, others, worded=False) is None:
            return spot
    for spot in candidates[:BENT_TRIES]:
        if way_to(b.table, body, spot, f.move, others) is not None:
            return spot
    return None


def _finish(
    b: Battle,
    mob: Mob,
    key: str,
    label: str,
    spots: dict[str, Point | None],
    target: str = "",
    first: str | None = None,
) -> MobPlan:
    spots = keep_formation(b, spots, first)
    placed = _placed(spots, first)
    kept, lost = split(placed, b.options["cohesion"])
    lost = [i for i in spots if i in lost]  # in the mob's order
    moved = sum(p != b.creatures[i].pos for i, p in spots.items())
    in_reach = 0
    if target:
        reach = b.options["reach"]
        enemies = [t.body() for t in b.unit_figures(target)]
        bodies = {body.id: body for body in placed}  # the kept ones, each with a spot
        in_reach = sum(
            any(gap(bodies[i], e) <= b.creatures[i].reach(reach) + 1e-6 for e in enemies)
            for i in kept
        )
        label += f" ({in_reach} of {len(spots)} then in reach)" if moved else " (no room to close)"
    if lost:
        label += f" - {len(lost)} would straggle and be lost (e17)"
    return MobPlan(key, label, spots, lost, moved, in_reach, first)


def close_on(b: Battle, mob: Mob, unit: str) -> MobPlan:
    """Every figure into range of the target unit if it can, else as near as it gets."""
    return b.remember(("close", mob.name, unit), lambda: _close_on(b, mob, unit))


def _close_on(b: Battle, mob: Mob, unit: str) -> MobPlan:
    targets = b.unit_figures(unit)
    reach = b.options["reach"]
    figures = sorted(b.figures(mob), key=lambda f: min(f.at.distance(t.at) for t in targets))
    planned: dict[str, Point | None] = {}
    for f in figures:
        if any(f.in_range(t, reach) for t in targets):
            planned[f.id] = f.pos
            continue
        others = _others(b, planned, f.id)
        body = f.body()
        spot = None
        for t in sorted(targets, key=lambda t: f.at.distance(t.at)):
            spot = nearest_contact_spot(b.table, body, t.body(), f.move, others)
            if spot is not None:
                break
        if spot is None and b.rules_version >= 3:  # no straight way in: walk round (version 3)
            spot = bent_reach_spot(b, f, targets, others)
        if spot is None:
            near = min(targets, key=lambda t: f.at.distance(t.at))
            spot = route_toward(b.table, body, near.at, f.move, others, 2 * RADIUS)
        planned[f.id] = spot
    order = {f.id: i for i, f in enumerate(b.figures(mob))}
    spots = dict(sorted(planned.items(), key=lambda kv: order[kv[0]]))
    return _finish(b, mob, f"close:{unit}", f"Close on {b.unit_name(unit)}", spots, unit)


def bent_reach_spot(
    b: Battle, f: Creature, targets: list[Creature], others: list[Body]
) -> Point | None:
    """The nearest free spot within `f`'s reach of a target (half its reach from the base)
    that it gets to within its move by walking round bases and blocking terrain
    (`detours.way_to`), or None. Tried when no straight way into contact is free: a figure
    behind its own mob or an enemy base still closes in, as a player walks a model round."""
    reach = f.reach(b.options["reach"])
    # a base farther than the move (and two radii) cannot touch any way walked within it
    near = [o for o in others if o.pos.distance(f.at) <= f.move + o.radius + RADIUS + 0.05]
    candidates: list[Point] = []
    for t in targets:
        touching = RADIUS + RADIUS + reach / 2
        if f.at.distance(t.at) > f.move + touching + 0.01:
            continue
        for spot in contact_ring(f.at, t.at, touching, REACH_TRIES):
            if f.at.distance(spot) <= f.move and all(
                spot.distance(o.pos) >= o.radius + RADIUS - 0.01 for o in near
            ):
                candidates.append(spot)
    candidates.sort(key=lambda p: (round(f.at.distance(p), 3), p.y, p.x))
    around = tuple(sorted((o.pos.x, o.pos.y, o.radius) for o in near))
    memo = table_cache(b.table, "mm-bent-reach", 4096)
    for spot in candidates[:REACH_BENT_TRIES]:
        key = (f.at, spot, f.move, around)  # the same ground, the same answer
        found = memo.get(key)
        if found is None:
            found = memo[key] = way_to(b.table, f.body(), spot, f.move, near) is not None
        if found:
            return spot
    return None


def withdraw(b: Battle, mob: Mob) -> MobPlan:
    """Every figure toward the mob's own edge; those that reach it leave the table."""
    return b.remember(("withdraw", mob.name), lambda: _withdraw(b, mob))


def _withdraw(b: Battle, mob: Mob) -> MobPlan:
    planned: dict[str, Point | None] = {}
    figures = sorted(b.figures(mob), key=lambda f: edge_distance(b.table, f.at, EDGE[f.side]))
    for f in figures:
        others = _others(b, planned, f.id)
        if can_leave(b, f, others):
            planned[f.id] = None
        else:
            goal = edge_goal(b, f.side, f.at)
            planned[f.id] = route_toward(b.table, f.body(), goal, f.move, others)
    leaving = sum(p is None for p in planned.values())
    order = {f.id: i for i, f in enumerate(b.figures(mob))}
    spots = dict(sorted(planned.items(), key=lambda kv: order[kv[0]]))
    label = "Withdraw toward our table edge"
    if leaving:
        label += f" ({leaving} leave the table)"
    return _finish(b, mob, "withdraw", label, spots)


def shift(b: Battle, mob: Mob, dest: Point, key: str, label: str, bend: bool = False) -> MobPlan:
    """The lead figure goes to `dest`; every other figure moves the same way and distance,
    as far as it legally can (front figures first so they do not block the rear); with
    `bend` (a typed move, version 3) a figure walks round what blocks its straight way."""
    first = lead(b, mob)
    dx, dy = dest.x - first.at.x, dest.y - first.at.y
    figures = sorted(b.figures(mob), key=lambda f: -(f.at.x * dx + f.at.y * dy))
    planned: dict[str, Point | None] = {}
    for f in figures:
        goal = f.at.offset(dx, dy)
        others = _others(b, planned, f.id)
        spot = farthest_toward(b.table, f.body(), goal, f.move, others)
        if bend and spot != goal and way_to(b.table, f.body(), goal, f.move, others):
            spot = goal  # a typed move walks round what stands in the straight way
        planned[f.id] = spot
    order = {f.id: i for i, f in enumerate(b.figures(mob))}
    spots = dict(sorted(planned.items(), key=lambda kv: order[kv[0]]))
    return _finish(b, mob, key, label, spots, first=first.id)


BY_FIGURE = "figures"
BY_FIGURE_OPTION = Option(
    BY_FIGURE, "Move figure by figure (each its own way, then the cohesion check, e17)"
)


def straggler_warning(b: Battle, mob: Mob) -> str:
    """What the Move option adds when a figure is already out of 3" of the mob: it is lost
    as a casualty at the start of the move (e17), before any plan is chosen."""
    _, lost = split([f.body() for f in b.figures(mob)], b.options["cohesion"])
    if not lost:
        return ""
    return f' - loses {", ".join(lost)}, out of 3" of the mob (e17)'


def nearest_units(b: Battle, mob: Mob) -> list[str]:
    figures = b.figures(mob)
    return sorted(
        b.enemy_units(mob.side),
        key=lambda u: min(f.at.distance(t.at) for f in figures for t in b.unit_figures(u)),
    )


def targets(b: Battle, mob: Mob) -> list[str]:
    """The enemy units a mob is offered to close on, nearest first."""
    return b.remember(("targets", mob.name), lambda: nearest_units(b, mob)[:MOB_TARGETS])


def closing_plans(b: Battle, mob: Mob) -> list[MobPlan]:
    """The closing moves: the first entries of `mob_plans`, and all a bot reads when one of
    them is worth making."""
    return [close_on(b, mob, u) for u in targets(b, mob)]


def mob_plans(b: Battle, mob: Mob) -> list[MobPlan]:
    """Closing on each of the nearest enemy units, withdrawing, then the lead's shifts."""
    return list(b.remember(("plans", mob.name), lambda: _mob_plans(b, mob)))


def _mob_plans(b: Battle, mob: Mob) -> list[MobPlan]:
    plans = closing_plans(b, mob)
    plans.append(withdraw(b, mob))
    first = lead(b, mob)
    seen = {first.at.key()}
    near = enemy_bodies(b, first)[:1]  # for "away from"; closing is offered above
    # the mob moves together, so its own figures do not block the lead's way
    strangers = [o for o in b.bodies() if b.creatures[o.id].mob != mob.name]
    asked = MoveMenu(b.table, first.body(), first.move, tuple(near), tuple(strangers), cover=False)
    for d in offer(asked):
        if d.tag.startswith(("contact:", "toward:")) or d.point.key() in seen:
            continue
        seen.add(d.point.key())
        plans.append(
            shift(b, mob, d.point, f"shift:{d.point.key()}", f"{d.label} (lead to {d.point.key()})")
        )
    plans.append(stay(b, mob))
    return plans


def tidy(b: Battle, mob: Mob, plans: list[MobPlan], keep: str) -> list[MobPlan]:
    """The plans a person reads: the lead's shifts that move it under `NEGLIGIBLE` inches or
    end within `NEAR` of a shift already listed left out (`South, 0.05"`, `West, 4.30"` beside
    `West, half move (4")`), as a character's menu leaves them out; `keep` (the bot's pick)
    stays. The rest still answer as typed (`offered`)."""
    start = lead(b, mob).at
    listed: list[Point] = []
    kept = []
    for plan in plans:
        if plan.key.startswith("shift:") and plan.key != keep:
            spot = Point.parse(plan.key.removeprefix("shift:"))
            if start.distance(spot) < NEGLIGIBLE or any(spot.distance(q) < NEAR for q in listed):
                continue
            listed.append(spot)
        kept.append(plan)
    return kept


def stay(b: Battle, mob: Mob) -> MobPlan:
    """Staying put: the last entry of `mob_plans`."""
    return shift(b, mob, lead(b, mob).at, "stay", "Stay where it is")


def offered(b: Battle, mob: Mob, key: str) -> bool:
    """Is `key` an entry of `mob_plans`? Closing, withdrawing and staying always are, known
    without working out the lead's shifts."""
    if key in ("withdraw", "stay") or _closing(b, mob, key):
        return True
    return any(p.key == key for p in mob_plans(b, mob))


def _closing(b: Battle, mob: Mob, key: str) -> bool:
    return key.startswith("close:") and key.removeprefix("close:") in targets(b, mob)


def listed_plan(b: Battle, mob: Mob, key: str) -> MobPlan | None:
    """The entry `key` of `mob_plans`, or None (a typed x,y); a closing move, withdrawing or
    staying is worked out alone (the same plan), without the lead's shifts."""
    if key == "withdraw":
        return withdraw(b, mob)
    if key == "stay":
        return stay(b, mob)
    if _closing(b, mob, key):
        return close_on(b, mob, key.removeprefix("close:"))
    return next((plan for plan in mob_plans(b, mob) if plan.key == key), None)


def chosen(b: Battle, mob: Mob, key: str) -> MobPlan:
    """The plan of the entry `key` of `mob_plans`, or the shift of a typed x,y for the lead."""
    plan = listed_plan(b, mob, key)
    if plan is not None:
        return plan
    dest = Point.parse(key)
    return shift(b, mob, dest, key, f"lead to {dest.key()}", bend=b.rules_version >= 3)


def typed_mob_check(b: Battle, mob: Mob) -> Callable[[str], str | None]:
    """A typed x,y must be a legal move for the lead, ignoring its own mob's figures."""
    first = lead(b, mob)
    strangers = [o for o in b.bodies() if b.creatures[o.id].mob != mob.name]

    bend = b.rules_version >= 3  # version 3: round obstacles within the allowance

    def check(text: str) -> str | None:
        return typed_problem(b.table, first.body(), first.move, strangers, text, bend=bend)

    return check


WAY_ROUND_FOES = 2  # the nearest enemies a character walks round to


def way_round(b: Battle, c: Creature) -> Destination | None:
    """The move menu's way round (the bot takes it where a straight move gains next to
    nothing, `bot.character_move`): where a character goes this turn on the shortest way
    round the bases to a free spot within its reach of one of the two nearest enemies, an
    enemy its friends already have in reach counting nearer (ganging up; `tabletop.approach`).
    A replay labels it without the bot. None: no way."""
    enemies = sorted(b.standing(other(c.side)), key=lambda e: gap(c.body(), e.body()))
    if not enemies:
        return None
    reach = b.options["reach"]
    friends = [f for f in b.standing(c.side) if f is not c]
    stand_off = max(TOUCHING, c.reach(reach) / 2)
    foes = [
        Foe(e.body(), sum(1 for f in friends if f.in_range(e, reach)), stand_off)
        for e in enemies[:WAY_ROUND_FOES]
    ]
    others = [o for o in b.bodies() if o.id != c.id]
    found = approach(b.table, c.body(), c.move, others, foes)
    if found is None:
        return None
    enemy = enemies[found[1]]
    return entry(c.body(), found[0], enemy.id, enemy.id)
