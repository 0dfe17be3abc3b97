"""Where the map cursor points and what the rules say of it: the cell, the spot its centre
stands for, the question's verdict on it (`Choice.legal`, asked once a cell per question), the
target aimed at and the cells its line of fire crosses, and the facts line under the map.
Plain values, no terminal: `ui/cursor.py` draws and drives it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.grid import Grid
from wargame_cli.tabletop.mapfacts import MapFacts
from wargame_cli.text import clean

if TYPE_CHECKING:
    from wargame_cli.engine.requests import Choice

SPOT_HINT = "x,y"  # a choice whose typed answer is a spot (`Choice.free_hint`)


def takes_spot(choice: Choice) -> bool:
    """Does `choice` take a typed spot (`x,y`)? Its map can be pointed at."""
    return choice.free_hint == SPOT_HINT


def can_point(facts: MapFacts | None, choice: Choice) -> bool:
    """A question the cursor answers: it takes a spot, or has targets on the map."""
    return facts is not None and (takes_spot(choice) or bool(facts.targets))


@dataclass
class Pointing:
    """The cursor on one question's map: where it is, what each cell's spot is worth."""

    choice: Choice
    grid: Grid
    col: int = 0
    row: int = 0
    count: str = ""
    note: str = ""  # why Enter did not pick the spot
    verdicts: dict[tuple[int, int], str | None] = field(default_factory=dict)

    @property
    def spots(self) -> bool:
        """Does the question take a spot (else only its targets can be picked)?"""
        return takes_spot(self.choice)

    def aimed(self) -> tuple[str, Point] | None:
        """The target (an option's key and its spot) in the cursor's cell, if any."""
        for key, spot in self.grid.facts.targets:
            if self.grid.cell_of(spot) == (self.col, self.row):
                return key, spot
        return None

    def next_target(self) -> None:
        """Tab: the cursor to the next target after the one aimed at (the first if none)."""
        targets = self.grid.facts.targets
        if not targets:
            return
        aimed = self.aimed()
        keys = [key for key, _ in targets]
        n = (keys.index(aimed[0]) + 1) % len(keys) if aimed is not None else 0
        self.col, self.row = self.grid.cell_of(targets[n][1])
        self.count = self.note = ""

    def line_cells(self) -> set[tuple[int, int]]:
        """The cells the line of fire from the piece to the aimed target crosses (between)."""
        aimed, origin = self.aimed(), self.grid.facts.origin
        if aimed is None or origin is None:
            return set()
        a, b = origin.pos, aimed[1]
        steps = max(1, int(a.distance(b) / (min(self.grid.sx, self.grid.sy) / 3)))
        cells = {
            self.grid.cell_of(Point(a.x + (b.x - a.x) * i / steps, a.y + (b.y - a.y) * i / steps))
            for i in range(steps + 1)
        }
        return cells - {self.grid.cell_of(a), self.grid.cell_of(b)}

    def spot(self, col: int | None = None, row: int | None = None) -> Point:
        return self.grid.centre(self.col if col is None else col, self.row if row is None else row)

    def refusal(self, col: int, row: int) -> str | None:
        """Why the spot this cell stands for is refused (None: allowed), asked once a cell."""
        cell = (col, row)
        if cell not in self.verdicts:
            self.verdicts[cell] = self.choice.legal(self.spot(col, row).key())
        return self.verdicts[cell]

    def allowed(self, col: int, row: int) -> bool:
        return self.spots and self.grid.glyphs[row][col] != "##" and self.refusal(col, row) is None

    def move(self, dx: int, dy: int) -> None:
        times = int(self.count) if self.count else 1
        self.count = ""
        self.note = ""
        self.col = min(self.grid.cols - 1, max(0, self.col + dx * times))
        self.row = min(self.grid.rows - 1, max(0, self.row + dy * times))

    def nearest_enemy(self, p: Point) -> str:
        """The piece's nearest enemy from `p`, edge to edge, or the contact it would make."""
        o = self.grid.facts.origin
        if o is None:
            return ""
        foes = [m for m in self.grid.facts.markers if m.side != o.side and not m.down]
        if not foes:
            return ""
        gaps = [(max(0.0, p.distance(m.pos) - m.radius - o.radius), m) for m in foes]
        near, foe = min(gaps, key=lambda gm: gm[0])
        who = clean(foe.label)
        if near <= 0.01:
            return f"; in base contact with {who}"
        return f'; nearest enemy {who}, {near:.1f}" edge to edge'

    def facts_lines(self) -> list[str]:
        """Where the cursor is (inches), how far from the piece, who is in its cell, and what
        the menu would say of the spot or why it is refused."""
        p = self.spot()
        facts = self.grid.facts
        head = f"cursor at ({p.key()})"
        if facts.origin is not None:
            o = facts.origin
            head += f', {p.distance(o.pos):.1f}" from {clean(o.label)} {clean(o.name)}'
            head += self.nearest_enemy(p)
        mark = self.grid.mark_of((self.col, self.row))
        here = self.grid.drawn.get((self.col, self.row))
        if mark is not None:
            head += "; here: " + mark.words(facts.table)
        elif here is not None:
            head += f"; here: {clean(here.label)} {clean(here.name)}"
        if self.count:
            head += f"; count {self.count}"
        aimed = self.aimed()
        if aimed is not None:
            reason = self.choice.legal(aimed[0])
            label = clean(self.choice.label_of(aimed[0]))
            verdict = f"target: {label}" + (f" - not possible: {clean(reason)}" if reason else "")
        elif not self.spots:
            verdict = "no target in this cell (Tab: the next target)"
        else:
            reason = self.refusal(self.col, self.row)
            verdict = (
                f"not allowed: {clean(reason)}"
                if reason is not None
                else f"allowed: {clean(self.choice.label_of(p.key()))}"
            )
        return [head, self.note or verdict]


def start_cell(grid: Grid, choice: Choice) -> tuple[int, int]:
    """The suggested spot's (or target's) cell, else the piece's, else the table's middle."""
    for key, spot in grid.facts.targets:
        if key == choice.default:
            return grid.cell_of(spot)
    try:
        return grid.cell_of(Point.parse(choice.default))
    except (ValueError, TypeError):
        pass
    origin = grid.facts.origin
    if origin is not None:
        return grid.cell_of(origin.pos)
    return grid.cols // 2, grid.rows // 2


_KEPT: list[Any] = []  # the latest question's verdicts: (choice, scale, verdicts by cell)


def verdicts_kept(choice: Choice, grid: Grid) -> dict[tuple[int, int], str | None]:
    """The cells' verdicts already worked out for this question at this scale (the cursor
    opened again at the same question), else a new, empty record kept for it."""
    if _KEPT and _KEPT[0][0] is choice and _KEPT[0][1] == (grid.sx, grid.sy):
        kept: dict[tuple[int, int], str | None] = _KEPT[0][2]
        return kept
    _KEPT[:] = [(choice, (grid.sx, grid.sy), {})]
    fresh: dict[tuple[int, int], str | None] = _KEPT[0][2]
    return fresh
