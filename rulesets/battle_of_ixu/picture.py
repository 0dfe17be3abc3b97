"""The Battle of Ixu's field as an SVG picture (the report's hook): the shared tabletop, every
warrior's base, the fallen crossed out where they fell."""

from __future__ import annotations

from wargame_cli.rulesets.battle_of_ixu.state import IxuState

from wargame_cli.tabletop.picture import Base, tabletop


def picture(state: IxuState, names: dict[str, str]) -> str:
    bases = [Base(w.id, w.name, w.pos, w.radius, w.side, down=w.dead) for w in state.warriors]
    return tabletop(state.table, bases, f"The field of Ixu, turn {state.turn}")
