"""The table as a terminal map (rich): terrain shaded by kind, each terrain piece tagged with a
lowercase letter in its top-left cell, each miniature a short label in its side's colour, and a
legend naming the pieces by their letters. Rulesets add their own roster tables beside it."""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from wargame_cli.tabletop.grid import cut, glyph_of, piece_letters
from wargame_cli.tabletop.mapfacts import MapFacts, Marker
from wargame_cli.tabletop.table import Table, TerrainKind
from wargame_cli.text import SIDE_STYLE, clean
from wargame_cli.ui.map import cell_text

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


DOWN_GLYPH = "a1"  # a casualty's label: its own in small letters, so it never reads as standing


def shown_label(marker: Marker) -> str:
    """The two characters a marker shows (the one map's: `wargame_cli/tabletop/grid.py`)."""
    return glyph_of(marker)


def marker_style(marker: Marker, terrain_style: str = "") -> str:
    """The side's colour (dim when down) on the terrain's background: a piece in terrain
    keeps its side colour."""
    style = "dim" if marker.down else SIDE_STYLE.get(marker.side, "bold")
    if marker.contact and not marker.down:
        style += " underline"
    if " on " in terrain_style:
        style += " on " + terrain_style.split(" on ")[-1]
    return style


def table_map(
    table: Table,
    markers: list[Marker],
    title: str = "",
    scale: tuple[float, float] = (1.0, 1.0),
    ruler: bool = True,
) -> Panel:
    """Side A's edge at the bottom; a row per `scale[1]` inches, two characters per
    `scale[0]` inches, each piece in the cell of its true position (the one map's cells,
    `wargame_cli/tabletop/grid.py`): a cell two pieces share, or a piece and terrain it is not
    in, shows a mark, named under the map."""
    sx, sy = scale
    grid = cut(MapFacts(table, tuple(markers)), sx, sy)
    text = Text()
    for row in range(grid.rows - 1, -1, -1):
        text.append(f"{row * sy:>3g} " if ruler else "", style="dim")
        for col in range(grid.cols):
            text.append_text(cell_text(grid, col, row))
        if row:
            text.append("\n")
    if ruler:
        text.append("\n    ")
        for col in range(grid.cols):
            text.append(f"{col * sx:<2g}" if col % 2 == 0 else "  ", style="dim")
    if grid.conflicts:  # one paragraph, wrapped at the frame
        text.append("\n" + "  ".join(c.words(table) for c in grid.conflicts), style="bold")
    # the frame as wide as the map; the marks' paragraph wraps inside it
    width = max(len(line) for line in text.plain.split("\n")[: grid.rows + int(ruler)])
    return Panel(
        text,
        title=clean(title) or f'{table.width:g}"x{table.height:g}" table',
        expand=False,
        width=width + 4 if grid.conflicts else None,
    )


COMPACT_ROWS = 6  # map rows in a compact board: with its frame, 8 lines (room for long menus)
COMPACT_COLS = 36  # two characters each: the framed map fits 80 columns with room to spare


def compact_map(
    table: Table, markers: list[Marker], title: str = "", rows: int = COMPACT_ROWS
) -> Panel:
    """The table at a coarser scale (no ruler): at most `rows` rows, cells at least an inch
    wide, drawn by the same rule of truth."""
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
        words.append(f"{DOWN_GLYPH}: small letters, a casualty")
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
