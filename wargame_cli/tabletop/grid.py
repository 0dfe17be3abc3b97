"""The table cut into map cells at a scale, as plain values: what each cell shows and why.

The one rule of truth: a piece is drawn in the cell that holds its true position and nowhere
else. When a cell holds two pieces or more, or a piece whose ground is not the ground the cell
is drawn as (a hedge piece in a cell drawn as the barn beside it), the cell shows a mark that
says how many pieces it holds (`*2`: two; `@2`, the next cell of two; `*1`: one) and the map's
legend names who is there; no piece is ever pushed into a neighbouring cell. Drawing
(rich for the screen, prompt_toolkit for the cursor) is `wargame_cli/ui/map.py`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from wargame_cli.tabletop.geometry import Point, Rect
from wargame_cli.tabletop.mapfacts import MapFacts, Marker
from wargame_cli.tabletop.table import Table, TerrainKind, table_cache
from wargame_cli.text import clean

OPEN = ""  # a cell's ground when no terrain holds its centre
GROUND_GLYPH = {
    TerrainKind.BLOCKING.value: "##",
    TerrainKind.HARD.value: "++",
    TerrainKind.SOFT.value: "..",
    OPEN: "  ",
}
GROUND_WORDS = {
    TerrainKind.BLOCKING.value: "blocking",
    TerrainKind.HARD.value: "hard cover",
    TerrainKind.SOFT.value: "soft cover",
    OPEN: "open ground",
}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
MARK_SIGNS = "*@&%=~^$!?"  # a mark's first character: which cell of that many pieces
OVERFLOW_MARK = "**"  # the marks ran out (a map this crowded is drawn at a finer scale)


def mark_for(count: int, n: int) -> str:
    """The mark of the `n`th cell (from 0) holding `count` pieces: a sign, then how many
    (`*2`, `@2`, `*3`; `*+` past 9). A piece's label starts with a letter, so a mark never
    reads as a piece, a casualty (`b2`) or a terrain letter (`a#`)."""
    if n >= len(MARK_SIGNS):
        return OVERFLOW_MARK
    return f"{MARK_SIGNS[n]}{count if count <= 9 else '+'}"


def is_mark(glyph: str) -> bool:
    """Is a cell's glyph a mark (`*2`, `@1`, `**`), named in the legend?"""
    return glyph[:1] in MARK_SIGNS and glyph[1:2] in "123456789+*"


RANK = {OPEN: 0, "soft": 1, "hard": 2, "blocking": 3}  # which ground a cell shows first


def ground(table: Table, p: Point) -> tuple[str, str]:
    """The kind and name of the terrain at `p` (blocking over hard over soft), or open."""
    best: tuple[str, str] = (OPEN, "")
    for piece in table.pieces:
        if piece.rect.contains(p) and RANK[piece.kind.value] > RANK[best[0]]:
            best = (piece.kind.value, piece.name)
    return best


def piece_letters(table: Table) -> dict[str, str]:
    """Each terrain piece's letter on the map and in the legend (the first 26 pieces)."""
    return {piece.name: LETTERS[i] for i, piece in enumerate(table.pieces[: len(LETTERS)])}


def down_glyph(label: str) -> str:
    """A casualty's two characters: its label in small letters (`A2` down reads `a2`), so it
    keeps its side's letter and never reads as standing, without colour."""
    return clean(label)[:2].lower().ljust(2)


def glyph_of(marker: Marker) -> str:
    """The two characters a standing marker shows (its label), or a casualty's."""
    return down_glyph(marker.label) if marker.down else clean(marker.label)[:2].ljust(2)


@dataclass(frozen=True)
class Conflict:
    """A marked cell: its mark, the cell, who is in it and what else competes for it."""

    mark: str
    cell: tuple[int, int]
    who: tuple[Marker, ...]
    ground: str  # the ground the cell is drawn as

    def words(self, table: Table, short: bool = False) -> str:
        """`*1 B5 in Low wall`, `*2 A2 11.5,0.5 + A3 10.5,3.5`; `short` (a crowded coarse
        map): `*2 A2, A3 open`, without the spots (a casualty's small letters say it)."""
        parts = []
        for m in self.who:
            kind, name = ground(table, m.pos)
            where = ""
            if kind != self.ground:
                where = f" in {clean(name)}" if name else (" open" if short else " in the open")
            down = " (down)" if m.down and not short else ""
            if not short and (len(self.who) > 1 or not where):
                spot = f"{m.pos.x:.1f},{m.pos.y:.1f}".replace(".0,", ",").removesuffix(".0")
                where = f" {spot}{where}"
            parts.append(f"{glyph_of(m).strip()}{down}{where}")
        return f"{self.mark} " + (", " if short else " + ").join(parts)


@dataclass
class Grid:
    """The cells of `facts`' table at `sx` x `sy` inches a cell; row 0 is y = 0 (side A's edge,
    drawn at the bottom). `glyphs[row][col]` is what the cell shows."""

    facts: MapFacts
    sx: float
    sy: float
    cols: int
    rows: int
    grounds: list[list[str]] = field(default_factory=list)
    glyphs: list[list[str]] = field(default_factory=list)
    where: dict[int, tuple[int, int]] = field(default_factory=dict)  # marker index: its cell
    drawn: dict[tuple[int, int], Marker] = field(default_factory=dict)  # a cell's one piece
    conflicts: list[Conflict] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)  # terrain letter: piece name, as drawn

    def cell_of(self, p: Point) -> tuple[int, int]:
        """The cell holding `p` (a point on the far edge is in the last cell)."""
        col = min(self.cols - 1, max(0, math.floor(p.x / self.sx + 1e-9)))
        row = min(self.rows - 1, max(0, math.floor(p.y / self.sy + 1e-9)))
        return col, row

    def centre(self, col: int, row: int) -> Point:
        """The spot a cell stands for: its centre, kept on the table."""
        t = self.facts.table
        return Point(
            round(min(t.width, (col + 0.5) * self.sx), 2),
            round(min(t.height, (row + 0.5) * self.sy), 2),
        )

    def mark_of(self, cell: tuple[int, int]) -> Conflict | None:
        return next((c for c in self.conflicts if c.cell == cell), None)

    def kinds_shown(self) -> set[str]:
        return {g for row in self.grounds for g in row}


FINE = 2.25  # a cell of at most this many square inches is drawn as the ground at its centre


def _overlap(rect: Rect, x0: float, y0: float, x1: float, y1: float) -> float:
    """The area `rect` shares with the box (x0, y0)-(x1, y1)."""
    w = min(rect.x1, x1) - max(rect.x0, x0)
    h = min(rect.y1, y1) - max(rect.y0, y0)
    return w * h if w > 1e-6 and h > 1e-6 else 0.0


def _coarse_grounds(table: Table, sx: float, sy: float, cols: int, rows: int) -> list[list[str]]:
    """A coarse cell shows the strongest terrain any part of it holds (blocking over hard
    over soft over open), so no building, wall or wood ever vanishes from a coarse map; then a
    piece hidden everywhere under stronger terrain takes back the cell it covers most whose
    stronger pieces all still show elsewhere (a hedge beside a barn is drawn, the barn too)."""
    covers: dict[tuple[int, int], list[tuple[float, int]]] = {}  # cell: (area, piece index)
    for i, piece in enumerate(table.pieces):
        r = piece.rect
        for row in range(max(0, math.floor(r.y0 / sy)), min(rows, math.ceil(r.y1 / sy))):
            for col in range(max(0, math.floor(r.x0 / sx)), min(cols, math.ceil(r.x1 / sx))):
                area = _overlap(r, col * sx, row * sy, (col + 1) * sx, (row + 1) * sy)
                if area > 0:
                    covers.setdefault((col, row), []).append((area, i))
    kinds = [piece.kind.value for piece in table.pieces]
    found = [[OPEN] * cols for _ in range(rows)]
    for (col, row), held in covers.items():
        found[row][col] = max((kinds[i] for _, i in held), key=RANK.__getitem__)

    def shows(i: int, skip: tuple[int, int]) -> bool:
        return any(
            found[r][c] == kinds[i] and (c, r) != skip and any(j == i for _, j in held)
            for (c, r), held in covers.items()
        )

    for i, kind in enumerate(kinds):
        if shows(i, (-1, -1)):
            continue
        mine = sorted(
            ((area, cell) for cell, held in covers.items() for area, j in held if j == i),
            key=lambda ac: (-ac[0], ac[1][1], ac[1][0]),
        )
        for _, (col, row) in mine:
            stronger = {j for _, j in covers[(col, row)] if RANK[kinds[j]] > RANK[kind]}
            if all(shows(j, (col, row)) for j in stronger):
                found[row][col] = kind
                break
    return found


def _grounds(table: Table, sx: float, sy: float, cols: int, rows: int) -> list[list[str]]:
    """Every cell's ground at a scale, worked out once per table and scale (the terrain
    never moves; the pieces on it are drawn fresh): a fine cell's is the ground at its
    centre, a coarse cell's the strongest any part of it holds (`_coarse_grounds`)."""
    memo = table_cache(table, "map grounds", 32)
    found: list[list[str]] | None = memo.get((sx, sy))
    if found is None:
        if sx * sy <= FINE:
            found = [
                [ground(table, Point((c + 0.5) * sx, (r + 0.5) * sy))[0] for c in range(cols)]
                for r in range(rows)
            ]
        else:
            found = _coarse_grounds(table, sx, sy, cols, rows)
        memo[(sx, sy)] = found
    return found


def cut(facts: MapFacts, sx: float, sy: float, tags: bool = True) -> Grid:
    """The grid of `facts` at `sx` by `sy` inches a cell, every piece in its own cell (and
    with `tags`, each terrain piece's letter)."""
    table = facts.table
    cols = max(1, math.ceil(table.width / sx - 1e-9))
    rows = max(1, math.ceil(table.height / sy - 1e-9))
    grid = Grid(facts, sx, sy, cols, rows)
    grid.grounds = _grounds(table, sx, sy, cols, rows)
    grid.glyphs = [[GROUND_GLYPH[g] for g in row] for row in grid.grounds]
    held: dict[tuple[int, int], list[int]] = {}
    for i, m in enumerate(facts.markers):
        cell = grid.cell_of(m.pos)
        grid.where[i] = cell
        held.setdefault(cell, []).append(i)
    shown = [glyph_of(m) for m in facts.markers]
    twice = {g for g in shown if shown.count(g) > 1}
    marked: dict[int, int] = {}  # how many pieces: the cells so marked so far
    for cell in sorted(held, key=lambda cr: (-cr[1], cr[0])):  # read as the map: top row first
        col, row = cell
        who = [facts.markers[i] for i in held[cell]]
        drawn = grid.grounds[row][col]
        alone = len(who) == 1 and shown[held[cell][0]] not in twice
        if alone and ground(table, who[0].pos)[0] == drawn:
            grid.glyphs[row][col] = shown[held[cell][0]]
            grid.drawn[cell] = who[0]
            continue
        mark = mark_for(len(who), marked.get(len(who), 0))  # it says how many it holds
        marked[len(who)] = marked.get(len(who), 0) + 1
        grid.glyphs[row][col] = mark
        order = sorted(who, key=lambda m: (m.down, m.side, m.label))
        grid.conflicts.append(Conflict(mark, cell, tuple(order), drawn))
    if tags:
        _tag(grid, set(held))
    return grid


def _covers(grid: Grid, rect: Rect, col: int, row: int) -> bool:
    """Does `rect` hold the cell's ground: its centre on a fine map, any part of it on a
    coarse one (as `_grounds` draws them)."""
    sx, sy = grid.sx, grid.sy
    if sx * sy <= FINE:
        return rect.contains(Point((col + 0.5) * sx, (row + 0.5) * sy))
    return _overlap(rect, col * sx, row * sy, (col + 1) * sx, (row + 1) * sy) > 0


def _tag(grid: Grid, taken: set[tuple[int, int]]) -> None:
    """Each terrain piece's letter in the top-left cell drawn as its kind that it covers and
    no piece stands in (none when the piece shows no such cell at this scale)."""
    table = grid.facts.table
    letters = piece_letters(table)
    used: set[tuple[int, int]] = set()
    for piece in table.pieces:
        if piece.name not in letters:
            continue
        r = piece.rect
        spot = None
        top = min(grid.rows - 1, math.floor(r.y1 / grid.sy))
        cols = range(max(0, math.floor(r.x0 / grid.sx)), min(grid.cols, math.ceil(r.x1 / grid.sx)))
        for row in range(top, max(-1, math.floor(r.y0 / grid.sy) - 1), -1):
            for col in cols:
                if (
                    (col, row) not in taken
                    and (col, row) not in used
                    and _covers(grid, r, col, row)
                    and grid.grounds[row][col] == piece.kind.value
                ):
                    spot = (col, row)
                    break
            if spot is not None:
                break
        if spot is not None:
            col, row = spot
            used.add(spot)
            letter = letters[piece.name]
            grid.glyphs[row][col] = letter + GROUND_GLYPH[piece.kind.value][1]
            grid.tags[letter] = piece.name
