"""How far a straight move surely goes: the walls and bases a way runs into, worked out
along the ray, so that a search probing a way's length step by step tests only the steps
the figures leave open."""

from __future__ import annotations

import math
from collections.abc import Iterable

from wargame_cli.tabletop.geometry import EPS, Point, ray_span
from wargame_cli.tabletop.movement import CONTACT_TOLERANCE, Body, footprints
from wargame_cli.tabletop.table import Table

SURE = 1e-6  # inches: far beyond the move tests' 1e-9 slack and the arithmetic's rounding
UNKNOWN = (-1.0, math.inf)


def known_span(
    table: Table, body: Body, others: Iterable[Body], goal: Point
) -> tuple[float, float]:
    """`(safe, bad)` in inches along the straight way from `body` toward `goal`: a move of
    less than `safe` surely passes `move_problem`, and one of more than `bad` (and at most as far
    as the table's edge allows) surely fails it; in between only the test can tell. `(-1,
    inf)` (test everything) when the start overlaps a wall's zone or a base, is off the
    table or hugs its edge, where the plain tests do not grow with the way."""
    start, radius = body.pos, body.radius
    sx, sy, gap = start.x, start.y, start.distance(goal)
    if gap < EPS:
        return UNKNOWN
    ux, uy = (goal.x - sx) / gap, (goal.y - sy) / gap
    for u, p, hi in ((ux, sx, table.width), (uy, sy, table.height)):
        if not (radius - 1e-9 <= p <= hi - radius + 1e-9):
            return UNKNOWN  # starting off the table: the way's first stretch is refused
        if u != 0 and abs(u) <= EPS and not (radius + SURE <= p <= hi - radius - SURE):
            return UNKNOWN
    rects = []
    for _, zone in footprints(table, radius):
        if zone.x0 - SURE < sx < zone.x1 + SURE and zone.y0 - SURE < sy < zone.y1 + SURE:
            return UNKNOWN
        rects.append((zone.x0, zone.y0, zone.x1, zone.y1))
    circles = []
    for other in others:
        if other.id == body.id:
            continue
        touch = other.radius + radius - CONTACT_TOLERANCE
        if math.hypot(other.pos.x - sx, other.pos.y - sy) < touch + SURE:
            return UNKNOWN
        circles.append((other.pos.x, other.pos.y, touch))
    safe, bad = ray_span(sx, sy, ux, uy, rects, circles, SURE)
    # a way shorter than 1e-4" is tested for passing a base by its start alone: no claim
    return safe - SURE, (bad + SURE if bad >= 1e-4 else math.inf)
