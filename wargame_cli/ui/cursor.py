"""Point on the map: a cursor on the one map for a question that takes a spot (a deployment,
a move) or has targets on it (a shot, an attack: Tab goes from one to the next).

The map is written once, straight to the terminal; a key that moves the cursor rewrites only
the two cells it leaves and enters, and prompt_toolkit redraws only the facts lines under the
map, so a key costs about what an arrow key in a list does. The cells the question allows are
marked (`Choice.legal` on the spot each cell's centre stands for, worked out once per
question); Enter answers the spot as typing it would (or the target's option), Esc goes back
to the list.
prompt_toolkit is imported only when the cursor is opened."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.grid import Grid
from wargame_cli.tabletop.mapfacts import MapFacts
from wargame_cli.text import clean
from wargame_cli.ui.map import RULER, Drawing, ansi, cell_parts, draw, fitted

if TYPE_CHECKING:
    from wargame_cli.engine.requests import Choice

SPOT_HINT = "x,y"  # a choice whose typed answer is a spot (`Choice.free_hint`)
POINT_LABEL = "Point on the map…"
POINT_KEY = "p"
FAST = 4  # cells a Shift+arrow or HJKL moves
FOOT_ROWS = 5  # under the map: where the cursor is, what the menu says of it (two rows each
# at most), the keys
SPOTS_KEY = "·: a spot the rules allow here; "
FIRE_KEY = "--: the line of fire; "
CURSOR_KEY = "[]: the cursor"
KEYS_HELP = (
    "arrows/hjkl: 1 cell; Shift+arrow/HJKL: 4; digits then a key: that many; "
    "Enter: pick; Esc: back to the list"
)
TARGETS_HELP = "Tab: the next target; "


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


def cursor_grid(facts: MapFacts, width: int, height: int) -> Grid:
    """The finest grid whose map (and the cursor's key line) fits above the facts lines."""
    return fitted(facts, width, max(1, height - FOOT_ROWS - 1)).grid


_KEPT: list[Any] = []  # the latest question's verdicts: (choice, scale, verdicts by cell)


def _verdicts(choice: Choice, grid: Grid) -> dict[tuple[int, int], str | None]:
    """The cells' verdicts already worked out for this question at this scale (the cursor
    opened again at the same question), else a new, empty record kept for it."""
    if _KEPT and _KEPT[0][0] is choice and _KEPT[0][1] == (grid.sx, grid.sy):
        kept: dict[tuple[int, int], str | None] = _KEPT[0][2]
        return kept
    _KEPT[:] = [(choice, (grid.sx, grid.sy), {})]
    fresh: dict[tuple[int, int], str | None] = _KEPT[0][2]
    return fresh


class MapCursor:
    """The cursor's screen for one question: the map written once (`screen`), the ANSI each
    key rewrites (`step`, `tab`), what Enter answers (`pick`), and the small application that
    reads the keys (`application`), in the terminal's colour system."""

    def __init__(
        self,
        choice: Choice,
        facts: MapFacts,
        size: tuple[int, int],
        color_system: str | None = "standard",
        no_color: bool = False,
    ) -> None:
        width, height = size
        self.width, self.height = width, height
        self.color_system, self.no_color = color_system or "", no_color
        grid = cursor_grid(facts, width, height)
        self.pointing = Pointing(choice, grid, verdicts=_verdicts(choice, grid))
        self.pointing.col, self.pointing.row = start_cell(grid, choice)
        key = (SPOTS_KEY if takes_spot(choice) else "") + (FIRE_KEY if facts.targets else "")
        key += CURSOR_KEY
        self.drawing: Drawing = draw(grid, width, self.pointing.allowed, extra=[key])
        shown = self.drawing.ansi(width, color_system, no_color)
        self.lines = shown[: max(1, height - FOOT_ROWS)]

    # -- the cells ------------------------------------------------------------------------
    def cell(self, col: int, row: int, cursor: bool, line: bool = False) -> str:
        """The ANSI a cell is written with: where it goes on screen and what it shows."""
        p = self.pointing
        classes, glyph = cell_parts(p.grid, col, row, p.allowed(col, row), cursor, line)
        top = self.drawing.top + (p.grid.rows - 1 - row)
        left = RULER + 2 * col
        body = ansi(classes, glyph, self.color_system, self.no_color)
        return f"\x1b7\x1b[{top + 1};{left + 1}H{body}\x1b8"

    def screen(self) -> str:
        """The whole map with the cursor, written from the top of the terminal."""
        p = self.pointing
        fire = "".join(self.cell(c, r, False, line=True) for c, r in p.line_cells())
        top = "\x1b[2J\x1b[H" + "\r\n".join(self.lines) + "\x1b[0m\r\n"
        return top + fire + self.cell(p.col, p.row, True)

    def step(self, dx: int, dy: int) -> str:
        """Move the cursor; the ANSI that redraws the cells that changed."""
        return self._moved(lambda: self.pointing.move(dx, dy))

    def tab(self) -> str:
        return self._moved(self.pointing.next_target)

    def _moved(self, how: Callable[[], None]) -> str:
        """The cursor's cell, and the line of fire's, before and after `how` moves it."""
        p = self.pointing
        before = p.line_cells()
        old = self.cell(p.col, p.row, False)
        how()
        after = p.line_cells()
        out = old + "".join(self.cell(c, r, False) for c, r in before - after)
        out += "".join(self.cell(c, r, False, line=True) for c, r in after - before)
        return out + self.cell(p.col, p.row, True)

    def pick(self) -> str | None:
        """Enter: the aimed target's key or the spot's key when the rules allow it; else
        None, the reason shown."""
        p = self.pointing
        aimed = p.aimed()
        if aimed is None and not p.spots:
            p.note = "no target in this cell: Tab goes to the next one"
            return None
        key = aimed[0] if aimed is not None else p.spot().key()
        reason = p.choice.legal(key)
        if reason is None:
            return key
        p.note = f"not allowed: {clean(reason)}"
        return None

    # -- the application ------------------------------------------------------------------
    def application(self, input: Any = None, output: Any = None) -> Any:
        """A small prompt_toolkit application: the facts lines under the map and the keys."""
        from prompt_toolkit.application import Application
        from prompt_toolkit.key_binding import KeyBindings
        from prompt_toolkit.keys import Keys
        from prompt_toolkit.layout import HSplit, Layout, Window
        from prompt_toolkit.layout.controls import FormattedTextControl

        kb = KeyBindings()
        p = self.pointing

        def tokens() -> list[tuple[str, str]]:
            lines = p.facts_lines()
            out = [("bold", lines[0][: 2 * self.width - 2]), ("", "\n")]
            out.append(("", lines[1][: 2 * self.width - 2]))
            keys = (TARGETS_HELP if p.grid.facts.targets else "") + KEYS_HELP
            out += [("", "\n"), ("class:dim", keys[: self.width - 1])]
            return out

        app: Any = Application(
            layout=Layout(
                HSplit([Window(FormattedTextControl(cast(Any, tokens)), wrap_lines=True)])
            ),
            key_bindings=kb,
            full_screen=False,
            input=input,
            output=output,
        )
        app.ttimeoutlen = 0.05  # Esc answers at once, not after half a second

        def write(ansi: str) -> None:
            app.output.write_raw(ansi)

        def mover(dx: int, dy: int, fast: bool = False) -> Callable[[Any], None]:
            def handler(event: Any) -> None:
                if fast and not p.count:
                    p.count = str(FAST)
                write(self.step(dx, dy))

            return handler

        moves = {
            (Keys.Left, "h"): (-1, 0),
            (Keys.Right, "l"): (1, 0),
            (Keys.Up, "k"): (0, 1),
            (Keys.Down, "j"): (0, -1),
        }
        fast_keys = {
            (Keys.ShiftLeft, "H"): (-1, 0),
            (Keys.ShiftRight, "L"): (1, 0),
            (Keys.ShiftUp, "K"): (0, 1),
            (Keys.ShiftDown, "J"): (0, -1),
        }
        for keys, (dx, dy) in moves.items():
            for key in keys:
                kb.add(key, eager=True)(mover(dx, dy))
        for keys, (dx, dy) in fast_keys.items():
            for key in keys:
                kb.add(key, eager=True)(mover(dx, dy, fast=True))
        for digit in "0123456789":

            @kb.add(digit)
            def _(event: Any) -> None:
                if p.count or event.data != "0":
                    p.count = (p.count + event.data)[-3:]

        @kb.add(Keys.Tab, eager=True)
        def _(event: Any) -> None:
            write(self.tab())

        @kb.add(Keys.ControlM, eager=True)
        def _(event: Any) -> None:
            key = self.pick()
            if key is not None:
                event.app.exit(result=key)

        @kb.add(Keys.Escape, eager=True)
        def _(event: Any) -> None:
            event.app.exit(result=None)

        @kb.add(Keys.ControlC, eager=True)
        def _(event: Any) -> None:
            event.app.exit(exception=KeyboardInterrupt)

        return app


def point_on_map(prompt_app: Any, screen: Any, choice: Choice) -> str | None:
    """Open the cursor on the decision screen's map for `choice`: the spot's key picked, or
    None (Esc, or no map to point at)."""
    facts = screen.view.map_facts(screen.state, screen.names, choice)
    if facts is None or not can_point(facts, choice):
        return None
    app = prompt_app.app
    size = app.output.get_size()
    width, height = max(20, size.columns), max(8, size.rows)
    console = screen.renderer.console(width)
    cursor = MapCursor(choice, facts, (width, height), console.color_system, console.no_color)
    app.output.write_raw(cursor.screen())
    app.output.flush()
    answer: str | None = prompt_app.run_other(cursor.application(app.input, app.output))
    return answer
