"""Squad Alpha's table as an SVG picture (the report's hook): the shared tabletop with every
deployed miniature, casualties crossed out where they fell, and the turn's moves and shots."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wargame_cli.rulesets.squad_alpha.state import GameState

from wargame_cli.tabletop.picture import Base, marks, tabletop


def picture(state: GameState, names: dict[str, str], events: Sequence[dict[str, Any]] = ()) -> str:
    where = {
        m.id: Base(m.label, m.name, m.pos, state.base_radius, m.side, down=not m.alive)
        for m in state.all_minis()
        if m.pos is not None
    }
    bases = list(where.values())
    drawn = marks(events, where, {m.id: m.side for m in state.all_minis()})
    return tabletop(state.table, bases, f"{state.table.name}, turn {state.turn}", drawn)
