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
from wargame_cli.text import SIDE_STYLE, clean

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
    contact: bool = False  # in base contact with an enemy: underlined, and `>` in the legend


DOWN_GLYPH = "x"  # a casualty's label: "x" and its number, so it never reads as standing


def shown_label(marker: Marker) -> str:
    """The two characters a marker shows: its label, or `x` and its number when it is down
    (readable without colour or strike-through)."""
    label = clean(marker.label)[:2]
    if marker.down:
        label = DOWN_GLYPH + label[-1:]
    return label.ljust(2)


def marker_style(marker: Marker, terrain_style: str = "") -> str:
    """The side's colour (dim and struck through when down) on the terrain's background: a
    piece in terrain keeps its side colour."""
    style = "dim strike" if marker.down else SIDE_STYLE.get(marker.side, "bold")
    if marker.contact and not marker.down:
        style += " underline"
    if " on " in terrain_style:
        style += " on " + terrain_style.split(" on ")[-1]
    return style


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


def place_markers(
    markers: list[Marker], cols: int, rows: int, scale: tuple[float, float] = (1.0, 1.0)
) -> dict[tuple[int, int], Marker]:
    """One map cell per marker (a cell is `scale` inches across and high): its own cell, or,
    when bases share a cell, the free cell nearest its true position, so two bases keep their
    relative order (standing miniatures first, so a casualty never hides one)."""
    placed: dict[tuple[int, int], Marker] = {}
    sx, sy = scale
    for marker in sorted(markers, key=lambda m: (m.down, m.pos.y, m.pos.x)):
        x, y = marker.pos.x / sx, marker.pos.y / sy
        col = min(cols - 1, max(0, int(x)))
        row = min(rows - 1, max(0, int(y)))
        free = [
            (c, r)
            for r in range(row - 2, row + 3)
            for c in range(col - 2, col + 3)
            if 0 <= c < cols and 0 <= r < rows and (c, r) not in placed
        ]
        if (col, row) in placed and not placed[(col, row)].down and not marker.down:
            # two bases in one cell: the one nearer the cell's centre keeps it
            other = placed[(col, row)]
            ox, oy = other.pos.x / sx, other.pos.y / sy
            centre = (col + 0.5, row + 0.5)
            if (x - centre[0]) ** 2 + (y - centre[1]) ** 2 < (ox - centre[0]) ** 2 + (
                oy - centre[1]
            ) ** 2:
                del placed[(col, row)]
                placed[(col, row)] = marker
                marker, x, y = other, ox, oy
                free = [cr for cr in free if cr != (col, row)]
        if free:
            cell = min(
                free,
                key=lambda cr: (
                    round((cr[0] + 0.5 - x) ** 2 + (cr[1] + 0.5 - y) ** 2, 6),
                    cr[1],
                    cr[0],
                ),
            )
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


def table_map(
    table: Table,
    markers: list[Marker],
    title: str = "",
    scale: tuple[float, float] = (1.0, 1.0),
    ruler: bool = True,
) -> Panel:
    """Side A's edge at the bottom; a row per `scale[1]` inches, two characters per
    `scale[0]` inches (one inch each unless a compact map asks for coarser cells)."""
    sx, sy = scale
    cols, rows = math.ceil(table.width / sx - 1e-9), math.ceil(table.height / sy - 1e-9)
    placed = place_markers(markers, cols, rows, scale)
    tags = _tag_cells(table, cols, rows, set(placed)) if scale == (1.0, 1.0) else {}
    text = Text()
    for row in range(rows - 1, -1, -1):
        text.append(f"{row * sy:>3g} " if ruler else "", style="dim")
        for col in range(cols):
            marker = placed.get((col, row))
            cell, style = _terrain(table, Point((col + 0.5) * sx, (row + 0.5) * sy))
            if marker is not None:
                # the ground it stands on (a coarse cell can mix open ground and terrain)
                ground = _terrain(table, marker.pos)[1] if scale != (1.0, 1.0) else style
                text.append(shown_label(marker), style=marker_style(marker, ground))
            elif (col, row) in tags:
                text.append(tags[(col, row)] + cell[1], style=f"bold {style}")
            else:
                text.append(cell, style=style)
        if row:
            text.append("\n")
    if ruler:
        text.append("\n    ")
        for col in range(cols):
            text.append(f"{col * sx:<2g}" if col % 2 == 0 else "  ", style="dim")
    return Panel(
        text, title=clean(title) or f'{table.width:g}"x{table.height:g}" table', expand=False
    )


COMPACT_ROWS = 6  # map rows in a compact board: with its frame, 8 lines (room for long menus)
COMPACT_COLS = 36  # two characters each: the framed map fits 80 columns with room to spare


def compact_map(
    table: Table, markers: list[Marker], title: str = "", rows: int = COMPACT_ROWS
) -> Panel:
    """The table at a coarser scale (no ruler): at most `rows` rows, cells at least an inch
    wide, the same labels and terrain shading."""
    sy = max(1.0, table.height / rows)
    sx = max(1.0, sy / 4, table.width / COMPACT_COLS)
    return table_map(table, markers, title, scale=(sx, sy), ruler=False)


def one_line(parts: list[Text]) -> Text:
    """Short summaries (one per side) on one line, wrapping only where the terminal ends."""
    line = Text()
    for i, part in enumerate(parts):
        if i:
            line.append("  |  ", style="dim")
        line.append_text(part)
    return line


def map_key(markers: list[Marker]) -> list[Text]:
    """A short line for a compact map saying what its marks mean (the side letter starts every
    label), or nothing when no mark needs a word."""
    words = ["A1, B1: side and number"]
    if any(m.contact and not m.down for m in markers):
        words.append("underlined: in base contact")
    if any(m.down for m in markers):
        words.append(f"{DOWN_GLYPH}1: a casualty")
    return [Text("; ".join(words), style="dim")] if len(words) > 1 else []


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
        grid.add_row(
            Text(shown_label(marker), style=marker_style(marker)),
            Text(f"{clean(marker.name)} ({marker.pos.key()})"),
        )
    return grid


def board(table: Table, markers: list[Marker], title: str = "") -> Group:
    return Group(table_map(table, markers, title), legend(markers, table))
