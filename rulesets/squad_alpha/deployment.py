"""Deployment (b4, b5): a roll-off, then one miniature each in turn, never in sight of an
enemy already on the table. The legal spots are what is offered; typed spots are checked."""

from __future__ import annotations

import math
from collections.abc import Generator
from functools import cache
from typing import Any

from wargame_cli.rulesets.squad_alpha import bot
from wargame_cli.rulesets.squad_alpha.rolloff import roll_off
from wargame_cli.rulesets.squad_alpha.state import HOME_EDGE, GameState, Mini

from wargame_cli.engine.requests import SPOT_HINT, Choice, Event, Option
from wargame_cli.kit.sides import other
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import CONTACT_TOLERANCE, Body, in_contact, standing_problem
from wargame_cli.tabletop.placement import cell_centres, edge_distance, seen_by_any
from wargame_cli.tabletop.sight import line_of_sight_once
from wargame_cli.tabletop.table import Table, TerrainKind, table_cache
from wargame_cli.wording import percent

OFFERED = 8
HIDDEN, BAND, ANYWHERE = "hidden", "band", "anywhere"


def deploy(state: GameState) -> Generator[Any, Any, None]:
    winner, totals = yield from roll_off(state, "Deployment roll-off", ("b4",), {"A": 0, "B": 0})
    state.deploys_first = winner
    yield Event(
        f"{state.squads[winner].name} wins the deployment roll-off "
        f"({totals[winner]} to {totals[other(winner)]}) and deploys first",
        rules=("b4",),
        kind="rolloff",
        data={"winner": winner, "totals": totals},
    )
    side = winner
    while any(m.pos is None for m in state.all_minis()):
        if not _waiting(state, side):  # default: the larger squad keeps placing
            side = other(side)
        yield from place_one(state, side)
        side = other(side)
    state.phase = "battle"
    yield Event("Both squads are deployed", rules=("b5",), kind="deployed")


def _waiting(state: GameState, side: str) -> list[Mini]:
    return [m for m in state.squads[side].minis if m.pos is None]


def spot_problem(state: GameState, mini: Mini, p: Point, level: str) -> str | None:
    """Why `mini` may not be set up at `p` (b5), or None. `level` widens the rule when no
    hidden spot is left (see `legal_spots`)."""
    body = Body(mini.id, p, state.base_radius)
    problem = standing_problem(state.table, body, state.bodies())
    if problem is not None:
        return problem
    enemies = [state.body(e) for e in state.enemies(mini.side)]
    touching = next((e for e in enemies if in_contact(body, e)), None)
    if touching is not None and state.rules_version >= 3:  # no deploying into a melee (b5, b17)
        return (
            f"{p.key()} is in base contact with {state.name_of(touching.id)}: "
            "never deploy touching an enemy (b5)"
        )
    if level == ANYWHERE:
        return None
    watcher = seen_by_any(state.table, p, enemies)
    if watcher is None:
        return None
    fallback = float(state.options["deploy_fallback"])
    if level == BAND and edge_distance(state.table, p, HOME_EDGE[mini.side]) <= fallback:
        return None
    where = f' or within {fallback:g}" of your edge' if level == BAND else ""
    return (
        f"{state.name_of(watcher.id)} at {watcher.pos.key()} can see {p.key()}: deploy out of "
        f"sight of every enemy{where} (b5)"
    )


def legal_spots(state: GameState, mini: Mini) -> tuple[list[Point], str]:
    """The legal 1" cells: hidden from every enemy; if none is, default: also any cell within
    `deploy_fallback` inches of the side's own edge; failing that, any free cell.

    The same cells `spot_problem` allows, found without asking it 576 times: the cells a base
    fits on (terrain only) are worked out once per table, the cells each enemy position sees
    once per position, and only the bases placed so far are checked for every deployment."""
    fitting = _fitting(state.table, state.base_radius)
    picked, level = _legal_cells(state, mini)
    return [fitting[i] for i in picked], level


def _legal_cells(state: GameState, mini: Mini) -> tuple[list[int], str]:
    """`legal_spots` as the cells' numbers in `_fitting`: the cells taken by bases and those
    the enemies see are sets of bits, so a deployment combines them without hashing points."""
    table, radius = state.table, state.base_radius
    near = radius + radius - CONTACT_TOLERANCE
    fitting = _fitting(table, radius)
    by_cell = _cells_by_index(table, radius)
    touch = radius + radius + CONTACT_TOLERANCE
    foes = {e.id for e in state.enemies(mini.side)}
    taken = 0
    for body in state.bodies():  # the cells a base overlaps, or an enemy's touches (b5, b17)
        if body.id == mini.id:
            continue
        o = body.pos
        reach = touch if body.id in foes else near
        for i in range(math.floor(o.x - reach) - 1, math.floor(o.x + reach) + 2):
            for j in range(math.floor(o.y - reach) - 1, math.floor(o.y + reach) + 2):
                k = by_cell.get((i, j))
                if k is None:
                    continue
                p = fitting[k]
                if o.distance(p) < near or (body.id in foes and o.distance(p) <= touch):
                    taken |= 1 << k
    free = [k for k in range(len(fitting)) if not taken >> k & 1] if taken else None
    seen = 0
    for enemy in state.enemies(mini.side):
        assert enemy.pos is not None
        seen |= _seen_cells(table, radius, enemy.pos)
    out = taken | seen
    hidden = [k for k in range(len(fitting)) if not out >> k & 1]
    if hidden:
        return hidden, HIDDEN
    if free is None:
        free = list(range(len(fitting)))
    fallback = float(state.options["deploy_fallback"])
    edge = HOME_EDGE[mini.side]
    band = [k for k in free if edge_distance(table, fitting[k], edge) <= fallback]
    if band:
        return band, BAND
    return free, ANYWHERE


def room_problem(state: GameState) -> str | None:
    """Why the table cannot take every miniature's base (terrain covering it), or None:
    checked before the game starts, so such a table is one clear line, not a deployment
    left with no spot to offer."""
    wanted = len(state.all_minis())
    room = _room(state.table, state.base_radius, wanted)
    if room >= wanted:
        return None
    return (
        f"the table has open ground for {room} of the {wanted} miniatures' bases "
        f'({2 * state.base_radius:g}" across, none touching another)'
    )


def _room(table: Table, radius: float, wanted: int) -> int:
    """How many bases, none touching another (an enemy's never may, b5), the open cells take,
    up to `wanted` (first come first placed, on the cells a deployment offers; once per
    table)."""
    memo = table_cache(table, "squad-alpha-room", 16)
    key = (radius, wanted)
    found = memo.get(key)
    if found is None:
        apart = radius + radius + CONTACT_TOLERANCE
        placed: list[Point] = []
        for p in _fitting(table, radius):
            if len(placed) == wanted:
                break
            if all(p.distance(q) > apart for q in placed):
                placed.append(p)
        found = memo[key] = len(placed)
    return found


def _fitting(table: Table, radius: float) -> list[Point]:
    """The cell centres a base fits on, leaving other bases aside (once per table)."""
    memo = table_cache(table, "squad-alpha-cells", 16)
    found = memo.get(radius)
    if found is None:
        found = memo[radius] = [
            p
            for p in cell_centres(table)
            if standing_problem(table, Body("?", p, radius), []) is None
        ]
    return found


def _cells_by_index(table: Table, radius: float) -> dict[tuple[int, int], int]:
    """The number in `_fitting` of each cell, by its column and row (a 1" cell's centre is
    (i + 0.5, j + 0.5))."""
    memo = table_cache(table, "squad-alpha-cell-index", 16)
    found = memo.get(radius)
    if found is None:
        found = memo[radius] = {
            (math.floor(p.x), math.floor(p.y)): k for k, p in enumerate(_fitting(table, radius))
        }
    return found


def _seen_cells(table: Table, radius: float, eye: Point) -> int:
    """The cells (of `_fitting`) in sight from `eye`, as bits by their number, once per table
    and position."""
    memo = table_cache(table, "squad-alpha-seen", 4096)
    key = (eye.x, eye.y, radius)
    found = memo.get(key)
    if found is None:
        found = 0
        for k, p in enumerate(_fitting(table, radius)):
            if line_of_sight_once(table, eye, p):
                found |= 1 << k
        memo[key] = found
    return found


def _in_cover(state: GameState, p: Point) -> str:
    """`, in Crates (hard cover)` when `p` stands in a cover piece, else nothing."""
    inside = [pc for pc in state.table.pieces_at(p) if pc.kind is not TerrainKind.BLOCKING]
    if not inside:
        return ""
    piece = max(inside, key=lambda pc: pc.kind is TerrainKind.HARD)
    kind = "hard" if piece.kind is TerrainKind.HARD else "soft"
    return f", in {piece.name} ({kind} cover)"


def _label(state: GameState, side: str, p: Point) -> str:
    where = _in_cover(state, p).removeprefix(", ") or "in the open"
    hidden = bot.concealment(state.table, HOME_EDGE[side], p)
    edge = edge_distance(state.table, p, HOME_EDGE[side])
    return (
        f"{p.key()}: {where}, out of sight of {percent(hidden)} of the enemy half, "
        f'{edge:g}" from your edge'
    )


def place_one(state: GameState, side: str) -> Generator[Any, Any, None]:
    squad = state.squads[side]
    waiting = _waiting(state, side)
    mini = waiting[0]
    if len(waiting) > 1:
        key = yield Choice(
            side=side,
            prompt=f"{squad.name}: which miniature deploys next?",
            options=tuple(
                Option(m.id, f"{m.name} ({m.training}, rating {m.rating})") for m in waiting
            ),
            default=lambda: bot.deploy_who(state, waiting).id,
            rules=("b5",),
            kind="deploy",
        )
        mini = state.mini(key)
    cells = _fitting(state.table, state.base_radius)
    picked, level = _legal_cells(state, mini)
    spots = [cells[k] for k in picked]
    if level != HIDDEN:
        how = (
            f'within {state.options["deploy_fallback"]:g}" of its own edge'
            if level == BAND
            else "on any free spot"
        )
        yield Event(
            f"No spot is out of every enemy's sight: {mini.name} may deploy {how} "
            "(deploy_fallback)",
            rules=("b5",),
            kind="deploy-fallback",
            data={"id": mini.id, "level": level},
        )
    ranked = cache(lambda: bot.deploy_best(state, side, spots, OFFERED, cells, set(picked)))
    key = yield Choice(
        side=side,
        prompt=f"{squad.name}: where does {mini.name} deploy? ({len(spots)} legal cells)",
        options=lambda: tuple(Option(p.key(), _label(state, side, p)) for p in ranked()),
        default=lambda: ranked()[0].key(),
        rules=("b5",),
        kind="deploy",
        free_hint=SPOT_HINT,
        judge=lambda text: _typed(state, mini, text, level),
        describe=lambda text: _label(state, side, Point.parse(text)),
    )
    mini.pos = Point.parse(key)
    yield Event(
        f"{squad.name} deploys {mini.name} at {mini.pos.key()}{_in_cover(state, mini.pos)}",
        rules=("b5",),
        kind="deploy",
        data={"id": mini.id, "pos": mini.pos.as_list()},
    )


def _typed(state: GameState, mini: Mini, text: str, level: str) -> str | None:
    try:
        p = Point.parse(text)
    except ValueError as exc:
        return str(exc)
    return spot_problem(state, mini, p, level)
