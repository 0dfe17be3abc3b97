"""Table edits in Battle of Ixu (`wargame edit`, "Table…"): deal or heal a model's damage,
move it to any legal spot, or take it off as fallen (c8). Each changes the game between
turns and says what changed in one line."""

from __future__ import annotations

from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Warrior

from wargame_cli.engine.edits import Edit, find, health_change
from wargame_cli.tabletop.placing import legal_spot

USAGE = {
    "damage": "damage MODEL N",
    "heal": "heal MODEL N",
    "move": "move MODEL X,Y",
    "remove": "remove MODEL (it falls, c8)",
}


def apply(state: IxuState, edit: Edit) -> str:
    w = _warrior(state, edit)
    if edit.action in ("damage", "heal"):
        change = health_change(edit, w.remaining, w.damage, w.name)
        w.damage += change
        if change < 0:
            return f"{w.name} is healed of {-change} damage ({w.remaining}/{w.health})"
        if w.remaining == 0:
            return f"{w.name} takes {change} damage and {_fall(state, w)}"
        return f"{w.name} takes {change} damage ({w.remaining}/{w.health} left)"
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
    return find(edit.word(0), named, "model", edit, shown, _fallen)


def _fallen(w: Warrior) -> str | None:
    return f"{w.name} has fallen" if w.dead else None
