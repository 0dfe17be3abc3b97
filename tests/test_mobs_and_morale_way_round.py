"""Mobs and Morale's bot walks a character round the bases in its way to where it can fight
next turn (issue 24 item 6; the shared `tabletop/approach.py`, which Ixu's bot uses too),
ganging up on an enemy its friends already have in reach."""

from __future__ import annotations

import math

from wargame_cli.rulesets.mobs_and_morale import bot, moves
from wargame_cli.rulesets.mobs_and_morale.turns import take_turn

from tests.test_mobs_and_morale_rules import battle, park, place
from wargame_cli.tabletop.detours import way_to
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body


def walled(friend_on_grol: bool = False):
    """Brakka behind a line of his own hounds; Ugrak and Grol beyond it, Ugrak the nearer;
    with `friend_on_grol`, Tarn already in reach of Grol."""
    b = battle(
        a="Brakka=Warrior, Tarn=Spearwarden, Hounds=4 War Hound under Brakka",
        b="Ugrak=Chieftain, Grol=Chieftain",
    )
    park(b)
    place(b, Brakka=(18, 6), Ugrak=(16.2, 12.0), Grol=(19.9, 12.2))
    if friend_on_grol:
        place(b, Tarn=(21.0, 12.2))
    for i, x in enumerate([16.2, 17.4, 18.6, 19.8], 1):
        place(b, **{f"Hounds_{i}": (x, 7.1)})
    return b, b.creatures["Brakka"]


def reaches_next_turn(b, c, spot: Point, enemy: str) -> bool:
    """From `spot`, a free spot in reach of `enemy` is one move's walk round the bases."""
    target = b.creatures[enemy]
    others = [o for o in b.bodies() if o.id != c.id]
    me = Body(c.id, spot, c.body().radius)
    ring = 2 * c.body().radius + 0.5
    return any(
        way_to(
            b.table,
            me,
            Point(target.at.x + ring * math.cos(a), target.at.y + ring * math.sin(a)),
            c.move,
            others,
        )
        is not None
        for a in (2 * math.pi * k / 16 for k in range(16))
    )


def test_a_blocked_character_walks_round_its_mob_instead_of_bumping_into_it():
    b, c = walled()
    [toward] = moves.bot_destinations(b, c)  # the straight move gains next to nothing
    gained = c.at.distance(b.creatures["Ugrak"].at) - toward.point.distance(b.creatures["Ugrak"].at)
    assert toward.tag == "toward:Ugrak" and gained < 1
    key = bot.character_move(b, c, [toward], False, "edge")
    assert key != toward.point.key() and key != c.at.key()
    spot = Point.parse(key)
    assert moves.typed_check(b, c)(key) is None  # one straight legal move, as a person types
    assert spot.x < 16.2  # round the end of the hounds' line nearer Ugrak
    assert reaches_next_turn(b, c, spot, "Ugrak")


def test_a_friend_already_in_reach_of_an_enemy_draws_the_character_to_it():
    alone, c = walled()
    left = moves.way_round(alone, c)
    assert left is not None and left.tag == "approach:Ugrak" and left.point.x < 18
    ganged, c = walled(friend_on_grol=True)
    right = moves.way_round(ganged, c)
    assert right is not None and right.tag == "approach:Grol"
    assert right.point.x > 19.8  # round the right end of the hounds' line
    assert reaches_next_turn(ganged, c, right.point, "Grol")


def test_a_straight_move_that_gains_is_kept():
    b, c = walled()
    for i in range(1, 5):  # the hounds stand aside: nothing in the way
        b.creatures[f"Hounds {i}"].pos = Point(2 + 1.2 * i, 2)
    dests = moves.bot_destinations(b, c)
    assert bot.character_move(b, c, dests, False, "edge") == dests[0].point.key()


def test_a_person_is_offered_the_way_round_the_bot_takes_named_for_what_it_is():
    b, c = walled()
    b.phase = "turns"
    gen = take_turn(b, "Brakka")
    turn = next(gen)
    assert turn.kind == "turn"
    move = gen.send("move")
    assert move.kind == "move"
    key = move.default
    walked = c.at.distance(Point.parse(key))
    label = f'Round the way to Ugrak, {walked:.1f}" (to reach the fight next turn) ({key})'
    assert move.describe(key) == label  # a replay's label, the menu unbuilt
    [entry] = [o for o in move.options if o.key == key]
    assert entry.label == label and entry.disabled is None
