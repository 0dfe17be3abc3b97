"""Where a table edit may put a base: on the table, clear of blocking terrain, overlapping no
other base (`wargame edit SAVE move`, `add`); the one check every tabletop ruleset's edits
share, and the same standing check movement and deployment make."""

from __future__ import annotations

from collections.abc import Iterable

from wargame_cli.engine.edits import EditRefused
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body, standing_problem
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
    # a base's edge in blocking terrain, or over another base (touching is allowed)
    problem = standing_problem(table, Body(moving or "", p, radius), bodies)
    if problem is not None:
        raise EditRefused(f"edit {what}: {problem}; a base may touch another, not overlap it")
    return p
