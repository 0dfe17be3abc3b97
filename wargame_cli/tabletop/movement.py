"""Where a miniature may go: on the table, not into or through blocking terrain, not through
other bases. Every check returns the reason it fails, so a refusal can say why."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wargame_cli.tabletop.geometry import EPS, Point, Rect, segment_crosses
from wargame_cli.tabletop.table import Piece, Table, TerrainKind

CONTACT_TOLERANCE = 0.05  # inches: bases this close count as touching


@dataclass(frozen=True, slots=True)
class Body:
    """A miniature's footprint: its centre and base radius, and who it is (its id, and the
    name a refusal calls it by)."""

    id: str
    pos: Point
    radius: float
    name: str = ""

    @property
    def called(self) -> str:
        """How a refusal names it: `Moss (B5)`, or the id where that is its name."""
        return f"{self.name} ({self.id})" if self.name and self.name != self.id else self.id


def in_contact(a: Body, b: Body) -> bool:
    return a.pos.distance(b.pos) <= a.radius + b.radius + CONTACT_TOLERANCE


def gap(a: Body, b: Body) -> float:
    """Distance between the edges of two bases (0 when touching)."""
    return max(0.0, a.pos.distance(b.pos) - a.radius - b.radius)


# Wording a refusal costs about 2.7us (measured), and the bots' searches are refused some 1400
# times a Mobs and Morale game: worded, that was 8% of its CPU (`bench/bench_skirmish.py`).
# Those searches ask with `worded=False`, the same check, and get this instead of the reason.
REFUSED = "refused"


def standing_problem(
    table: Table, body: Body, others: Iterable[Body], worded: bool = True
) -> str | None:
    """Why a base of `body`'s size cannot stand at `body.pos` (off the table, overlapping
    impassable terrain or another base), or None when it can: the one standing check."""
    return _standing(table, body.id, body.pos.x, body.pos.y, body.radius, others, worded)


def _standing(
    table: Table,
    me: str,
    x: float,
    y: float,
    radius: float,
    others: Iterable[Body],
    worded: bool,
) -> str | None:
    """`standing_problem` on plain numbers: placement and the bots ask it thousands of times
    a game."""
    if not (
        radius - 1e-9 <= x <= table.width - radius + 1e-9
        and radius - 1e-9 <= y <= table.height - radius + 1e-9
    ):
        return (
            f'{Point(x, y).key()} is off the {table.width:g}"x{table.height:g}" table'
            if worded
            else REFUSED
        )
    zones = table.memos.get("footprints", _NO_ZONES).get(radius)
    if zones is None:
        zones = _zones(table, radius)
    for x0, y0, x1, y1, _, _, _, _, name in zones:
        if x0 + EPS < x < x1 - EPS and y0 + EPS < y < y1 - EPS:
            return f"{Point(x, y).key()} is inside {name} (impassable)" if worded else REFUSED
    for other in others:
        if other.id != me and (
            math.hypot(other.pos.x - x, other.pos.y - y) < other.radius + radius - CONTACT_TOLERANCE
        ):
            return f"{Point(x, y).key()} overlaps {other.called}" if worded else REFUSED
    return None


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
    others: Collection[Body],
    worded: bool = True,
) -> str | None:
    """Why `mover` cannot move straight to `dest`, or None when it can (`move_problem_xy`
    on a Point)."""
    return move_problem_xy(table, mover, dest.x, dest.y, max_inches, others, worded)


def move_problem_xy(
    table: Table,
    mover: Body,
    bx: float,
    by: float,
    max_inches: float,
    others: Collection[Body],
    worded: bool = True,
) -> str | None:
    """Why `mover` cannot move straight to the point (bx, by), or None when it can: the one
    movement check. The first reason in this order: too far, where it would stand
    (`standing_problem`), impassable terrain on the way, a base on the way. On plain
    numbers: the bots try tens of thousands of moves a game."""
    ax, ay = mover.pos.x, mover.pos.y
    radius = mover.radius
    travelled = math.hypot(ax - bx, ay - by)
    if travelled > max_inches + 0.01:
        if not worded:
            return REFUSED
        return f'{Point(bx, by).key()} is {travelled:.1f}" away; the move allows {max_inches:g}"'
    problem = _standing(table, mover.id, bx, by, radius, others, worded)
    if problem is not None:
        return problem
    zones = table.memos.get("footprints", _NO_ZONES).get(radius)
    if zones is None:
        zones = _zones(table, radius)
    for x0, y0, x1, y1, px0, py0, px1, py1, name in zones:
        if x0 + EPS < ax < x1 - EPS and y0 + EPS < ay < y1 - EPS:
            x0, y0, x1, y1 = px0, py0, px1, py1  # placed overlapping it: only the piece
        if (ax < x0 and bx < x0) or (ax > x1 and bx > x1):
            continue
        if (ay < y0 and by < y0) or (ay > y1 and by > y1):
            continue
        if segment_crosses(x0, y0, x1, y1, ax, ay, bx, by):
            if not worded:
                return REFUSED
            return f"the way to {Point(bx, by).key()} passes through {name} (impassable)"
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
        if length2 < EPS:
            passing = math.hypot(ax - ox, ay - oy)
        else:
            t = max(0.0, min(1.0, ((ox - ax) * dx + (oy - ay) * dy) / length2))
            passing = math.hypot(ox - (ax + t * dx), oy - (ay + t * dy))
        if passing < touch and math.hypot(ox - ax, oy - ay) >= touch:
            return (
                f"the way to {Point(bx, by).key()} passes through {other.called}"
                if worded
                else REFUSED
            )
    return None


# An impassable piece as numbers: where a base centre may not go (x0, y0, x1, y1), the piece
# itself (x0, y0, x1, y1), and its name.
Zone = tuple[float, float, float, float, float, float, float, float, str]
_NO_ZONES: dict[float, Any] = {}


def _zones(table: Table, radius: float) -> tuple[Zone, ...]:
    """`footprints` as numbers: each zone's corners, then its piece's, then its name (kept on
    the table, where `move_problem_xy` looks first: it runs tens of thousands of times a
    game)."""
    memo = table.memos.get("footprints")
    if memo is None or len(memo) > 64:
        memo = table.memos["footprints"] = {}
    found = memo.get(radius)
    if found is None:
        found = memo[radius] = tuple(
            (z.x0, z.y0, z.x1, z.y1, p.rect.x0, p.rect.y0, p.rect.x1, p.rect.y1, p.name)
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
        if move_problem_xy(table, mover, spot.x, spot.y, max_inches, others, worded=False) is None
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
        if move_problem_xy(table, mover, spot.x, spot.y, max_inches, others, worded=False) is None:
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
        ok = move_problem_xy(table, mover, spot.x, spot.y, max_inches, others, worded=False) is None
        return spot if ok else start
    for i in range(steps, 0, -1):
        f = reach * i / steps / gap
        x, y = round(sx + (gx - sx) * f, 2), round(sy + (gy - sy) * f, 2)
        if move_problem_xy(table, mover, x, y, max_inches, others, worded=False) is None:
            return Point(x, y)
    return start
