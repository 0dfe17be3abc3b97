"""Seeds of Wars on screen (rich): the battlefield grid with every unit's state and Ht taken,
beside a panel of unit profiles. The only module of the ruleset that imports rich."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from rulesets.seeds_of_wars.state import ROUTED, SHAKEN, SIDES, Battle, Unit
from wargame_cli.ui.text import SIDE_STYLE, clean

STATE_STYLE = {SHAKEN: "yellow", ROUTED: "bold magenta"}
MAP_EVENTS = ("move", "flee", "retreat", "deploy")  # after these the grid is shown again


def _unit_line(unit: Unit) -> Text:
    line = Text()
    line.append(f"{unit.uid} {clean(unit.kind.name)}", style=SIDE_STYLE[unit.side])
    line.append("\n ")
    line.append(unit.state, style=STATE_STYLE.get(unit.state, "green"))
    line.append(f" Ht {unit.taken}/{unit.kind.ht}", style="dim" if unit.taken == 0 else "bold")
    return line


def grid(battle: Battle, title: str | None = None) -> Panel:
    """Side B's Reserve at the top, side A's at the bottom; one cell per space."""
    board = battle.board
    table = Table(show_header=True, show_lines=True, header_style="bold", expand=False)
    table.add_column("row", style="dim", no_wrap=True)
    for col in range(board.columns):
        table.add_column(board.key((0, col))[0], min_width=12)
    for row in range(board.rows - 1, -1, -1):
        label = board.row_label(row)
        style = SIDE_STYLE.get(label[0], "") if label[:2] in ("A ", "B ") else "dim"
        cells: list[Any] = [Text(f"{row + 1} {label}", style=style)]
        for col in range(board.columns):
            units = battle.at((row, col))
            cells.append(Text("\n").join(_unit_line(u) for u in units) if units else Text("."))
        table.add_row(*cells)
    if title is None:
        title = _title(battle)
    return Panel(table, title=Text(title), expand=False)


def _title(battle: Battle) -> str:
    if battle.result is not None:
        return "The battle is over"
    if battle.round == 0:
        return "Deployment"
    title = f"Round {battle.round}, {battle.step}"
    if battle.initiative:
        title += f" (initiative: {clean(battle.names[battle.initiative])})"
    return title


def profiles(battle: Battle) -> Panel:
    """The side panel: each unit's profile, and its space, state and Ht taken, or its fate."""
    parts: list[Any] = []
    for side in SIDES:
        table = Table(
            box=box.SIMPLE_HEAD,
            header_style="bold",
            expand=False,
            pad_edge=False,
            padding=(0, 1),
            collapse_padding=True,
            show_edge=False,
            title=Text(
                f"{clean(battle.names[side])}: {battle.role(side)}, Order {battle.orders[side]}"
            ),
            title_style=SIDE_STYLE[side],
            title_justify="left",
        )
        for column in ("unit", "Mv", "Ra", "Me", "De", "Mo", "Ht", "tags", "now"):
            table.add_column(column, no_wrap=column not in ("tags", "now"))
        for unit in battle.side_units(side):
            k = unit.kind
            if unit.fighting:
                now = Text(f"{battle.space_name(unit)} ")
                now.append(unit.state, style=STATE_STYLE.get(unit.state, "green"))
                now.append(f" {unit.taken}/{k.ht}")
                if battle.in_reserve(unit):
                    now.append(" Reserve", style="dim")
            else:
                now = Text(unit.fate or "waiting", style="dim")
            table.add_row(
                Text(f"{unit.uid} {clean(k.name)}", style=SIDE_STYLE[side]),
                str(k.mv),
                "-" if k.ra is None else f"{k.ra:+d}",
                f"{k.me:+d}",
                str(k.de),
                f"{k.mo:+d}",
                str(k.ht),
                clean(", ".join(k.tags)),
                now,
            )
        parts.append(table)
    return Panel(Group(*parts), title="Units", expand=False)


class SideBySide:
    """Two renderables next to each other when the terminal is wide enough, else stacked."""

    def __init__(self, left: Any, right: Any) -> None:
        self.left, self.right = left, right

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        need = sum(Measurement.get(console, options, r).maximum for r in (self.left, self.right))
        if need + 2 <= options.max_width:
            layout = Table.grid(padding=(0, 2))
            layout.add_row(self.left, self.right)
            yield layout
        else:
            yield self.left
            yield self.right


def board(
    battle: Battle, names: dict[str, str] | None = None, title: str | None = None
) -> SideBySide:
    """The grid with the profile panel at its side."""
    return SideBySide(grid(battle, title), profiles(battle))


def render_entry(entry: dict[str, Any], battle: Battle, names: dict[str, str]) -> Any:
    """Round headers with the full board; the grid again after units move; None: generic."""
    kind = entry["t"]
    if kind == "turn":
        n = entry["n"]
        return Group(Rule(f"Round {n}"), board(battle, names, f"Round {n} begins"))
    if kind == "event" and entry.get("kind") in MAP_EVENTS:
        return Group(Text(clean(entry["text"])), grid(battle))
    if kind == "event" and entry.get("kind") == "result":
        return Group(Text(clean(entry["text"]), style="bold"), board(battle, names))
    return None
