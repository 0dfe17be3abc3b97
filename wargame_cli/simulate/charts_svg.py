"""A simulation's charts as SVG (`simulate --html`): bars for histograms and dots with their
95% intervals against a setting. Built on `report/svg.py`, so every word is escaped."""

from __future__ import annotations

from wargame_cli.report.svg import SIDE_FILL, svg, tag, text, title
from wargame_cli.text import clean
from wargame_cli.wording import plural

PLOT = 340.0  # the plot's own width; the label column is as wide as its longest label
ROW = 18.0
RIGHT, TOP = 110.0, 24.0
CHAR = 7.0  # px a character of 11px text may take (wide serif capitals included)


def label_width(labels: list[str], least: float = 60.0) -> float:
    """The label column: every label whole (never cut at a fixed width)."""
    return max([least, *(len(clean(label)) * CHAR + 12 for label in labels)])


def bars(rows: list[tuple[str, int]], label: str) -> str:
    """One horizontal bar per row (label, count), longest the widest; counts and shares at
    the bar's end."""
    total = sum(c for _, c in rows) or 1
    top = max([c for _, c in rows] + [1])
    lw = label_width([name for name, _ in rows])
    full = lw + PLOT + RIGHT
    plot_w = PLOT
    parts = [tag("rect", x=0, y=0, width=full, height=TOP + ROW * len(rows) + 8, fill="#fff")]
    for n, (name, count) in enumerate(rows):
        y = TOP + n * ROW
        width = plot_w * count / top
        parts.append(text(name, x=lw - 6, y=y + 12, font_size=11, text_anchor="end"))
        parts.append(
            tag(
                "rect",
                title(f"{name}: {plural(count, 'game')} ({count / total:.1%})"),
                x=lw,
                y=y + 2,
                width=max(width, 0.5),
                height=ROW - 4,
                fill=SIDE_FILL["A"],
            )
        )
        parts.append(
            text(f"{count} ({count / total:.1%})", x=lw + width + 4, y=y + 12, font_size=10)
        )
    parts.append(text(label, x=8, y=14, font_size=11, font_weight="bold"))
    return svg(full, TOP + ROW * len(rows) + 8, "".join(parts), label)


def intervals(
    rows: list[tuple[str, float, float, float]],
    scale: tuple[float, float],
    label: str,
    percent: bool,
    zero: float | None = None,
    joined: bool = True,
) -> str:
    """Each row (label, estimate, lo, hi) a dot with its interval on a common scale (a
    dashed line at each end and the middle; `zero` adds a solid one there: no difference).
    `joined`: the estimates joined by a line."""
    start, stop = scale
    span = (stop - start) or 1.0
    lw = label_width([row[0] for row in rows])
    full = lw + PLOT + RIGHT
    plot_w = PLOT
    height = TOP + ROW * len(rows) + 24

    def x(value: float) -> float:
        return lw + plot_w * (value - start) / span

    parts = [tag("rect", x=0, y=0, width=full, height=height, fill="#fff")]
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
    if zero is not None and start <= zero <= stop:
        parts.append(tag("line", x1=x(zero), y1=TOP, x2=x(zero), y2=height - 20, stroke="#222"))
    points = []
    for n, (name, estimate, lo, hi) in enumerate(rows):
        y = TOP + n * ROW + ROW / 2
        points.append(f"{x(estimate):.1f},{y:.1f}")
        parts.append(text(name, x=lw - 6, y=y + 4, font_size=11, text_anchor="end"))
        parts.append(tag("line", x1=x(lo), y1=y, x2=x(hi), y2=y, stroke="#555", stroke_width=2))
        shown = (
            f"{estimate:+.1%} ({lo:+.1%} to {hi:+.1%})"
            if percent and zero is not None
            else f"{estimate:.1%} ({lo:.1%}-{hi:.1%})"
            if percent
            else f"{estimate:.2f} ({lo:.2f}-{hi:.2f})"
        )
        parts.append(
            tag("circle", title(f"{name}: {shown}"), cx=x(estimate), cy=y, r=4, fill=SIDE_FILL["A"])
        )
        parts.append(text(shown, x=lw + plot_w + 6, y=y + 4, font_size=10))
    if joined and len(points) > 1:
        parts.insert(
            1,
            tag("polyline", points=" ".join(points), fill="none", stroke="#9ab", stroke_width=1.5),
        )
    parts.append(text(label, x=8, y=14, font_size=11, font_weight="bold"))
    return svg(full, height, "".join(parts), label)


def sweep(
    points: list[tuple[float, float, float, float]],
    exact: list[tuple[float, float]],
    key: str,
    label: str,
) -> str:
    """A sweep against its value: x the swept value, y side A's win rate; each setting's
    bot games a dot with its 95% interval, and where the ruleset has exact odds, the exact
    curve under them (`exact`: (value, chance) pairs)."""
    width, height = 560.0, 300.0
    left, right, top, bottom = 56.0, 16.0, 28.0, 44.0
    xs = [p[0] for p in points] + [e[0] for e in exact]
    ys = [v for p in points for v in p[2:]] + [e[1] for e in exact]
    x0, x1 = min(xs), max(xs)
    if x0 == x1:
        x0, x1 = x0 - 1, x1 + 1
    pad = (max(ys) - min(ys)) * 0.08 or 0.05
    y0, y1 = max(0.0, min(ys) - pad), min(1.0, max(ys) + pad)
    if y1 - y0 < 0.02:
        y0, y1 = max(0.0, y0 - 0.01), min(1.0, y1 + 0.01)

    def sx(v: float) -> float:
        return left + (width - left - right) * (v - x0) / (x1 - x0)

    def sy(v: float) -> float:
        return top + (height - top - bottom) * (y1 - v) / ((y1 - y0) or 1.0)

    parts = [tag("rect", x=0, y=0, width=width, height=height, fill="#fff")]
    for n in range(5):
        v = y0 + (y1 - y0) * n / 4
        parts.append(tag("line", x1=left, y1=sy(v), x2=width - right, y2=sy(v), stroke="#eee"))
        parts.append(
            text(
                f"{v:.0%}" if y1 - y0 > 0.08 else f"{v:.1%}",
                x=left - 4,
                y=sy(v) + 4,
                font_size=10,
                text_anchor="end",
            )
        )
    for v in sorted({p[0] for p in points}):
        parts.append(
            text(f"{v:g}", x=sx(v), y=height - bottom + 16, font_size=10, text_anchor="middle")
        )
    parts.append(
        text(
            key,
            x=(left + width - right) / 2,
            y=height - 8,
            font_size=11,
            text_anchor="middle",
            font_weight="bold",
        )
    )
    if len(exact) > 1:
        line = " ".join(f"{sx(v):.1f},{sy(c):.1f}" for v, c in sorted(exact))
        parts.append(
            tag(
                "polyline",
                title("exact odds"),
                points=line,
                fill="none",
                stroke="#2a7",
                stroke_width=2,
                class_="exact",
            )
        )
    for v, c in exact:
        parts.append(
            tag(
                "circle",
                title(f"{key}={v:g}: exact {c:.2%}"),
                cx=sx(v),
                cy=sy(c),
                r=2.5,
                fill="#2a7",
            )
        )
    for v, est, lo, hi in points:
        parts.append(
            tag("line", x1=sx(v), y1=sy(lo), x2=sx(v), y2=sy(hi), stroke="#555", stroke_width=2)
        )
        parts.append(
            tag(
                "circle",
                title(f"{key}={v:g}: bot games {est:.1%} ({lo:.1%}-{hi:.1%})"),
                cx=sx(v),
                cy=sy(est),
                r=4,
                fill=SIDE_FILL["A"],
                class_="games",
            )
        )
    parts.append(text(label, x=8, y=16, font_size=11, font_weight="bold"))
    key_text = "dots: bot games with 95% intervals" + ("; line: exact odds" if exact else "")
    parts.append(text(key_text, x=width - right, y=16, font_size=10, text_anchor="end"))
    return svg(width, height, "".join(parts), label)
