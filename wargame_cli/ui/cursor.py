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

import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from wargame_cli.tabletop.grid import Grid
from wargame_cli.tabletop.mapfacts import MapFacts
from wargame_cli.text import clean
from wargame_cli.ui.map import RULER, Drawing, ansi, cell_parts, draw, fitted
from wargame_cli.ui.pointing import can_point, pointing_for, start_cell, takes_spot

if TYPE_CHECKING:
    from wargame_cli.engine.requests import Choice

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
SHORT_KEYS_HELP = "arrows/hjkl: 1 cell; HJKL: 4; count+key; Enter: pick; Esc: back"
SPOT_HELP = "Space: another spot in the cell; "  # a question that takes a spot
SHORT_SPOT_KEYS_HELP = "arrows/hjkl: 1 cell; HJKL: 4; Space: next spot; Enter: pick; Esc: back"
TARGETS_HELP = "Tab: the next target; "
SHORT_TARGETS_HELP = "Tab: target; "


def foot_rows(text: str, width: int, most: int = 2) -> list[str]:
    """`text` wrapped at words into at most `most` rows of `width`; a cut shows as an ellipsis
    after the last whole word (a facts line never breaks inside a word)."""
    rows = textwrap.wrap(text, max(10, width), break_on_hyphens=False) or [""]
    if len(rows) <= most:
        return rows
    kept = rows[:most]
    last = kept[-1]
    while len(last) + 1 > width and " " in last:
        last = last.rsplit(" ", 1)[0]
    kept[-1] = last + "…"
    return kept


def keys_help(targets: bool, width: int, spots: bool = False) -> str:
    """The keys line: the whole help where it fits in `width`, else a short one (for a
    question that takes a spot, one that names Space, where it fits)."""
    head = TARGETS_HELP if targets else ""
    whole = head + KEYS_HELP.replace("Enter:", SPOT_HELP + "Enter:", 1) if spots else ""
    for line in (
        whole,
        (SHORT_TARGETS_HELP if targets else "") + SHORT_SPOT_KEYS_HELP if spots else "",
        head + KEYS_HELP,
    ):
        if line and len(line) <= width:
            return line
    return (SHORT_TARGETS_HELP if targets else "") + SHORT_KEYS_HELP


def cursor_grid(facts: MapFacts, width: int, height: int) -> Grid:
    """The finest grid whose map (and the cursor's key line) fits above the facts lines, its
    key under the cells (as `MapCursor` draws it)."""
    return fitted(facts, width, max(1, height - FOOT_ROWS - 1), narrow=False, who=False).grid


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
        self.pointing = pointing_for(choice, grid)
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

    def space(self) -> str:
        """Space: the next spot in the cursor's cell (its cell drawn again: it may now be
        allowed)."""
        return self._moved(self.pointing.next_spot)

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
            head, verdict = p.facts_lines()
            room = self.width - 1
            out = [("bold", "\n".join(foot_rows(head, room))), ("", "\n")]
            out.append(("", "\n".join(foot_rows(verdict, room))))
            keys = keys_help(bool(p.grid.facts.targets), room, p.spots)
            out += [("", "\n"), ("class:dim", keys[:room])]
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

        @kb.add(" ", eager=True)
        def _(event: Any) -> None:
            write(self.space())

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
