"""The one map: a ruleset's `MapFacts` drawn at any scale, sized to the rows and columns given.

Every map has its title, the table edges (who deploys where), axes in inches, a key for every
glyph it shows and a legend line for every marked cell (see `wargame_cli/tabletop/grid.py` for
what a cell shows). A drawing is rows of `(class, text)` parts, so the same drawing becomes
rich text for the decision screen and prompt_toolkit text for the cursor (`ui/cursor.py`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rich.color import ColorSystem
from rich.style import Style
from rich.text import Text

from wargame_cli.tabletop.grid import (
    GROUND_GLYPH,
    GROUND_WORDS,
    OPEN,
    Grid,
    cut,
    glyph_of,
    is_mark,
)
from wargame_cli.tabletop.mapfacts import MapFacts, Marker
from wargame_cli.text import clean

# the inches a cell may stand for, finest first (a cell is two characters wide, one row high);
# each cell's edge reads in at most four characters on a table up to 99" (`22.8`, not `23.75`)
SCALES = (0.5, 1.0, 1.2, 1.5, 2.0, 2.4, 3.0, 4.0, 6.0, 8.0, 12.0, 24.0, 48.0)
MIN_GRID_ROWS = 3  # never coarser than this many rows of cells (a map must show a place)
RULER = 5  # the y axis: four characters and a bar
ALLOWED = "·"  # the first character of a cell the question allows (cursor only)
LINE_GLYPH = "--"  # a cell the line of fire crosses (cursor only)
MIN_BESIDE = 24  # columns the key needs to sit beside the cells

Part = tuple[str, str]  # a class (a key of RICH_STYLE) and its text

RICH_STYLE = {
    "": "",
    "dim": "dim",
    "title": "bold",
    "blocking": "grey70 on grey30",
    "hard": "yellow on grey19",
    "soft": "green on grey11",
    "blocking-under": "on grey30",  # a piece's own colour on the ground it stands on
    "hard-under": "on grey19",
    "soft-under": "on grey11",
    "tag": "bold",
    "A": "bold cyan",
    "B": "bold red",
    "down": "dim",
    "contact": "underline",
    "mark": "bold magenta",
    "allowed": "bold green",
    "cursor": "reverse bold",
    "line": "bold yellow",
}


@dataclass
class Drawing:
    """A map as rows of parts; the grid's cells start at row `top`, column `RULER`."""

    grid: Grid
    rows: list[list[Part]] = field(default_factory=list)
    top: int = 0
    named: int = 0  # the lines naming the pieces (`who_items`) it has room for
    unnamed: int = 0  # the pieces left out (`+N more (Look…)`)
    height: int = 0  # the rows it takes (drawn or not: `draw(measure=True)`)
    beside: bool = False  # its key sits beside the cells

    def ansi(self, width: int, color_system: str | None, no_color: bool = False) -> list[str]:
        """The rows as ANSI lines, cut at `width` (each part's escape codes made once: a map
        is redrawn after every move, and rich's text rendering costs tens of milliseconds)."""
        lines = []
        for row in self.rows:
            room, line = width, []
            for cls, text in row:
                text = text[: max(0, room)]
                room -= len(text)
                if text:
                    line.append(ansi(cls, text, color_system or "", no_color))
            lines.append("".join(line))
        return lines

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        for i, row in enumerate(self.rows):
            if i:
                out.append("\n")
            for cls, text in row:
                out.append(text, style=rich_style(cls))
        return out


def cell_parts(
    grid: Grid, col: int, row: int, allowed: bool, cursor: bool, line: bool = False
) -> Part:
    """A cell's two characters and classes: a mark, a piece, a terrain letter or the ground
    (`allowed` and `line`, a line of fire, show on a cell with no piece; `cursor` on any)."""
    glyph = grid.glyphs[row][col]
    kind = grid.grounds[row][col]
    classes = []
    marker = grid.drawn.get((col, row))
    if marker is None and is_mark(glyph):
        classes.append("mark")
    elif marker is not None:
        classes.append("down" if marker.down else marker.side)
        if marker.contact and not marker.down:
            classes.append("contact")
    elif glyph != GROUND_GLYPH[kind]:
        classes.append("tag")
    elif line:
        glyph = LINE_GLYPH
        classes.append("line")
    elif allowed:
        glyph = ALLOWED + glyph[1]
        classes.append("allowed")
    if kind != OPEN:
        classes.append(kind + "-under" if marker is not None else kind)
    if cursor:
        classes.append("cursor")
        if marker is None and not is_mark(glyph):
            glyph = "[]"
    return (" ".join(classes), glyph)


@lru_cache(maxsize=4096)
def ansi(classes: str, text: str, color_system: str, no_color: bool = False) -> str:
    """`text` in the classes' style, as the terminal's colour system writes it."""
    style = Style.parse(rich_style(classes) or "none")
    if no_color:
        style = style.without_color
    return style.render(text, color_system=_systems().get(color_system))


@lru_cache(maxsize=1)
def _systems() -> dict[str, ColorSystem]:
    return {
        "standard": ColorSystem.STANDARD,
        "256": ColorSystem.EIGHT_BIT,
        "truecolor": ColorSystem.TRUECOLOR,
        "windows": ColorSystem.WINDOWS,
    }


def rich_style(classes: str) -> str:
    return " ".join(RICH_STYLE.get(c, "") for c in classes.split())


def cell_text(grid: Grid, col: int, row: int) -> Text:
    """One cell as rich text (a board's map draws its cells with it)."""
    classes, glyph = cell_parts(grid, col, row, False, False)
    return Text(glyph, style=rich_style(classes))


def _number(value: float) -> str:
    return f"{value:g}"


def _y_axis(grid: Grid, row: int) -> str:
    return f"{_number(row * grid.sy):>4}|"


def label_step(sx: float, cols: int) -> int:
    """Cells between two column labels: evenly spaced, never touching, and on whole inches
    where a step up to twice the least allows it (2.4" cells: every 5, 0 12 24, not 0 4.8 12)."""
    widest = max(len(_number(col * sx)) for col in range(max(1, cols)))
    least = max(1, -(-(widest + 1) // 2))  # two characters a cell, a space between labels
    for step in range(least, 2 * least + 1):
        if abs(step * sx - round(step * sx)) < 1e-9:
            return step
    return least


def _x_axis(grid: Grid) -> str:
    """Column labels (each cell's west edge, in inches), evenly spaced (`label_step`)."""
    line = [" "] * (grid.cols * 2)
    step = label_step(grid.sx, grid.cols)
    for col in range(0, grid.cols, step):
        label = _number(col * grid.sx)
        at = col * 2
        if at + len(label) <= len(line):
            line[at : at + len(label)] = list(label)
    return " " * (RULER - 1) + "+" + "".join(line).rstrip()


def _pack(items: Iterable[str], width: int, lead: str = "") -> list[str]:
    """Items joined by two spaces, as few lines as fit `width`; an item never splits across
    lines unless it alone is wider than a line, and then at its words (never mid-word)."""
    lines: list[str] = []
    line = lead
    for item in items:
        if line and line != lead and len(line) + 2 + len(item) > width:
            lines.append(line)
            line = "  " + item
        else:
            line = f"{line}  {item}" if line and line != lead else line + item
        while len(line) > width and " " in line.strip():
            cut = line.rfind(" ", 0, width + 1)
            if cut <= len(line) - len(line.lstrip()) + 2:
                break
            lines.append(line[:cut].rstrip())
            line = "    " + line[cut:].lstrip()
    if line:
        lines.append(line)
    return lines


def _edge_words(facts: MapFacts, edge: str) -> str:
    zones = [z for z in facts.zones if z.edge == edge]
    words = ", ".join(f"{z.side} {clean(facts.side_name(z.side))}" for z in zones)
    return f"{edge} edge" + (f": {words}" if words else "")


def key_items(grid: Grid, short: bool = False) -> list[str]:
    """What every glyph on this map means: terrain kinds and letters, each side's labels,
    casualties, contact and marks, and how each side deploys (`short`: only for a zone
    away from the edges, whose edges the map's edge lines name)."""
    facts = grid.facts
    kinds = grid.kinds_shown()
    items = [
        f"{GROUND_GLYPH[k]} {facts.ground_word(k, GROUND_WORDS[k])}"
        for k in ("blocking", "hard", "soft")
        if k in kinds
    ]
    for letter, name in sorted(grid.tags.items()):
        items.append(f"{letter} {clean(name)}")
    for side in sorted({m.side for m in facts.markers}):
        standing = [m for m in facts.markers if m.side == side and not m.down]
        if standing:
            items.append(f"{glyph_of(standing[0]).strip()}: {clean(facts.side_name(side))}")
    downs = [m for m in facts.markers if m.down]
    if downs:
        items.append(f"{glyph_of(downs[0]).strip()}: small letters, a casualty")
    if any(m.contact and not m.down for m in facts.markers):
        items.append("underlined: in base contact")
    said = {clean(z.words) for z in facts.zones if z.words}
    for z in facts.zones:  # how each side deploys (once, when both sides deploy alike)
        if (short and z.edge) or not z.words:  # nothing to say (deployment is over)
            continue
        if len(said) > 1 or z is facts.zones[0]:
            items.append((f"{z.side} " if len(said) > 1 else "") + clean(z.words))
    return items


def who_items(facts: MapFacts, first: Iterable[str] = ()) -> list[str]:
    """Which label is which piece (`A1 Sgt Rook`): the piece the question is about first,
    then those named in `first` in its order (the question's, then the latest results'),
    then the rest in their order; a casualty as it is drawn, `(down)`."""
    order = {name: n for n, name in reversed(list(enumerate(first)))}  # the first mention
    seen: set[str] = set()

    def rank(m: Marker) -> int:
        if facts.origin is not None and m.label == facts.origin.label:
            return 0
        return 1 + order.get(m.name, len(order))

    items = []
    for m in sorted(facts.markers, key=rank):
        label = glyph_of(m).strip()
        if label in seen or not m.name or clean(m.name) == label:
            continue
        seen.add(label)
        items.append(f"{label} {clean(m.name)}" + (" (down)" if m.down else ""))
    return items


def more_pieces(count: int) -> str:
    """What stands for the pieces a short "who:" legend leaves out."""
    return f"+{count} more (Look…)"


def who_within(who: Sequence[str], width: int, lines: int) -> tuple[list[str], int]:
    """The "who:" legend in `lines` lines at most: as many pieces as fit, then
    `+N more (Look…)` for the rest; and how many that is."""

    def packed(shown: int) -> list[str]:
        rest = len(who) - shown
        return _pack([*who[:shown], *([more_pieces(rest)] if rest else [])], width, "who: ")

    low, high = 0, len(who)  # the most pieces named within `lines` (fewer never take more)
    while low < high:
        middle = (low + high + 1) // 2
        if len(packed(middle)) <= lines:
            low = middle
        else:
            high = middle - 1
    return packed(low)[:lines], len(who) - low


def _who_lines(
    who: Sequence[str], free: int, room: int, width: int
) -> tuple[list[str], list[str], int]:
    """The "who:" legend: beside the cells when it fits whole in the `free` rows there
    (`room` wide), else under the map at the full `width`; (beside, under, left out)."""
    if not who:
        return [], [], 0
    beside = _pack(who, room, "who: ")
    if free > 0 and len(beside) <= free:
        return beside, [], 0
    return [], _pack(who, width, "who: "), 0


def draw(
    grid: Grid,
    width: int,
    allowed: Callable[[int, int], bool] | None = None,
    cursor: tuple[int, int] | None = None,
    extra: Iterable[str] = (),
    beside: bool = False,
    who: Sequence[str] = (),
    limit: int = 0,
    short: bool = False,
    measure: bool = False,
) -> Drawing:
    """The whole map for `width` columns: title and north edge, the cells with the y axis,
    the x axis, the south edge, the key and the marked cells' legend; `allowed` marks the cells
    a question allows, `cursor` the cursor's cell (the cursor's screen only). `beside`: the key
    and legend to the right of the cells where they fit (a short screen); `who` names the
    pieces after the key, in as many of its lines as keep the map within `limit` rows (0: all);
    `short`: the marked cells' legend without the spots (`Conflict.words`); `measure`: a
    drawing taller than `limit` is left without its rows (only its `height` is wanted)."""
    extra = list(extra)
    facts = grid.facts
    table = facts.table
    drawing = Drawing(grid)
    title = clean(facts.title) or f'{table.width:g}"x{table.height:g}" table'
    head = _pack([title, "^ " + _edge_words(facts, "north")], width)
    drawing.rows.append([("title", head[0])])
    drawing.rows.extend([("dim", line)] for line in head[1:])
    drawing.top = len(drawing.rows)
    side_room = width - grid_width(grid) - 2
    beside = beside and side_room >= MIN_BESIDE
    drawing.beside = beside
    room = side_room if beside else width
    told: list[Part] = [("dim", line) for line in _pack(key_items(grid, short), room, "key: ")]
    legend = (c.words(table, short) for c in grid.conflicts)
    told += [("mark", line) for line in _pack(legend, room)]
    fixed = drawing.top + grid.rows + len(_axis_lines(grid, facts, width)) + len(extra)
    names, below, unnamed = _who_lines(who, grid.rows - len(told) if beside else 0, room, width)
    used = fixed + (max(0, len(told) + len(names) - grid.rows) if beside else len(told))
    fits = 0
    for _ in below:  # whole lines (whole names) while they keep the map within `limit`
        if limit and used + 1 > limit:
            break
        used += 1
        fits += 1
    if fits < len(below):  # never dropped silently: the last line says how many are not
        below, unnamed = who_within(who, width, max(1, fits))  # one line at least
        used += max(1, fits) - fits
    told += [("dim", line) for line in names]
    drawing.named = len(names) + len(below)
    drawing.unnamed = unnamed
    drawing.height = used
    if measure and limit and used > limit:  # too tall: its cells are not worth drawing
        return drawing
    for n, row in enumerate(range(grid.rows - 1, -1, -1)):
        parts: list[Part] = [("dim", _y_axis(grid, row))]
        for col in range(grid.cols):
            ok = allowed is not None and allowed(col, row)
            parts.append(cell_parts(grid, col, row, ok, cursor == (col, row)))
        parts.append(("dim", "|"))
        if beside and n < len(told):
            parts += [("", "  "), told[n]]
        drawing.rows.append(parts)
    for line in _axis_lines(grid, facts, width):
        drawing.rows.append([("dim", line)])
    for part in told[grid.rows :] if beside else told:
        drawing.rows.append([part])
    for line in below:
        drawing.rows.append([("dim", line)])
    for line in extra:
        drawing.rows.append([("", line)])
    return drawing


def _axis_lines(grid: Grid, facts: MapFacts, width: int) -> list[str]:
    return _pack([_x_axis(grid) + " in", "v " + _edge_words(facts, "south")], width)


def grid_width(grid: Grid) -> int:
    return RULER + grid.cols * 2 + 1


def scales_for(facts: MapFacts, width: int, rows: int) -> Iterable[tuple[float, float]]:
    """The scales to try, finest first: cells about square (two characters, one row), a
    coarse row scale allowing finer columns; none wider than `width` or taller than `rows`."""
    table = facts.table
    fit_x = next(
        (s for s in SCALES if RULER + 1 + 2 * math.ceil(table.width / s - 1e-9) <= width),
        SCALES[-1],
    )
    coarsest = max((s for s in SCALES if table.height / s >= MIN_GRID_ROWS - 1e-9), default=1.0)
    for sy in SCALES:
        if sy > coarsest:
            break
        if math.ceil(table.height / sy - 1e-9) + 2 > rows and sy != coarsest:
            continue
        sx = max(fit_x, min(sy, 1.0), sy / 4)
        yield sx, sy


def fitted(
    facts: MapFacts,
    width: int,
    rows: int,
    first: Iterable[str] = (),
    narrow: bool = True,
    who: bool = True,
) -> Drawing:
    """The largest map of `facts` that fits `width` x `rows` (its key and legend included,
    and which label is which piece in the rows left, those named in `first` first), or, when
    none fits, the coarsest that keeps `MIN_GRID_ROWS` rows of cells. At a scale the drawing
    naming the most pieces wins, then the first of: with the terrain's letters, without, and
    (`narrow`) with the key beside the cells, then with a legend without spots. `who`: name
    the pieces in the key (the cursor's screen leaves that to its facts lines)."""
    names = who_items(facts, first) if who else []
    drawing: Drawing | None = None
    tries = [(True, False, False), (False, False, False)]
    if narrow:
        tries += [(True, True, False), (False, True, False), (False, True, True)]
    scales = list(scales_for(facts, width, rows))
    fine = len(scales)
    if narrow:  # the last resort: wider cells, so the key beside them has more room
        sy = scales[-1][1]
        scales += [(sx, sy) for sx in SCALES if scales[-1][0] < sx <= sy / 2]
    grids: dict[tuple[float, float, bool], Grid] = {}  # each cut once (a draw is cheaper)
    for n, (sx, sy) in enumerate(scales):
        best: Drawing | None = None
        for tags, beside, short in tries if n < fine else tries[2:]:
            grid = grids.get((sx, sy, tags))
            if grid is None:
                grid = grids[(sx, sy, tags)] = cut(facts, sx, sy, tags)
            drawing = draw(grid, width, beside=beside, who=names, limit=rows, short=short,
                           measure=True)  # fmt: skip
            if drawing.height <= rows and (best is None or drawing.unnamed < best.unnamed):
                best = drawing
            if best is not None and not best.unnamed:
                break
        if best is not None:
            return best
    assert drawing is not None  # nothing fits: the last tried, drawn whole
    return draw(drawing.grid, width, beside=drawing.beside, who=names, limit=rows, short=short)
