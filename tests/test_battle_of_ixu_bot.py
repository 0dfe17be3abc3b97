"""The Battle of Ixu bot: every default is the sensible move it would make itself."""

from __future__ import annotations

from wargame_cli.rulesets.battle_of_ixu import bot
from wargame_cli.rulesets.battle_of_ixu.movement import destinations
from wargame_cli.rulesets.battle_of_ixu.ruleset import RULESET
from wargame_cli.rulesets.battle_of_ixu.state import Dice

from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.tabletop.geometry import Point


def game(a="Ajax:4", b="Bron:4", **options):
    opts = resolve_options(RULESET.options, options)
    teams = {"A": RULESET.parse_team(a, opts), "B": RULESET.parse_team(b, opts)}
    return RULESET.new_game(Setup(names={"A": "Axes", "B": "Swords"}, teams=teams), opts)


def test_c2_far_from_the_enemy_the_highest_die_moves():
    g = game()
    ajax = g.state.get("A1")
    dice = bot.pick_dice(g.state, ajax, [6, 5, 2, 1])
    assert dice.movement == 6


def test_c2_in_contact_the_lowest_die_moves():
    g = game()
    g.state.get("A1").pos, g.state.get("B1").pos = Point(12, 11.62), Point(12, 12.37)
    dice = bot.pick_dice(g.state, g.state.get("A1"), [6, 5, 2, 1])
    assert dice.movement == 2 and {dice.combat, dice.defence} == {6, 5}


def test_c2_in_contact_a_known_high_defence_is_not_worth_combat_dice():
    g = game()
    g.state.get("A1").pos, g.state.get("B1").pos = Point(12, 11.62), Point(12, 12.37)
    g.state.get("B1").dice = Dice(1, 5, 6)  # Bron cannot be hurt by d6s this turn
    dice = bot.pick_dice(g.state, g.state.get("A1"), [6, 5, 2, 1])
    assert dice.defence == 6


def test_c5_charges_a_reachable_enemy_and_holds_when_engaged():
    g = game()
    ajax, bron = g.state.get("A1"), g.state.get("B1")
    bron.pos = Point(12, 6)
    ajax.dice, bron.dice = Dice(6, 5, 3), Dice(3, 2, 2)
    pick = bot.pick_move(g.state, ajax, destinations(g.state, ajax))
    assert pick.tag == "contact:B1"
    ajax.pos = pick.point
    assert bot.pick_move(g.state, ajax, destinations(g.state, ajax)).tag == "stay"


def test_c5_out_of_reach_closes_on_the_nearest_enemy():
    g = game("Ajax:4", "Bron:4, Cato:4")
    ajax = g.state.get("A1")
    ajax.dice = Dice(3, 3, 3)
    pick = bot.pick_move(g.state, ajax, destinations(g.state, ajax))
    nearest = min(g.state.enemies(ajax), key=lambda e: e.pos.distance(ajax.pos))
    assert pick.tag == f"toward:{nearest.id}"
    assert pick.point.distance(ajax.pos) > 2.9


def test_c5_does_not_charge_into_a_fight_it_cannot_win():
    g = game()
    ajax, bron = g.state.get("A1"), g.state.get("B1")
    bron.pos = Point(12, 6)
    ajax.dice, bron.dice = Dice(6, 1, 1), Dice(1, 6, 6)
    assert bot.pick_move(g.state, ajax, destinations(g.state, ajax)).tag == "stay"


def test_c7_strikes_the_enemy_it_can_kill_before_it_strikes():
    g = game("Ajax:4", "Bron:4, Cato:4")
    ajax, bron, cato = (g.state.get(i) for i in ("A1", "B1", "B2"))
    ajax.dice = Dice(1, 6, 6)
    bron.dice, cato.dice = Dice(1, 3, 2), Dice(1, 3, 2)
    bron.damage = 5
    cato.damage = 9
    assert bot.pick_target(g.state, ajax, [bron, cato]) is cato
    cato.damage, cato.fought = 5, True
    assert bot.pick_target(g.state, ajax, [bron, cato]) is bron  # it has yet to strike


def test_stay_is_always_offered_once():
    g = game()
    ajax = g.state.get("A1")
    ajax.dice = Dice(4, 4, 4)
    offered = destinations(g.state, ajax)
    keys = [d.point.key() for d in offered]
    assert len(keys) == len(set(keys))
    assert [d.tag for d in offered].count("stay") == 1


def test_c6_strikes_a_defence_it_can_beat_before_one_it_cannot():
    """A d6 never beats defence 6 ("beat" is strictly greater): the suggestion is the enemy
    it can hurt, even one that has already struck this turn."""
    g = game("Ajax:4", "Bron:4, Cato:4")
    ajax, bron, cato = (g.state.get(i) for i in ("A1", "B1", "B2"))
    ajax.dice = Dice(1, 5, 3)
    bron.dice, cato.dice = Dice(1, 3, 5), Dice(1, 3, 6)
    bron.fought = True
    assert bot.pick_target(g.state, ajax, [bron, cato]) is bron
    assert bot.pick_target(g.state, ajax, [cato, bron]) is bron


def test_c5_joins_friends_already_fighting_an_enemy_it_cannot_hurt_yet():
    """Cato holds defence 6 this turn, so Ajax alone would not charge him; with Brin already
    fighting him, Ajax joins in (Cato can strike only one of them)."""
    g = game("Ajax:4, Brin:4", "Cato:4")
    ajax, brin, cato = (g.state.get(i) for i in ("A1", "A2", "B1"))
    cato.pos, brin.pos, ajax.pos = Point(12, 12.37), Point(12, 11.62), Point(14, 12.37)
    ajax.dice, brin.dice, cato.dice = Dice(3, 3, 5), Dice(1, 3, 5), Dice(1, 4, 6)
    assert bot.pick_move(g.state, ajax, destinations(g.state, ajax)).tag == "contact:B1"
    brin.pos = Point(12, 6)  # alone, the same fight is not worth it
    assert bot.pick_move(g.state, ajax, destinations(g.state, ajax)).tag == "stay"
