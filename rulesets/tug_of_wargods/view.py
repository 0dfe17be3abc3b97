"""Tug of WarGods on screen: each turn's dice table and the track of the table in inches."""

from __future__ import annotations

import math
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from rulesets.tug_of_wargods.rules import TugState
from wargame_cli.ui.text import SIDE_STYLE, clean

STYLE = SIDE_STYLE


def _inches(value: float) -> str:
    return f'{value:g}"'


def dice_table(state: TugState) -> Table:
    record = state.last
    table = Table(title=f"Turn {state.turn}: the roll", show_header=True)
    for column in ("team", "unit", "die", "face"):
        table.add_column(column)
    if record is None:
        return table
    for side in ("A", "B"):
        team = state.sides[side]
        for i, model in enumerate(team.models):
            table.add_row(
                Text(clean(team.name), style=STYLE[side]) if i == 0 else "",
                model.unit,
                f"d{model.die}",
                str(record.faces[side][i]),
            )
        modifier = record.modifiers[side]
        total = Text(f"total {record.totals[side]}", style="bold")
        note = f"modifier {modifier:+d} (a16)" if modifier else ""
        table.add_row("", note, "", total, end_section=True)
    a, b = record.totals["A"], record.totals["B"]
    if record.winner is None:
        table.caption = f"Tie at {a}: nobody moves (a15); -1 on the next roll (a16)"
    else:
        name = clean(state.sides[record.winner].name)
        table.caption = f"Difference {abs(a - b)}: {name} pulls {_inches(record.pull)} (a13, a14)"
    return table


def track(state: TugState) -> Group:
    """Side A on the left, B on the right, the centre line between; 2 characters per inch."""
    reach = max(abs(m.distance) for t in state.sides.values() for m in t.models) + 1
    half = math.ceil(reach)
    width = half * 4 + 1
    centre = half * 2
    cells: list[tuple[str, str]] = [("-", "dim")] * width
    cells[centre] = ("|", "bold yellow")
    for side, sign in (("A", -1), ("B", 1)):
        for i, model in enumerate(state.sides[side].models):
            x = centre + sign * round(model.distance * 2)
            x = min(width - 1, max(0, x))
            cells[x] = (str(i + 1), STYLE[side] + (" reverse" if model.across else ""))
    line = Text()
    for char, style in cells:
        line.append(char, style=style)
    ruler = Text(f'{half}"'.ljust(centre) + "0" + f'{half}"'.rjust(centre), style="dim")
    legend = Table.grid(padding=(0, 2))
    for side in ("A", "B"):
        team = state.sides[side]
        for i, model in enumerate(team.models):
            where = "across" if model.across else "own side"
            legend.add_row(
                Text(f"{side}{i + 1}", style=STYLE[side]),
                Text(clean(team.name)),
                model.unit,
                f"d{model.die}",
                f"{_inches(model.distance)} ({where})",
                f"crossings {model.crossings}",
            )
    return Group(Text("Track (A | centre line | B):", style="bold"), line, ruler, legend)


def board(state: TugState, names: dict[str, str] | None = None) -> Group:
    return track(state)


def render_entry(entry: dict[str, Any], state: TugState, names: dict[str, str]) -> Any:
    """The dice table and track after each pull or tie; rolls are shown in that table."""
    if entry["t"] == "roll":
        return False
    if entry["t"] == "event" and entry.get("kind") in ("pull", "tie"):
        return Group(dice_table(state), Text(clean(entry["text"])), track(state), chances(state))
    return None


def chances(state: TugState) -> Text:
    """Each side's exact chance of winning from here, e.g. `Greentoe 73% · Clearsky 27%`."""
    from rulesets.tug_of_wargods.odds import chance_line

    return Text.assemble(("Chance to win: ", "dim"), (clean(chance_line(state)), "bold"))
