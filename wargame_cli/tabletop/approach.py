"""The way round to a fight next turn: when no straight move gets a model closer to a fight (a
friend or an enemy stands in the way), the first leg of the shortest way round the bases to a
free spot by an enemy, followed as far as one straight move goes, so that the model reaches
the fight next turn. An enemy that friends already fight counts nearer: ganging up.

Shared by the bots of the rulesets whose moves are straight lines (Battle of Ixu's warriors,
Mobs and Morale's characters); a bot takes it only where it would otherwise idle."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from wargame_cli.tabletop.destinations import Destination
from wargame_cli.tabletop.detours import way_to
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body, move_problem, standing_problem
from wargame_cli.tabletop.table import Table

SPOTS = 8  # spots tried round each enemy
GANG_INCHES = 1.0  # a way to an enemy friends already fight counts this much shorter per friend
TOUCHING = 0.005  # inches beyond base contact a spot stands (within the contact tolerance)


@dataclass(frozen=True, slots=True)
class Foe:
    """An enemy to walk round to: its base, how many friends already fight it, and how far
    from its base the model may stand and still fight it (beyond base contact)."""

    body: Body
    friends: int = 0
    stand_off: float = TOUCHING


def approach(
    table: Table, mover: Body, inches: float, others: list[Body], foes: Sequence[Foe]
) -> tuple[Point, int] | None:
    """Where `mover` goes this turn (within `inches`, one straight legal move among
    `others`) on the shortest way round the bases to a free spot by one of `foes`, each
    friend on a foe counting `GANG_INCHES` off its way, and which foe (its index); None: no
    way. Spots are tried nearest first with a bound (a way is never shorter than straight)."""
    candidates = []  # (the least the way could score: straight, less the gang; k; spot; foe)
    for i, foe in enumerate(foes):
        enemy = foe.body
        touching = mover.radius + enemy.radius + foe.stand_off
        for k in range(SPOTS):
            angle = 2 * math.pi * k / SPOTS
            spot = Point(
                round(enemy.pos.x + touching * math.cos(angle), 2),
                round(enemy.pos.y + touching * math.sin(angle), 2),
            )
            bound = mover.pos.distance(spot) - GANG_INCHES * foe.friends
            candidates.append((bound, k, spot, i))
    best: tuple[float, tuple[Point, ...], int] | None = None
    for bound, _, spot, i in sorted(candidates, key=lambda c: (c[0], c[1])):
        if best is not None and bound >= best[0]:
            break  # a way is never shorter than straight: no spot left can do better
        here = Body(mover.id, spot, mover.radius)
        if standing_problem(table, here, others, worded=False) is not None:
            continue
        straight = mover.pos.distance(spot)
        way = way_to(table, mover, spot, straight * 1.4 + 1.5, others)
        gang = GANG_INCHES * foes[i].friends
        if way is not None and (best is None or way.length - gang < best[0]):
            best = (way.length - gang, way.points, i)
    if best is None:
        return None
    end = furthest(table, mover, best[1], inches, others)
    return None if end is None else (end, best[2])


def entry(mover: Body, spot: Point, enemy_id: str, enemy_name: str) -> Destination:
    """The way round as a move menu lists it: offered to a person as the bot takes it."""
    walked = mover.pos.distance(spot)
    label = f'Round the way to {enemy_name}, {walked:.1f}" (to reach the fight next turn)'
    return Destination(f"approach:{enemy_id}", label, spot)


def furthest(
    table: Table, body: Body, points: tuple[Point, ...], inches: float, others: list[Body]
) -> Point | None:
    """The farthest point along the way (within `inches` walked) that one straight legal
    move reaches, to 0.01"; None when it gets nowhere."""
    walked, found = 0.0, None
    for a, b in zip(points, points[1:], strict=False):
        leg = a.distance(b)
        steps = max(1, math.ceil(leg / 0.25))
        for i in range(1, steps + 1):
            along = walked + leg * i / steps
            if along > inches:
                break
            t = i / steps
            p = Point(round(a.x + (b.x - a.x) * t, 2), round(a.y + (b.y - a.y) * t, 2))
            if move_problem(table, body, p, inches, others, worded=False) is None:
                found = p
        walked += leg
        if walked > inches:
            break
    if found is None or found.distance(body.pos) < 0.25:
        return None
    return found
