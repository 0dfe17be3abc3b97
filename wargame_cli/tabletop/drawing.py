"""Tables drawn as text, one character per inch: for tests, examples and quick scenarios.

    ~~~..#..     north (high y) at the top, like the map view
    .F~..#.T     '.' open ground, '#' blocking, '+' hard cover, '~' soft cover,
    ~~~..#..     a letter or digit: a miniature at the centre of that cell

A miniature drawn between two cells of the same terrain (`+T+`) stands in that terrain;
otherwise its cell is open ground. Cells of one kind are merged into rectangles (runs along a
row, then equal runs in consecutive rows), named like "hard 1".
"""

from __future__ import annotations

import textwrap

from wargame_cli.tabletop.geometry import Point, Rect
from wargame_cli.tabletop.table import Piece, Table, TerrainKind

KINDS = {"#": TerrainKind.BLOCKING, "+": TerrainKind.HARD, "~": TerrainKind.SOFT}
OPEN = "."
WORD = {TerrainKind.BLOCKING: "block", TerrainKind.HARD: "hard", TerrainKind.SOFT: "soft"}


def _terrain_row(line: str) -> list[str]:
    """Each cell's terrain character, miniatures resolved to what they stand in."""
    out = []
    for i, ch in enumerate(line):
        if ch in KINDS or ch == OPEN:
            out.append(ch)
            continue
        left = line[i - 1] if i > 0 else OPEN
        right = line[i + 1] if i + 1 < len(line) else OPEN
        out.append(left if left == right and left in KINDS else OPEN)
    return out


def from_drawing(drawing: str, name: str = "drawn table") -> tuple[Table, dict[str, Point]]:
    """The table and the miniatures' positions (by their character) of a drawing."""
    lines = [line.rstrip() for line in textwrap.dedent(drawing).strip("\n").splitlines()]
    height, width = len(lines), max(len(line) for line in lines)
    lines = [line.ljust(width, OPEN) for line in lines]
    runs: list[tuple[int, int, int, str]] = []  # (x0, x1, y, kind char), y counted from south
    positions: dict[str, Point] = {}
    for row, line in enumerate(lines):
        y = height - 1 - row
        terrain = _terrain_row(line)
        x = 0
        while x < width:
            ch = terrain[x]
            end = x
            while end < width and terrain[end] == ch:
                end += 1
            if ch in KINDS:
                runs.append((x, end, y, ch))
            x = end
        for x, ch in enumerate(line):
            if ch not in KINDS and ch != OPEN and not ch.isspace():
                if ch in positions:
                    raise ValueError(f"miniature {ch!r} is drawn twice")
                positions[ch] = Point(x + 0.5, y + 0.5)
    rects: list[tuple[Rect, str]] = []
    for x0, x1, y, ch in sorted(runs, key=lambda r: (r[0], r[1], r[3], r[2])):
        last = rects[-1] if rects else None
        if last and last[1] == ch and (last[0].x0, last[0].x1, last[0].y1) == (x0, x1, y):
            rects[-1] = (Rect(x0, last[0].y0, x1, y + 1), ch)
        else:
            rects.append((Rect(x0, y, x1, y + 1), ch))
    counts: dict[TerrainKind, int] = {}
    pieces = []
    for rect, ch in sorted(rects, key=lambda r: (-r[0].y1, r[0].x0)):
        kind = KINDS[ch]
        counts[kind] = counts.get(kind, 0) + 1
        pieces.append(Piece(f"{WORD[kind]} {counts[kind]}", kind, rect))
    return Table(float(width), float(height), tuple(pieces), name), positions
