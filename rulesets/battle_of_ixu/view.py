"""The Battle of Ixu on screen (rich): the field map from the shared tabletop view, with a
legend of who stands where, and a roster of every god's dice and wounds. The only module of
the ruleset that imports rich."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from rulesets.battle_of_ixu.state import IxuState, Warrior
from wargame_cli.tabletop.view import Marker, table_map
from wargame_cli.ui.text import SIDE_STYLE, clean

ECHOED = ("attribute", "move", "target")  # choice kinds whose event repeats them


def _dice(w: Warrior) -> str:
    if w.dice is None:
        return "-"
    return f'{w.dice.movement}" / {w.dice.combat} / {w.dice.defence}'


def roster(state: IxuState) -> Table:
    """Every model in this turn's order (then the fallen): experience, dice, wounds."""
    table = Table(title=f"Turn {state.turn}: {state.phase}", header_style="bold", expand=False)
    for column in ("#", "model", "experience", "rolled", "move / combat / defence", "damage"):
        table.add_column(column, no_wrap=True)
    ranked = {wid: i + 1 for i, wid in enumerate(state.order)}
    shown = sorted(state.warriors, key=lambda w: (w.dead, ranked.get(w.id, 99), w.id))
    for w in shown:
        style = "dim strike" if w.dead else SIDE_STYLE[w.side]
        fate = f" (fell, turn {w.died_turn})" if w.dead else ""
        table.add_row(
            str(ranked.get(w.id, "")) if not w.dead else "",
            Text(f"{w.id} {clean(w.name)}{fate}", style=style),
            f"{w.experience} {w.rating}",
            " ".join(map(str, sorted(w.rolled, reverse=True))) or "-",
            _dice(w),
            Text(f"{w.damage}/{w.health}", style="bold red" if w.damage else ""),
        )
    return table


def _legend(state: IxuState) -> Table:
    """Who each map label is and where it stands: a column per side (the field is open plain,
    so no terrain key)."""
    grid = Table.grid(padding=(0, 3))
    columns = [state.standing(side) for side in ("A", "B")]
    for _ in columns:
        grid.add_column(no_wrap=True)
    for row in range(max(len(c) for c in columns)):
        cells = []
        for column in columns:
            if row < len(column):
                w = column[row]
                cell = Text(w.id, style=SIDE_STYLE[w.side])
                cell.append(f" {clean(w.name)} ({w.pos.key()})", style="")
                cells.append(cell)
            else:
                cells.append(Text(""))
        grid.add_row(*cells)
    return grid


def field(state: IxuState, title: str) -> Group:
    """The map of the plains with its legend."""
    return Group(table_map(state.table, _markers(state), title), _legend(state))


def board(state: IxuState, names: dict[str, str] | None = None) -> Group:
    """The whole situation: the map, then every god's dice and wounds."""
    title = f"The plains of Ixu, turn {state.turn}" if state.turn else "The plains of Ixu"
    return Group(field(state, title), roster(state))


def _phase_done(state: IxuState, entry: dict[str, Any], phase: str) -> bool:
    """Is `entry` the last model's event of `phase` this turn?"""
    order = state.in_order()
    data = entry.get("data") or {}
    return state.phase == phase and bool(order) and data.get("model") == order[-1].name


def render_entry(entry: dict[str, Any], state: IxuState, names: dict[str, str]) -> Any:
    """The whole board before the first dice; each turn the roster once dice are attributed
    and the map once everyone has moved; deaths stand out. Rolls and decisions are not
    echoed: the event after each one states its faces and result."""
    if entry["t"] == "roll" or (entry["t"] == "choice" and entry.get("kind") in ECHOED):
        return False
    if entry["t"] != "event":
        return None
    kind = entry.get("kind")
    text = Text(clean(entry["text"]))
    if kind == "death":
        text.stylize("bold red")
        return text
    if kind == "charge":
        text.stylize("bold")
    if kind == "order" and state.turn == 1:  # where everyone stands before the first dice
        return Group(text, board(state, names))
    if kind == "attribute" and _phase_done(state, entry, "attribution"):
        return Group(text, roster(state))
    if kind in ("move", "charge", "stand") and _phase_done(state, entry, "movement"):
        return Group(text, field(state, f"After the movement, turn {state.turn}"))
    return text


def _markers(state: IxuState) -> list[Marker]:
    return [
        Marker(w.id, w.pos, w.side, f"{w.name} ({clean(state.names[w.side])})")
        for w in state.standing()
    ]
