"""Squad Alpha's table as an SVG picture (the report's hook): the shared tabletop with every
deployed miniature, casualties crossed out where they fell."""

from __future__ import annotations

from wargame_cli.rulesets.squad_alpha.state import GameState

from wargame_cli.tabletop.picture import Base, tabletop


def picture(state: GameState, names: dict[str, str]) -> str:
    bases = [
        Base(m.label, m.name, m.pos, state.base_radius, m.side, down=not m.alive)
        for m in state.all_minis()
        if m.pos is not None
    ]
    return tabletop(state.table, bases, f"{state.table.name}, turn {state.turn}")
