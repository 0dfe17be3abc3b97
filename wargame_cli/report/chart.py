"""A win-chance line over a game as an SVG chart: side A's chance after each turn, 0-100%,
the even-odds line dashed, each side's name at its end of the scale."""

from __future__ import annotations

from wargame_cli.report.svg import SIDE_FILL, svg, tag, text, title
from wargame_cli.wording import percent

WIDTH, HEIGHT = 560.0, 220.0
LEFT, RIGHT, TOP, BOTTOM = 48.0, 16.0, 24.0, 32.0


def chance_chart(points: list[tuple[int, float]], names: dict[str, str]) -> str:
    turns = max([t for t, _ in points] + [1])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def at(turn: int, chance: float) -> tuple[float, float]:
        return LEFT + plot_w * turn / turns, TOP + plot_h * (1 - chance)

    parts = [tag("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#fff")]
    for pct in (0, 25, 50, 75, 100):
        _, y = at(0, pct / 100)
        parts.append(
            tag(
                "line",
                x1=LEFT,
                y1=y,
                x2=WIDTH - RIGHT,
                y2=y,
                stroke="#bbb",
                stroke_dasharray="5 4" if pct == 50 else None,
            )
        )
        parts.append(text(f"{pct}%", x=LEFT - 6, y=y + 4, font_size=10, text_anchor="end"))
    for turn in range(turns + 1):
        x, _ = at(turn, 0)
        parts.append(
            text(str(turn), x=x, y=HEIGHT - BOTTOM + 14, font_size=10, text_anchor="middle")
        )
    parts.append(text("turn", x=WIDTH - RIGHT, y=HEIGHT - 4, font_size=10, text_anchor="end"))
    parts.append(text(f"{names['A']} wins", x=LEFT, y=TOP - 8, font_size=11, fill=SIDE_FILL["A"]))
    parts.append(
        text(f"{names['B']} wins", x=LEFT, y=HEIGHT - 4, font_size=11, fill=SIDE_FILL["B"])
    )
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(t, c) for t, c in points))
    parts.append(tag("polyline", points=line, fill="none", stroke=SIDE_FILL["A"], stroke_width=2.5))
    for turn, chance in points:
        x, y = at(turn, chance)
        parts.append(
            tag(
                "circle",
                title(f"after turn {turn}: {names['A']} {percent(chance)}"),
                cx=x,
                cy=y,
                r=3.5,
                fill=SIDE_FILL["A"],
            )
        )
    return svg(WIDTH, HEIGHT, "".join(parts), f"{names['A']}'s chance of winning, turn by turn")
