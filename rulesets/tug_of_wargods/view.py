"""Tug of WarGods on screen: each turn's dice table and the track of the table in inches."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.rule import Rule
from rich.table import Table
from rich.text import Text
from wargame_cli.rulesets.tug_of_wargods.rules import TugState
from wargame_cli.rulesets.tug_of_wargods.teams import told_apart

from wargame_cli.text import SIDE_STYLE, clean
from wargame_cli.view import NOBODY_KNOWN, Players, ViewOf

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
                Text(f"{side} {clean(team.name)}", style=STYLE[side]) if i == 0 else "",
                told_apart(team.units, side, i),
                f"d{model.die}",
                str(record.faces[side][i]),
            )
        modifier = record.modifiers[side]
        total = Text(f"total {record.totals[side]}", style="bold")
        note = f"modifier {modifier:+d} (a16)" if modifier else ""
        table.add_row("", note, "", total, end_section=True)
    a, b = record.totals["A"], record.totals["B"]
    if record.winner is None:
        penalty = state.sides["A"].penalty
        table.caption = f"Tie at {a}: nobody moves (a15); -{penalty} on the next roll (a16)"
    else:
        name = clean(state.sides[record.winner].name)
        table.caption = f"Difference {abs(a - b)}: {name} pulls {_inches(record.pull)} (a13, a14)"
    return table


SCALES = (2, 1)  # characters per inch, the finest that fits the width first


def _label_cells(x: int, centre: int, own: int) -> tuple[int, int]:
    """The two cells of a label for a model drawn at cell `x`: reaching away from the centre
    line, and off it when the model stands exactly on it (to its own side, `own` = -1 or 1)."""
    away = own if x == centre else (1 if x > centre else -1)
    start = x + away if x == centre else x
    return (start, start + away)


@dataclass
class Track:
    """The rope: side A's column on the left, B's on the right, the centre line `|` between;
    each model drawn as its side letter and place in its column (`A1`, `B2`), so the sides read
    apart without colour and a model across the line shows whose it is. Two characters per
    inch, one when that would not fit, and a model list instead when even that would not."""

    state: TugState

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        state = self.state
        reach = max(abs(m.distance) for t in state.sides.values() for m in t.models) + 1
        half = math.ceil(reach)
        scale = next((s for s in SCALES if half * 2 * s + 3 <= options.max_width), None)
        yield Text("Track (side A | centre line | side B):", style="bold")
        if scale is None:
            for side in ("A", "B"):
                for i, model in enumerate(state.sides[side].models):
                    where = "across" if model.across else "own side"
                    yield Text(f"{side}{i + 1} {_inches(model.distance)} ({where})")
            return
        width = half * 2 * scale + 1
        centre = half * scale
        cells: list[tuple[str, str]] = [("-", "dim")] * width
        cells[centre] = ("|", "bold yellow")
        taken = {centre}
        for side, sign in (("A", -1), ("B", 1)):
            for i, model in enumerate(state.sides[side].models):
                x = min(width - 1, max(0, centre + sign * round(model.distance * scale)))
                first, second = _label_cells(x, centre, sign)
                step = second - first
                while (first in taken or second in taken) and 0 <= second + step < width:
                    first, second = first + step, second + step
                style = STYLE[side] + (" reverse" if model.across else "")
                label = f"{side}{i + 1}" if step > 0 else f"{i + 1}{side}"
                for cell, char in zip((first, second), label, strict=True):
                    if 0 <= cell < width:
                        cells[cell] = (char, style)
                        taken.add(cell)
        line = Text()
        for char, style in cells:
            line.append(char, style=style)
        yield line
        left, right = f'A {half}"', f'{half}" B'
        yield Text(left.ljust(centre) + "0" + right.rjust(width - centre - 1), style="dim")


def track(state: TugState) -> Group:
    """The track, then each model: die, distance (own side or across), crossings."""
    legend = Table.grid(padding=(0, 2))
    for side in ("A", "B"):
        team = state.sides[side]
        for i, model in enumerate(team.models):
            where = "across" if model.across else "own side"
            legend.add_row(
                Text(f"{side}{i + 1}", style=STYLE[side]),
                Text(clean(team.name) if i == 0 else ""),
                model.unit,
                f"d{model.die}",
                f"{_inches(model.distance)} ({where})",
                f"crossings {model.crossings}",
            )
    parts: list[Any] = [Track(state), legend]
    penalties = [(side, state.sides[side].penalty) for side in ("A", "B")]
    if any(p for _, p in penalties):
        line = Text("Next roll: ", style="bold")
        line.append(", ".join(f"{side} -{p}" for side, p in penalties if p) + " (a16, after ties)")
        parts.append(line)
    return Group(*parts)


def board(state: TugState, names: dict[str, str] | None = None) -> Group:
    return track(state)


# -- the decision screen's pieces -------------------------------------------------------------


def _side_line(state: TugState, side: str) -> Text:
    team = state.sides[side]
    line = Text(f"{side} {clean(team.name)}:", style=STYLE[side])
    for i, model in enumerate(team.models):
        line.append(f" {side}{i + 1} {model.unit} d{model.die} {_inches(model.distance)}")
    if team.penalty:
        line.append(f"; -{team.penalty} on its next roll (a16)")
    return line


def compact_board(state: TugState, names: dict[str, str] | None = None) -> Group:
    """The track and one line per team: a handful of lines."""
    return Group(Track(state), _side_line(state, "A"), _side_line(state, "B"))


def team_card(state: TugState, side: str, brief: bool = False) -> Any:
    """One team: its dice, the penalty on its next roll, each model's place and crossings."""
    from wargame_cli.ui import facts

    team = state.sides[side]
    dice = " + ".join(f"d{m.die}" for m in team.models)
    rows: list[tuple[str, Any]] = [
        ("dice", f"{dice} (from {len(team.models)} to {sum(m.die for m in team.models)})"),
        ("next roll", f"-{team.penalty} after ties (a16)" if team.penalty else "no modifier"),
    ]
    for i, model in enumerate(team.models):
        where = "across" if model.across else "own side"
        rows.append(
            (
                f"{side}{i + 1}",
                f"{model.unit}, {_inches(model.distance)} ({where}), crossings {model.crossings}",
            )
        )
    return facts.card(team.name, side, rows, brief=brief)


def card(state: TugState, choice: Any, names: dict[str, str] | None = None) -> Any:
    """Tug asks no questions of its own; for any it is asked (dice by hand), the asking team's
    card and both sides' chance from here."""
    side = choice.side
    parts: list[Any] = [team_card(state, side, brief=True)] if side in state.sides else []
    parts.append(chances(state))
    return Group(*parts)


def cards(state: TugState, names: dict[str, str] | None = None) -> list[tuple[str, Any]]:
    return [(clean(state.sides[side].name), team_card(state, side)) for side in ("A", "B")]


def render_entry(
    entry: dict[str, Any], state: TugState, names: dict[str, str], players: Players = NOBODY_KNOWN
) -> Any:
    """The dice table and track after each pull or tie; rolls are shown in that table."""
    if entry["t"] == "roll":
        return False
    if entry["t"] == "turn" and entry["n"] == 1:  # the starting line-up, before the first roll
        return Group(Rule(f"Turn {entry['n']}"), Text("The starting line-up (a10):"), track(state))
    if entry["t"] == "event" and entry.get("kind") in ("pull", "tie"):
        return Group(dice_table(state), Text(clean(entry["text"])), track(state), chances(state))
    return None


def chances(state: TugState) -> Text:
    """Each side's exact chance of winning from here, e.g. `Greentoe 73% · Clearsky 27%`."""
    from wargame_cli.rulesets.tug_of_wargods.odds import chance_line

    return Text.assemble(("Chance to win: ", "dim"), (clean(chance_line(state)), "bold"))


VIEW = ViewOf(board, compact_board, card, cards, render_entry)
