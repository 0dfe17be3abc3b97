"""Moving a miniature (b14): where it may go and the destinations offered for a Choice."""

from __future__ import annotations

from rulesets.squad_alpha.state import GameState, Mini
from wargame_cli.tabletop.destinations import Destination, offer, typed_problem
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.paths import ring_spots

MOVE_INCHES = 4.0  # b14


def destinations(state: GameState, mini: Mini) -> list[Destination]:
    """The tabletop's meaningful destinations for this miniature."""
    enemies = [state.body(e) for e in state.enemies(mini.side)]
    return offer(
        state.table,
        state.body(mini),
        MOVE_INCHES,
        enemies,
        state.bodies(),
        names=state.name_of,
    )


def legal_ring(state: GameState, mini: Mini) -> list[Point]:
    """Legal spots on two rings around the miniature (full and half move)."""
    return ring_spots(state.table, state.body(mini), MOVE_INCHES, state.bodies())


def typed_move_problem(state: GameState, mini: Mini, text: str) -> str | None:
    return typed_problem(state.table, state.body(mini), MOVE_INCHES, state.bodies(), text)
