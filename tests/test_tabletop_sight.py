"""Line of sight and cover on the shared tabletop, as drawn cases: one character per inch,
'#' blocking, '+' hard cover (cover from fire), '~' soft cover (cover from view), letters are
miniatures (F fires at T)."""

from __future__ import annotations

import pytest

from wargame_cli.tabletop.drawing import from_drawing
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body
from wargame_cli.tabletop.placement import hidden_spots, seen_by_any
from wargame_cli.tabletop.sight import blocker, cover, cover_piece, line_of_sight, seen_by
from wargame_cli.tabletop.table import TerrainKind

HARD, SOFT = TerrainKind.HARD, TerrainKind.SOFT


def sight(drawing: str) -> tuple[bool, TerrainKind | None]:
    table, at = from_drawing(drawing)
    return line_of_sight(table, at["F"], at["T"]), cover(table, at["F"], at["T"])


# (drawing, sees, cover from F's perspective)
CASES = {
    "open ground": (
        """
        ........
        .F....T.
        ........
        """,
        True,
        None,
    ),
    "a building in between": (
        """
        ....#...
        .F..#.T.
        ....#...
        """,
        False,
        None,
    ),
    "a building beside the line does not block": (
        """
        ....#...
        ....#...
        .F....T.
        """,
        True,
        None,
    ),
    "past the corner of a building": (
        """
        ...##...
        .F.##...
        .......T
        """,
        False,
        None,
    ),
    "clear of the corner": (
        """
        ...##...
        ...##...
        .F......
        .......T
        """,
        True,
        None,
    ),
    "standing in hard cover": (
        """
        ........
        .F...+T+
        ........
        """,
        True,
        HARD,
    ),
    "behind hard cover": (
        """
        .....+..
        .F...+T.
        .....+..
        """,
        True,
        HARD,
    ),
    "behind soft cover (a hedge does not block sight)": (
        """
        ....~...
        .F..~.T.
        ....~...
        """,
        True,
        SOFT,
    ),
    "the firer's own hedge gives the target nothing": (
        """
        ~~~.....
        ~F~...T.
        ~~~.....
        """,
        True,
        None,
    ),
    "the target's hedge counts even if the firer shares it": (
        """
        ~~~~~~~~
        ~F~~~~T~
        ~~~~~~~~
        """,
        True,
        SOFT,
    ),
    "hard beats soft": (
        """
        ...~.+..
        .F.~.+T.
        ...~.+..
        """,
        True,
        HARD,
    ),
    "standing in soft, behind hard": (
        """
        ...+.~~~
        .F.+.~T~
        ...+.~~~
        """,
        True,
        HARD,
    ),
    "cover off to the side does not count": (
        """
        ...+++..
        ........
        .F....T.
        """,
        True,
        None,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_drawn_line_of_sight_and_cover(name):
    drawing, sees, kind = CASES[name]
    seen, got = sight(drawing)
    assert seen is sees
    if sees:
        assert got is kind


def test_blocked_sight_names_the_piece_in_the_way():
    table, at = from_drawing(
        """
        ....#...
        .F..#.T.
        """
    )
    piece = blocker(table, at["F"], at["T"])
    assert piece is not None and piece.kind is TerrainKind.BLOCKING
    assert piece.name == "block 1"


def test_sight_is_symmetric_and_cover_is_not():
    table, at = from_drawing(
        """
        ........
        +F+...T.
        ........
        """
    )
    assert line_of_sight(table, at["F"], at["T"]) == line_of_sight(table, at["T"], at["F"])
    assert cover(table, at["T"], at["F"]) is HARD  # F stands in the wall
    assert cover(table, at["F"], at["T"]) is None  # from inside it, the wall shields nobody


def test_cover_piece_names_the_best_piece():
    table, at = from_drawing(
        """
        .F..~.+.T
        """
    )
    piece = cover_piece(table, at["F"], at["T"])
    assert piece is not None and piece.kind is HARD and piece.name == "hard 1"


def test_line_grazing_a_building_edge_is_not_blocked():
    table, _ = from_drawing(
        """
        ........
        ..####..
        ........
        """
    )
    # along the building's top edge, y = 2
    assert line_of_sight(table, Point(0.5, 2), Point(7.5, 2))
    assert not line_of_sight(table, Point(0.5, 1.5), Point(7.5, 1.5))


def test_seen_by_lists_the_watchers_with_sight():
    table, at = from_drawing(
        """
        A...#..
        ....#..
        B.....T
        """
    )
    assert seen_by(table, at["T"], [at["A"], at["B"]]) == [at["B"]]


def test_hidden_spots_are_out_of_every_watchers_sight():
    table, at = from_drawing(
        """
        ....#...
        .W..#...
        ....#...
        """
    )
    watcher = Body("W", at["W"], 0.5)
    spots = hidden_spots(table, 0.5, [watcher], [watcher])
    assert spots and all(seen_by_any(table, p, [watcher]) is None for p in spots)
    assert all(p.x > 5 for p in spots)  # only behind the wall
    assert Point(6.5, 1.5) in spots
