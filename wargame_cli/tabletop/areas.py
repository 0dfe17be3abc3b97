"""Deployment areas: the part of the table where a side sets up, and fitting a group of bases
into one around a chosen point. Rulesets choose the areas; the checks are the same for all."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wargame_cli.tabletop.geometry import EPS, Point, Rect
from wargame_cli.tabletop.movement import CONTACT_TOLERANCE, Body, standing_problem
from wargame_cli.tabletop.table import Table

ANCHOR_NAMES = ("centre", "left of centre", "right of centre", "left", "right")


@dataclass(frozen=True)
class Area:
    """A named rectangle of the table where one side deploys."""

    name: str
    rect: Rect

    def holds(self, body: Body) -> bool:
        """Is the whole base inside the area?"""
        r, p = self.rect, body.pos
        return (
            r.x0 + body.radius - EPS <= p.x <= r.x1 - body.radius + EPS
            and r.y0 + body.radius - EPS <= p.y <= r.y1 - body.radius + EPS
        )

    def anchors(self) -> list[tuple[str, Point]]:
        """Five named spots along the area's middle line, centre first."""
        r = self.rect
        y = (r.y0 + r.y1) / 2
        width = r.x1 - r.x0
        share = {"centre": 0.5, "left of centre": 0.3, "right of centre": 0.7}
        share |= {"left": 0.1, "right": 0.9}
        return [(n, Point(r.x0 + width * share[n], y).rounded(2)) for n in ANCHOR_NAMES]

    def to_data(self) -> dict[str, Any]:
        r = self.rect
        return {"name": self.name, "x": r.x0, "y": r.y0, "w": r.x1 - r.x0, "h": r.y1 - r.y0}


def edge_strip(table: Table, edge: str, depth: float, name: str = "") -> Area:
    """The strip `depth` inches deep along a table edge (south is y=0, side A's edge)."""
    depth = min(depth, table.height if edge in ("south", "north") else table.width)
    rect = {
        "south": Rect(0, 0, table.width, depth),
        "north": Rect(0, table.height - depth, table.width, table.height),
        "west": Rect(0, 0, depth, table.height),
        "east": Rect(table.width - depth, 0, table.width, table.height),
    }[edge]
    return Area(name or f"{edge} deployment area", rect)


def fit_group(
    table: Table,
    area: Area,
    anchor: Point,
    count: int,
    radius: float,
    others: list[Body],
    spacing: float = 0.2,
) -> list[Point]:
    """Up to `count` spots in `area` for bases of `radius`, nearest `anchor` first, on a square
    lattice `spacing` apart edge to edge, clear of terrain and of `others`."""
    placed: list[Body] = []
    near = _near_bodies(others, _lattice(table, area, anchor, count, radius, spacing), radius)
    for x, y in _lattice(table, area, anchor, count, radius, spacing):
        if len(placed) == count:
            break
        me = f"#{len(placed)}"
        for ox, oy, touch, oid in near:
            if oid != me and math.hypot(ox - x, oy - y) < touch:
                break
        else:
            body = Body(me, Point(x, y), radius)
            placed.append(body)
            near.append((x, y, radius + radius - CONTACT_TOLERANCE, me))
    return [b.pos for b in placed]


@lru_cache(maxsize=512)
def _lattice(
    table: Table, area: Area, anchor: Point, count: int, radius: float, spacing: float
) -> tuple[tuple[float, float], ...]:
    """The lattice spots `fit_group` tries, nearest `anchor` first, that lie in the area and
    where a base stands clear of the terrain (the part of the test that no base changes)."""
    pitch = 2 * radius + spacing
    reach = int(count**0.5) + 4
    lattice = [
        Point(anchor.x + i * pitch, anchor.y + j * pitch).rounded(2)
        for i in range(-reach, reach + 1)
        for j in range(-reach, reach + 1)
    ]
    lattice.sort(key=lambda p: (round(p.distance(anchor), 6), p.y, p.x))
    return tuple(
        (p.x, p.y)
        for p in lattice
        if area.holds(Body("", p, radius))
        and standing_problem(table, Body("", p, radius), (), worded=False) is None
    )


def _near_bodies(
    others: list[Body], spots: tuple[tuple[float, float], ...], radius: float
) -> list[tuple[float, float, float, str]]:
    """The bases that may overlap a base of `radius` on one of `spots`, as (x, y, the least
    centre distance clear of them, id); the others are too far from every spot to matter."""
    if not spots:
        return []
    xs, ys = [x for x, _ in spots], [y for _, y in spots]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    out = []
    for o in others:
        touch = o.radius + radius - CONTACT_TOLERANCE
        ox, oy = o.pos.x, o.pos.y
        if (
            x0 - touch - 0.01 < ox < x1 + touch + 0.01
            and y0 - touch - 0.01 < oy < y1 + touch + 0.01
        ):
            out.append((ox, oy, touch, o.id))
    return out
