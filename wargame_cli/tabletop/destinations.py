"""A short list of meaningful places to move to, for a Choice: into contact with each enemy in
reach (or toward it), into the nearest cover, away from the nearest enemy, compass directions
at full or half distance, and staying put. Every label says how far the move goes. Typed
coordinates are checked with `typed_problem`.

With `bend=True` a move may go around impassable terrain (a tape measured around a corner,
`detours`); otherwise moves are straight lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from wargame_cli.engine.requests import Option
from wargame_cli.tabletop.detours import bent_move_problem, way_to
from wargame_cli.tabletop.geometry import EPS, Point
from wargame_cli.tabletop.movement import (
    CONTACT_TOLERANCE,
    Body,
    contact_ring,
    move_problem,
)
from wargame_cli.tabletop.paths import path_distance, route_toward
from wargame_cli.tabletop.reach import known_span
from wargame_cli.tabletop.table import Table, TerrainKind

COMPASS = {"north": (0.0, 1.0), "east": (1.0, 0.0), "south": (0.0, -1.0), "west": (-1.0, 0.0)}
CONTACT_TRIES = 180  # spots tried around an enemy's base, 2 degrees apart
FULL = 0.01  # inches: a move this close to the allowance is a full move
# A tidy menu (`MoveMenu(tidy=True)`, what a person reads) leaves out plain moves (toward, away,
# compass) shorter than NEGLIGIBLE, or within NEAR of a contact or plain move already listed:
# `South, 0.05"` or `North, 2.05"` beside `North, half move (2")` add nothing a typed spot
# does not. Contacts and cover are always listed, and so is the first toward spot.
NEGLIGIBLE = 0.5  # inches
NEAR = 1.0  # inches


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

    def problem(self, point: Point, worded: bool = True) -> str | None:
        check = bent_move_problem if self.bend else move_problem
        return check(self.table, self.body, point, self.max_inches, list(self.others), worded)

    def fits(self, point: Point) -> bool:
        return self.problem(point, worded=False) is None

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
            or move_problem(
                self.table, self.body, point, self.max_inches, list(self.others), worded=False
            )
            is None
        ):
            return ""
        blocked = move_problem(self.table, self.body, point, math.inf, list(self.others)) or ""
        name = blocked.split("passes through ")[-1].removesuffix(" (impassable)")
        return f", around {name}" if "passes through" in blocked else ", around the way"

    def inches(self, point: Point) -> str:
        walked = min(self.walked(point), self.max_inches)  # 0.01" of rounding slack
        return f'{walked:.1f}"{self.around(point)}'


@dataclass(frozen=True, slots=True)
class MoveMenu:
    """One move's question, as one value: what `offer` works the destinations out from (the
    table, the mover, its allowance in inches, the enemies, every base that blocks it:
    friends and enemies) and how it lists them.

    `names` words an enemy's id in the labels. `bend` lets a move go round impassable
    terrain (a tape measured round the corner). `tidy` (what a person reads) leaves out the
    noise (`NEAR`, `NEGLIGIBLE`); `cover=False`, for a game where terrain gives no cover,
    names a move into a piece of terrain for the piece alone (`Into Bracken`). What a bot
    reads: `enemies_only` stops after the contact and toward spots (the same ones, in the
    same order) for a fraction of the work; with it, `first_only` stops at the first toward
    spot when no enemy can be contacted, and `prefer` (enemy ids) then gives only the toward
    spot of the first enemy in that order that the whole menu would list."""

    table: Table
    mover: Body
    max_inches: float
    enemies: tuple[Body, ...]
    others: tuple[Body, ...]
    names: Callable[[str], str] = str
    bend: bool = False
    tidy: bool = False
    cover: bool = True
    enemies_only: bool = False
    first_only: bool = False
    prefer: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if (self.first_only or self.prefer is not None) and not self.enemies_only:
            raise ValueError("first_only and prefer read only the enemies: enemies_only=True")

    def but(self, **changes: Any) -> MoveMenu:
        """The same question with `changes` (`menu.but(tidy=True)`)."""
        return replace(self, **changes)


def offer(menu: MoveMenu) -> list[Destination]:
    """Legal destinations for `menu`, one per distinct point, most purposeful first: into
    contact with each enemy in reach (or toward it), into cover, away from the nearest enemy,
    the compass at full and half moves, staying put."""
    m = Mover(menu.table, menu.mover, menu.max_inches, menu.others, menu.bend)
    by_distance = sorted(menu.enemies, key=lambda e: menu.mover.pos.distance(e.pos))
    names = menu.names
    if not menu.enemies_only:
        return list(_entries(m, by_distance, names, tidy=menu.tidy, cover=menu.cover))
    contacts = [contact_spot(m, enemy) for enemy in by_distance]
    # a toward spot matters only while some contact spot comes after it (a bot reads the
    # contacts when there are any; an earlier toward spot may take its place)
    last = max((i for i, spot in enumerate(contacts) if spot is not None), default=None)
    if last is None and menu.prefer is not None:
        return _preferred_toward(m, by_distance, list(menu.prefer), names)
    return list(_entries(m, by_distance, names, contacts, last, menu.first_only))


def menu_entry(menu: MoveMenu, key: str) -> Destination | None:
    """The entry `offer(menu)` lists for the point `key` (the whole menu's: `enemies_only` is
    not read), or None: found by working out the menu only as far as that entry, so a
    replay labels a recorded move without the whole menu."""
    m = Mover(menu.table, menu.mover, menu.max_inches, menu.others, menu.bend)
    by_distance = sorted(menu.enemies, key=lambda e: menu.mover.pos.distance(e.pos))
    entries = _entries(m, by_distance, menu.names, tidy=menu.tidy, cover=menu.cover)
    return next((d for d in entries if d.point.key() == key), None)


def _entries(
    m: Mover,
    by_distance: list[Body],
    names: Callable[[str], str],
    contacts: list[Point | None] | None = None,
    last: int | None = None,
    first_only: bool = False,
    tidy: bool = False,
    cover: bool = True,
) -> Iterator[Destination]:
    """`offer`'s entries in order, each worked out when reached. With `contacts` (every
    enemy's contact spot, `last` the index of the last one found) only the contact and toward
    entries come, as `offer` gives them with `enemies_only`."""
    mover, max_inches = m.body, m.max_inches
    seen: set[str] = set()
    plain: list[Point] = []  # the contacts and plain moves listed, for a tidy menu

    def fresh(point: Point, moving: bool = False, kept: bool = False) -> bool:
        """A spot not listed yet and legal; with `moving` (a plain move) in a tidy menu, also
        one that goes somewhere new, unless `kept` (the first toward spot: a bot's pick)."""
        key = point.key()
        if key in seen or point == mover.pos:
            return False
        if tidy and moving and not kept and _noise(m, point, plain):
            return False
        if not m.fits(point):
            return False
        seen.add(key)
        if moving:
            plain.append(point)
        return True

    listed = 0
    for i, enemy in enumerate(by_distance):
        spot = contact_spot(m, enemy) if contacts is None else contacts[i]
        name = names(enemy.id)
        if spot is not None:
            if fresh(spot):
                plain.append(spot)  # a plain move beside it adds nothing either
                yield Destination(
                    f"contact:{enemy.id}", f"Into contact with {name}, {m.inches(spot)}", spot
                )
            continue
        if contacts is not None and last is not None and i > last:
            return
        spot = toward(m, enemy)
        if spot is not None:
            if fresh(spot, moving=True, kept=not listed):
                listed += 1
                yield Destination(f"toward:{enemy.id}", f"Toward {name}, {m.inches(spot)}", spot)
            if first_only and last is None and listed:
                return
    if contacts is not None:
        return
    for tag, label, spot in cover_spots(m, cover):
        if fresh(spot):
            yield Destination(tag, f"{label}, {m.inches(spot)}", spot)
    if by_distance and by_distance[0].pos.distance(mover.pos) > EPS:
        nearest = by_distance[0]
        # "away" is the full allowance straight away from the enemy, not a mirror of its gap
        away = nearest.pos.toward(mover.pos, nearest.pos.distance(mover.pos) + max_inches)
        spot = farthest_along(m, away)
        if fresh(spot, moving=True):
            label = f"Away from {names(nearest.id)}, {m.inches(spot)}"
            yield Destination(f"away:{nearest.id}", label, spot)
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
            if fresh(spot, moving=True):
                yield Destination(f"{name}:{word}", label, spot)
    yield Destination("stay", "Stay where it is", mover.pos)


def _noise(m: Mover, point: Point, listed: list[Point]) -> bool:
    """A plain move that adds nothing: barely a move, or close to one already listed."""
    if m.body.pos.distance(point) < NEGLIGIBLE:
        return True
    return any(point.distance(q) < NEAR for q in listed)


def _preferred_toward(
    m: Mover, by_distance: list[Body], prefer: list[str], names: Callable[[str], str]
) -> list[Destination]:
    """The toward entry the whole menu lists for the first enemy in `prefer` that has one
    (no enemy can be contacted): an enemy's entry is listed when its spot is a legal move and
    no nearer enemy's listed spot has the same key. Only the spots needed are worked out."""
    spots: dict[int, Point | None] = {}

    def listed(i: int) -> Point | None:
        if i not in spots:
            # `toward` gives only a legal spot away from the start: what `add` checks
            spots[i] = toward(m, by_distance[i])
        return spots[i]

    index = {e.id: i for i, e in enumerate(by_distance)}
    for enemy_id in prefer:
        i = index.get(enemy_id)
        spot = listed(i) if i is not None else None
        if i is None or spot is None:
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
    if (
        spot is not None
        and move_problem(m.table, m.body, spot, m.max_inches, m.others, worded=False) is None
    ):
        return spot
    lo, hi = 0.0, t_edge
    # the halvings the walls and bases in the way settle need no test
    safe, bad = known_span(m.table, m.body, m.others, goal)
    for _ in range(24):
        mid = (lo + hi) / 2
        if mid < safe or (
            mid <= bad
            and move_problem(
                m.table, m.body, start.toward(goal, mid), m.max_inches, m.others, worded=False
            )
            is None
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
        if move_problem(m.table, m.body, spot, m.max_inches, m.others, worded=False) is None:
            return spot
    return None


def contact_spot(m: Mover, enemy: Body) -> Point | None:
    """The nearest reachable spot in base contact with `enemy`, or None. Spots are tried all
    round its base, nearest first, so a narrow gap beside a corner is found too.

    The spots of `contact_ring` (the same arithmetic, on plain numbers): a spot whose unrounded
    place is more than `RING_SLACK` beyond the move is out of reach however it rounds, and
    farther round the ring every spot is farther still (the distance from the mover grows
    with the angle from the side facing it), so the search stops once both ways are out.
    In a crowd, spots surely refused (on another base, or behind the enemy) are passed over
    (`_covered_steps`, `_behind_the_enemy`)."""
    touching = m.body.radius + enemy.radius
    start, centre = m.body.pos, enemy.pos
    if start.distance(centre) > m.max_inches + touching + 0.01:
        return None
    sx, sy, cx, cy = start.x, start.y, centre.x, centre.y
    reach = m.max_inches + 0.01
    base = math.atan2(sy - cy, sx - cx)
    turn = 2 * math.pi / CONTACT_TRIES
    bases = _bases_in_the_way(m)
    # the first spots usually do; after a few refusals the ring is crowded, and the spots
    # surely refused (on a base, behind the enemy) are worked out to pass them over
    covered: set[int] = set()
    behind, refused = CONTACT_TRIES, 0
    out_of_reach = [False, False]  # counter-clockwise, clockwise
    for i in range(CONTACT_TRIES):
        step = (i + 1) // 2 * (1 if i % 2 else -1)
        if refused == CROWDED:
            covered = _covered_steps(bases, cx, cy, touching, base, turn)
            behind = _behind_the_enemy(m, enemy, touching, turn)
            refused += 1
        if abs(step) >= behind:
            return None  # this spot and every one after it: the way passes through the enemy
        if step in covered:
            continue
        angle = base + step * turn
        x, y = cx + math.cos(angle) * touching, cy + math.sin(angle) * touching
        if math.hypot(x - sx, y - sy) > reach + RING_SLACK:
            if step == 0:
                return None
            out_of_reach[step < 0] = True
            if out_of_reach[0] and out_of_reach[1]:
                return None
            continue
        bx, by = round(x, 2), round(y, 2)
        out = math.hypot(bx - cx, by - cy)
        if out < touching - EPS:  # rounding pulled it inside the base: `toward`, `rounded`
            f = (touching + 0.005) / out
            bx, by = round(cx + (bx - cx) * f, 2), round(cy + (by - cy) * f, 2)
        if math.hypot(sx - bx, sy - by) > reach:
            continue
        if _on_or_through_a_base(bases, sx, sy, bx, by):
            refused += 1
            continue  # refused by the bases' tests of `fits`, done first on plain numbers
        spot = Point(bx, by)
        if m.fits(spot):
            return spot
        refused += 1
    return None


CROWDED = 4  # refused spots before the surely refused ones are worked out


def _bases_in_the_way(m: Mover) -> list[tuple[float, float, float, bool]]:
    """Each other base as (x, y, the least distance the mover's centre must keep, whether the
    mover starts clear of it): what `move_problem` tests a move against, worked out once."""
    me, radius, sx, sy = m.body.id, m.body.radius, m.body.pos.x, m.body.pos.y
    out = []
    for o in m.others:
        if o.id != me:
            ox, oy, touch = o.pos.x, o.pos.y, o.radius + radius - CONTACT_TOLERANCE
            out.append((ox, oy, touch, math.hypot(ox - sx, oy - sy) >= touch))
    return out


def _on_or_through_a_base(
    bases: list[tuple[float, float, float, bool]], ax: float, ay: float, bx: float, by: float
) -> bool:
    """Whether the move from (ax, ay) to (bx, by) ends on a base or passes through one it
    started clear of: `move_problem_xy`'s tests of the other bases, with its arithmetic."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    for ox, oy, touch, clear in bases:
        if math.hypot(ox - bx, oy - by) < touch:
            return True
        if not clear:
            continue
        if length2 < EPS:
            passing = math.hypot(ax - ox, ay - oy)
        else:
            t = max(0.0, min(1.0, ((ox - ax) * dx + (oy - ay) * dy) / length2))
            passing = math.hypot(ox - (ax + t * dx), oy - (ay + t * dy))
        if passing < touch:
            return True
    return False


SURE = 0.05  # inches: more than rounding a ring spot (and pulling it out of the base) moves it


def _covered_steps(
    bases: list[tuple[float, float, float, bool]],
    cx: float,
    cy: float,
    touching: float,
    base: float,
    turn: float,
    tries: int = CONTACT_TRIES,
) -> set[int]:
    """The ring's steps whose spot stands on another base however it rounds: the ring's
    arc within that base's reach less `SURE` (every such spot is refused by `move_problem`). A
    necessary refusal only: the spots left are tested as before."""
    covered: set[int] = set()
    half = tries // 2
    for ox, oy, touch, _ in bases:
        keep = touch - SURE
        apart = math.hypot(ox - cx, oy - cy)
        if keep <= 0 or apart < 1e-6:
            continue
        cos_limit = (touching * touching + apart * apart - keep * keep) / (2 * touching * apart)
        if cos_limit >= 1:
            continue
        if cos_limit <= -1:
            return set(range(1 - half, half + 1))
        width = math.acos(cos_limit) / turn
        middle = (math.atan2(oy - cy, ox - cx) - base) / turn
        for k in range(math.ceil(middle - width) + 1, math.floor(middle + width)):
            covered.add((k + half - 1) % tries - half + 1)
    return covered


def _behind_the_enemy(m: Mover, enemy: Body, touching: float, turn: float) -> int:
    """The first step round the ring (either way) from which every spot lies behind the enemy:
    the straight way there passes through its base however the spot rounds, so `move_problem`
    refuses it. Past the tangent from the mover the way's closest approach to the enemy's
    centre, `D t sin(a) / |way|`, only shrinks as the angle `a` grows; it is below the base's
    reach less `SURE` where `cos(a) < (k^2 - sqrt((D^2 - k^2)(t^2 - k^2))) / (D t)`. A step
    past the ring (never reached) when the enemy blocks no way."""
    never = CONTACT_TRIES
    if enemy not in m.others or enemy.id == m.body.id:
        return never
    keep = enemy.radius + m.body.radius - CONTACT_TOLERANCE
    sx, sy = m.body.pos.x, m.body.pos.y
    apart = math.hypot(enemy.pos.x - sx, enemy.pos.y - sy)
    if not (apart >= keep and apart > touching + SURE):  # the mover must start clear of it
        return never
    k = keep - SURE
    if k <= 0:
        return never
    limit = (k * k - math.sqrt((apart * apart - k * k) * (touching * touching - k * k))) / (
        apart * touching
    )
    if limit <= -1:
        return never
    first = max(math.acos(limit), math.acos(touching / apart))  # and past the tangent
    return math.floor(first / turn) + 2  # a step to spare against rounding


RING_SLACK = 0.05  # inches: more than rounding a ring spot to 0.01" (and out of a base) moves it


def contact_spot_plain(m: Mover, enemy: Body) -> Point | None:
    """`contact_spot` by its definition, every spot of the ring in turn (for tests)."""
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
    if (
        move_problem(
            m.table, Body(m.body.id, p, m.body.radius), enemy.pos, math.inf, [], worded=False
        )
        is None
    ):
        return p.distance(enemy.pos)
    return max(p.distance(enemy.pos), path_distance(m.table, p, enemy.pos, m.body.radius))


def cover_spots(m: Mover, cover: bool = True) -> list[tuple[str, str, Point]]:
    """Into the two nearest pieces of cover the miniature is not already standing in (named
    with the cover they give, unless `cover` is False: terrain that gives none)."""
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
            kind = "hard cover" if piece.kind is TerrainKind.HARD else "soft cover"
            label = f"Into {piece.name} ({kind})" if cover else f"Into {piece.name}"
            out.append((f"cover:{piece.name}", label, reach))
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
        point = point_of(text)
    except ValueError as exc:
        return str(exc)
    return Mover(table, mover, max_inches, tuple(others), bend).problem(point)


@lru_cache(maxsize=256)
def point_of(text: str) -> Point:
    """`Point.parse`, remembered: a move's answer is read by its check and then by the rules."""
    return Point.parse(text)
