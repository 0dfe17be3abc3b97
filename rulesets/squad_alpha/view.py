"""Squad Alpha on screen: the tabletop map with each miniature's label, and a roster table per
squad (name, training, command, attributed die, status) beside it."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text

from rulesets.squad_alpha.state import GameState, Squad
from wargame_cli.tabletop.view import Marker, legend, table_map
from wargame_cli.ui.live import generic
from wargame_cli.ui.text import SIDE_STYLE, clean


def markers(state: GameState) -> list[Marker]:
    return [
        Marker(m.label, m.pos, m.side, m.name, down=not m.alive)
        for m in state.all_minis()
        if m.pos is not None
    ]


def roster(state: GameState, squad: Squad) -> RichTable:
    rating = state.current_rating(squad.side)
    leader = state.leader(squad.side)
    title = Text(clean(squad.name), style=SIDE_STYLE.get(squad.side, "bold"))
    title.append(
        f"  leader {clean(leader.name)}, rating {rating}"
        + (f" ({squad.casualties} down)" if squad.casualties else ""),
        style="bold red" if rating < 0 else "",
    )
    table = RichTable(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for column in ("", "name", "training", "cmd", "die", "status"):
        table.add_column(column)
    for m in squad.minis:
        if not m.alive:
            status = Text("casualty", style="dim strike")
        elif m.pos is None:
            status = Text("to deploy", style="dim")
        elif state.contacts(m):
            status = Text("in melee", style="bold yellow")
        elif m.die is not None and m.acted:
            status = Text("acted", style="dim")
        else:
            status = Text("active")
        lead = "*" if m.id == squad.leader_id else ""
        table.add_row(
            Text(m.label, style=SIDE_STYLE.get(m.side, "bold") if m.alive else "dim"),
            clean(m.name),
            m.training,
            f"{m.rating}{lead}",
            str(m.die) if m.die is not None and m.alive else "-",
            status,
        )
    return table


def headline(state: GameState) -> str:
    if state.phase == "deployment" or state.turn == 0:
        return "Deployment"
    if state.phase == "over":
        return f"Turn {state.turn}: game over"
    who = state.squads[state.initiative].name if state.initiative else "-"
    step = f", step {state.step}" if state.step else ""
    return f"Turn {state.turn}{step}; initiative: {clean(who)}"


def board(state: GameState, names: dict[str, str] | None = None) -> Any:
    """The map beside the two rosters and the terrain legend."""
    side = Group(
        roster(state, state.squads["A"]),
        Text(""),
        roster(state, state.squads["B"]),
        Text(""),
        legend([]),
        Text("* leader; cmd = command rating; die = the die attributed this turn", style="dim"),
    )
    grid = RichTable.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column()
    grid.add_row(table_map(state.table, markers(state), headline(state)), side)
    return grid


def render_entry(entry: dict[str, Any], state: GameState, names: dict[str, str]) -> Any:
    """The map whenever a player must place or act (after the deployment roll-off, after each
    placement, before each activation), the whole board once the squads are deployed, once the
    dice are attributed and at the end; other entries as the plain lines."""
    if entry["t"] == "end":
        return Group(board(state, names), generic(entry, names))
    if entry["t"] != "event":
        return None
    kind, data = entry.get("kind"), entry.get("data") or {}
    text = Text(clean(entry["text"]))
    if kind == "deployed" or (kind == "attribute" and data.get("side") == state.initiative):
        return Group(text, board(state, names))
    if kind in ("deploy", "activate") or (kind == "rolloff" and not data.get("tie")):
        if kind == "activate":
            text.stylize("bold")
        return Group(table_map(state.table, markers(state), headline(state)), text)
    if kind == "kill":
        return Text(clean(entry["text"]), style="bold red")
    return None
