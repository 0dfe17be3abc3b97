"""Squad Alpha's shortcuts give exactly what the plain definitions give.

Each shortcut (the walking-distance search on numbered nodes, the halving search that skips
tests the walls and bases already settle, the deployment ranking that stops early, the sight
and cover remembered per spot and enemy) is checked here against the plain definition it
replaced, over random positions and over positions from seeded bot games.
"""

from __future__ import annotations

import heapq
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wargame_cli.rulesets.squad_alpha import bot
from wargame_cli.rulesets.squad_alpha.deployment import _fitting, _legal_cells, legal_spots
from wargame_cli.rulesets.squad_alpha.odds import save_chance

from wargame_cli import registry
from wargame_cli.engine.fast import face_source, play_fast
from wargame_cli.ruleset import SIDES, Setup, resolve_options
from wargame_cli.tabletop import paths
from wargame_cli.tabletop.destinations import Mover, _rounded_back, farthest_along
from wargame_cli.tabletop.geometry import Point, ray_span, segment_point_distance
from wargame_cli.tabletop.movement import Body, move_problem
from wargame_cli.tabletop.sight import cover, line_of_sight
from wargame_cli.tabletop.table import Table, forget_memos


def _farmstead() -> Table:
    ruleset = registry.get("squad-alpha")
    return Table.from_data(resolve_options(ruleset.options, None)["table"])


FARMSTEAD = _farmstead()
CRAMPED = Table.from_data(
    {
        "name": "cramped",
        "width": 12,
        "height": 12,
        "terrain": [
            {"name": "a", "kind": "blocking", "x": 2, "y": 2, "w": 3, "h": 1},
            {"name": "b", "kind": "blocking", "x": 6, "y": 5, "w": 1, "h": 4},
            {"name": "c", "kind": "blocking", "x": 3, "y": 8, "w": 2.5, "h": 2.5},
            {"name": "d", "kind": "hard", "x": 8, "y": 1, "w": 2, "h": 2},
        ],
    }
)
coord = st.one_of(
    st.floats(min_value=0.4, max_value=23.6, allow_nan=False).map(lambda v: round(v, 2)),
    st.sampled_from([0.5, 1.95, 2.0, 5.45, 10.0, 11.5, 14.05, 23.5]),  # edges, walls' zones
)
point = st.builds(Point, coord, coord)
bodies = st.lists(
    st.builds(lambda i, p: Body(f"o{i}", p, 0.5), st.integers(0, 9), point),
    max_size=8,
    unique_by=lambda b: b.id,
)


def _plain_farthest_along(m: Mover, goal: Point) -> Point:
    """`farthest_along` as it was: every halving tested."""
    from wargame_cli.tabletop.destinations import _edge_limit

    start = m.body.pos
    length = min(m.max_inches, start.distance(goal))
    if length < 1e-9:
        return start
    t_edge = _edge_limit(m.table, m.body, goal, length)
    spot = _rounded_back(m, start.toward(goal, t_edge))
    if spot is not None and move_problem(m.table, m.body, spot, m.max_inches, m.others) is None:
        return spot
    lo, hi = 0.0, t_edge
    for _ in range(24):
        mid = (lo + hi) / 2
        if move_problem(m.table, m.body, start.toward(goal, mid), m.max_inches, m.others):
            hi = mid
        else:
            lo = mid
    return _rounded_back(m, start.toward(goal, lo)) or start


@settings(max_examples=600, deadline=None)
@given(
    st.sampled_from([FARMSTEAD, CRAMPED]),
    point,
    point,
    st.sampled_from([2.0, 4.0, 6.0]),
    bodies,
    st.booleans(),
)
def test_farthest_along_is_the_plain_halving_search(table, start, goal, inches, others, bend):
    m = Mover(table, Body("me", start, 0.5), inches, tuple(others), bend)
    assert farthest_along(m, goal) == _plain_farthest_along(m, goal)


@settings(max_examples=300, deadline=None)
@given(point, st.floats(0, 2 * math.pi), bodies, st.floats(0.01, 6.0))
def test_ray_span_settles_only_what_is_sure(start, angle, others, length):
    """Before `safe` a way is clear of every rectangle and circle; beyond `bad` it runs
    into one."""
    ux, uy = math.cos(angle), math.sin(angle)
    rects = [(2.0, 10.0, 8.0, 14.0), (10.0, 4.0, 13.0, 6.0)]
    circles = [(b.pos.x, b.pos.y, 0.95) for b in others]
    safe, bad = ray_span(start.x, start.y, ux, uy, rects, circles, 1e-6)
    end = Point(start.x + ux * length, start.y + uy * length)

    def depth() -> float:
        """How deep the way start->end goes into the nearest obstacle (negative: clear)."""
        deepest = -math.inf
        for x0, y0, x1, y1 in rects:
            for k in range(201):
                p = Point(start.x + ux * length * k / 200, start.y + uy * length * k / 200)
                deepest = max(deepest, min(p.x - x0, x1 - p.x, p.y - y0, y1 - p.y))
        for cx, cy, r in circles:
            deepest = max(deepest, r - segment_point_distance(start, end, Point(cx, cy)))
        return deepest

    if length < safe:
        assert depth() < 0
    if length > bad:
        assert depth() > 0


def _plain_walks(table: Table, goal: Point, radius: float) -> dict:
    """Every node's walk to `goal`: the whole shortest-path search on the grid's nodes."""
    graph = paths._graph(table, radius, 1.0)
    dist: dict = {}
    heap = [(d, node) for node, d in paths._nodes_near(table, goal, radius, 1.0, graph)]
    heapq.heapify(heap)
    while heap:
        d, node = heapq.heappop(heap)
        if node in dist:
            continue
        dist[node] = d
        for other, length in graph[node]:
            if other not in dist:
                heapq.heappush(heap, (d + length, other))
    return dist


@pytest.mark.parametrize("table", [FARMSTEAD, CRAMPED], ids=["farmstead", "cramped"])
@pytest.mark.parametrize("goal", [Point(1.5, 1.5), Point(12.3, 8.7), Point(9.9, 22.1)])
def test_walking_distances_are_the_whole_searchs(table, goal):
    if not table.on_table(goal, 0.5):
        goal = Point(goal.x % (table.width - 1) + 0.5, goal.y % (table.height - 1) + 0.5)
    plain = _plain_walks(table, goal, 0.5)
    field = paths._field(table, goal, 0.5, 1.0)
    nodes = list(paths._graph(table, 0.5, 1.0))
    # asked in a scattered order, so the search stops and resumes many times
    for node in nodes[::7] + nodes[3::5] + nodes:
        assert field.get(node) == plain.get(node), node


def _squad_positions(seed: int, visit, every: int = 3) -> None:
    """`visit(state)` at every `every`-th decision of a seeded Squad Alpha bot game, before
    the bot answers it."""
    ruleset = registry.get("squad-alpha")
    options = resolve_options(ruleset.options, None)
    teams = {s: ruleset.default_team(s, options)[0] for s in SIDES}
    game = ruleset.new_game(Setup({"A": "A", "B": "B"}, teams), options)
    seen = [0]

    def each(_req) -> None:
        seen[0] += 1
        if seen[0] % every == 0:
            visit(game.state)

    play_fast(game, face_source(seed), on_choice=each)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_deployment_ranking_and_sight_memos_match_the_plain_definitions(seed):
    checked = 0

    def check(state) -> None:
        nonlocal checked
        table = state.table
        for mini in state.all_minis():
            if mini.pos is None:
                spots, _ = legal_spots(state, mini)
                cells = _fitting(table, state.base_radius)
                picked, _ = _legal_cells(state, mini)
                assert [cells[k] for k in picked] == spots
                for n in (1, 8, 30):
                    plain = bot.deploy_rank(state, mini.side, spots)[:n]
                    assert bot.deploy_best(state, mini.side, spots, n, cells) == plain
                    assert bot.deploy_best(state, mini.side, spots, n, cells, set(picked)) == plain
                    checked += 1
            elif mini.alive:
                for enemy in state.enemies(mini.side):
                    for p in [mini.pos, *bot.move_samples(state, mini)][:12]:
                        out, back = bot._exchange(table, p, enemy.pos)
                        e = enemy.pos
                        plain_out = (
                            1 - save_chance(cover(table, p, e))
                            if line_of_sight(table, p, e)
                            else None
                        )
                        plain_back = (
                            1 - save_chance(cover(table, e, p))
                            if line_of_sight(table, e, p)
                            else None
                        )
                        assert (out, back) == (plain_out, plain_back)
                        checked += 1

    _squad_positions(seed, check)
    assert checked > 50
    forget_memos(FARMSTEAD)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([FARMSTEAD, CRAMPED]), point, point)
def test_sight_worked_out_once_is_the_remembered_sight(table, a, b):
    from wargame_cli.tabletop.sight import line_of_sight_once

    assert line_of_sight_once(table, a, b) == line_of_sight(table, a, b)
    forget_memos(table)
    assert line_of_sight_once(table, a, b) == line_of_sight(table, a, b)
