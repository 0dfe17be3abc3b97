"""The destinations the shared tabletop offers (issue 12, item 9; Ixu c5, Squad Alpha b14):
"away" goes the full distance, edge-clamped moves say how far they go, the search reaches the
edge, "toward" never ends farther away, no "Into" the cover one stands in, and a contact spot
is offered whenever one is reachable, round a corner too when moves may bend."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargame_cli.tabletop import Piece, Point, Table, TerrainKind
from wargame_cli.tabletop.destinations import MoveMenu, menu_entry, offer, typed_problem
from wargame_cli.tabletop.detours import way_to
from wargame_cli.tabletop.geometry import Rect
from wargame_cli.tabletop.movement import Body, in_contact, move_problem
from wargame_cli.tabletop.paths import path_distance

OPEN = Table(24, 24)
R = 0.375  # Ixu's 0.75" bases
FARMSTEAD = Table.load("rulesets/squad_alpha/table.toml")


def by_tag(found):
    return {d.tag: d for d in found}


def test_c5_away_goes_the_full_distance_the_die_allows():
    """The bug: "away" mirrored the enemy's position, a 0.75" step when the die allowed 6"."""
    me, enemy = Body("A1", Point(12, 11.6), R), Body("B1", Point(12, 12.35), R)
    away = by_tag(offer(MoveMenu(OPEN, me, 6, [enemy], [me, enemy])))["away:B1"]
    assert away.point == Point(12, 5.6)
    assert away.label == 'Away from B1, 6.0"'


def test_c5_edge_clamped_moves_are_not_full_moves_and_say_how_far():
    """The bug: `North, full move (13.92,9.83)` moved 0.05"."""
    me = Body("A1", Point(13.92, 23.57), R)
    found = by_tag(offer(MoveMenu(OPEN, me, 6, [], [me])))
    north = found["north:full"]
    assert north.point == Point(13.92, 23.62)  # the search reaches the edge exactly
    assert north.label == 'North, 0.05" (as far as it can go)'
    assert "north:half" not in found  # no half move beyond the full one
    assert found["south:full"].label == 'South, full move (6")'
    assert found["south:half"].label == 'South, half move (3")'


@settings(max_examples=60, deadline=None)
@given(x=st.floats(0.5, 23.5), y=st.floats(0.5, 23.5), die=st.integers(1, 6))
def test_c5_every_label_states_the_distance_actually_moved(x, y, die):
    me = Body("A1", Point(round(x, 2), round(y, 2)), 0.5)
    for d in offer(MoveMenu(FARMSTEAD, me, die, [], [me])):
        if d.tag == "stay":
            continue
        moved = me.pos.distance(d.point)
        assert move_problem(FARMSTEAD, me, d.point, die, [me]) is None
        if "full move" in d.label or "half move" in d.label:
            share = 1.0 if "full" in d.label else 0.5
            assert abs(moved - die * share) <= 0.01, d
        else:
            said = float(d.label.split(", ")[-1].split('"')[0])
            assert abs(said - moved) <= 0.051, d  # said to 0.1" (0.01" near an edge)
        if d.tag.endswith(":full") and "as far as it can go" in d.label:
            # the search went as far as the edge or the wall allows: 0.05" more is illegal
            beyond = me.pos.toward(d.point, moved + 0.05)
            assert move_problem(FARMSTEAD, me, beyond, die, [me]) is not None, d


@settings(max_examples=80, deadline=None)
@given(
    x=st.floats(0.5, 23.5),
    y=st.floats(0.5, 23.5),
    ex=st.floats(0.5, 23.5),
    ey=st.floats(0.5, 23.5),
    die=st.integers(1, 6),
)
def test_c5_toward_never_ends_farther_from_the_enemy(x, y, ex, ey, die):
    """The bug: "toward" could end farther from the enemy (8.6" to 9.6")."""
    me = Body("A1", Point(round(x, 2), round(y, 2)), 0.5)
    enemy = Body("B1", Point(round(ex, 2), round(ey, 2)), 0.5)
    bodies = [me, enemy]
    if any(move_problem(FARMSTEAD, b, b.pos, 0, [me, enemy]) for b in bodies):
        return  # a start inside a building or overlapping
    found = by_tag(offer(MoveMenu(FARMSTEAD, me, die, [enemy], bodies)))
    step = found.get("toward:B1")
    if step is None:
        return
    straight_clear = move_problem(FARMSTEAD, me, enemy.pos, math.inf, []) is None
    if straight_clear:
        assert step.point.distance(enemy.pos) < me.pos.distance(enemy.pos)
    walked_after = path_distance(FARMSTEAD, step.point, enemy.pos, 0.5)
    assert walked_after <= path_distance(FARMSTEAD, me.pos, enemy.pos, 0.5) + 1e-6


def test_b14_no_into_the_cover_one_stands_in():
    """The bug: "Into Sandbags" was offered to a piece standing in the Sandbags."""
    me = Body("A1", Point(16.5, 5.5), 0.5)
    tags = by_tag(offer(MoveMenu(FARMSTEAD, me, 4, [], [me])))
    assert "cover:Sandbags" not in tags
    assert any(t.startswith("cover:") for t in tags)  # other cover still offered


def test_b17_contact_beside_the_barn_corner_is_offered_straight_or_bent():
    """The Squad Alpha repro: Ghost at 20.35,9.27 and Cpt Vex at 23.33,10.67, beside the Barn
    corner. Straight moves find the narrow gap past the corner; bent ones go round it."""
    ghost, vex = Body("A1", Point(20.35, 9.27), 0.5), Body("B1", Point(23.33, 10.67), 0.5)
    for bend in (False, True):
        found = by_tag(offer(MoveMenu(FARMSTEAD, ghost, 4, [vex], [ghost, vex], bend=bend)))
        contact = found["contact:B1"]
        assert in_contact(Body("A1", contact.point, 0.5), vex)
        assert typed_problem(FARMSTEAD, ghost, 4, [ghost, vex], contact.point.key(), bend) is None
    assert contact.label.endswith(", around Barn")
    way = way_to(FARMSTEAD, ghost, contact.point, 4, [ghost, vex])
    assert way is not None and way.bends == 1 and way.length <= 4.01


def test_contact_is_offered_for_each_enemy_in_reach():
    table = Table(24, 24, (Piece("Wall", TerrainKind.BLOCKING, Rect(10, 0, 11, 20)),))
    me = Body("M", Point(8, 10), 0.5)
    west = Body("W", Point(6, 10), 0.5)
    south = Body("S", Point(8, 7), 0.5)
    beyond = Body("X", Point(12.5, 10), 0.5)  # behind the wall
    found = by_tag(offer(MoveMenu(table, me, 4, [west, south, beyond], [me, west, south, beyond])))
    assert {"contact:W", "contact:S"} <= set(found)
    assert "contact:X" not in found


@settings(max_examples=40, deadline=None)
@given(
    x=st.floats(0.5, 23.5),
    y=st.floats(0.5, 23.5),
    foes=st.lists(st.tuples(st.floats(0.5, 23.5), st.floats(0.5, 23.5)), max_size=3),
    bend=st.booleans(),
)
def test_one_entry_walked_to_is_the_entry_the_whole_menu_lists(x, y, foes, bend):
    """`menu_entry` (a replay labelling a recorded move) works the menu out only as far as the
    key, and gives the entry `offer` lists for it: the first with that point, or None."""
    me = Body("A1", Point(round(x, 2), round(y, 2)), 0.5)
    enemies = [Body(f"B{i}", Point(round(a, 2), round(b, 2)), 0.5) for i, (a, b) in enumerate(foes)]
    others = [me, *enemies]
    menu = offer(MoveMenu(FARMSTEAD, me, 4, enemies, others, bend=bend))
    first = {}
    for d in menu:
        first.setdefault(d.point.key(), d)
    for key, d in first.items():
        assert menu_entry(MoveMenu(FARMSTEAD, me, 4, enemies, others, bend=bend), key) == d
    assert menu_entry(MoveMenu(FARMSTEAD, me, 4, enemies, others, bend=bend), "0.01,0.01") is None


def test_a_move_menu_is_one_frozen_value_and_refuses_bot_settings_without_enemies_only():
    me = Body("A1", Point(5, 5), 0.5)
    menu = MoveMenu(OPEN, me, 4, (), (me,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        menu.tidy = True  # type: ignore[misc]
    assert menu.but(tidy=True).tidy and not menu.tidy
    with pytest.raises(ValueError, match="enemies_only"):
        MoveMenu(OPEN, me, 4, (), (me,), first_only=True)
    with pytest.raises(ValueError, match="enemies_only"):
        menu.but(prefer=("B1",))
    assert offer(menu.but(enemies_only=True, prefer=())) == []  # nobody to go toward
