"""A short list of meaningful places to move to, for a Choice: toward or into contact with a
named enemy, into the nearest cover, away from an enemy, compass directions at full or half
distance, and staying put. Typed coordinates are checked with `move_problem`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from wargame_cli.engine.requests import Option
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body, contact_spots, farthest_toward, move_problem
from wargame_cli.tabletop.paths import route_toward
from wargame_cli.tabletop.table import Table, TerrainKind

COMPASS = {"north": (0.0, 1.0), "east": (1.0, 0.0), "south": (0.0, -1.0), "west": (-1.0, 0.0)}


@dataclass(frozen=True, slots=True)
class Destination:
    tag: str  # "contact:<id>", "toward:<id>", "cover:<piece>", "away:<id>", "north", "stay", ...
    label: str
    point: Point

    def option(self) -> Option:
        return Option(self.point.key(), f"{self.label} ({self.point.key()})")


def offer(
    table: Table,
    mover: Body,
    max_inches: float,
    enemies: list[Body],
    others: list[Body],
    names: Callable[[str], str] = str,
) -> list[Destination]:
    """Legal destinations, one per distinct point, most purposeful first. `others` are all
    bodies that block movement (friends and enemies)."""
    found: list[Destination] = []
    seen: set[str] = set()

    def add(tag: str, label: str, point: Point) -> None:
        key = point.key()
        if key in seen or move_problem(table, mover, point, max_inches, others) is not None:
            return
        seen.add(key)
        found.append(Destination(tag, label, point))

    by_distance = sorted(enemies, key=lambda e: mover.pos.distance(e.pos))
    for enemy in by_distance:
        spots = contact_spots(table, mover, enemy, max_inches, others)
        if spots:
            add(f"contact:{enemy.id}", f"Into contact with {names(enemy.id)}", spots[0])
        else:
            add(
                f"toward:{enemy.id}",
                f"Toward {names(enemy.id)}",
                route_toward(
                    table, mover, enemy.pos, max_inches, others, mover.radius + enemy.radius
                ),
            )
    for piece in sorted(
        (p for p in table.pieces if p.kind is not TerrainKind.BLOCKING),
        key=lambda p: mover.pos.distance(p.rect.nearest(mover.pos)),
    )[:2]:
        spot = piece.rect.nearest(mover.pos)
        inside = spot.toward(piece.rect.centre, min(0.5, spot.distance(piece.rect.centre)))
        reach = route_toward(table, mover, inside.rounded(2), max_inches, others)
        if piece.rect.contains(reach):
            cover = "hard cover" if piece.kind is TerrainKind.HARD else "soft cover"
            add(f"cover:{piece.name}", f"Into {piece.name} ({cover})", reach)
    if by_distance:
        nearest = by_distance[0]
        away = mover.pos.offset(mover.pos.x - nearest.pos.x, mover.pos.y - nearest.pos.y)
        add(
            f"away:{nearest.id}",
            f"Away from {names(nearest.id)}",
            farthest_toward(table, mover, away, max_inches, others),
        )
    for name, (dx, dy) in COMPASS.items():
        full_reach = 0.0
        for share, word in ((1.0, "full"), (0.5, "half")):
            goal = mover.pos.offset(dx * max_inches * share, dy * max_inches * share)
            spot = farthest_toward(table, mover, goal, max_inches * share, others)
            reach = mover.pos.distance(spot)
            if share == 1.0:
                full_reach = reach
            elif reach >= full_reach - 1e-9:
                continue  # stopped short by an edge or a wall: no "half" beyond the full move
            if spot != mover.pos:
                add(f"{name}:{word}", f"{name.capitalize()}, {word} move", spot)
    add("stay", "Stay where it is", mover.pos)
    return found


def typed_problem(
    table: Table, mover: Body, max_inches: float, others: list[Body], text: str
) -> str | None:
    """The check for a typed `x,y` destination."""
    try:
        point = Point.parse(text)
    except ValueError as exc:
        return str(exc)
    return move_problem(table, mover, point, max_inches, others)
