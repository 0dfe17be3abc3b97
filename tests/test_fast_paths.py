"""The bots' fast paths give exactly what the plain definitions give.

Skirmish simulations are fast because the geometry runs on plain numbers, prunes searches by
straight-line bounds, and remembers what a decision asks again and again. Each shortcut is
checked here against the plain definition it replaced (the reference versions below are the
code as it was), and whole seeded games are replayed with every memo wiped before each
request: a bot's choices must not depend on what it remembered.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wargame_cli.rulesets.squad_alpha import bot as squad_bot
from wargame_cli.rulesets.squad_alpha.deployment import (
    ANYWHERE,
    BAND,
    HIDDEN,
    legal_spots,
    spot_problem,
)

from wargame_cli import registry
from wargame_cli.engine.fast import face_source, stream_seed
from wargame_cli.engine.requests import Choice, Roll
from wargame_cli.ruleset import SIDES, Setup, resolve_options
from wargame_cli.tabletop.geometry import (
    EPS,
    Point,
    Rect,
    segment_crosses,
    segment_point_distance,
)
from wargame_cli.tabletop.movement import (
    CONTACT_TOLERANCE,
    REFUSED,
    Body,
    farthest_toward,
    footprints,
    move_problem,
    standing_problem,
)
from wargame_cli.tabletop.paths import path_distance, ring_spots, route_toward
from wargame_cli.tabletop.placement import cell_centres
from wargame_cli.tabletop.table import Table, forget_memos

coord = st.floats(min_value=-2, max_value=26, allow_nan=False).map(lambda v: round(v, 2))
point = st.builds(Point, coord, coord)


def _reference_crosses(rect: Rect, a: Point, b: Point) -> bool:
    span = rect.clip(a, b)
    if span is None:
        return False
    t0, t1 = span
    if t1 - t0 < EPS:
        return False
    mid = Point(a.x + (b.x - a.x) * (t0 + t1) / 2, a.y + (b.y - a.y) * (t0 + t1) / 2)
    return rect.strictly_contains(mid)


@settings(max_examples=400, deadline=None)
@given(point, point, point, point)
def test_segment_crosses_is_the_clip_test(c0, c1, a, b):
    rect = Rect(min(c0.x, c1.x), min(c0.y, c1.y), max(c0.x, c1.x), max(c0.y, c1.y))
    assert segment_crosses(rect.x0, rect.y0, rect.x1, rect.y1, a.x, a.y, b.x, b.y) == (
        _reference_crosses(rect, a, b)
    )


def test_segment_crosses_on_edges_corners_and_axis_lines():
    rect = Rect(2, 2, 6, 4)
    cases = [
        (Point(0, 2), Point(8, 2)),  # along an edge
        (Point(0, 3), Point(8, 3)),  # straight through
        (Point(4, 0), Point(4, 6)),  # vertical through
        (Point(0, 0), Point(2, 2)),  # ends at a corner
        (Point(0, 4), Point(2, 2)),  # touches a corner from outside
        (Point(3, 3), Point(3, 3)),  # a point inside
        (Point(0, 0), Point(8, 6)),  # the diagonal
        (Point(6, 0), Point(6, 6)),  # along the far edge
    ]
    for a, b in cases:
        for p, q in ((a, b), (b, a)):
            got = segment_crosses(2, 2, 6, 4, p.x, p.y, q.x, q.y)
            assert got == _reference_crosses(rect, p, q), (p, q)


def _farmstead() -> Table:
    ruleset = registry.get("squad-alpha")
    return Table.from_data(resolve_options(ruleset.options, None)["table"])


TABLE = _farmstead()
bodies = st.lists(
    st.builds(lambda i, p: Body(f"o{i}", p, 0.5), st.integers(0, 9), point),
    max_size=6,
    unique_by=lambda b: b.id,
)


def _reference_standing(table, body, others) -> str | None:
    """`standing_problem` as it was written on Points and Rects, reason and all."""
    dest = body.pos
    if not table.on_table(dest, body.radius):
        return f'{dest.key()} is off the {table.width:g}"x{table.height:g}" table'
    for piece, zone in footprints(table, body.radius):
        if zone.strictly_contains(dest):
            return f"{dest.key()} is inside {piece.name} (impassable)"
    for other in others:
        if other.id == body.id:
            continue
        if other.pos.distance(dest) < other.radius + body.radius - CONTACT_TOLERANCE:
            return f"{dest.key()} overlaps {other.called}"
    return None


def why_not(table, mover, dest, max_inches, others) -> str | None:
    """`move_problem` as it was written on Points and Rects (the long way), reason and all."""
    travelled = mover.pos.distance(dest)
    if travelled > max_inches + 0.01:
        return f'{dest.key()} is {travelled:.1f}" away; the move allows {max_inches:g}"'
    problem = _reference_standing(table, Body(mover.id, dest, mover.radius), others)
    if problem is not None:
        return problem
    for piece, zone in footprints(table, mover.radius):
        if zone.strictly_contains(mover.pos):  # placed overlapping it: only the piece itself
            zone = piece.rect
        if zone.crosses(mover.pos, dest):
            return f"the way to {dest.key()} passes through {piece.name} (impassable)"
    for other in others:
        if other.id == mover.id:
            continue
        start_gap = other.pos.distance(mover.pos)
        if (
            segment_point_distance(mover.pos, dest, other.pos)
            < other.radius + mover.radius - CONTACT_TOLERANCE
            and start_gap >= other.radius + mover.radius - CONTACT_TOLERANCE
        ):
            return f"the way to {dest.key()} passes through {other.called}"
    return None


@settings(max_examples=600, deadline=None)
@given(point, point, st.sampled_from([2.0, 4.0, 6.0]), bodies)
def test_move_problem_is_the_reasoned_check_on_points(start, dest, inches, others):
    """The one movement check, on plain numbers, gives the reason the long way gives."""
    mover = Body("me", start, 0.5)
    reason = move_problem(TABLE, mover, dest, inches, others)
    assert reason == why_not(TABLE, mover, dest, inches, others)
    unworded = move_problem(TABLE, mover, dest, inches, others, worded=False)
    assert unworded == (None if reason is None else REFUSED)


def _reference_farthest(table, mover, goal, max_inches, others, steps=20):
    reach = min(max_inches, mover.pos.distance(goal))
    for i in range(steps, 0, -1):
        spot = mover.pos.toward(goal, reach * i / steps).rounded(2)
        if why_not(table, mover, spot, max_inches, others) is None:
            return spot
    return mover.pos


@settings(max_examples=300, deadline=None)
@given(point, point, st.sampled_from([3.0, 4.0, 8.0]), bodies)
def test_farthest_toward_is_the_point_by_point_search(start, goal, inches, others):
    mover = Body("me", start, 0.5)
    assert farthest_toward(TABLE, mover, goal, inches, others) == _reference_farthest(
        TABLE, mover, goal, inches, others
    )


def _reference_route(table, mover, goal, max_inches, others, stop_short=0.0):
    candidates = [
        _reference_farthest(table, mover, goal, max_inches, others),
        *ring_spots(table, mover, max_inches, others),
    ]

    def remaining(p):
        return abs(path_distance(table, p, goal, mover.radius) - stop_short)

    here = remaining(mover.pos)
    best = min(candidates, key=lambda p: (round(remaining(p), 3), mover.pos.distance(p)))
    return best if remaining(best) < here - 1e-6 else mover.pos


inside = st.builds(
    Point,
    st.floats(0.6, 23.4).map(lambda v: round(v, 2)),
    st.floats(0.6, 23.4).map(lambda v: round(v, 2)),
)


@settings(max_examples=150, deadline=None)
@given(inside, inside, st.sampled_from([0.0, 1.0]), bodies)
def test_route_toward_picks_what_trying_every_candidate_picks(start, goal, short, others):
    mover = Body("me", start, 0.5)
    assert route_toward(TABLE, mover, goal, 4.0, others, short) == _reference_route(
        TABLE, mover, goal, 4.0, others, short
    )


def _squad_game(seed: int, choices: int):
    """A Squad Alpha game played by the bots up to its `choices`-th decision."""
    ruleset = registry.get("squad-alpha")
    options = resolve_options(ruleset.options, None)
    teams = {s: ruleset.default_team(s, options)[0] for s in SIDES}
    game = ruleset.new_game(Setup({"A": "A", "B": "B"}, teams), options)
    below = face_source(seed)
    gen, answer, seen = game.play(), None, 0
    while True:
        req = gen.send(answer)
        if isinstance(req, Roll):
            answer = tuple(below(d) + 1 for d in req.dice)
        elif isinstance(req, Choice):
            seen += 1
            if seen >= choices:
                return game.state, req
            answer = req.default
        else:
            answer = None


@pytest.mark.parametrize(("seed", "choices"), [(1, 3), (2, 9), (3, 15), (4, 60), (5, 90)])
def test_squad_alpha_walks_and_deployment_cells_match_the_plain_definitions(seed, choices):
    state, _ = _squad_game(seed, choices)
    for mini in state.all_minis():
        if mini.pos is None:
            spots, level = legal_spots(state, mini)
            for wanted in (HIDDEN, BAND, ANYWHERE):
                plain = [
                    p
                    for p in cell_centres(state.table)
                    if spot_problem(state, mini, p, wanted) is None
                ]
                if plain:
                    break
            assert (spots, level) == (plain, wanted)
        elif mini.alive:
            for p in ring_spots(state.table, state.body(mini), 4.0, state.bodies()):
                walks = [
                    path_distance(state.table, p, e.pos, state.base_radius)
                    for e in state.enemies(mini.side)
                ]
                finite = [w for w in walks if w < math.inf]
                plain = min(finite) if finite else 0.0
                assert squad_bot.nearest_walk(state, mini, p) == plain


def _forget_everything(game) -> None:
    """Wipe every memo a bot may lean on: the per-decision ones (by declaring a change) and
    the per-table ones."""
    from wargame_cli.rulesets.mobs_and_morale import state as mobs_state
    from wargame_cli.rulesets.seeds_of_wars import state as seeds_state
    from wargame_cli.rulesets.squad_alpha import state as squad_state

    for counter in (
        squad_state._CHANGES,
        mobs_state._CHANGES,
        seeds_state._MOVES,
        seeds_state._PLACES,
    ):
        counter[0] += 1
    state = getattr(game, "state", None) or getattr(game, "battle", None)
    table = getattr(state, "table", None)
    if table is not None:
        forget_memos(table)


@pytest.mark.parametrize(
    "ruleset_id", ["squad-alpha", "mobs-and-morale", "seeds-of-wars", "battle-of-ixu"]
)
def test_bots_choose_the_same_with_every_memo_wiped(ruleset_id):
    """The same seeded game twice: once as simulate plays it, once forgetting everything
    remembered before every request. Every request and answer must match."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    setup = Setup(names=names, teams=teams)
    seed = stream_seed(7, 0)

    def play(forget: bool) -> list[object]:
        game = ruleset.new_game(setup, options)
        below = face_source(seed)
        gen, answer, out = game.play(), None, []
        for _ in range(4000 if ruleset_id != "squad-alpha" else 600):
            try:
                req = gen.send(answer)
            except StopIteration as stop:
                out.append(stop.value)
                break
            if forget:
                _forget_everything(game)
            if isinstance(req, Roll):
                answer = tuple(below(d) + 1 for d in req.dice)
            elif isinstance(req, Choice):
                answer = req.default
                out.append((req.kind, answer, req.options))
            else:
                answer = None
        return out

    assert play(False) == play(True)


@settings(max_examples=200, deadline=None)
@given(inside, st.sampled_from([3.0, 4.0, 6.0]), bodies)
def test_ring_spots_are_the_legal_points_of_both_rings(start, inches, others):
    mover = Body("me", start, 0.5)
    plain = []
    for ring in (1.0, 0.5):
        for k in range(16):
            angle = 2 * math.pi * k / 16
            spot = start.offset(
                math.cos(angle) * inches * ring, math.sin(angle) * inches * ring
            ).rounded(2)
            if why_not(TABLE, mover, spot, inches, others) is None:
                plain.append(spot)
    assert ring_spots(TABLE, mover, inches, others) == plain


def _reference_stands(table, body, others) -> bool:
    """`standing_problem` as it was: on the table, out of impassable terrain and of bases."""
    if not table.on_table(body.pos, body.radius):
        return False
    if any(zone.strictly_contains(body.pos) for _, zone in footprints(table, body.radius)):
        return False
    return all(
        o.id == body.id or o.pos.distance(body.pos) >= o.radius + body.radius - CONTACT_TOLERANCE
        for o in others
    )


@settings(max_examples=400, deadline=None)
@given(point, st.sampled_from([0.5, 0.75]), bodies)
def test_standing_problem_is_the_standing_check(p, radius, others):
    body = Body("me", p, radius)
    assert (standing_problem(TABLE, body, others) is None) == _reference_stands(TABLE, body, others)
    assert standing_problem(TABLE, body, others) == _reference_standing(TABLE, body, others)
    assert (standing_problem(TABLE, body, others, worded=False) is None) == (
        _reference_stands(TABLE, body, others)
    )
