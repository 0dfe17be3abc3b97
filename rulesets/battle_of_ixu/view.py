"""The Battle of Ixu on screen (rich): the field map from the shared tabletop view beside a
roster of every god's dice and wounds. The only module of the ruleset that imports rich."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from rulesets.battle_of_ixu.state import IxuState, Warrior
from wargame_cli.tabletop.view import Marker
from wargame_cli.tabletop.view import board as field_board
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


def board(state: IxuState, names: dict[str, str] | None = None) -> Group:
    title = f"The plains of Ixu, turn {state.turn}" if state.turn else "The plains of Ixu"
    return Group(field_board(state.table, _markers(state), title), roster(state))


def _phase_done(state: IxuState, entry: dict[str, Any], phase: str) -> bool:
    """Is `entry` the last model's event of `phase` this turn?"""
    order = state.in_order()
    data = entry.get("data") or {}
    return state.phase == phase and bool(order) and data.get("model") == order[-1].name


def render_entry(entry: dict[str, Any], state: IxuState, names: dict[str, str]) -> Any:
    """The board once dice are attributed and again once everyone has moved; deaths stand out.
    Rolls and decisions are not echoed: the event after each one states its faces and result."""
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
    if kind == "attribute" and _phase_done(state, entry, "attribution"):
        return Group(text, board(state, names))
    if kind in ("move", "charge") and _phase_done(state, entry, "movement"):
        return Group(text, field_board(state.table, _markers(state), "After the movement"))
    return text


def _markers(state: IxuState) -> list[Marker]:
    return [
        Marker(w.id, w.pos, w.side, f"{w.name} ({clean(state.names[w.side])})")
        for w in state.standing()
    ]
