"""The compass moves offered: a half move never goes beyond a full one (near an edge or a wall
the full move is stopped short, and the half move is then left out)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wargame_cli.tabletop import Piece, Point, Table, TerrainKind
from wargame_cli.tabletop.destinations import MoveMenu, offer
from wargame_cli.tabletop.geometry import Rect
from wargame_cli.tabletop.movement import Body, move_problem

WALLED = Table(24, 24, (Piece("House", TerrainKind.BLOCKING, Rect(10, 10, 14, 14)),))


@settings(max_examples=150, deadline=None)
@given(x=st.floats(0.5, 23.5), y=st.floats(0.5, 23.5))
def test_a_half_move_never_goes_further_than_a_full_one(x, y):
    me = Body("me", Point(round(x, 2), round(y, 2)), 0.5)
    if move_problem(WALLED, me, me.pos, 4, [me]) is not None:
        return  # a start inside the house
    spots = {d.tag: d.point for d in offer(MoveMenu(WALLED, me, 4, [], [me]))}
    for way in ("north", "east", "south", "west"):
        full, half = spots.get(f"{way}:full"), spots.get(f"{way}:half")
        if full is not None and half is not None:
            assert me.pos.distance(half) <= me.pos.distance(full) + 1e-9
