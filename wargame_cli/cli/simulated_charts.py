"""Pictures of a simulation in the terminal: bars for a histogram (game length, endings) and
a dot with its interval on a scale (a sweep's win rate and length against the value).
Plain text in rich Tables, readable at 80 columns and without colour."""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text

BLOCKS = " ▏▎▍▌▋▊▉█"
MAX_BINS = 16  # histogram rows: more distinct lengths are grouped into ranges


def bar(fraction: float, width: int) -> str:
    """A bar `fraction` of `width` cells long, in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (BLOCKS[part] if part else "")).ljust(width)


@dataclass(frozen=True)
class Bin:
    low: int
    high: int
    count: int

    @property
    def label(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


def bins(histogram: dict[int, int], most: int = MAX_BINS) -> list[Bin]:
    """Whole-number values in at most `most` equal ranges, the empty ones kept (a gap in
    the lengths shows)."""
    low, high = min(histogram), max(histogram)
    width = max(1, -(-(high - low + 1) // most))
    out = []
    for start in range(low, high + 1, width):
        stop = min(high, start + width - 1)
        count = sum(c for v, c in histogram.items() if start <= v <= stop)
        out.append(Bin(start, stop, count))
    return out


def histogram(title: str, unit: str, counts: dict[int, int], width: int) -> Table:
    """Game lengths as bars: each row a length (or range of lengths), its games and share."""
    total = sum(counts.values())
    rows = bins(counts)
    top = max(b.count for b in rows) or 1
    table = Table(title=title, title_justify="left", box=None, padding=(0, 1))
    table.add_column(unit, justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    table.add_column("games", justify="right", no_wrap=True)
    table.add_column("share", justify="right", no_wrap=True)
    for b in rows:
        table.add_row(
            b.label, bar(b.count / top, width), str(b.count), f"{100 * b.count / total:.1f}%"
        )
    return table


def dot(
    estimate: float,
    lo: float,
    hi: float,
    scale: tuple[float, float],
    width: int,
    mark: float | None = None,
) -> Text:
    """`├──●──┤` placed on a line `width` cells long spanning `scale`; `┊` marks `mark`
    where it is on the scale (one half for a win rate, 0 for a difference; by default the
    scale's middle)."""
    start, stop = scale
    span = (stop - start) or 1.0

    def at(value: float) -> int:
        return max(0, min(width - 1, round((value - start) / span * (width - 1))))

    cells = [" "] * width
    where = (start + stop) / 2 if mark is None else mark
    if start <= where <= stop:
        cells[at(where)] = "┊"
    left, right, mid = at(lo), at(hi), at(estimate)
    for i in range(left, right + 1):
        cells[i] = "─"
    cells[left], cells[right] = "├", "┤"
    cells[mid] = "●"
    return Text("".join(cells))


def against(
    points: list[tuple[str, float, float, float, float | None]],
    width: int,
    height: int = 10,
) -> Text | None:
    """A sweep against its value: one column per value along the x axis (label, estimate,
    lo, hi, exact chance or None), the y axis side A's win rate fitted to what is shown;
    `│` the 95% interval, `●` the bot games' rate, `◆` the exact chance (`◈` where they share
    a cell). None when the columns do not fit `width`."""
    column = max(len(p[0]) for p in points) + 1
    left = 7
    if left + column * len(points) > width:
        return None
    values = [v for p in points for v in (p[2], p[3], p[4]) if v is not None]
    low, high = min(values), max(values)
    pad = max((high - low) * 0.05, 0.005)
    low, high = max(0.0, low - pad), min(1.0, high + pad)
    step = (high - low) / height

    def row_of(value: float) -> int:
        return max(0, min(height - 1, int((high - value) / step)))

    grid = [[" "] * len(points) for _ in range(height)]
    for n, (_, estimate, lo, hi, exact) in enumerate(points):
        for r in range(row_of(hi), row_of(lo) + 1):
            grid[r][n] = "│"
        grid[row_of(estimate)][n] = "●"
        if exact is not None:
            r = row_of(exact)
            grid[r][n] = "◈" if grid[r][n] == "●" else "◆"
    out = Text()
    for r, cells in enumerate(grid):
        top = high - r * step
        tick = f"{100 * top:5.1f}%" if r % 3 == 0 else ""
        out.append(f"{tick:>{left - 1}} ")
        out.append("".join(c.center(column) for c in cells).rstrip() + "\n")
    out.append(" " * left + "".join(p[0].center(column) for p in points).rstrip())
    return out
