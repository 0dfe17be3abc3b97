"""Movement on the shared tabletop, as drawn cases: bases may not leave the table, overlap or
cross impassable terrain or other bases; walking distances go around buildings; the offered
destinations are all legal."""

from __future__ import annotations

import math

import pytest

from wargame_cli.tabletop.destinations import MoveMenu, offer, typed_problem
from wargame_cli.tabletop.drawing import from_drawing
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import (
    Body,
    contact_spots,
    farthest_toward,
    gap,
    in_contact,
    move_problem,
    standing_problem,
)
from wargame_cli.tabletop.paths import path_distance, ring_spots, route_toward
from wargame_cli.tabletop.placement import cell_centres, edge_distance

R = 0.5  # 1" bases


def body(at, key: str) -> Body:
    return Body(key, at[key], R)


def test_a_move_within_four_inches_is_legal_and_beyond_is_refused():
    table, at = from_drawing(
        """
        ..........
        .M........
        ..........
        """
    )
    mover = body(at, "M")
    assert move_problem(table, mover, Point(5.5, 1.5), 4, []) is None
    reason = move_problem(table, mover, Point(6.5, 1.5), 4, [])
    assert reason is not None and 'the move allows 4"' in reason


def test_no_moving_through_a_building():
    table, at = from_drawing(
        """
        ...#......
        .M.#......
        ...#......
        """
    )
    reason = move_problem(table, body(at, "M"), Point(4.5, 1.5), 4, [])
    assert reason is not None and "passes through block 1" in reason


def test_no_standing_inside_or_overlapping_a_building():
    table, at = from_drawing(
        """
        ...###....
        .M.###....
        ...###....
        """
    )
    mover = body(at, "M")
    assert "inside block 1" in move_problem(table, mover, Point(4.5, 1.5), 4, [])
    # centre 0.3" from the wall: the 1" base would overlap it
    assert "inside block 1" in move_problem(table, mover, Point(2.7, 1.5), 4, [])
    # touching the wall is fine
    assert move_problem(table, mover, Point(2.5, 1.5), 4, []) is None


def test_cover_does_not_stop_movement():
    table, at = from_drawing(
        """
        ...+~.....
        .M.+~.....
        ...+~.....
        """
    )
    assert move_problem(table, body(at, "M"), Point(5.5, 1.5), 4, []) is None


def test_no_moving_through_another_base_but_into_contact_is_fine():
    table, at = from_drawing(
        """
        ..........
        .M.E......
        ..........
        """
    )
    mover, enemy = body(at, "M"), body(at, "E")
    reason = move_problem(table, mover, Point(5.5, 1.5), 4, [mover, enemy])
    assert reason is not None and "passes through E" in reason
    assert "overlaps E" in move_problem(table, mover, Point(3.0, 1.5), 4, [mover, enemy])
    assert move_problem(table, mover, Point(2.5, 1.5), 4, [mover, enemy]) is None
    assert in_contact(Body("M", Point(2.5, 1.5), R), enemy)
    assert gap(mover, enemy) == pytest.approx(1.0)


def test_off_the_table_is_refused():
    table, at = from_drawing(
        """
        M.........
        ..........
        """
    )
    assert "off the" in move_problem(table, body(at, "M"), Point(0.2, 1.5), 4, [])
    assert "off the" in standing_problem(table, Body("X", Point(-1, 1), R), [])


def test_contact_spots_touch_the_target_and_are_reachable():
    table, at = from_drawing(
        """
        ..........
        .M...E....
        ..........
        """
    )
    mover, enemy = body(at, "M"), body(at, "E")
    spots = contact_spots(table, mover, enemy, 4, [mover, enemy])
    assert spots
    for spot in spots:
        assert in_contact(Body("M", spot, R), enemy)
        assert move_problem(table, mover, spot, 4, [mover, enemy]) is None
    assert spots[0].distance(mover.pos) <= spots[-1].distance(mover.pos)
    far = Body("F", Point(9.5, 0.5), R)
    assert contact_spots(table, Body("M", Point(0.5, 0.5), R), far, 4, []) == []


def test_farthest_toward_stops_at_the_wall():
    table, at = from_drawing(
        """
        ...#......
        .M.#....G.
        ...#......
        """
    )
    spot = farthest_toward(table, body(at, "M"), at["G"], 4, [])
    assert spot.x <= 2.5 + 1e-6


WALL = """
    ..........
    ..........
    ....#.....
    .M..#..G..
    ....#.....
    ..........
    ..........
    """


def test_walking_distance_goes_around_a_building():
    table, at = from_drawing(WALL)
    straight = at["M"].distance(at["G"])
    walk = path_distance(table, at["M"], at["G"], R)
    assert straight < walk < straight + 4
    assert path_distance(table, at["M"], Point(2.5, 3.5), R) == pytest.approx(1.0)


def test_walled_in_is_infinitely_far():
    table, at = from_drawing(
        """
        ..#####...
        ..#...#...
        ..#.G.#.M.
        ..#...#...
        ..#####...
        """
    )
    assert math.isinf(path_distance(table, at["M"], at["G"], R))


def test_route_toward_goes_around_rather_than_into_the_wall():
    table, at = from_drawing(WALL)
    mover = body(at, "M")
    spot = route_toward(table, mover, at["G"], 4, [])
    assert move_problem(table, mover, spot, 4, []) is None
    before = path_distance(table, at["M"], at["G"], R)
    assert path_distance(table, spot, at["G"], R) < before - 2
    assert abs(spot.y - 3.5) > 0.5  # it heads for the end of the wall


def test_ring_spots_are_legal_moves():
    table, at = from_drawing(WALL)
    mover = body(at, "M")
    spots = ring_spots(table, mover, 4, [mover])
    assert spots and all(move_problem(table, mover, s, 4, [mover]) is None for s in spots)


def test_offered_destinations_are_legal_and_purposeful():
    table, at = from_drawing(
        """
        ............
        ..~~~.......
        ..~~~.......
        ............
        .M.....E....
        ............
        """
    )
    mover, enemy = body(at, "M"), body(at, "E")
    found = offer(MoveMenu(table, mover, 4, [enemy], [mover, enemy], names=lambda i: f"<{i}>"))
    tags = [d.tag for d in found]
    assert tags[0] == "toward:E"  # E is 6" away: out of reach of contact
    assert any(t.startswith("cover:soft") for t in tags)
    assert "away:E" in tags and "north:full" in tags and "stay" in tags
    assert len({d.point for d in found}) == len(found)
    for d in found:
        assert move_problem(table, mover, d.point, 4, [mover, enemy]) is None
        assert d.option().key == d.point.key()
    assert "Toward <E>" in found[0].label


def test_contact_is_offered_when_in_reach():
    table, at = from_drawing(
        """
        ........
        .M..E...
        ........
        """
    )
    mover, enemy = body(at, "M"), body(at, "E")
    found = offer(MoveMenu(table, mover, 4, [enemy], [mover, enemy]))
    assert found[0].tag == "contact:E"
    assert in_contact(Body("M", found[0].point, R), enemy)


def test_typed_destinations_are_checked():
    table, at = from_drawing(WALL)
    mover = body(at, "M")
    assert typed_problem(table, mover, 4, [], "2.5, 3.5") is None
    assert "not a position" in typed_problem(table, mover, 4, [], "north")
    assert "passes through" in typed_problem(table, mover, 4, [], "5.5,3.5")


def test_cells_and_edges():
    table, _ = from_drawing(WALL)
    cells = cell_centres(table)
    assert len(cells) == 70 and cells[0] == Point(0.5, 0.5)
    p = Point(2.5, 1.5)
    assert edge_distance(table, p, "south") == 1.5
    assert edge_distance(table, p, "north") == 5.5
    assert edge_distance(table, p, "west") == 2.5
    assert edge_distance(table, p, "east") == 7.5


def test_point_parsing_round_trips():
    assert Point.parse("3, 4.5") == Point(3, 4.5)
    assert Point.parse("(3 4.5)") == Point(3, 4.5)
    assert Point(3, 4.5).key() == "3,4.5"
    for bad in ("3", "a,b", "1,2,3", "inf,1"):
        with pytest.raises(ValueError):
            Point.parse(bad)
