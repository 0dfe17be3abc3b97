"""The table as a terminal map (rich): terrain shaded by kind, each miniature a short label in
its side's colour, and a legend. Rulesets add their own roster tables beside it."""

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


def table_map(table: Table, markers: list[Marker], title: str = "") -> Panel:
    """Side A's edge at the bottom; one row per inch, two characters per inch."""
    cols, rows = math.ceil(table.width), math.ceil(table.height)
    placed = place_markers(markers, cols, rows)
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
            else:
                text.append(cell, style=style)
        text.append("\n")
    text.append("    ")
    for col in range(cols):
        text.append(f"{col:<2}" if col % 2 == 0 else "  ", style="dim")
    return Panel(
        text, title=clean(title) or f'{table.width:g}"x{table.height:g}" table', expand=False
    )


def legend(markers: list[Marker]) -> RichTable:
    grid = RichTable.grid(padding=(0, 2))
    grid.add_row(
        Text("##", style=TERRAIN_CELL[TerrainKind.BLOCKING][1]),
        "blocking (no sight, no entry)",
    )
    grid.add_row(Text("++", style=TERRAIN_CELL[TerrainKind.HARD][1]), "cover from fire (hard)")
    grid.add_row(Text("..", style=TERRAIN_CELL[TerrainKind.SOFT][1]), "cover from view (soft)")
    for marker in markers:
        style = "dim strike" if marker.down else SIDE_STYLE.get(marker.side, "bold")
        grid.add_row(
            Text(clean(marker.label)[:2], style=style),
            Text(f"{clean(marker.name)} ({marker.pos.key()})"),
        )
    return grid


def board(table: Table, markers: list[Marker], title: str = "") -> Group:
    return Group(table_map(table, markers, title), legend(markers))
