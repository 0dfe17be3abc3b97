"""Where a miniature may go: on the table, not into or through blocking terrain, not through
other bases. Every check returns the reason it fails, so a refusal can say why."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wargame_cli.tabletop.geometry import EPS, Point, Rect, segment_crosses, segment_point_distance
from wargame_cli.tabletop.table import Piece, Table, TerrainKind

CONTACT_TOLERANCE = 0.05  # inches: bases this close count as touching


@dataclass(frozen=True, slots=True)
class Body:
    """A miniature's footprint: its centre and base radius, and who it is."""

    id: str
    pos: Point
    radius: float


def in_contact(a: Body, b: Body) -> bool:
    return a.pos.distance(b.pos) <= a.radius + b.radius + CONTACT_TOLERANCE


def gap(a: Body, b: Body) -> float:
    """Distance between the edges of two bases (0 when touching)."""
    return max(0.0, a.pos.distance(b.pos) - a.radius - b.radius)


def standing_problem(table: Table, body: Body, others: Sequence[Body]) -> str | None:
    """Why a base of `body`'s size cannot stand at `body.pos` (off the table, overlapping
    impassable terrain or another base), or None when it can. Placement uses this alone."""
    if stands_ok(table, body, others):
        return None
    dest = body.pos
    if not table.on_table(dest, body.radius):
        return f'{dest.key()} is off the {table.width:g}"x{table.height:g}" table'
    for piece, zone in footprints(table, body.radius):
        if zone.strictly_contains(dest):
            return f"{dest.key()} is inside {piece.name} (impassable)"
    for other in others:
        if other.id == body.id:
            continue
        if other.pos.distance(dest) < other.radius + body.radius - CONTACT_TOLERANCE:
            return f"{dest.key()} overlaps {other.id}"
    return None


def stands_ok(table: Table, body: Body, others: Iterable[Body]) -> bool:
    """`standing_problem(...) is None` on plain numbers, without the reason."""
    x, y, radius = body.pos.x, body.pos.y, body.radius
    if not (
        radius - 1e-9 <= x <= table.width - radius + 1e-9
        and radius - 1e-9 <= y <= table.height - radius + 1e-9
    ):
        return False
    zones = table.__dict__.get("_memo_footprints", _NO_ZONES).get(radius)
    if zones is None:
        zones = _zones(table, radius)
    for x0, y0, x1, y1, *_ in zones:
        if x0 + EPS < x < x1 - EPS and y0 + EPS < y < y1 - EPS:
            return False
    me = body.id
    for other in others:
        if other.id != me and (
            math.hypot(other.pos.x - x, other.pos.y - y) < other.radius + radius - CONTACT_TOLERANCE
        ):
            return False
    return True


@lru_cache(maxsize=64)
def footprints(table: Table, radius: float) -> tuple[tuple[Piece, Rect], ...]:
    """Each impassable piece with where a base centre may not go: the piece grown by the base
    radius (less the contact tolerance, so a base may touch a wall)."""
    grow = max(0.0, radius - CONTACT_TOLERANCE)
    return tuple(
        (piece, piece.rect.inflated(grow))
        for piece in table.pieces
        if piece.kind is TerrainKind.BLOCKING
    )


def move_problem(
    table: Table,
    mover: Body,
    dest: Point,
    max_inches: float,
    others: Sequence[Body],
) -> str | None:
    """Why `mover` cannot move straight to `dest`, or None when it can."""
    if move_ok(table, mover, dest, max_inches, others):
        return None
    return why_not(table, mover, dest, max_inches, others)


def why_not(
    table: Table,
    mover: Body,
    dest: Point,
    max_inches: float,
    others: Sequence[Body],
) -> str | None:
    """`move_problem` the long way, on Points and Rects: the reason a move is refused (and
    the reference `move_ok` is tested against)."""
    travelled = mover.pos.distance(dest)
    if travelled > max_inches + 0.01:
        return f'{dest.key()} is {travelled:.1f}" away; the move allows {max_inches:g}"'
    problem = standing_problem(table, Body(mover.id, dest, mover.radius), others)
    if problem is not None:
        return problem
    for piece, zone in footprints(table, mover.radius):
        if zone.strictly_contains(mover.pos):  # placed overlapping it: only the piece itself
            zone = piece.rect
        if zone.crosses(mover.pos, dest):
            return f"the way to {dest.key()} passes through {piece.name} (impassable)"
    for other in others:
        if other.id == mover.id:
            continue
        start_gap = other.pos.distance(mover.pos)
        if (
            segment_point_distance(mover.pos, dest, other.pos)
            < other.radius + mover.radius - CONTACT_TOLERANCE
            and start_gap >= other.radius + mover.radius - CONTACT_TOLERANCE
        ):
            return f"the way to {dest.key()} passes through {other.id}"
    return None


def move_ok(
    table: Table, mover: Body, dest: Point, max_inches: float, others: Iterable[Body]
) -> bool:
    """`move_problem(...) is None`, on plain numbers: the bots try tens of thousands of moves
    a game, and most are fine. Every test is `move_problem`'s, with the same arithmetic, so
    the two always agree; `move_problem` is asked for the reason only when this says no."""
    return move_ok_xy(table, mover, dest.x, dest.y, max_inches, others)


def move_ok_xy(
    table: Table, mover: Body, bx: float, by: float, max_inches: float, others: Iterable[Body]
) -> bool:
    """`move_ok` to the point (bx, by)."""
    ax, ay = mover.pos.x, mover.pos.y
    radius = mover.radius
    if math.hypot(ax - bx, ay - by) > max_inches + 0.01:
        return False
    if not (
        radius - 1e-9 <= bx <= table.width - radius + 1e-9
        and radius - 1e-9 <= by <= table.height - radius + 1e-9
    ):
        return False
    zones = table.__dict__.get("_memo_footprints", _NO_ZONES).get(radius)
    if zones is None:
        zones = _zones(table, radius)
    for x0, y0, x1, y1, px0, py0, px1, py1 in zones:
        if x0 + EPS < bx < x1 - EPS and y0 + EPS < by < y1 - EPS:
            return False
        if x0 + EPS < ax < x1 - EPS and y0 + EPS < ay < y1 - EPS:
            x0, y0, x1, y1 = px0, py0, px1, py1  # placed overlapping it: only the piece
        if (ax < x0 and bx < x0) or (ax > x1 and bx > x1):
            continue
        if (ay < y0 and by < y0) or (ay > y1 and by > y1):
            continue
        if segment_crosses(x0, y0, x1, y1, ax, ay, bx, by):
            return False
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    me = mover.id
    # a base farther than `touch` from the way's bounding box is clear of it: skipped
    # without the distances (a hair of margin for their rounding)
    x0, x1 = (ax, bx) if ax < bx else (bx, ax)
    y0, y1 = (ay, by) if ay < by else (by, ay)
    x0, y0, x1, y1 = x0 - radius - 1e-6, y0 - radius - 1e-6, x1 + radius + 1e-6, y1 + radius + 1e-6
    for other in others:
        pos = other.pos
        ox, oy, far = pos.x, pos.y, other.radius
        if ox < x0 - far or ox > x1 + far or oy < y0 - far or oy > y1 + far or other.id == me:
            continue
        touch = far + radius - CONTACT_TOLERANCE
        if math.hypot(ox - bx, oy - by) < touch:
            return False
        if length2 < EPS:
            passing = math.hypot(ax - ox, ay - oy)
        else:
            t = max(0.0, min(1.0, ((ox - ax) * dx + (oy - ay) * dy) / length2))
            passing = math.hypot(ox - (ax + t * dx), oy - (ay + t * dy))
        if passing < touch and math.hypot(ox - ax, oy - ay) >= touch:
            return False
    return True


_NO_ZONES: dict[float, Any] = {}


def _zones(table: Table, radius: float) -> tuple[tuple[float, ...], ...]:
    """`footprints` as numbers: each zone's corners, then its piece's (kept on the table,
    where `move_ok_xy` looks first: it runs tens of thousands of times a game)."""
    memo = table.__dict__.get("_memo_footprints")
    if memo is None or len(memo) > 64:
        memo = {}
        object.__setattr__(table, "_memo_footprints", memo)
    found = memo.get(radius)
    if found is None:
        found = memo[radius] = tuple(
            (z.x0, z.y0, z.x1, z.y1, p.rect.x0, p.rect.y0, p.rect.x1, p.rect.y1)
            for p, z in footprints(table, radius)
        )
    return found


def contact_spots(
    table: Table,
    mover: Body,
    target: Body,
    max_inches: float,
    others: Sequence[Body],
    tries: int = 24,
) -> list[Point]:
    """Reachable spots in base contact with `target`, nearest first."""
    return [
        spot
        for spot in _contact_ring_nearest_first(mover, target, max_inches, tries)
        if move_ok_xy(table, mover, spot.x, spot.y, max_inches, others)
    ]


def nearest_contact_spot(
    table: Table,
    mover: Body,
    target: Body,
    max_inches: float,
    others: Sequence[Body],
    tries: int = 24,
) -> Point | None:
    """`contact_spots(...)[0]`, or None when there is none, testing spots only until one fits."""
    for spot in _contact_ring_nearest_first(mover, target, max_inches, tries):
        if move_ok_xy(table, mover, spot.x, spot.y, max_inches, others):
            return spot
    return None


def _contact_ring_nearest_first(
    mover: Body, target: Body, max_inches: float, tries: int
) -> list[Point]:
    """The contact ring round `target` in order of distance from the mover (a stable sort, so
    equally near spots keep the ring's order); none when contact is out of reach."""
    touching = mover.radius + target.radius
    start = mover.pos
    if start.distance(target.pos) > max_inches + touching + 0.01:
        return []
    spots = list(contact_ring(start, target.pos, touching, tries))
    spots.sort(key=start.distance)
    return spots


def contact_ring(start: Point, centre: Point, touching: float, tries: int) -> Iterator[Point]:
    """Spots `touching` inches from `centre`, all round it, the side facing `start` first
    and then alternately either way (rounded to 0.01", never inside the base)."""
    cx, cy = centre.x, centre.y
    base = math.atan2(start.y - cy, start.x - cx)
    cos, sin, hypot = math.cos, math.sin, math.hypot
    inside = touching - EPS
    for i in range(tries):
        step = (i + 1) // 2 * (1 if i % 2 else -1)
        angle = base + step * (2 * math.pi / tries)
        x, y = round(cx + cos(angle) * touching, 2), round(cy + sin(angle) * touching, 2)
        if hypot(x - cx, y - cy) < inside:  # rounding pulled it inside the base
            yield centre.toward(Point(x, y), touching + 0.005).rounded(2)
        else:
            yield Point(x, y)


def farthest_toward(
    table: Table,
    mover: Body,
    goal: Point,
    max_inches: float,
    others: Sequence[Body],
    steps: int = 20,
) -> Point:
    """The farthest legal point on the straight way to `goal`, at most `max_inches` along.

    The points tried are `mover.pos.toward(goal, reach * i / steps).rounded(2)` for i from
    `steps` down, worked out here on plain numbers with the same arithmetic."""
    start = mover.pos
    sx, sy, gx, gy = start.x, start.y, goal.x, goal.y
    gap = math.hypot(sx - gx, sy - gy)
    reach = min(max_inches, gap)
    if gap < EPS:  # `toward` stays put: every point tried is the start, rounded
        spot = start.rounded(2)
        return spot if move_ok_xy(table, mover, spot.x, spot.y, max_inches, others) else start
    for i in range(steps, 0, -1):
        f = reach * i / steps / gap
        x, y = round(sx + (gx - sx) * f, 2), round(sy + (gy - sy) * f, 2)
        if move_ok_xy(table, mover, x, y, max_inches, others):
            return Point(x, y)
    return start
