"""The Battle of Ixu's field as an SVG picture (the report's hook): the shared tabletop, every
warrior's base, the fallen crossed out where they fell, and the turn's moves and blows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wargame_cli.rulesets.battle_of_ixu.state import IxuState

from wargame_cli.tabletop.picture import Base, marks, tabletop


def picture(state: IxuState, names: dict[str, str], events: Sequence[dict[str, Any]] = ()) -> str:
    bases = [Base(w.id, w.name, w.pos, w.radius, w.side, down=w.dead) for w in state.warriors]
    where = {b.name: b for b in bases}
    drawn = marks(events, where, {w.name: w.side for w in state.warriors})
    return tabletop(state.table, bases, f"The field of Ixu, turn {state.turn}", drawn)
