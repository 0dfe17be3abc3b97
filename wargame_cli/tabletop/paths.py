"""Walking distances around impassable terrain, so that "toward" means around a building
rather than into its wall.

A grid of nodes (1" apart by default) covers the table; nodes a base cannot stand on are
dropped, and a shortest-path search from the goal gives every node its walking distance. Bases
are ignored here (they move); `move_problem` still checks every actual move.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from functools import lru_cache

from wargame_cli.tabletop.geometry import EPS, Point, Rect, segment_crosses
from wargame_cli.tabletop.movement import Body, farthest_toward, move_problem_xy
from wargame_cli.tabletop.table import Table, TerrainKind, table_cache

WALK_CACHE = 50_000  # walking distances remembered per table (cleared when full)

Node = tuple[int, int]
Graph = dict[Node, list[tuple[Node, float]]]  # a walkable node's clear links, with lengths
Numbered = tuple[dict[Node, int], tuple[tuple[tuple[int, float], ...], ...]]
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


@lru_cache(maxsize=64)
def _zones(table: Table, radius: float) -> tuple[Rect, ...]:
    """Where a base centre may not go: each impassable piece grown by the base radius."""
    grow = max(0.0, radius - 0.05)
    return tuple(p.rect.inflated(grow) for p in table.pieces if p.kind is TerrainKind.BLOCKING)


def _clear(table: Table, a: Point, b: Point, radius: float) -> bool:
    """Can a base of `radius` walk straight from a to b past the impassable terrain?"""
    return _clear_xy(_corners(table, radius), a.x, a.y, b.x, b.y)


def _clear_xy(
    zones: Sequence[tuple[float, float, float, float]],
    ax: float,
    ay: float,
    bx: float,
    by: float,
) -> bool:
    """`_clear` from (ax, ay) to (bx, by) past `zones` (see `_corners`)."""
    for x0, y0, x1, y1 in zones:
        if (ax < x0 and bx < x0) or (ax > x1 and bx > x1):
            continue  # wholly beside the zone: neither end in it, no crossing
        if (ay < y0 and by < y0) or (ay > y1 and by > y1):
            continue
        if (
            (x0 + EPS < ax < x1 - EPS and y0 + EPS < ay < y1 - EPS)
            or (x0 + EPS < bx < x1 - EPS and y0 + EPS < by < y1 - EPS)
            or segment_crosses(x0, y0, x1, y1, ax, ay, bx, by)
        ):
            return False
    return True


def _corners(table: Table, radius: float) -> tuple[tuple[float, float, float, float], ...]:
    """`_zones` as plain numbers, worked out once per table and radius."""
    memo = table_cache(table, "zones", 64)
    found = memo.get(radius)
    if found is None:
        found = memo[radius] = tuple((z.x0, z.y0, z.x1, z.y1) for z in _zones(table, radius))
    return found


@lru_cache(maxsize=32)
def _graph(table: Table, radius: float, step: float) -> Graph:
    """Walkable nodes and their clear links to neighbours. A link is tested only against the
    zones within a step of its node: a farther zone lies wholly beside both its ends."""
    zones = _corners(table, radius)
    cols, rows = int(table.width / step), int(table.height / step)
    x_lo, x_hi = radius - 1e-9, table.width - radius + 1e-9  # `Table.on_table`
    y_lo, y_hi = radius - 1e-9, table.height - radius + 1e-9
    nodes = {
        (i, j)
        for i in range(cols + 1)
        for j in range(rows + 1)
        if x_lo <= i * step <= x_hi
        and y_lo <= j * step <= y_hi
        and _clear_xy(zones, i * step, j * step, i * step, j * step)
    }
    graph: dict[Node, list[tuple[Node, float]]] = {}
    pad = step + 1e-6
    for i, j in nodes:
        x, y = i * step, j * step
        near = [z for z in zones if z[0] - pad <= x <= z[2] + pad and z[1] - pad <= y <= z[3] + pad]
        links = []
        for di, dj in NEIGHBOURS:
            other = (i + di, j + dj)
            if other in nodes and (
                not near or _clear_xy(near, x, y, other[0] * step, other[1] * step)
            ):
                links.append((other, step * math.hypot(di, dj)))
        graph[(i, j)] = links
    return graph


def _near_nodes(
    table: Table, p: Point, radius: float, step: float, graph: Graph
) -> list[tuple[Node, float]]:
    """Nodes around `p` reachable in a straight line, with their distance from it: the
    corners of its grid cell, or a wider ring when terrain hides them all. Remembered per
    table: a spot's walks to every enemy start from the same nodes."""
    memo = table.memos.get("near-nodes")
    if memo is None:
        memo = table_cache(table, "near-nodes", WALK_CACHE)
    key = (p.x, p.y, radius, step)
    found = memo.get(key)
    if found is None:
        if len(memo) >= WALK_CACHE:
            memo.clear()
        found = memo[key] = _nodes_near(table, p, radius, step, graph)
    return found


def _nodes_near(
    table: Table, p: Point, radius: float, step: float, graph: Graph
) -> list[tuple[Node, float]]:
    i0, j0 = math.floor(p.x / step), math.floor(p.y / step)
    for lo, hi in ((0, 2), (-2, 4)):
        out = []
        for i in range(i0 + lo, i0 + hi):
            for j in range(j0 + lo, j0 + hi):
                if (i, j) not in graph:
                    continue
                node = Point(i * step, j * step)
                if p.distance(node) < 1e-9 or _clear(table, p, node, radius):
                    out.append(((i, j), p.distance(node)))
        if out:
            return out
    return []


class _Field:
    """Walking distances to one goal, from a shortest-path search run only as far as the
    nodes asked about so far: a node's distance is final once the search reaches it, so
    the answers are those of the whole search, which the bots rarely need.

    The search runs on the nodes' numbers (`_numbered`) and pushes a node again only when
    the new way to it is shorter than the best known. A node's distance is the least of its
    neighbours' distances plus the link, whatever order ties are taken in, so the answers are
    those of the plain search to the last bit (`tests/test_squad_alpha_shortcuts.py`)."""

    __slots__ = ("dist", "heap", "index", "links", "best")

    def __init__(self, numbered: Numbered, start: list[tuple[Node, float]]) -> None:
        self.index, self.links = numbered
        self.dist: list[float | None] = [None] * len(self.links)
        self.best = [math.inf] * len(self.links)
        self.heap = []
        for node, d in start:
            k = self.index[node]
            if d < self.best[k]:
                self.best[k] = d
            self.heap.append((d, k))
        heapq.heapify(self.heap)

    def get(self, node: Node) -> float | None:
        """The walk from `node` to the goal; None when no walk reaches it."""
        target = self.index.get(node)
        if target is None:
            return None
        dist = self.dist
        found = dist[target]
        if found is not None:
            return found
        heap, links, best = self.heap, self.links, self.best
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            d, near = pop(heap)
            if dist[near] is not None:
                continue
            dist[near] = d
            for other, length in links[near]:
                if dist[other] is None:
                    way = d + length
                    if way < best[other]:
                        best[other] = way
                        push(heap, (way, other))
            if near == target:
                return d
        return None


@lru_cache(maxsize=32)
def _numbered(table: Table, radius: float, step: float) -> Numbered:
    """`_graph`'s nodes numbered, and each node's links by number (once per graph)."""
    graph = _graph(table, radius, step)
    index = {node: k for k, node in enumerate(graph)}
    links = tuple(tuple((index[o], length) for o, length in graph[node]) for node in graph)
    return index, links


@lru_cache(maxsize=256)
def _field(table: Table, goal: Point, radius: float, step: float) -> _Field:
    """Walking distance from every reachable node to `goal`, worked out as asked."""
    graph = _graph(table, radius, step)
    start = _near_nodes(table, goal, radius, step, graph)
    return _Field(_numbered(table, radius, step), start)


def path_distance(table: Table, a: Point, b: Point, radius: float, step: float = 1.0) -> float:
    """Walking distance from a to b around impassable terrain (`inf` when walled off)."""
    key = (round(a.x, 2), round(a.y, 2), round(b.x, 1), round(b.y, 1), radius, step)
    memo = table.memos.get("walk")
    if memo is None:
        memo = table_cache(table, "walk", WALK_CACHE)
    found = memo.get(key)
    if found is None:
        if len(memo) >= WALK_CACHE:
            memo.clear()
        found = memo[key] = _path_distance(
            table, Point(key[0], key[1]), Point(key[2], key[3]), radius, step
        )
    return found


def _path_distance(table: Table, a: Point, b: Point, radius: float, step: float) -> float:
    if _clear(table, a, b, radius):
        return a.distance(b)
    field = _field(table, b, radius, step)
    graph = _graph(table, radius, step)
    best = math.inf
    for node, d in _near_nodes(table, a, radius, step, graph):
        walk = field.get(node)
        if walk is not None:
            best = min(best, d + walk)
    return best


def route_toward(
    table: Table,
    mover: Body,
    goal: Point,
    max_inches: float,
    others: list[Body],
    stop_short: float = 0.0,
) -> Point:
    """The legal spot within `max_inches` that leaves the shortest walk to `goal`, going
    around impassable terrain; stays put when nothing gets closer. `stop_short` keeps that
    much distance from the goal (e.g. two base radii to end beside a miniature)."""
    start = mover.pos
    px, py, gx, gy = start.x, start.y, goal.x, goal.y
    near = _near(mover, max_inches, others)  # the farther bases cannot touch any way tried

    def remaining(p: Point) -> float:
        return abs(path_distance(table, p, goal, mover.radius) - stop_short)

    # The candidates are the farthest point on the straight way (index 0), then the legal
    # spots of `ring_spots` in its order (1-32); the best has the shortest remaining walk
    # (rounded to 0.001"), then is the nearest, then the first. A walk is never shorter than
    # the straight line less 0.1" (the margin covers the rounding of the walking distances),
    # so a candidate whose bound exceeds a walk already found cannot win: the ring spots are
    # first screened against the straight candidate's walk (one dot product each, with room
    # for the spots' rounding), then tried by bound, and a spot is tested for legality and
    # walked only while its bound could still win. The pick is that of trying every
    # candidate (`tests/test_fast_paths.py`), for a fraction of the work.
    straight = farthest_toward(table, mover, goal, max_inches, near)
    best_walk = round(remaining(straight), 3)
    scored = [(best_walk, start.distance(straight), 0, straight)]
    vx, vy = px - gx, py - gy
    reach = best_walk + 0.1 + stop_short + 0.01
    lowest = (reach * reach - vx * vx - vy * vy) / 2  # spot o may win only if o.v <= this - r²/2
    bounds = []
    for index, (dx, dy, half_r2) in enumerate(_ring_units(max_inches), 1):
        if dx * vx + dy * vy <= lowest - half_r2:
            x, y = round(px + dx, 2), round(py + dy, 2)
            bounds.append((_bound(x - gx, y - gy, stop_short), index, x, y))
    bounds.sort()
    for bound, index, x, y in bounds:
        if bound > best_walk:
            break
        if move_problem_xy(table, mover, x, y, max_inches, near, worded=False) is not None:
            continue
        p = Point(x, y)
        walk = round(remaining(p), 3)
        best_walk = min(best_walk, walk)
        scored.append((walk, start.distance(p), index, p))
    best = min(scored)[3]
    here = remaining(start)
    return best if remaining(best) < here - 1e-6 else start


def _bound(dx: float, dy: float, stop_short: float) -> float:
    """The least remaining walk a candidate this far (dx, dy) from the goal may have, as the
    walk is rounded: the straight line less 0.1", never below 0."""
    line = math.hypot(dx, dy) - 0.1 - stop_short
    return round(line, 3) if line > 0 else 0.0


@lru_cache(maxsize=64)
def _ring_units(max_inches: float) -> tuple[tuple[float, float, float], ...]:
    """The offsets of the two rings' 32 spots from the mover, as `ring_spots` works them out,
    each with half its length squared."""
    out = []
    for ring in (1.0, 0.5):
        for k in range(16):
            angle = 2 * math.pi * k / 16
            dx, dy = math.cos(angle) * max_inches * ring, math.sin(angle) * max_inches * ring
            out.append((dx, dy, (dx * dx + dy * dy) / 2))
    return tuple(out)


def _ring_points(px: float, py: float, max_inches: float) -> list[tuple[float, float]]:
    """The 32 spots `ring_spots` tries from (px, py), rounded to 0.01", legal or not."""
    return [(round(px + dx, 2), round(py + dy, 2)) for dx, dy, _ in _ring_units(max_inches)]


def _near(mover: Body, max_inches: float, others: list[Body]) -> tuple[Body, ...]:
    """The bases near enough to stand in the way of a move of `max_inches` (a base farther
    from the mover than the move plus both radii cannot touch any spot or way tried)."""
    px, py, radius = mover.pos.x, mover.pos.y, mover.radius
    return tuple(
        o
        for o in others
        if math.hypot(o.pos.x - px, o.pos.y - py) <= max_inches + o.radius + radius + 0.1
    )


def ring_spots(table: Table, mover: Body, max_inches: float, others: list[Body]) -> list[Point]:
    """Legal spots on two rings around the mover (full and half move, 16 directions).

    Only bases near enough to stand in the way are part of the memo's key (a base farther
    from the mover than the move plus both radii cannot touch any spot or way tried), so
    a mob's figures moving one after another share the work."""
    return list(_ring(table, mover, max_inches, _near(mover, max_inches, others)))


@lru_cache(maxsize=1024)
def _ring(
    table: Table, mover: Body, max_inches: float, others: tuple[Body, ...]
) -> tuple[Point, ...]:
    return tuple(
        Point(x, y)
        for x, y in _ring_points(mover.pos.x, mover.pos.y, max_inches)
        if move_problem_xy(table, mover, x, y, max_inches, others, worded=False) is None
    )
