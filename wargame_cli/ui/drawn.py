"""Parts of a board drawn once and kept while what they show is unchanged.

A view names each part by a key made of everything the part shows (a roster's rows, the
markers on a map); `DRAWN.get` lays it out with rich the first time and hands back the lines
afterwards. The lines are kept per console (its theme, markup and highlighting decide them)
and per width, so a kept part is exactly what drawing it afresh would give."""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment

KEPT = 512  # parts kept per console: a skirmish's board has a handful, a replay many


class Drawn:
    """Lines rich already laid out at `width`: measured and drawn again at no cost."""

    __slots__ = ("lines", "width")

    def __init__(self, lines: list[list[Segment]], width: int) -> None:
        self.lines = lines
        self.width = width

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for line in self.lines:
            yield from line
            yield new_line


class DrawnParts:
    """The kept parts, per console, the least recently used dropped past `KEPT`."""

    def __init__(self) -> None:
        self._by_console: weakref.WeakKeyDictionary[Console, OrderedDict[Any, Any]] = (
            weakref.WeakKeyDictionary()
        )

    def _kept(self, console: Console) -> OrderedDict[Any, Any]:
        kept = self._by_console.get(console)
        if kept is None:
            kept = self._by_console[console] = OrderedDict()
        return kept

    def _remember(self, console: Console, key: Any, make: Callable[[], Any]) -> Any:
        kept = self._kept(console)
        found = kept.get(key)
        if found is None:
            found = kept[key] = make()
            if len(kept) > KEPT:
                kept.popitem(last=False)
        else:
            kept.move_to_end(key)
        return found

    def width(
        self,
        console: Console,
        options: ConsoleOptions,
        key: Any,
        make: Callable[[Any], Any],
        arg: Any,
    ) -> int:
        """The widest the part `make(arg)` would be drawn within `options`."""
        return self._remember(
            console,
            ("width", key, options.max_width),
            lambda: Measurement.get(console, options, make(arg)).maximum,
        )

    def get(
        self,
        console: Console,
        options: ConsoleOptions,
        key: Any,
        make: Callable[[Any], Any],
        arg: Any,
        width: int | None = None,
        no_wrap: bool = False,
    ) -> Drawn:
        """The part `make(arg)` laid out as a grid cell `width` wide (its own widest if None),
        as a left-justified column of a rich grid lays out its cells."""
        made: list[Any] = []  # made once, to be measured and drawn

        def part() -> Any:
            if not made:
                made.append(make(arg))
            return made[0]

        if width is None:
            width = self.width(console, options, key, lambda _: part(), arg)

        def draw() -> Drawn:
            cell = options.update(
                width=width,
                justify="left",
                no_wrap=no_wrap,
                overflow="ellipsis",
                height=None,
                highlight=False,
            )
            return Drawn(console.render_lines(part(), cell), width)

        return self._remember(console, ("lines", key, width, no_wrap), draw)


def beside(left: Drawn, right: Drawn, gap: int) -> RenderResult:
    """Two drawn columns side by side, `gap` spaces apart, the shorter one filled out with
    blank lines: what a rich grid of the two makes (`Table.grid(padding=(0, gap))`), without
    laying it out again."""
    new_line = Segment.line()
    space = Segment(" " * gap)
    blank_left, blank_right = [Segment(" " * left.width)], [Segment(" " * right.width)]
    for row in range(max(len(left.lines), len(right.lines))):
        yield from left.lines[row] if row < len(left.lines) else blank_left
        yield space
        yield from right.lines[row] if row < len(right.lines) else blank_right
        yield new_line


DRAWN = DrawnParts()
