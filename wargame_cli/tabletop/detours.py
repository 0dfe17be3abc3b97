"""Moves that bend around impassable terrain and other bases, as a player measures with a tape
around a corner.

The shortest way around rectangles passes by their corners, so the search over terrain is
exact: its nodes are the corners of every impassable piece grown by the base radius (the same
footprints that `move_problem` refuses). Other bases add a ring of nodes just clear of them
(close to the shortest way round a circle). Each leg between nodes must be a legal straight
move; a move is legal when the shortest such path is within the allowance.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import (
    Body,
    footprints,
    move_problem,
    standing_problem,
)
from wargame_cli.tabletop.table import Table

CLEARANCE = 0.02  # inches: corner nodes stand this far outside a footprint's corner
RING = 8  # nodes round another base
SLACK = 0.01  # the same hair of measuring slack `move_problem` allows


@dataclass(frozen=True, slots=True)
class Way:
    """How a miniature gets to a spot: the corners it passes and the length walked."""

    points: tuple[Point, ...]  # start, corners..., destination
    length: float

    @property
    def bends(self) -> int:
        return len(self.points) - 2


@lru_cache(maxsize=64)
def _corners(table: Table, radius: float) -> tuple[Point, ...]:
    """Corner nodes around every impassable footprint where a base may stand."""
    zones = [zone for _, zone in footprints(table, radius)]
    out = []
    for z in zones:
        for x, dx in ((z.x0, -1), (z.x1, 1)):
            for y, dy in ((z.y0, -1), (z.y1, 1)):
                p = Point(round(x + dx * CLEARANCE, 3), round(y + dy * CLEARANCE, 3))
                if table.on_table(p, radius) and not any(o.strictly_contains(p) for o in zones):
                    out.append(p)
    return tuple(out)


def way_to(
    table: Table, mover: Body, dest: Point, max_inches: float, others: Sequence[Body]
) -> Way | None:
    """The shortest legal way to `dest` within `max_inches` (straight when it can be), or
    None when there is none."""
    if move_problem(table, mover, dest, max_inches, others, worded=False) is None:
        return Way((mover.pos, dest), mover.pos.distance(dest))
    budget = max_inches + SLACK
    if mover.pos.distance(dest) > budget:
        return None
    if (
        standing_problem(table, Body(mover.id, dest, mover.radius), others, worded=False)
        is not None
    ):
        return None
    nodes = [
        p
        for p in (*_corners(table, mover.radius), *_rings(mover, others))
        if mover.pos.distance(p) + p.distance(dest) <= budget
    ]
    return _shortest(table, mover, dest, nodes, budget, others)


def _rings(mover: Body, others: Sequence[Body]) -> list[Point]:
    """Nodes round each other base, far enough out that the legs between them clear it."""
    out = []
    for other in others:
        if other.id == mover.id:
            continue
        # a regular polygon round the base whose sides stay clear of it
        far = (other.radius + mover.radius + CLEARANCE) / math.cos(math.pi / RING)
        for k in range(RING):
            angle = 2 * math.pi * (k + 0.5) / RING
            out.append(
                Point(other.pos.x + math.cos(angle) * far, other.pos.y + math.sin(angle) * far)
            )
    return out


def _leg_ok(table: Table, mover: Body, a: Point, b: Point, others: Sequence[Body]) -> bool:
    return (
        move_problem(table, Body(mover.id, a, mover.radius), b, math.inf, others, worded=False)
        is None
    )


def _shortest(
    table: Table,
    mover: Body,
    dest: Point,
    nodes: list[Point],
    budget: float,
    others: Sequence[Body],
) -> Way | None:
    """Dijkstra from the mover over corner nodes to `dest`, never beyond `budget`."""
    points = [mover.pos, *nodes, dest]
    goal = len(points) - 1
    best = {0: 0.0}
    came: dict[int, int] = {}
    heap = [(0.0, 0)]
    done: set[int] = set()
    while heap:
        walked, i = heapq.heappop(heap)
        if i in done:
            continue
        done.add(i)
        if i == goal:
            path = [goal]
            while path[-1] != 0:
                path.append(came[path[-1]])
            return Way(tuple(points[k] for k in reversed(path)), walked)
        for j in range(1, len(points)):
            if j in done:
                continue
            length = walked + points[i].distance(points[j])
            # the rest of the way is at least straight: prune what cannot arrive in time
            if length + points[j].distance(dest) > budget or length >= best.get(j, math.inf):
                continue
            if not _leg_ok(table, mover, points[i], points[j], others):
                continue
            best[j], came[j] = length, i
            heapq.heappush(heap, (length, j))
    return None


def bent_move_problem(
    table: Table,
    mover: Body,
    dest: Point,
    max_inches: float,
    others: list[Body],
    worded: bool = True,
) -> str | None:
    """Why `mover` cannot get to `dest` within `max_inches`, going around impassable terrain
    if need be, or None when it can (`worded`: see `movement.REFUSED`)."""
    straight = move_problem(table, mover, dest, max_inches, others, worded)
    if straight is None or way_to(table, mover, dest, max_inches, others) is not None:
        return None
    if not worded or "passes through" not in straight:
        return straight  # off the table, overlapping, or too far even in a straight line
    return f'{straight}, and no way around it is within {max_inches:g}"'
