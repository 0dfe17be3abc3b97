"""The way round (c5): when a straight move gets a model no closer to a fight (a friend or an
enemy stands in the way; Ixu moves are straight lines), the move menu offers the first leg of
the shortest way round the bases to a free spot in contact with an enemy, so that the model
reaches the fight next turn. The bot takes it where it would otherwise idle (`bot.pick_move`);
a replay labels it without the bot."""

from __future__ import annotations

import math

from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Warrior

from wargame_cli.tabletop.destinations import Destination
from wargame_cli.tabletop.detours import way_to
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body, move_problem, standing_problem

SPOTS = 8  # contact spots tried round each enemy
GANG_INCHES = 1.0  # a way to an enemy friends already fight counts this much shorter per friend


def approach_move(state: IxuState, warrior: Warrior) -> Destination | None:
    """`approach` as the move menu lists it (the same entry a person is offered)."""
    found = approach(state, warrior)
    if found is None:
        return None
    spot, enemy = found
    walked = warrior.pos.distance(spot)
    label = f'Round the way to {enemy.name}, {walked:.1f}" (to reach the fight next turn)'
    return Destination(f"approach:{enemy.id}", label, spot)


def approach(state: IxuState, warrior: Warrior) -> tuple[Point, Warrior] | None:
    """Where to move this turn so as to reach a fight next turn, when no straight move gets
    closer (a friend or an enemy stands in the way): the shortest way round the bases to a
    free spot in contact with an enemy (`detours.way_to`; an enemy friends already fight
    counts nearer: ganging up), followed as far as one straight move goes. None: no way."""
    assert warrior.dice is not None
    table, body, others = state.table, warrior.body(), state.bodies(warrior)
    candidates = []  # (the least the way could score: straight, less the gang; spot; enemy)
    for enemy in _nearest(state, warrior)[:2]:
        friends = sum(1 for f in state.engaged(enemy) if f is not warrior)
        touching = warrior.radius + enemy.radius + 0.005
        for k in range(SPOTS):
            angle = 2 * math.pi * k / SPOTS
            spot = Point(
                round(enemy.pos.x + touching * math.cos(angle), 2),
                round(enemy.pos.y + touching * math.sin(angle), 2),
            )
            bound = warrior.pos.distance(spot) - GANG_INCHES * friends
            candidates.append((bound, k, spot, enemy, friends))
    best: tuple[float, tuple[Point, ...], Warrior] | None = None
    for bound, _, spot, enemy, friends in sorted(candidates, key=lambda c: (c[0], c[1])):
        if best is not None and bound >= best[0]:
            break  # a way is never shorter than straight: no spot left can do better
        here = Body(warrior.id, spot, warrior.radius)
        if standing_problem(table, here, others, worded=False) is not None:
            continue
        straight = warrior.pos.distance(spot)
        way = way_to(table, body, spot, straight * 1.4 + 1.5, others)
        if way is not None and (best is None or way.length - GANG_INCHES * friends < best[0]):
            best = (way.length - GANG_INCHES * friends, way.points, enemy)
    if best is None:
        return None
    end = _furthest(state, body, best[1], float(warrior.dice.movement), others)
    return None if end is None else (end, best[2])


def _furthest(
    state: IxuState, body: Body, points: tuple[Point, ...], inches: float, others: list[Body]
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
            if move_problem(state.table, body, p, inches, others, worded=False) is None:
                found = p
        walked += leg
        if walked > inches:
            break
    if found is None or found.distance(body.pos) < 0.25:
        return None
    return found


def _nearest(state: IxuState, warrior: Warrior) -> list[Warrior]:
    return sorted(state.enemies(warrior), key=lambda e: state.gap_to(warrior, e))
