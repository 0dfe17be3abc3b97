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
    rows = result["distribution"]
    top = max(r["chance"] for r in rows) or 1.0
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / len(rows)
    every = max(1, round(28 / step))  # a label at least 28 px from the next
    parts = [tag("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#fff")]
    for k in range(5):
        share = top * k / 4
        y = TOP + plot_h * (1 - k / 4)
        parts.append(tag("line", x1=LEFT, y1=y, x2=WIDTH - RIGHT, y2=y, stroke="#ddd"))
        parts.append(
            text(fine_percent(share), x=LEFT - 4, y=y + 4, font_size=10, text_anchor="end")
        )
    for i, r in enumerate(rows):
        x = LEFT + i * step
        height = plot_h * r["chance"] / top
        parts.append(
            tag(
                "rect",
                title(f"{r['value']}: {fine_percent(r['chance'])} ({r['exact']})"),
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
