"""Mobs and Morale on screen: the table map, the roster of creatures and mobs with their
pools, and the after-battle casualty table (e30). The only module here that imports rich."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from rulesets.mobs_and_morale.state import STANDING, Battle
from wargame_cli.tabletop.view import Marker
from wargame_cli.tabletop.view import board as table_board
from wargame_cli.ui.live import generic
from wargame_cli.ui.text import SIDE_STYLE, clean

STATUS_STYLE = {STANDING: "", "dead": "dim strike", "fled": "dim", "straggler": "dim"}


def markers(b: Battle) -> list[Marker]:
    out = []
    for c in b.creatures.values():
        pos = c.pos if c.pos is not None else c.last_pos
        if pos is None or c.status == "escaped":
            continue
        out.append(Marker(c.label, pos, c.side, c.id, down=c.pos is None))
    return out


def roster(b: Battle) -> Table:
    table = Table(title="Creatures", show_header=True, header_style="bold")
    for column in ("side", "creature", "mob", "health", "P/F/D", "where", "status"):
        table.add_column(column)
    for c in b.creatures.values():
        if c.mob is not None and c.status != STANDING:
            continue  # fallen minions are counted in their mob's pools below
        where = c.pos.key() if c.pos is not None else "-"
        table.add_row(
            Text(c.side, style=SIDE_STYLE.get(c.side, "")),
            Text(clean(c.id), style=STATUS_STYLE.get(c.status, "")),
            clean(c.mob or ""),
            f"{c.health}/{c.max_health}",
            f"{c.presence}/{c.fierce}/{c.defence}",
            where,
            c.status,
        )
    return table


def mobs(b: Battle) -> Table:
    table = Table(title="Mobs", show_header=True, header_style="bold")
    for column in ("side", "mob", "controller", "standing", "morale", "dead pool", "casualties"):
        table.add_column(column)
    for m in b.mobs.values():
        boss = b.controller(m)
        table.add_row(
            Text(m.side, style=SIDE_STYLE.get(m.side, "")),
            clean(m.name),
            clean(boss.id) if boss else "uncontrolled",
            f"{len(b.figures(m))}/{len(m.members)}",
            str(m.morale),
            str(len(m.dead_pool)),
            str(len(m.casualty_pool)),
        )
    return table


def after_battle(b: Battle, names: dict[str, str]) -> Table:
    """e30: every figure of the casualty pools, its d10 and its fate."""
    table = Table(title="After the battle: the casualty pools (d10, 5+ lives)", header_style="bold")
    for column in ("side", "creature", "mob", "removed as", "d10", "fate"):
        table.add_column(column)
    for side, rows in b.after.items():
        for row in rows:
            fate = row["fate"]
            style = "green" if fate in ("wounded", "missing") else "red" if fate == "lost" else ""
            table.add_row(
                Text(clean(names.get(side, side)), style=SIDE_STYLE.get(side, "")),
                clean(row["creature"]),
                clean(row["mob"] or ""),
                row["how"],
                "-" if row["roll"] is None else str(row["roll"]),
                Text(fate, style=style),
            )
    if not any(b.after.values()):
        table.caption = "No casualties."
    return table


def board(state: Battle, names: dict[str, str] | None = None, round_no: int | None = None) -> Group:
    title = f"{state.table.name} (round {state.round if round_no is None else round_no})"
    parts: list[Any] = [table_board(state.table, markers(state), title), roster(state)]
    if state.mobs:
        parts.append(mobs(state))
    return Group(*parts)


def render_entry(entry: dict[str, Any], state: Battle, names: dict[str, str]) -> Any:
    """The board at the start of every round; the after-battle table at the end."""
    if entry["t"] == "turn":
        return Group(Rule(f"Round {entry['n']}"), board(state, names, entry["n"]))
    if entry["t"] == "end":
        return Group(board(state, names), after_battle(state, names), generic(entry, names))
    return None
