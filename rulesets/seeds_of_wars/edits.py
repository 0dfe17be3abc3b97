"""Table edits in Seeds of Wars (`wargame edit`, "Table…"): damage or heal a unit's Ht, move
it to any space the stacking limit allows, take it out of the battle (destroyed, removed,
captured or escaped, d5 d15 d17), add one from the catalogue, or set its morale state
(Steady, Shaken, Routed). Each changes the battle between turns and says what changed."""

from __future__ import annotations

from wargame_cli.rulesets.seeds_of_wars import teams
from wargame_cli.rulesets.seeds_of_wars.state import (
    CAPTURED,
    DESTROYED,
    ESCAPED,
    REMOVED,
    STATES,
    Battle,
    Unit,
)

from wargame_cli.engine.edits import Edit, EditRefused, act, find, health_change
from wargame_cli.errors import TeamError

FATES = (DESTROYED, REMOVED, CAPTURED, ESCAPED)
USAGE = {
    "damage": "damage UNIT N (Ht taken)",
    "heal": "heal UNIT N",
    "move": "move UNIT SPACE (e.g. c4)",
    "remove": f"remove UNIT [{'|'.join(FATES)}]",
    "add": "add SIDE UNIT-TYPE SPACE",
    "status": f"status UNIT {'|'.join(STATES)}",
}


def apply(b: Battle, edit: Edit) -> str:
    """Change the battle as `edit` says; the line the log keeps."""
    return act(ACTS, b, edit)


def _unit(b: Battle, edit: Edit) -> Unit:
    """A unit still fighting, by its id (A3) or its name (A3 Spearmen), any case."""
    named = {n.lower(): u for u in b.units for n in (u.uid, u.name)}
    shown = [u.uid for u in b.fighting()]
    return find(edit.word(0), named, "unit", edit, shown, _out)


def _out(unit: Unit) -> str | None:
    return None if unit.fighting else f"{unit.name} is out of the battle ({unit.fate})"


def _health(b: Battle, edit: Edit) -> str:
    unit = _unit(b, edit)
    change = health_change(edit, unit.left, unit.taken, unit.name)
    unit.taken += change
    if change < 0:
        return f"{unit.name} recovers {-change} Ht ({unit.left} left)"
    if unit.left == 0:
        unit.fate = DESTROYED
        return f"{unit.name} takes {change} Ht and is destroyed"
    return f"{unit.name} takes {change} Ht ({unit.left} left)"


def _space(b: Battle, edit: Edit, index: int, side: str) -> tuple[int, int]:
    text = edit.word(index)
    space = b.board.parse(text)
    if space is None:
        raise EditRefused(
            f"edit {edit.action}: {text!r} is not a space of the battlefield "
            f"(a1 to {b.board.key((b.board.rows - 1, b.board.columns - 1))})"
        )
    if (full := b.room(side, space)) is not None:
        raise EditRefused(f"edit {edit.action}: {full}")
    return space


def _move(b: Battle, edit: Edit) -> str:
    unit = _unit(b, edit)
    unit.space = _space(b, edit, 1, unit.side)
    return f"{unit.name} is placed at {b.board.key(unit.space)}"


def _remove(b: Battle, edit: Edit) -> str:
    unit = _unit(b, edit)
    fate = edit.args[1].lower() if len(edit.args) > 1 else DESTROYED
    if fate not in FATES:
        raise EditRefused(f"edit remove: {fate!r}: these rules know {', '.join(FATES)}")
    unit.fate = fate
    return f"{unit.name} is out of the battle ({fate})"


def _add(b: Battle, edit: Edit) -> str:
    side = edit.word(0).upper()
    if side not in b.names:
        raise EditRefused(f"edit add: the side is A or B, not {edit.args[0]!r}")
    try:
        kind = teams.catalogue().lookup(edit.word(1))
    except TeamError as exc:
        raise EditRefused(f"edit add: {exc}") from None
    space = _space(b, edit, 2, side)
    uid = f"{side}{len(b.side_units(side)) + 1}"
    unit = Unit.fresh(uid, side, kind)
    unit.space = space
    b.units.append(unit)
    return f"{unit.name} joins side {side} at {b.board.key(space)}"


def _status(b: Battle, edit: Edit) -> str:
    unit = _unit(b, edit)
    wanted = edit.word(1).capitalize()
    if wanted not in STATES:
        raise EditRefused(f"edit status: {edit.args[1]!r}: a unit is {', '.join(STATES)}")
    unit.state = wanted
    return f"{unit.name} is {wanted} now"


ACTS = {
    "damage": _health,
    "heal": _health,
    "move": _move,
    "remove": _remove,
    "add": _add,
    "status": _status,
}
