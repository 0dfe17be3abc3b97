"""The Mobs and Morale bot's shortcuts give exactly what the plain definitions give.

A mob's bot reads only its closing moves when one is worth making, a character's bot tries
the nearest enemy's contact spot alone first, deployment lattices and the walking grid are
worked out once, and the geometry skips what cannot matter. Each shortcut is checked here
against the plain definition (the reference versions below are the code as it was), over
random positions on the game's own table and over the positions of seeded bot games.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wargame_cli.rulesets.mobs_and_morale import bot, combat, moves
from wargame_cli.rulesets.mobs_and_morale.ruleset import RULESET

from tests.test_fast_paths import _reference_route
from wargame_cli.engine.fast import face_source, play_fast, stream_seed
from wargame_cli.ruleset import SIDES, Setup, resolve_options
from wargame_cli.tabletop import paths
from wargame_cli.tabletop.areas import edge_strip, fit_group
from wargame_cli.tabletop.geometry import EPS, Point
from wargame_cli.tabletop.movement import (
    Body,
    contact_ring,
    contact_spots,
    nearest_contact_spot,
    standing_problem,
)
from wargame_cli.tabletop.paths import route_toward
from wargame_cli.tabletop.table import Table

OPTIONS = resolve_options(RULESET.options, None)
CLEARING = Table.from_data(OPTIONS["table"])  # 36" x 24", two impassable pieces

spot = st.builds(
    Point,
    st.floats(0.5, 35.5).map(lambda v: round(v, 2)),
    st.floats(0.5, 23.5).map(lambda v: round(v, 2)),
)


def crowd_near(centre: Point):
    """Up to 12 bases within 6" of `centre`, as a melee or a marching mob has them."""
    near = st.builds(
        lambda dx, dy: Point(round(centre.x + dx, 2), round(centre.y + dy, 2)),
        st.floats(-6, 6),
        st.floats(-6, 6),
    )
    return st.lists(near, max_size=12).map(
        lambda ps: [Body(f"o{i}", p, 0.5) for i, p in enumerate(ps)]
    )


@st.composite
def scene(draw):
    start = draw(spot)
    return start, draw(crowd_near(start))


@settings(max_examples=300, deadline=None)
@given(scene(), spot, st.sampled_from([4.0, 5.0, 6.0]), st.sampled_from([0.0, 1.0]))
def test_route_toward_on_the_clearing_picks_what_trying_every_candidate_picks(
    where, goal, inches, short
):
    start, others = where
    mover = Body("me", start, 0.5)
    assert route_toward(CLEARING, mover, goal, inches, others, short) == _reference_route(
        CLEARING, mover, goal, inches, others, short
    )


@settings(max_examples=300, deadline=None)
@given(scene(), st.integers(0, 11), st.sampled_from([4.0, 6.0]))
def test_nearest_contact_spot_is_the_first_of_all_contact_spots(where, pick, inches):
    start, others = where
    if not others:
        return
    target = others[pick % len(others)]
    mover = Body("me", start, 0.5)
    every = contact_spots(CLEARING, mover, target, inches, others)
    found = nearest_contact_spot(CLEARING, mover, target, inches, others)
    assert found == (every[0] if every else None)


def _reference_ring(start, centre, touching, tries):
    base = math.atan2(start.y - centre.y, start.x - centre.x)
    for i in range(tries):
        step = (i + 1) // 2 * (1 if i % 2 else -1)
        angle = base + step * (2 * math.pi / tries)
        p = Point(
            centre.x + math.cos(angle) * touching, centre.y + math.sin(angle) * touching
        ).rounded(2)
        if p.distance(centre) < touching - EPS:
            p = centre.toward(p, touching + 0.005).rounded(2)
        yield p


@settings(max_examples=300, deadline=None)
@given(spot, spot, st.sampled_from([1.0, 1.25, 1.5]), st.sampled_from([24, 180]))
def test_contact_ring_on_numbers_is_the_ring_of_points(start, centre, touching, tries):
    assert list(contact_ring(start, centre, touching, tries)) == list(
        _reference_ring(start, centre, touching, tries)
    )


def _reference_fit_group(table, area, anchor, count, radius, others, spacing=0.2):
    pitch = 2 * radius + spacing
    reach = int(count**0.5) + 4
    lattice = [
        Point(anchor.x + i * pitch, anchor.y + j * pitch).rounded(2)
        for i in range(-reach, reach + 1)
        for j in range(-reach, reach + 1)
    ]
    lattice.sort(key=lambda p: (round(p.distance(anchor), 6), p.y, p.x))
    placed: list[Body] = []
    for p in lattice:
        if len(placed) == count:
            break
        body = Body(f"#{len(placed)}", p, radius)
        if area.holds(body) and standing_problem(table, body, [*others, *placed]) is None:
            placed.append(body)
    return [b.pos for b in placed]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["south", "north"]),
    st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.9]),
    st.integers(1, 12),
    st.lists(spot, max_size=20),
)
def test_fit_group_places_what_the_lattice_search_places(edge, share, count, taken):
    area = edge_strip(CLEARING, edge, 6)
    r = area.rect
    anchor = Point(r.x0 + (r.x1 - r.x0) * share, (r.y0 + r.y1) / 2).rounded(2)
    others = [Body(f"o{i}", p, 0.5) for i, p in enumerate(taken)]
    others.append(Body("#0", anchor, 0.5))  # a base named like the lattice's own
    assert fit_group(CLEARING, area, anchor, count, 0.5, others) == _reference_fit_group(
        CLEARING, area, anchor, count, 0.5, others
    )


def _reference_graph(table, radius, step):
    cols, rows = int(table.width / step), int(table.height / step)
    nodes = {
        (i, j)
        for i in range(cols + 1)
        for j in range(rows + 1)
        if table.on_table(Point(i * step, j * step), radius)
        and paths._clear(table, Point(i * step, j * step), Point(i * step, j * step), radius)
    }
    graph = {}
    for i, j in nodes:
        links = []
        for di, dj in paths.NEIGHBOURS:
            other = (i + di, j + dj)
            if other in nodes and paths._clear(
                table, Point(i * step, j * step), Point(other[0] * step, other[1] * step), radius
            ):
                links.append((other, step * math.hypot(di, dj)))
        graph[(i, j)] = links
    return graph


@pytest.mark.parametrize(("radius", "step"), [(0.5, 1.0), (0.75, 1.0), (0.5, 0.5)])
def test_the_walking_grid_links_what_testing_every_link_links(radius, step):
    assert paths._graph(CLEARING, radius, step) == _reference_graph(CLEARING, radius, step)


# -- the bots, in the positions of seeded games -------------------------------------------------
def _play(seed: int) -> int:
    """A seeded bot-vs-bot game as `simulate` plays it; returns the decisions made."""
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = RULESET.default_team(side, OPTIONS)
    game = RULESET.new_game(Setup(names=names, teams=teams), OPTIONS)
    asked: list = []
    play_fast(game, face_source(stream_seed(seed, 0)), on_choice=asked.append)
    return len(asked)  # each one's suggestion judged legal as it was answered


def test_the_mob_bot_picks_from_its_closing_moves_what_it_picked_from_all_its_plans(
    monkeypatch,
):
    """Wherever a mob's bot decides on a short list, the whole list gives the same pick; a
    mob's menu keys are `offered` and `chosen` gives each key's plan."""
    compared = {"advance": 0, "move": 0}
    advance, mob_move = bot.mob_advance, bot.mob_move

    def whole(plans):
        return plans() if callable(plans) else plans

    def checked_advance(b, mob, plans, closing=None):
        found = advance(b, mob, plans, closing)
        assert found == advance(b, mob, whole(plans))
        compared["advance"] += 1
        return found

    def checked_move(b, mob, plans, closing=None):
        found = mob_move(b, mob, plans, closing)
        every = whole(plans)
        assert found == mob_move(b, mob, every)
        for plan in every:
            assert moves.offered(b, mob, plan.key) and moves.chosen(b, mob, plan.key) == plan
        keys = {p.key for p in every}
        for key in ("close:nobody", "shift:0,0", *(k.removeprefix("close:") for k in keys)):
            assert moves.offered(b, mob, key) == (key in keys)
        compared["move"] += 1
        return found

    monkeypatch.setattr(bot, "mob_advance", checked_advance)
    monkeypatch.setattr(bot, "mob_move", checked_move)
    for seed in (1, 2, 3):
        _play(seed)
    assert compared["advance"] > 10 and compared["move"] > 10


def test_the_character_bot_moves_as_it_did_with_the_whole_menu(monkeypatch):
    """The nearest enemy's contact spot alone, or the short menu, gives the move the whole
    menu gives; and the way to the table edge is the same when worked out only on demand."""
    compared = 0
    real = bot.character_move

    def checked(b, c, dests, leave_ok, edge_key):
        nonlocal compared
        found = real(b, c, dests, leave_ok, edge_key)
        edge = edge_key() if callable(edge_key) else edge_key
        assert edge == moves._toward_edge(b, c).key()
        assert found == real(b, c, moves.destinations(b, c), leave_ok, edge)
        compared += 1
        return found

    monkeypatch.setattr(bot, "character_move", checked)
    for seed in (1, 2, 3, 4):
        _play(seed)
    assert compared > 20


def test_reach_on_numbers_is_the_gap_between_bases(monkeypatch):
    """`reachable` is every attacker with a target `in_range` (gap within reach), in the
    positions where the bots ask."""
    compared = 0
    real = combat.reachable

    def checked(b, attackers, unit):
        nonlocal compared
        reach = b.options["reach"]
        targets = b.unit_figures(unit)
        found = real(b, attackers, unit)
        assert found == [a for a in attackers if any(a.in_range(t, reach) for t in targets)]
        compared += 1
        return found

    monkeypatch.setattr(combat, "reachable", checked)
    from wargame_cli.rulesets.mobs_and_morale import turns

    monkeypatch.setattr(turns, "reachable", checked)
    _play(5)
    assert compared > 100
