"""Where a table edit may put a base: on the table, off blocking terrain, touching no other
base (`wargame edit SAVE move`, `add`); the one check every tabletop ruleset's edits share."""

from __future__ import annotations

from collections.abc import Iterable

from wargame_cli.engine.edits import EditRefused
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body, gap
from wargame_cli.tabletop.table import Table


def legal_spot(
    text: str, table: Table, radius: float, bodies: Iterable[Body], moving: str | None, what: str
) -> Point:
    """The spot `text` names (`X,Y` in inches) for a base of `radius`, or a refusal saying
    why not; `moving`: the id of the base being moved (it may overlap where it stands)."""
    try:
        p = Point.parse(text)
    except ValueError as exc:
        raise EditRefused(f"edit {what}: {exc}") from None
    if not table.on_table(p, radius):
        raise EditRefused(
            f"edit {what}: {p.key()} is off the table ({table.width:g}x{table.height:g} "
            f'inches, and a base needs {radius:g}" to the edge)'
        )
    if (piece := table.blocking_at(p)) is not None:
        raise EditRefused(f"edit {what}: {p.key()} is inside {piece.name}, which blocks")
    base = Body("", p, radius)
    for other in bodies:
        if other.id != moving and gap(base, other) < -1e-6:
            raise EditRefused(f"edit {what}: {p.key()} overlaps {other.id}'s base")
    return p
