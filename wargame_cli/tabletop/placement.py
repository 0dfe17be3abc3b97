"""Where a miniature may be set up: cells of the table a base can stand on, hidden from
watchers, near a table edge. Deployment rules combine these."""

from __future__ import annotations

import math

from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body, standing_problem
from wargame_cli.tabletop.sight import line_of_sight
from wargame_cli.tabletop.table import Table

EDGES = ("south", "north", "west", "east")


def cell_centres(table: Table, size: float = 1.0) -> list[Point]:
    """The centres of the table's `size`-inch cells, row by row from the south-west corner."""
    cols, rows = math.floor(table.width / size), math.floor(table.height / size)
    return [Point((i + 0.5) * size, (j + 0.5) * size) for j in range(rows) for i in range(cols)]


def edge_distance(table: Table, p: Point, edge: str) -> float:
    """Inches from `p` to a table edge: south is y=0 (side A's edge), north is y=height."""
    return {
        "south": p.y,
        "north": table.height - p.y,
        "west": p.x,
        "east": table.width - p.x,
    }[edge]


def seen_by_any(table: Table, p: Point, watchers: list[Body]) -> Body | None:
    """The first watcher with a line of sight to `p`, if any."""
    return next((w for w in watchers if line_of_sight(table, w.pos, p)), None)


def hidden_spots(
    table: Table, radius: float, others: list[Body], watchers: list[Body], size: float = 1.0
) -> list[Point]:
    """Cell centres where a base can stand that no watcher can see."""
    return [
        p
        for p in cell_centres(table, size)
        if standing_problem(table, Body("?", p, radius), others) is None
        and seen_by_any(table, p, watchers) is None
    ]
