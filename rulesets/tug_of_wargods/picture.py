"""Tug of WarGods as SVG (the report's hooks): the track with the centre line and both columns
where they stand, and side A's exact chance of winning from a position."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wargame_cli.rulesets.tug_of_wargods.rules import TugState

from wargame_cli.report.svg import SIDE_FILL, svg, tag, text, title
from wargame_cli.wording import plural

SCALE = 28.0  # pixels per inch
ROW = {"A": 46.0, "B": 86.0}  # each team's lane
HEIGHT = 120.0


def picture(state: TugState, names: dict[str, str], events: Sequence[dict[str, Any]] = ()) -> str:
    """The centre line in the middle, side A's column on its left, B's on its right; a model
    pulled across stands on the other side of the line, ringed."""
    reach = max([abs(m.distance) for team in state.sides.values() for m in team.models] + [1.0])
    half = (reach + 1.5) * SCALE
    width = 2 * half
    centre = half
    parts = [
        tag("rect", x=0, y=0, width=width, height=HEIGHT, fill="#f4efe1", stroke="#555"),
        tag(
            "line",
            x1=centre,
            y1=8,
            x2=centre,
            y2=HEIGHT - 8,
            stroke="#222",
            stroke_width=2,
            stroke_dasharray="6 4",
        ),
        text("centre line", x=centre + 4, y=18, font_size=10, fill="#222"),
    ]
    for side, team in state.sides.items():
        sign = -1 if side == "A" else 1
        y = ROW.get(side, HEIGHT / 2)
        parts.append(
            text(
                names.get(side, team.name),
                x=8 if side == "A" else width - 8,
                y=y - 14,
                font_size=11,
                fill=SIDE_FILL.get(side, "#333"),
                text_anchor="start" if side == "A" else "end",
            )
        )
        for model in team.models:
            x = centre + sign * model.distance * SCALE
            ring = "#f1c40f" if model.across else "#111"
            parts.append(
                tag(
                    "g",
                    title(
                        f'{model.unit} (d{model.die}), {model.distance:g}" from the line, '
                        f"pulled across {plural(model.crossings, 'time')}"
                    )
                    + tag(
                        "circle",
                        cx=x,
                        cy=y,
                        r=9,
                        fill=SIDE_FILL.get(side, "#333"),
                        stroke=ring,
                        stroke_width=3 if model.across else 1,
                    )
                    + text(
                        f"d{model.die}",
                        x=x,
                        y=y + 4,
                        font_size=9,
                        fill="#fff",
                        text_anchor="middle",
                    ),
                )
            )
    label = f"The rope after turn {state.turn}"
    return svg(width, HEIGHT, "".join(parts), label)


def chance(state: TugState) -> float:
    """Side A's exact chance of winning from here."""
    from wargame_cli.rulesets.tug_of_wargods import odds

    return float(odds.chance_from_state(state, state.options)["A"])
