"""A short list of meaningful places to move to, for a Choice: into contact with each enemy in
reach (or toward it), into the nearest cover, away from the nearest enemy, compass directions
at full or half distance, and staying put. Every label says how far the move goes. Typed
coordinates are checked with `typed_problem`.

With `bend=True` a move may go around impassable terrain (a tape measured around a corner,
`detours`); otherwise moves are straight lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from wargame_cli.engine.requests import Option
from wargame_cli.tabletop.detours import bent_move_ok, bent_move_problem, way_to
from wargame_cli.tabletop.geometry import EPS, Point
from wargame_cli.tabletop.movement import Body, contact_ring, move_ok, move_problem
from wargame_cli.tabletop.paths import path_distance, route_toward
from wargame_cli.tabletop.reach import known_span
from wargame_cli.tabletop.table import Table, TerrainKind

COMPASS = {"north": (0.0, 1.0), "east": (1.0, 0.0), "south": (0.0, -1.0), "west": (-1.0, 0.0)}
CONTACT_TRIES = 180  # spots tried around an enemy's base, 2 degrees apart
FULL = 0.01  # inches: a move this close to the allowance is a full move


@dataclass(frozen=True, slots=True)
class Destination:
    tag: str  # "contact:<id>", "toward:<id>", "cover:<piece>", "away:<id>", "north:full", "stay"
    label: str
    point: Point

    def option(self) -> Option:
        return Option(self.point.key(), f"{self.label} ({self.point.key()})")


@dataclass(frozen=True, slots=True)
class Mover:
    """A miniature about to move: where it may go and how far a way to a spot is."""

    table: Table
    body: Body
    max_inches: float
    others: tuple[Body, ...]
    bend: bool = False

    def problem(self, point: Point) -> str | None:
        check = bent_move_problem if self.bend else move_problem
        return check(self.table, self.body, point, self.max_inches, list(self.others))

    def fits(self, point: Point) -> bool:
        """`problem(point) is None`, without working out the reason (tried many times)."""
        check = bent_move_ok if self.bend else move_ok
        return check(self.table, self.body, point, self.max_inches, self.others)

    def walked(self, point: Point) -> float:
        """The length of the way to a legal `point` (around corners when bending)."""
        if not self.bend:
            return self.body.pos.distance(point)
        way = way_to(self.table, self.body, point, self.max_inches, list(self.others))
        return way.length if way is not None else self.body.pos.distance(point)

    def around(self, point: Point) -> str:
        """`, around Barn` when the way to `point` bends round a piece of terrain."""
        if (
            not self.bend
            or move_problem(self.table, self.body, point, self.max_inches, list(self.others))
            is None
        ):
            return ""
        blocked = move_problem(self.table, self.body, point, math.inf, list(self.others)) or ""
        name = blocked.split("passes through ")[-1].removesuffix(" (impassable)")
        return f", around {name}" if "passes through" in blocked else ", around the way"

    def inches(self, point: Point) -> str:
        walked = min(self.walked(point), self.max_inches)  # 0.01" of rounding slack
        return f'{walked:.1f}"{self.around(point)}'


def offer(
    table: Table,
    mover: Body,
    max_inches: float,
    enemies: list[Body],
    others: list[Body],
    names: Callable[[str], str] = str,
    bend: bool = False,
    enemies_only: bool = False,
    first_only: bool = False,
    prefer: list[str] | None = None,
) -> list[Destination]:
    """Legal destinations, one per distinct point, most purposeful first. `others` are all
    bodies that block movement (friends and enemies). `enemies_only` stops after the contact
    and toward spots (the same ones, in the same order): all a bot reads, for a fraction of
    the work. `first_only` (with it) stops at the first toward spot when no enemy can be
    contacted, for a bot that takes the first one; `prefer` (with it) then gives only the
    toward spot of the first enemy in that order (ids) that the whole menu would list."""
    m = Mover(table, mover, max_inches, tuple(others), bend)
    found: list[Destination] = []
    seen: set[str] = set()

    def add(tag: str, label: str, point: Point) -> None:
        key = point.key()
        if key in seen or point == mover.pos or not m.fits(point):
            return
        seen.add(key)
        found.append(Destination(tag, label, point))

    by_distance = sorted(enemies, key=lambda e: mover.pos.distance(e.pos))
    contacts = [contact_spot(m, enemy) for enemy in by_distance]
    # with `enemies_only`, a toward spot matters only while some contact spot comes after it
    # (a bot reads the contacts when there are any; an earlier toward spot may take its place)
    last = max((i for i, spot in enumerate(contacts) if spot is not None), default=None)
    if enemies_only and last is None and prefer is not None:
        return _preferred_toward(m, by_distance, prefer, names)
    for i, enemy in enumerate(by_distance):
        spot = contacts[i]
        name = names(enemy.id)
        if spot is not None:
            add(f"contact:{enemy.id}", f"Into contact with {name}, {m.inches(spot)}", spot)
            continue
        if enemies_only and last is not None and i > last:
            break
        spot = toward(m, enemy)
        if spot is not None:
            add(f"toward:{enemy.id}", f"Toward {name}, {m.inches(spot)}", spot)
            if first_only and last is None and found:
                break
    if enemies_only:
        return found
    for tag, label, spot in cover_spots(m):
        add(tag, f"{label}, {m.inches(spot)}", spot)
    if by_distance and by_distance[0].pos.distance(mover.pos) > EPS:
        nearest = by_distance[0]
        # "away" is the full allowance straight away from the enemy, not a mirror of its gap
        away = nearest.pos.toward(mover.pos, nearest.pos.distance(mover.pos) + max_inches)
        spot = farthest_along(m, away)
        add(f"away:{nearest.id}", f"Away from {names(nearest.id)}, {m.inches(spot)}", spot)
    for name, (dx, dy) in COMPASS.items():
        full_reach = 0.0
        for share, word in ((1.0, "full"), (0.5, "half")):
            goal = mover.pos.offset(dx * max_inches * share, dy * max_inches * share)
            spot = farthest_along(m, goal)
            reach = mover.pos.distance(spot)
            if share == 1.0:
                full_reach = reach
            elif reach >= full_reach - 1e-9:
                continue  # stopped short by an edge or a wall: no "half" beyond the full move
            if reach >= max_inches * share - FULL:
                label = f'{name.capitalize()}, {word} move ({max_inches * share:g}")'
            else:
                label = f'{name.capitalize()}, {reach:.2f}" (as far as it can go)'
            add(f"{name}:{word}", label, spot)
    found.append(Destination("stay", "Stay where it is", mover.pos))
    return found


def _preferred_toward(
    m: Mover, by_distance: list[Body], prefer: list[str], names: Callable[[str], str]
) -> list[Destination]:
    """The toward entry the whole menu lists for the first enemy in `prefer` that has one
    (no enemy can be contacted): an enemy's entry is listed when its spot is a legal move and
    no nearer enemy's listed spot has the same key. Only the spots needed are worked out."""
    spots: dict[int, Point | None] = {}

    def listed(i: int) -> Point | None:
        if i not in spots:
            spot = toward(m, by_distance[i])
            ok = spot is not None and spot != m.body.pos and m.fits(spot)
            spots[i] = spot if ok else None
        return spots[i]

    index = {e.id: i for i, e in enumerate(by_distance)}
    for enemy_id in prefer:
        i = index.get(enemy_id)
        spot = listed(i) if i is not None else None
        if spot is None:
            continue
        if any((q := listed(j)) is not None and q.key() == spot.key() for j in range(i)):
            continue
        label = f"Toward {names(enemy_id)}, {m.inches(spot)}"
        return [Destination(f"toward:{enemy_id}", label, spot)]
    return []


def farthest_along(m: Mover, goal: Point) -> Point:
    """The farthest legal spot on the straight way to `goal` (at most the allowance): the
    table's edges are found exactly, walls and bases by halving, and rounding to 0.01" never
    pushes the spot past them."""
    start = m.body.pos
    length = min(m.max_inches, start.distance(goal))
    if length < EPS:
        return start
    t_edge = _edge_limit(m.table, m.body, goal, length)
    spot = _rounded_back(m, start.toward(goal, t_edge))
    if spot is not None and move_ok(m.table, m.body, spot, m.max_inches, m.others):
        return spot
    lo, hi = 0.0, t_edge
    # the halvings the walls and bases in the way settle need no test
    safe, bad = known_span(m.table, m.body, m.others, goal)
    for _ in range(24):
        mid = (lo + hi) / 2
        if mid < safe or (
            mid <= bad and move_ok(m.table, m.body, start.toward(goal, mid), m.max_inches, m.others)
        ):
            lo = mid
        else:
            hi = mid
    return _rounded_back(m, start.toward(goal, lo)) or start


def _edge_limit(table: Table, body: Body, goal: Point, length: float) -> float:
    """How far along the way to `goal` the base stays wholly on the table."""
    start, r = body.pos, body.radius
    dist = start.distance(goal)
    ux, uy = (goal.x - start.x) / dist, (goal.y - start.y) / dist
    limit = length
    for u, p, hi in ((ux, start.x, table.width), (uy, start.y, table.height)):
        if u > EPS:
            limit = min(limit, (hi - r - p) / u)
        elif u < -EPS:
            limit = min(limit, (r - p) / u)
    return max(0.0, limit)


def _rounded_back(m: Mover, p: Point) -> Point | None:
    """`p` kept to 0.01", stepped back toward the start until it is legal (a few tries)."""
    start = m.body.pos
    for back in (0.0, 0.005, 0.01, 0.02):
        spot = start.toward(p, max(0.0, start.distance(p) - back)).rounded(2)
        if move_ok(m.table, m.body, spot, m.max_inches, m.others):
            return spot
    return None


def contact_spot(m: Mover, enemy: Body) -> Point | None:
    """The nearest reachable spot in base contact with `enemy`, or None. Spots are tried all
    round its base, nearest first, so a narrow gap beside a corner is found too."""
    touching = m.body.radius + enemy.radius
    start = m.body.pos
    if start.distance(enemy.pos) > m.max_inches + touching + 0.01:
        return None
    for spot in contact_ring(start, enemy.pos, touching, CONTACT_TRIES):
        if start.distance(spot) > m.max_inches + 0.01:
            continue
        if m.fits(spot):
            return spot
    return None


def toward(m: Mover, enemy: Body) -> Point | None:
    """The spot that gets nearest to base contact with `enemy`, going around terrain; None
    when no move gets any nearer (so "toward" never ends farther away)."""
    start, touching = m.body.pos, m.body.radius + enemy.radius
    candidates = [
        farthest_along(m, enemy.pos.toward(start, touching)),
        route_toward(m.table, m.body, enemy.pos, m.max_inches, list(m.others), touching),
    ]

    def short(p: Point) -> tuple[float, float]:
        return (round(_walk(m, p, enemy) - touching, 3), start.distance(p))

    legal = [p for p in candidates if p != start and m.fits(p)]
    if not legal:
        return None
    best = min(legal, key=short)
    return best if short(best)[0] < _walk(m, start, enemy) - touching - 0.01 else None


def _walk(m: Mover, p: Point, enemy: Body) -> float:
    """Walking distance from `p` to the enemy: straight when nothing is in the way."""
    if move_ok(m.table, Body(m.body.id, p, m.body.radius), enemy.pos, math.inf, []):
        return p.distance(enemy.pos)
    return max(p.distance(enemy.pos), path_distance(m.table, p, enemy.pos, m.body.radius))


def cover_spots(m: Mover) -> list[tuple[str, str, Point]]:
    """Into the two nearest pieces of cover the miniature is not already standing in."""
    start = m.body.pos
    out = []
    pieces = sorted(
        (
            p
            for p in m.table.pieces
            if p.kind is not TerrainKind.BLOCKING and not p.rect.contains(start)
        ),
        key=lambda p: start.distance(p.rect.nearest(start)),
    )[:2]
    for piece in pieces:
        spot = piece.rect.nearest(start)
        inside = spot.toward(piece.rect.centre, min(0.5, spot.distance(piece.rect.centre)))
        reach = route_toward(m.table, m.body, inside.rounded(2), m.max_inches, list(m.others))
        if piece.rect.contains(reach):
            cover = "hard cover" if piece.kind is TerrainKind.HARD else "soft cover"
            out.append((f"cover:{piece.name}", f"Into {piece.name} ({cover})", reach))
    return out


def typed_problem(
    table: Table,
    mover: Body,
    max_inches: float,
    others: list[Body],
    text: str,
    bend: bool = False,
) -> str | None:
    """The check for a typed `x,y` destination."""
    try:
        point = Point.parse(text)
    except ValueError as exc:
        return str(exc)
    return Mover(table, mover, max_inches, tuple(others), bend).problem(point)
