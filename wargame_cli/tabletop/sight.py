"""Line of sight and cover, computed from the terrain the same way for every ruleset."""

from __future__ import annotations

from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.table import Piece, Table, TerrainKind

COVER_RANK = {TerrainKind.HARD: 2, TerrainKind.SOFT: 1}


def blocker(table: Table, a: Point, b: Point) -> Piece | None:
    """The first blocking piece the line between two centres passes through, if any."""
    for piece in table.pieces:
        if piece.kind is TerrainKind.BLOCKING and piece.rect.crosses(a, b):
            return piece
    return None


def line_of_sight(table: Table, a: Point, b: Point) -> bool:
    return blocker(table, a, b) is None


def cover(table: Table, firer: Point, target: Point) -> TerrainKind | None:
    """The best cover the target has from the firer's perspective: a cover piece it stands in,
    or one the line of fire crosses that the firer is not standing in. Hard beats soft."""
    best: TerrainKind | None = None
    for piece in table.pieces:
        if piece.kind is TerrainKind.BLOCKING:
            continue
        if piece.rect.contains(target):
            hit = True
        elif piece.rect.contains(firer):
            hit = False
        else:
            hit = piece.rect.crosses(firer, target)
        if hit and (best is None or COVER_RANK[piece.kind] > COVER_RANK[best]):
            best = piece.kind
    return best
