"""The table as a terminal map (rich): terrain shaded by kind, each terrain piece tagged with a
lowercase letter in its top-left cell, each miniature a short label in its side's colour, and a
legend naming the pieces by their letters. Rulesets add their own roster tables beside it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from rich.console import Group
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.table import Table, TerrainKind
from wargame_cli.ui.text import SIDE_STYLE, clean

TERRAIN_CELL = {
    TerrainKind.BLOCKING: ("##", "grey70 on grey30"),
    TerrainKind.HARD: ("++", "yellow on grey19"),
    TerrainKind.SOFT: ("..", "green on grey11"),
}
OPEN_CELL = ("  ", "")
KIND_WORDS = {
    TerrainKind.BLOCKING: "blocking (no sight, no entry)",
    TerrainKind.HARD: "cover from fire (hard)",
    TerrainKind.SOFT: "cover from view (soft)",
}
LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class Marker:
    """One miniature on the map: a two-character label, where it stands, whose it is."""

    label: str
    pos: Point
    side: str
    name: str
    down: bool = False


def _terrain(table: Table, centre: Point) -> tuple[str, str]:
    best = OPEN_CELL
    for piece in table.pieces:
        if piece.rect.contains(centre):
            cell = TERRAIN_CELL[piece.kind]
            if piece.kind is TerrainKind.BLOCKING:
                return cell
            if best is OPEN_CELL or piece.kind is TerrainKind.HARD:
                best = cell
    return best


def place_markers(markers: list[Marker], cols: int, rows: int) -> dict[tuple[int, int], Marker]:
    """One map cell per marker: its own cell, or the nearest free one when two bases share a
    cell (standing miniatures first, so a casualty never hides one)."""
    placed: dict[tuple[int, int], Marker] = {}
    for marker in sorted(markers, key=lambda m: m.down):
        col = min(cols - 1, max(0, int(marker.pos.x)))
        row = min(rows - 1, max(0, int(marker.pos.y)))
        free = [
            (c, r)
            for r in range(row - 2, row + 3)
            for c in range(col - 2, col + 3)
            if 0 <= c < cols and 0 <= r < rows and (c, r) not in placed
        ]
        if free:
            cell = min(free, key=lambda cr: (abs(cr[0] - col) + abs(cr[1] - row), cr[1], cr[0]))
            placed[cell] = marker
    return placed


def piece_letters(table: Table) -> dict[str, str]:
    """Each terrain piece's letter on the map and in the legend (the first 26 pieces)."""
    return {piece.name: LETTERS[i] for i, piece in enumerate(table.pieces[: len(LETTERS)])}


def _tag_cells(
    table: Table, cols: int, rows: int, taken: set[tuple[int, int]]
) -> dict[tuple[int, int], str]:
    """Where each piece's letter goes: its top-left cell drawn with its own kind that no
    miniature stands on (none if the piece shows no such cell)."""
    letters = piece_letters(table)
    tags: dict[tuple[int, int], str] = {}
    for piece in table.pieces:
        if piece.name not in letters:
            continue
        r = piece.rect
        for row in range(min(rows, math.ceil(r.y1)) - 1, max(0, math.floor(r.y0)) - 1, -1):
            cells = range(max(0, math.floor(r.x0)), min(cols, math.ceil(r.x1)))
            spot = next(
                (
                    (col, row)
                    for col in cells
                    if (col, row) not in taken
                    and (col, row) not in tags
                    and r.contains(Point(col + 0.5, row + 0.5))
                    and _terrain(table, Point(col + 0.5, row + 0.5)) == TERRAIN_CELL[piece.kind]
                ),
                None,
            )
            if spot is not None:
                tags[spot] = letters[piece.name]
                break
    return tags


def table_map(table: Table, markers: list[Marker], title: str = "") -> Panel:
    """Side A's edge at the bottom; one row per inch, two characters per inch."""
    cols, rows = math.ceil(table.width), math.ceil(table.height)
    placed = place_markers(markers, cols, rows)
    tags = _tag_cells(table, cols, rows, set(placed))
    text = Text()
    for row in range(rows - 1, -1, -1):
        text.append(f"{row:>3} ", style="dim")
        for col in range(cols):
            marker = placed.get((col, row))
            cell, style = _terrain(table, Point(col + 0.5, row + 0.5))
            if marker is not None:
                label = clean(marker.label)[:2].ljust(2)
                mstyle = "dim strike" if marker.down else SIDE_STYLE.get(marker.side, "bold")
                text.append(
                    label,
                    style=f"{mstyle} {style.split(' on ')[-1]}" if " on " in style else mstyle,
                )
            elif (col, row) in tags:
                text.append(tags[(col, row)] + cell[1], style=f"bold {style}")
            else:
                text.append(cell, style=style)
        text.append("\n")
    text.append("    ")
    for col in range(cols):
        text.append(f"{col:<2}" if col % 2 == 0 else "  ", style="dim")
    return Panel(
        text, title=clean(title) or f'{table.width:g}"x{table.height:g}" table', expand=False
    )


def legend(markers: list[Marker], table: Table | None = None) -> RichTable:
    """The terrain kinds (with the lettered pieces of `table`, if given), then `markers`."""
    grid = RichTable.grid(padding=(0, 2))
    letters = piece_letters(table) if table is not None else {}
    for kind, (cell, style) in TERRAIN_CELL.items():
        line = Text(KIND_WORDS[kind])
        named = [
            f"{letters[p.name]} {clean(p.name)}"
            for p in (table.pieces if table is not None else ())
            if p.kind is kind and p.name in letters
        ]
        if named:
            line.append(": " + ", ".join(named), style="dim")
        grid.add_row(Text(cell, style=style), line)
    for marker in markers:
        style = "dim strike" if marker.down else SIDE_STYLE.get(marker.side, "bold")
        grid.add_row(
            Text(clean(marker.label)[:2], style=style),
            Text(f"{clean(marker.name)} ({marker.pos.key()})"),
        )
    return grid


def board(table: Table, markers: list[Marker], title: str = "") -> Group:
    return Group(table_map(table, markers, title), legend(markers, table))
