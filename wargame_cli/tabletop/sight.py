"""Line of sight and cover, computed from the terrain the same way for every ruleset.

Sight runs between base centres and only blocking terrain stops it (miniatures and cover do
not). A miniature is *in* a piece when its centre is.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.table import Piece, Table, TerrainKind

COVER_RANK = {TerrainKind.HARD: 2, TerrainKind.SOFT: 1}


def blocker(table: Table, a: Point, b: Point) -> Piece | None:
    """The first blocking piece the line between two centres passes through, if any."""
    return _blocker(table, a, b)


@lru_cache(maxsize=200_000)
def _blocker(table: Table, a: Point, b: Point) -> Piece | None:
    for piece in table.pieces:
        if piece.kind is TerrainKind.BLOCKING and piece.rect.crosses(a, b):
            return piece
    return None


def line_of_sight(table: Table, a: Point, b: Point) -> bool:
    return blocker(table, a, b) is None


def seen_by(table: Table, point: Point, eyes: Iterable[Point]) -> list[Point]:
    """The watchers among `eyes` that can see `point`."""
    return [eye for eye in eyes if line_of_sight(table, eye, point)]


def cover_piece(table: Table, firer: Point, target: Point) -> Piece | None:
    """The piece giving the target its best cover from the firer's perspective: one it stands
    in, or one the line of fire crosses that the firer is not standing in. Hard beats soft;
    between equals, the first listed."""
    return _cover_piece(table, firer, target)


@lru_cache(maxsize=200_000)
def _cover_piece(table: Table, firer: Point, target: Point) -> Piece | None:
    best: Piece | None = None
    for piece in table.pieces:
        if piece.kind is TerrainKind.BLOCKING:
            continue
        if piece.rect.contains(target):
            hit = True
        elif piece.rect.contains(firer):
            hit = False
        else:
            hit = piece.rect.crosses(firer, target)
        if hit and (best is None or COVER_RANK[piece.kind] > COVER_RANK[best.kind]):
            best = piece
    return best


def cover(table: Table, firer: Point, target: Point) -> TerrainKind | None:
    """The best cover kind the target has from the firer's perspective (see `cover_piece`)."""
    piece = cover_piece(table, firer, target)
    return piece.kind if piece is not None else None
