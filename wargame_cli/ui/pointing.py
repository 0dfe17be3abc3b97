"""Where the map cursor points and what the rules say of it: the cell, the spot its centre
stands for, the question's verdict on it (`Choice.legal`, asked once a cell per question), the
target aimed at and the cells its line of fire crosses, and the facts line under the map.
Plain values, no terminal: `ui/cursor.py` draws and drives it."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wargame_cli.engine.requests import SPOT_HINT
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.grid import Grid
from wargame_cli.tabletop.mapfacts import MapFacts
from wargame_cli.text import clean

if TYPE_CHECKING:
    from wargame_cli.engine.requests import Choice


# a spot in an option's label: ` (2.09,8.91)`, ` (lead to 2.09,8.91)`, or `3.5,7.5: ` first
_NUMBER = r"-?\d+(?:\.\d+)?"
_SPOT_IN_LABEL = re.compile(rf" \((?:lead to )?{_NUMBER}, ?{_NUMBER}\)|^{_NUMBER}, ?{_NUMBER}: ")


def without_spot(label: str) -> str:
    """An option's label without the spot it names (`Toward Fay, 4.0": seen by Dot`,
    `In Crates (hard cover), …`): a list that takes a spot gives its rows to the map, and
    the cursor's facts line says where (`Point on the map…`)."""
    words = _SPOT_IN_LABEL.sub("", label)
    return words[:1].upper() + words[1:] if words != label else label


def spot_in(label: str) -> str | None:
    """The spot an option's label names (`3.5,7.5`), or None: what the list's hint says of
    the option under the pointer once its label says only the words."""
    found = _SPOT_IN_LABEL.search(label)
    if found is None:
        return None
    x, y = re.findall(_NUMBER, found.group(0))[:2]
    return f"{x},{y}"


def without_spots(labels: list[str]) -> list[str]:
    """`without_spot` of each label, but a label whose words alone would read the same as
    another's keeps its spot: the list still tells every option apart."""
    bare = [without_spot(label) for label in labels]
    count: dict[str, int] = {}
    for words in bare:
        count[words] = count.get(words, 0) + 1
    return [label if count[words] > 1 else words for label, words in zip(labels, bare, strict=True)]


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
    # a cell whose centre the rules refuse stands for a whole-inch spot in it they allow
    found: dict[tuple[int, int], Point] = field(default_factory=dict)
    # a cell's spot picked among those in it (Space: `next_spot`), and each cell's legal spots
    picked: dict[tuple[int, int], Point] = field(default_factory=dict)
    in_cells: dict[tuple[int, int], list[Point]] = field(default_factory=dict)
    _anchors: dict[tuple[int, int], Point] | None = None

    def anchors(self) -> dict[tuple[int, int], Point]:
        """The cells that hold a spot the menu offers, each standing for that spot (the
        suggested one first, then the options in order): every spot the list offers can be
        picked by pointing, and the cursor starts on the suggested spot itself."""
        if self._anchors is None:
            out: dict[tuple[int, int], Point] = {}
            options = self.choice.options
            said = {o.key: o.disabled for o in options}  # the menu's verdicts, already asked
            keys = [self.choice.default, *(o.key for o in options if not o.disabled)]
            for key in keys:
                try:
                    p = Point.parse(str(key))
                except (ValueError, TypeError):
                    continue
                cell = self.grid.cell_of(p)
                if cell in out or not (0 <= cell[0] < self.grid.cols):
                    continue
                if 0 <= cell[1] < self.grid.rows:
                    out[cell] = p
                    if key in said:
                        self.verdicts.setdefault(cell, said[key])
            self._anchors = out
        return self._anchors

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
        """The spot a cell stands for: the menu's spot in it, else its centre, else (the
        centre refused) the whole-inch spot in it the rules allow (pieces of some rulesets
        stand on whole inches)."""
        cell = (self.col if col is None else col, self.row if row is None else row)
        chosen = self.picked.get(cell)
        if chosen is not None:
            return chosen
        anchored = self.anchors().get(cell)
        if anchored is not None:
            return anchored
        return self.found.get(cell) or self.grid.centre(*cell)

    def refusal(self, col: int, row: int) -> str | None:
        """Why the spot this cell stands for is refused (None: allowed), asked once a cell."""
        cell = (col, row)
        if cell in self.picked:  # picked among the cell's legal spots
            return None
        if cell not in self.verdicts:
            verdict = self.choice.legal(self.spot(col, row).key())
            if verdict is not None and cell not in self.anchors():
                for p in whole_inches(self.grid, col, row):
                    if self.choice.legal(p.key()) is None:
                        self.found[cell], verdict = p, None
                        break
            self.verdicts[cell] = verdict
        return self.verdicts[cell]

    def cell_spots(self, col: int, row: int) -> list[Point]:
        """Every spot in a cell the question accepts, in the order Space goes through them:
        the menu's (the suggested first), the centre, then the whole-inch and half-inch spots
        nearest the centre first; worked out when first asked for, once a cell."""
        cell = (col, row)
        found = self.in_cells.get(cell)
        if found is None:
            options = self.choice.options
            keys = [self.choice.default, *(o.key for o in options if not o.disabled)]
            tried: list[Point] = []
            for key in keys:
                try:
                    spot = Point.parse(str(key))
                except (ValueError, TypeError):
                    continue
                if self.grid.cell_of(spot) == cell:
                    tried.append(spot)
            tried.append(self.grid.centre(col, row))
            tried += spots_in(self.grid, col, row)
            found, seen = [], set()
            for spot in tried:
                if spot.key() not in seen and self.choice.legal(spot.key()) is None:
                    found.append(spot)
                seen.add(spot.key())
            self.in_cells[cell] = found
        return found

    def next_spot(self) -> None:
        """Space: the cursor's cell stands for the next spot in it the question accepts (two
        menu spots in one cell, a move on whole inches in a coarse cell: each can be picked)."""
        cell = (self.col, self.row)
        self.count = ""
        if not self.spots:
            self.note = "this question takes a target, not a spot (Tab: the next target)"
            return
        spots = self.cell_spots(*cell)
        if len(spots) < 2:
            self.note = (
                "no other spot in this cell is allowed"
                if spots
                else "no spot in this cell is allowed"
            )
            return
        keys = [spot.key() for spot in spots]
        now = self.spot().key()
        n = (keys.index(now) + 1) % len(spots) if now in keys else 0
        self.picked[cell] = spots[n]
        self.note = f"spot {n + 1} of {len(spots)} in this cell (Space: the next): " + (
            f"allowed: {clean(self.choice.label_of(spots[n].key()))}"
        )

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


def whole_inches(grid: Grid, col: int, row: int, most: int = 1) -> list[Point]:
    """The whole-inch spots in a cell (on the table) other than its centre, nearest it first
    (`most`)."""
    t = grid.facts.table

    def inside(start: float, size: float, end: float) -> list[int]:
        top = min(end, start + size)
        return [n for n in range(math.ceil(start - 1e-9), math.floor(top) + 1) if n < top - 1e-9]

    centre = grid.centre(col, row)
    xs = inside(col * grid.sx, grid.sx, t.width)
    ys = inside(row * grid.sy, grid.sy, t.height)
    spots = [Point(float(x), float(y)) for x in xs for y in ys]
    spots = sorted((p for p in spots if p.key() != centre.key()), key=centre.distance)
    return spots[:most]


def spots_in(grid: Grid, col: int, row: int) -> list[Point]:
    """The whole-inch, then the other half-inch, spots in a cell (on the table), each set
    nearest the centre first: where pieces stand in the rulesets (a typed answer may say any
    spot, but the cursor offers these)."""
    t = grid.facts.table
    centre = grid.centre(col, row)

    def steps(start: float, size: float, end: float) -> list[float]:
        top = min(end, start + size)
        first = math.ceil(start * 2 - 1e-9)
        return [n / 2 for n in range(first, math.floor(top * 2) + 1) if n / 2 < top - 1e-9]

    xs = steps(col * grid.sx, grid.sx, t.width)
    ys = steps(row * grid.sy, grid.sy, t.height)
    spots = [Point(x, y) for x in xs for y in ys]
    whole = [p for p in spots if p.x == int(p.x) and p.y == int(p.y)]
    half = [p for p in spots if not (p.x == int(p.x) and p.y == int(p.y))]
    return sorted(whole, key=centre.distance) + sorted(half, key=centre.distance)


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


# the latest question's verdicts: (choice, scale, verdicts by cell, spots found by cell)
_KEPT: list[Any] = []


def pointing_for(choice: Choice, grid: Grid) -> Pointing:
    """The cursor on `choice`'s map, with the cells' verdicts (and the whole-inch spots
    found) already worked out for this question at this scale (the cursor opened again at
    the same question), else new, empty records kept for it."""
    if not (_KEPT and _KEPT[0][0] is choice and _KEPT[0][1] == (grid.sx, grid.sy)):
        _KEPT[:] = [(choice, (grid.sx, grid.sy), {}, {})]
    return Pointing(choice, grid, verdicts=_KEPT[0][2], found=_KEPT[0][3])
