"""`wargame dice --html FILE`: one roll's exact odds as a self-contained page (the battle
report's style, inline SVG, no script): a column chart of the distribution, the values where
a comparison holds in their own colour, and the table the terminal shows, with each chance
as an exact fraction too."""

from __future__ import annotations

from typing import Any

from wargame_cli.report.html import STYLE, h
from wargame_cli.report.svg import svg, tag, text, title
from wargame_cli.wording import fine_percent

WIDTH, HEIGHT = 720.0, 280.0
LEFT, RIGHT, TOP, BOTTOM = 52.0, 16.0, 28.0, 40.0
FILL = {None: "#1f77b4", True: "#2e8b57", False: "#b8b8b8"}  # plain, comparison holds, fails

TABLE_STYLE = """
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: right; }
.chance { font-size: 1.2rem; }
"""


TAIL = 0.00005  # a chance shown as <0.01%: tails this thin are left out of a long table
MAX_BARS = 400  # columns in the chart; more values are grouped (every one in the table)


def rows_shown(rows: list[dict[str, Any]], most: int) -> tuple[list[dict[str, Any]], str]:
    """At most `most` rows for a terminal or a chart, and a note on what was left out or
    grouped: a long distribution loses its thinnest tails, then groups neighbouring values."""
    if len(rows) <= most:
        return rows, ""
    first = next(i for i, r in enumerate(rows) if r["at_most"] >= TAIL)
    last = max(i for i, r in enumerate(rows) if r["at_least"] >= TAIL)
    kept = rows[first : last + 1]
    notes = []
    if first > 0 or last < len(rows) - 1:
        notes.append(
            f"values below {kept[0]['value']} and above {kept[-1]['value']} left out "
            f"(each tail under {100 * TAIL:g}%)"
        )
    if len(kept) > most:
        width = -(-len(kept) // most)
        grouped = []
        for i in range(0, len(kept), width):
            part = kept[i : i + width]
            holds = {r.get("holds") for r in part}
            grouped.append(
                {
                    "value": f"{part[0]['value']}..{part[-1]['value']}",
                    "exact": "",
                    "chance": sum(r["chance"] for r in part),
                    "at_least": part[0]["at_least"],
                    "at_most": part[-1]["at_most"],
                    "holds": holds.pop() if len(holds) == 1 else None,
                }
            )
        kept = grouped
        notes.append(f"values grouped {width} a row")
    return kept, "; ".join(notes) + ": every value is in --json and --html"


def _scale(top: float) -> float:
    """The chart's top: the first round step (1, 2 or 5 times a power of ten) times four
    that reaches `top`, so the axis reads 0%, 5%, 10%..."""
    step = 1e-6
    while True:
        for m in (1, 2, 2.5, 5):
            if 4 * step * m >= top:
                return 4 * step * m
        step *= 10


def page(result: dict[str, Any]) -> str:
    """The whole page for a roll's result (the JSON `wargame dice --json` prints)."""
    heading = result["expression"]
    if "roll" in result:
        heading = f"{result['ruleset_name']}: {result['roll']}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{h(heading)}</title><style>{STYLE}{TABLE_STYLE}</style></head><body>",
        f"<h1>{h(heading)}</h1>",
    ]
    if "roll" in result:
        params = ", ".join(f"{k} {v}" for k, v in result["params"].items())
        rules = ", ".join(result["rules"])
        out.append(
            f'<p class="meta">{h(result["doc"])}'
            + (f" ({h(params)})" if params else "")
            + (f" [{h(rules)}]" if rules else "")
            + "</p>"
        )
    out.append(f"<p>Roll: <code>{h(result['expression'])}</code>")
    if result["of"] != result["expression"]:
        out.append(f"; values: <code>{h(result['of'])}</code>")
    out.append(f"; mean {result['mean']:.4g} ({h(result['mean_exact'])}).</p>")
    if result["chance"] is not None:
        out.append(
            f'<p class="chance">Chance of <code>{h(result["expression"])}</code>: '
            f"<strong>{fine_percent(result['chance'])}</strong> ({h(result['chance_exact'])})</p>"
        )
    out.append(f"<figure>{chart(result)}</figure>")
    out.append(_table(result))
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def chart(result: dict[str, Any]) -> str:
    """A column per value, as tall as its chance; the value axis labelled at most every
    few columns so the labels never overlap."""
    rows, note = rows_shown(result["distribution"], MAX_BARS)
    top = _scale(max(r["chance"] for r in rows))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / len(rows)
    every = max(1, round(28 / step))  # a label at least 28 px from the next
    parts = [tag("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#fff")]
    for k in range(5):
        share = top * k / 4
        y = TOP + plot_h * (1 - k / 4)
        parts.append(tag("line", x1=LEFT, y1=y, x2=WIDTH - RIGHT, y2=y, stroke="#ddd"))
        parts.append(
            text(f"{100 * share:g}%", x=LEFT - 4, y=y + 4, font_size=10, text_anchor="end")
        )
    for i, r in enumerate(rows):
        x = LEFT + i * step
        height = plot_h * r["chance"] / top
        parts.append(
            tag(
                "rect",
                title(f"{r['value']}: {fine_percent(r['chance'])} {r['exact']}".strip()),
                x=x + min(1.0, step * 0.1),
                y=TOP + plot_h - height,
                width=max(step - 2 * min(1.0, step * 0.1), 0.5),
                height=max(height, 0.5),
                fill=FILL[r.get("holds")],
            )
        )
        if i % every == 0:
            parts.append(
                text(
                    r["value"],
                    x=x + step / 2,
                    y=HEIGHT - BOTTOM + 14,
                    font_size=10,
                    text_anchor="middle",
                )
            )
    parts.append(text(result["of"], x=WIDTH - RIGHT, y=HEIGHT - 8, font_size=11, text_anchor="end"))
    label = f"The chance of each value of {result['of']}"
    if note:
        label += f" ({note.partition(':')[0]})"
    parts.append(text(label, x=8, y=16, font_size=11, font_weight="bold"))
    return svg(WIDTH, HEIGHT, "".join(parts), label)


def _table(result: dict[str, Any]) -> str:
    head = ["value", "exact %", "exact", "at least %", "at most %"]
    if result["chance"] is not None:
        head.append("holds")
    cells = "".join(f"<th>{h(c)}</th>" for c in head)
    body = []
    for r in result["distribution"]:
        row = [
            str(r["value"]),
            fine_percent(r["chance"]),
            r["exact"],
            fine_percent(r["at_least"]),
            fine_percent(r["at_most"]),
        ]
        if result["chance"] is not None:
            row.append("yes" if r.get("holds") else "no")
        body.append("<tr>" + "".join(f"<td>{h(c)}</td>" for c in row) + "</tr>")
    return f"<table><tr>{cells}</tr>{''.join(body)}</table>"
