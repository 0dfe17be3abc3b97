"""A simulation's charts as SVG (`simulate --html`): bars for histograms and dots with their
95% intervals against a setting. Built on `report/svg.py`, so every word is escaped."""

from __future__ import annotations

from wargame_cli.report.svg import SIDE_FILL, svg, tag, text, title
from wargame_cli.wording import plural

WIDTH = 560.0
ROW = 18.0
LEFT, RIGHT, TOP = 150.0, 70.0, 24.0


def bars(rows: list[tuple[str, int]], label: str) -> str:
    """One horizontal bar per row (label, count), longest the widest; counts and shares at
    the bar's end."""
    total = sum(c for _, c in rows) or 1
    top = max([c for _, c in rows] + [1])
    plot_w = WIDTH - LEFT - RIGHT
    parts = [tag("rect", x=0, y=0, width=WIDTH, height=TOP + ROW * len(rows) + 8, fill="#fff")]
    for n, (name, count) in enumerate(rows):
        y = TOP + n * ROW
        width = plot_w * count / top
        parts.append(text(name, x=LEFT - 6, y=y + 12, font_size=11, text_anchor="end"))
        parts.append(
            tag(
                "rect",
                title(f"{name}: {plural(count, 'game')} ({count / total:.1%})"),
                x=LEFT,
                y=y + 2,
                width=max(width, 0.5),
                height=ROW - 4,
                fill=SIDE_FILL["A"],
            )
        )
        parts.append(
            text(f"{count} ({count / total:.1%})", x=LEFT + width + 4, y=y + 12, font_size=10)
        )
    parts.append(text(label, x=8, y=14, font_size=11, font_weight="bold"))
    return svg(WIDTH, TOP + ROW * len(rows) + 8, "".join(parts), label)


def intervals(
    rows: list[tuple[str, float, float, float]],
    scale: tuple[float, float],
    label: str,
    percent: bool,
) -> str:
    """Each row (label, estimate, lo, hi) a dot with its interval on a common scale; the
    estimates joined by a line, so a sweep reads as a curve."""
    start, stop = scale
    span = (stop - start) or 1.0
    plot_w = WIDTH - LEFT - RIGHT
    height = TOP + ROW * len(rows) + 24

    def x(value: float) -> float:
        return LEFT + plot_w * (value - start) / span

    parts = [tag("rect", x=0, y=0, width=WIDTH, height=height, fill="#fff")]
    for tick in (start, (start + stop) / 2, stop):
        parts.append(
            tag(
                "line",
                x1=x(tick),
                y1=TOP,
                x2=x(tick),
                y2=height - 20,
                stroke="#bbb",
                stroke_dasharray="5 4",
            )
        )
        shown = f"{tick:.0%}" if percent else f"{tick:.1f}"
        parts.append(text(shown, x=x(tick), y=height - 6, font_size=10, text_anchor="middle"))
    points = []
    for n, (name, estimate, lo, hi) in enumerate(rows):
        y = TOP + n * ROW + ROW / 2
        points.append(f"{x(estimate):.1f},{y:.1f}")
        parts.append(text(name, x=LEFT - 6, y=y + 4, font_size=11, text_anchor="end"))
        parts.append(tag("line", x1=x(lo), y1=y, x2=x(hi), y2=y, stroke="#555", stroke_width=2))
        shown = (
            f"{estimate:.1%} ({lo:.1%}-{hi:.1%})"
            if percent
            else f"{estimate:.2f} ({lo:.2f}-{hi:.2f})"
        )
        parts.append(
            tag("circle", title(f"{name}: {shown}"), cx=x(estimate), cy=y, r=4, fill=SIDE_FILL["A"])
        )
    if len(points) > 1:
        parts.insert(
            1,
            tag("polyline", points=" ".join(points), fill="none", stroke="#9ab", stroke_width=1.5),
        )
    parts.append(text(label, x=8, y=14, font_size=11, font_weight="bold"))
    return svg(WIDTH, height, "".join(parts), label)
