"""Deployment areas: the part of the table where a side sets up, and fitting a group of bases
into one around a chosen point. Rulesets choose the areas; the checks are the same for all."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wargame_cli.errors import OptionError
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


MAX_AREAS = 12  # named deployment areas in one table file


def named_areas(raw: Any, table: Table) -> list[dict[str, Any]]:
    """A table file's `[[areas]]` (side, name, x, y, w, h: any rectangles on the table,
    several per side), checked and normalised; raises OptionError with one line. Areas of
    different sides may not overlap: a simultaneous deployment is hidden, so neither side's
    placing may depend on where the other's pieces stand."""
    if not isinstance(raw, list) or not all(isinstance(a, dict) for a in raw):
        raise OptionError("a table's areas are a list of rectangles ([[areas]] in TOML)")
    if len(raw) > MAX_AREAS:
        raise OptionError(f"a table names at most {MAX_AREAS} deployment areas")
    out: list[dict[str, Any]] = []
    for i, a in enumerate(raw, 1):
        side = a.get("side")
        if side not in ("A", "B"):
            raise OptionError(f"deployment area {i}: side must be A or B, not {side!r}")
        name = a.get("name", f"side {side}'s deployment area {i}")
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise OptionError(f"deployment area {i}: a name is 1-40 characters")
        try:
            x, y, w, h = (float(a[k]) for k in ("x", "y", "w", "h"))
        except (KeyError, ValueError, TypeError, OverflowError):
            raise OptionError(f"deployment area {name!r}: needs numbers x, y, w and h") from None
        if not all(math.isfinite(v) for v in (x, y, w, h)) or w <= 0 or h <= 0:
            raise OptionError(f"deployment area {name!r}: w and h must be above 0")
        if x < -EPS or y < -EPS or x + w > table.width + EPS or y + h > table.height + EPS:
            raise OptionError(
                f"deployment area {name!r} ({x:g},{y:g} {w:g}x{h:g}) lies partly off the "
                f'{table.width:g}"x{table.height:g}" table'
            )
        out.append({"side": side, "name": name.strip(), "x": x, "y": y, "w": w, "h": h})
    for a in out:
        for b in out:
            if a["side"] == "A" and b["side"] == "B" and _overlap(a, b):
                raise OptionError(
                    f"deployment areas {a['name']!r} (side A) and {b['name']!r} (side B) "
                    "overlap: the sides deploy unseen by each other, in areas apart"
                )
    return out


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["x"] < b["x"] + b["w"] - EPS
        and b["x"] < a["x"] + a["w"] - EPS
        and a["y"] < b["y"] + b["h"] - EPS
        and b["y"] < a["y"] + a["h"] - EPS
    )


def area_of(data: dict[str, Any]) -> Area:
    """One checked `named_areas` entry as an `Area`."""
    x, y = data["x"], data["y"]
    return Area(data["name"], Rect(x, y, x + data["w"], y + data["h"]))


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
