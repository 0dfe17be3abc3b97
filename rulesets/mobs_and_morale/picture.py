"""Mobs and Morale's table as an SVG picture (the report's hook): the shared tabletop with
every creature on it, the fallen crossed out where they were last seen; those who escaped are
gone from the table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wargame_cli.rulesets.mobs_and_morale.state import RADIUS, Battle

from wargame_cli.tabletop.mapfacts import side_case
from wargame_cli.tabletop.picture import Base, marks, tabletop


def picture(state: Battle, names: dict[str, str], events: Sequence[dict[str, Any]] = ()) -> str:
    bases = []
    for c in state.creatures.values():
        pos = c.pos if c.pos is not None else c.last_pos
        if pos is None or c.status == "escaped":
            continue
        label = side_case(c.label, c.side)  # the terminal's case cue: A capitals, B small
        bases.append(Base(label, c.id, pos, RADIUS, c.side, down=c.pos is None))
    where = {b.name: b for b in bases}
    drawn = marks(events, where, {c.id: c.side for c in state.creatures.values()})
    return tabletop(state.table, bases, f"{state.table.name}, round {state.round}", drawn)
