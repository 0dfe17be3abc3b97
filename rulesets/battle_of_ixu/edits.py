"""Table edits in Battle of Ixu (`wargame edit`, "Table…"): deal or heal a model's damage,
move it to any legal spot, or take it off as fallen (c8). Each changes the game between
turns and says what changed in one line."""

from __future__ import annotations

from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Warrior

from wargame_cli.engine.edits import Edit, EditRefused, find
from wargame_cli.tabletop.placing import legal_spot

USAGE = {
    "damage": "damage MODEL N",
    "heal": "heal MODEL N",
    "move": "move MODEL X,Y",
    "remove": "remove MODEL (it falls, c8)",
}


def apply(state: IxuState, edit: Edit) -> str:
    w = _warrior(state, edit)
    if edit.action == "damage":
        dealt = min(edit.number(1, "the damage"), w.remaining)
        w.damage += dealt
        if w.remaining == 0:
            return f"{w.name} takes {dealt} damage and {_fall(state, w)}"
        return f"{w.name} takes {dealt} damage ({w.remaining}/{w.health} left)"
    if edit.action == "heal":
        if w.damage == 0:
            raise EditRefused(f"edit heal: {w.name} has no damage to heal")
        healed = min(edit.number(1, "the healing"), w.damage)
        w.damage -= healed
        return f"{w.name} is healed of {healed} damage ({w.remaining}/{w.health})"
    if edit.action == "move":
        spot = legal_spot(edit.word(1), state.table, w.radius, state.bodies(w), None, "move")
        w.pos = spot
        return f"{w.name} is placed at {spot.key()}"
    return _fall(state, w)


def _fall(state: IxuState, w: Warrior) -> str:
    w.dead, w.died_turn = True, state.turn
    return f"{w.name} falls"


def _warrior(state: IxuState, edit: Edit) -> Warrior:
    named = {n.lower(): w for w in state.warriors for n in (w.id, w.name)}
    shown = [w.name for w in state.standing()]
    w = find(edit.word(0), named, "model", edit.action, shown)
    if w.dead:
        raise EditRefused(f"edit {edit.action}: {w.name} has fallen")
    return w
