"""Line of sight and cover, computed from the terrain the same way for every ruleset.

Sight runs between base centres and only blocking terrain stops it (miniatures and cover do
not). A miniature is *in* a piece when its centre is.
"""

from __future__ import annotations

from collections.abc import Iterable

from wargame_cli.tabletop.geometry import EPS, Point, segment_crosses
from wargame_cli.tabletop.table import Piece, Table, TerrainKind, table_cache

COVER_RANK = {TerrainKind.HARD: 2, TerrainKind.SOFT: 1}


SIGHT_CACHE = 100_000  # sight lines remembered per table (cleared when full)
_MISSING = object()


def blocker(table: Table, a: Point, b: Point) -> Piece | None:
    """The first blocking piece the line between two centres passes through, if any."""
    ax, ay, bx, by = a.x, a.y, b.x, b.y
    memo = table.memos.get("blocker")
    if memo is None:
        memo = table_cache(table, "blocker", SIGHT_CACHE)
    key = (ax, ay, bx, by)
    found = memo.get(key, _MISSING)
    if found is _MISSING:
        if len(memo) >= SIGHT_CACHE:
            memo.clear()
        found = memo[key] = _first_blocker(table, ax, ay, bx, by)
    return found


def _first_blocker(table: Table, ax: float, ay: float, bx: float, by: float) -> Piece | None:
    """`blocker` worked out, on plain numbers."""
    pieces = table.memos.get("blocking")
    for piece, x0, y0, x1, y1 in pieces["all"] if pieces else _blocking(table):
        if (ax < x0 and bx < x0) or (ax > x1 and bx > x1):
            continue  # wholly beside the piece: it cannot cross it
        if (ay < y0 and by < y0) or (ay > y1 and by > y1):
            continue
        if segment_crosses(x0, y0, x1, y1, ax, ay, bx, by):
            return piece
    return None


def _blocking(table: Table) -> tuple[tuple[Piece, float, float, float, float], ...]:
    """The blocking pieces with their corners, worked out once per table."""
    memo = table_cache(table, "blocking", 2)
    found = memo.get("all")
    if found is None:
        found = memo["all"] = tuple(
            (p, p.rect.x0, p.rect.y0, p.rect.x1, p.rect.y1)
            for p in table.pieces
            if p.kind is TerrainKind.BLOCKING
        )
    return found


def line_of_sight(table: Table, a: Point, b: Point) -> bool:
    return blocker(table, a, b) is None


def line_of_sight_once(table: Table, a: Point, b: Point) -> bool:
    """`line_of_sight` without remembering the answer: for sweeps over many lines that are
    asked once (a table's cells against the far half), which would only crowd the memo."""
    return _first_blocker(table, a.x, a.y, b.x, b.y) is None


def seen_by(table: Table, point: Point, eyes: Iterable[Point]) -> list[Point]:
    """The watchers among `eyes` that can see `point`."""
    return [eye for eye in eyes if line_of_sight(table, eye, point)]


def cover_piece(table: Table, firer: Point, target: Point) -> Piece | None:
    """The piece giving the target its best cover from the firer's perspective: one it stands
    in, or one the line of fire crosses that the firer is not standing in. Hard beats soft;
    between equals, the first listed."""
    memo = table.memos.get("cover")
    if memo is None:
        memo = table_cache(table, "cover", SIGHT_CACHE)
    key = (firer.x, firer.y, target.x, target.y)
    found = memo.get(key, _MISSING)
    if found is _MISSING:
        if len(memo) >= SIGHT_CACHE:
            memo.clear()
        found = memo[key] = _cover_piece(table, firer, target)
    return found


def _cover_piece(table: Table, firer: Point, target: Point) -> Piece | None:
    """`cover_piece` worked out: on plain numbers, with `Rect.contains` and `Rect.crosses`'
    arithmetic, and pieces wholly beside the line of fire passed over (neither end within
    the tests' slack of them: neither stands in them nor does the line cross them)."""
    best: Piece | None = None
    fx, fy, tx, ty = firer.x, firer.y, target.x, target.y
    best_rank = 0
    for piece, rank, x0, y0, x1, y1 in _covering(table):
        if (fx < x0 - EPS and tx < x0 - EPS) or (fx > x1 + EPS and tx > x1 + EPS):
            continue
        if (fy < y0 - EPS and ty < y0 - EPS) or (fy > y1 + EPS and ty > y1 + EPS):
            continue
        if x0 - EPS <= tx <= x1 + EPS and y0 - EPS <= ty <= y1 + EPS:
            hit = True
        elif x0 - EPS <= fx <= x1 + EPS and y0 - EPS <= fy <= y1 + EPS:
            hit = False
        else:
            hit = segment_crosses(x0, y0, x1, y1, fx, fy, tx, ty)
        if hit and (best is None or rank > best_rank):
            best, best_rank = piece, rank
    return best


def _covering(
    table: Table,
) -> tuple[tuple[Piece, int, float, float, float, float], ...]:
    """The pieces that give cover, in the table's order, with their rank and corners."""
    memo = table_cache(table, "covering", 2)
    found = memo.get("all")
    if found is None:
        found = memo["all"] = tuple(
            (p, COVER_RANK[p.kind], p.rect.x0, p.rect.y0, p.rect.x1, p.rect.y1)
            for p in table.pieces
            if p.kind is not TerrainKind.BLOCKING
        )
    return found


def cover(table: Table, firer: Point, target: Point) -> TerrainKind | None:
    """The best cover kind the target has from the firer's perspective (see `cover_piece`)."""
    piece = cover_piece(table, firer, target)
    return piece.kind if piece is not None else None
