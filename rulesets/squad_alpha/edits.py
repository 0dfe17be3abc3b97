"""Table edits in Squad Alpha (`wargame edit`, "Table…"): move a miniature to any legal spot,
or take it out as a casualty (b22; its squad's command rating drops with it, b23). Each
changes the game between turns and says what changed in one line."""

from __future__ import annotations

from wargame_cli.rulesets.squad_alpha.state import GameState, Mini

from wargame_cli.engine.edits import Edit, find
from wargame_cli.tabletop.placing import legal_spot

USAGE = {
    "move": "move MINI X,Y (its id, A3, or its name)",
    "remove": "remove MINI (a casualty, b22)",
}


def apply(state: GameState, edit: Edit) -> str:
    mini = _mini(state, edit)
    if edit.action == "move":
        spot = legal_spot(
            edit.word(1), state.table, state.base_radius, state.bodies(), mini.id, "move"
        )
        mini.pos = spot
        return f"{mini.name} is placed at {spot.key()}"
    mini.alive = False
    squad = state.squads[mini.side]
    return f"{mini.name} is a casualty ({squad.name}: {squad.casualties} in all)"


def _mini(state: GameState, edit: Edit) -> Mini:
    minis = state.all_minis()
    named = {n.lower(): m for m in minis for n in (m.id, m.name)}
    shown = [m.id for m in minis if m.active]
    return find(edit.word(0), named, "miniature", edit, shown, _off)


def _off(mini: Mini) -> str | None:
    return None if mini.active else f"{mini.name} is not on the table"
