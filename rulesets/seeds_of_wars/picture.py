"""Seeds of Wars' battlefield as an SVG picture (the report's hook): the grid of spaces, side
B's Reserve at the top, each unit a tag in its space showing its state and the Ht it has taken."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wargame_cli.rulesets.seeds_of_wars.state import Battle

from wargame_cli.report.svg import SIDE_FILL, svg, tag, text, title

CELL_W, CELL_H, LABEL_W, TOP = 150.0, 64.0, 96.0, 22.0
TAG_H = 18.0
STATE_FILL = {"Steady": 1.0, "Shaken": 0.7, "Routed": 0.45}


def picture(state: Battle, names: dict[str, str], events: Sequence[dict[str, Any]] = ()) -> str:
    board = state.board
    width = LABEL_W + board.columns * CELL_W + 8
    height = TOP + board.rows * CELL_H + 8
    parts = [tag("rect", x=0, y=0, width=width, height=height, fill="#f4efe1")]
    for col in range(board.columns):
        x = LABEL_W + col * CELL_W + CELL_W / 2
        parts.append(text(board.key((0, col))[0], x=x, y=15, font_size=11, text_anchor="middle"))
    for row in range(board.rows):
        y = TOP + (board.rows - 1 - row) * CELL_H
        label = board.row_label(row)
        side = label[0] if label[:2] in ("A ", "B ") else ""
        parts.append(
            text(
                f"{row + 1} {label}",
                x=4,
                y=y + CELL_H / 2 + 4,
                font_size=10,
                fill=SIDE_FILL.get(side, "#555"),
            )
        )
        for col in range(board.columns):
            x = LABEL_W + col * CELL_W
            shade = "#eae3cf" if side == "" else "#fbf8ef"
            parts.append(
                tag("rect", x=x, y=y, width=CELL_W, height=CELL_H, fill=shade, stroke="#777")
            )
            for i, unit in enumerate(state.at((row, col))):
                top = y + 4 + i * (TAG_H + 3)
                words = f"{unit.name} {unit.state} {unit.taken}/{unit.kind.ht} Ht"
                parts.append(
                    tag(
                        "g",
                        title(f"{unit.name} ({names.get(unit.side, unit.side)}): {words}")
                        + tag(
                            "rect",
                            x=x + 4,
                            y=top,
                            width=CELL_W - 8,
                            height=TAG_H,
                            rx=3,
                            fill=SIDE_FILL.get(unit.side, "#333"),
                            fill_opacity=STATE_FILL.get(unit.state, 1.0),
                        )
                        + text(words, x=x + 8, y=top + 13, font_size=10, fill="#fff"),
                    )
                )
    label = "The battlefield" if state.round == 0 else f"The battlefield, round {state.round}"
    return svg(width, height, "".join(parts), label)
