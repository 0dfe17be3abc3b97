"""Moving a miniature (b14): where it may go and the destinations offered for a Choice."""

from __future__ import annotations

from wargame_cli.rulesets.squad_alpha.odds import pass_chance
from wargame_cli.rulesets.squad_alpha.state import GameState, Mini

from wargame_cli.engine.requests import Option
from wargame_cli.tabletop.destinations import (
    Destination,
    MoveMenu,
    menu_entry,
    offer,
    typed_problem,
)
from wargame_cli.tabletop.detours import way_to
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body, in_contact
from wargame_cli.tabletop.paths import ring_spots
from wargame_cli.tabletop.sight import line_of_sight
from wargame_cli.tabletop.table import TerrainKind
from wargame_cli.wording import percent

MOVE_INCHES = 4.0  # b14


def bends(state: GameState) -> bool:
    """Version 3 on: a move may bend round blocking terrain (version 2 moved straight)."""
    return state.rules_version >= 3


def destinations(state: GameState, mini: Mini) -> list[Destination]:
    """The tabletop's meaningful destinations for this miniature; a move may bend around
    blocking terrain, as long as the way measured round the corners is within 4"."""
    return offer(_move_of(state, mini))


def listed_destination(state: GameState, mini: Mini, key: str) -> Destination | None:
    """The entry `destinations` lists for the spot `key`, working out the menu only that far."""
    return menu_entry(_move_of(state, mini), key)


def _move_of(state: GameState, mini: Mini) -> MoveMenu:
    """The tabletop's move question, as a person reads it: the table, the mover, its
    allowance, the enemies and every base in the way; bending from version 3."""
    enemies = tuple(state.body(e) for e in state.enemies(mini.side))
    return MoveMenu(
        state.table,
        state.body(mini),
        MOVE_INCHES,
        enemies,
        tuple(state.bodies()),
        names=state.name_of,
        bend=bends(state),
        tidy=True,
    )


def legal_ring(state: GameState, mini: Mini) -> list[Point]:
    """Legal spots on two rings around the miniature (full and half move)."""
    return ring_spots(state.table, state.body(mini), MOVE_INCHES, state.bodies())


def typed_move_problem(state: GameState, mini: Mini, text: str) -> str | None:
    return typed_problem(
        state.table, state.body(mini), MOVE_INCHES, state.bodies(), text, bend=bends(state)
    )


def walked(state: GameState, mini: Mini, dest: Point) -> float:
    """Inches walked to a legal `dest`: around the corners when the straight way is blocked."""
    bent = bends(state)
    way = way_to(state.table, state.body(mini), dest, MOVE_INCHES, state.bodies()) if bent else None
    assert mini.pos is not None
    return way.length if way is not None else mini.pos.distance(dest)


def exposure(state: GameState, mini: Mini, p: Point, named: str = "") -> str:
    """What standing at `p` means: the cover piece it is in (unless `named` already says so)
    and which enemies could see it."""
    inside = [pc for pc in state.table.pieces_at(p) if pc.kind is not TerrainKind.BLOCKING]
    where = ""
    if inside:
        piece = max(inside, key=lambda pc: pc.kind is TerrainKind.HARD)
        where = "" if piece.name in named else f"in {piece.name}, "
    seen = [
        e.name
        for e in state.enemies(mini.side)
        if e.pos is not None and line_of_sight(state.table, e.pos, p)
    ]
    if not seen:
        return where + "out of every enemy's sight"
    if len(seen) <= 2:
        return where + "seen by " + " and ".join(seen)
    return where + f"seen by {len(seen)} enemies"


def free_melee(state: GameState, mini: Mini, p: Point) -> str:
    """`; free melee on Hudson (b17): kills 58%` when `p` is in base contact with enemies:
    the attack is an action test at this step (b17), and a success kills (b19)."""
    me = Body(mini.id, p, state.base_radius)
    foes = [e for e in state.enemies(mini.side) if in_contact(me, state.body(e))]
    if not foes:
        return ""
    kills = pass_chance(mini.dice, state.step, state.modifier(mini.side))
    return f"; free melee on {' or '.join(e.name for e in foes)} (b17): kills {percent(kills)}"


def move_option(state: GameState, mini: Mini, label: str, p: Point) -> Option:
    where = exposure(state, mini, p, label) + free_melee(state, mini, p)
    return Option(p.key(), f"{label} ({p.key()}): {where}")
