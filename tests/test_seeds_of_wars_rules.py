"""Seeds of Wars rule points d1-d17, each test named by the rule it checks, driving the rules'
generators with scripted dice and decisions (tests/helpers.py)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from wargame_cli.rulesets.seeds_of_wars import actions, checks, steps
from wargame_cli.rulesets.seeds_of_wars.deployment import deploy
from wargame_cli.rulesets.seeds_of_wars.movement import reach, way_home
from wargame_cli.rulesets.seeds_of_wars.prompts import SURRENDER
from wargame_cli.rulesets.seeds_of_wars.rules import SeedsGame, decided, new_battle
from wargame_cli.rulesets.seeds_of_wars.ruleset import RULESET
from wargame_cli.rulesets.seeds_of_wars.state import (
    CAPTURED,
    DESTROYED,
    ESCAPED,
    REMOVED,
    ROUTED,
    SHAKEN,
    STEADY,
    Battle,
)

from tests.helpers import Script
from wargame_cli.engine.requests import Choice, Event, Roll, TurnStart
from wargame_cli.ruleset import resolve_options

NAMES = {"A": "Red", "B": "Blue"}


def varied() -> Any:
    """Faces that vary (a constant face would tie every opposed roll forever)."""
    faces = itertools.cycle([11, 4, 17, 8, 14, 2, 19, 6, 13, 9, 20, 1])
    return lambda die: min(die, next(faces))


def make(
    a: str = "Spearmen", b: str = "Spearmen", order: tuple[int, int] = (1, 1), **opts: Any
) -> Battle:
    options = resolve_options(RULESET.options, opts)
    teams = {
        side: RULESET.parse_team(f"order={o}, {spec}", options)
        for side, spec, o in (("A", a, order[0]), ("B", b, order[1]))
    }
    return new_battle(NAMES, teams, options)


def place(battle: Battle, **where: str) -> Battle:
    for uid, key in where.items():
        battle.unit(uid).space = battle.board.parse(key)
    return battle


class Steps:
    """Wraps one step's generator as a game for `Script.run`."""

    def __init__(self, gen: Any) -> None:
        self.gen = gen

    def play(self) -> Any:
        return self.gen


def drive(gen: Any, faces: list[int] = (), choices: list[Any] = ()) -> Script:  # type: ignore[assignment]
    script = Script(faces, choices)
    script.run(Steps(gen))
    return script


def rolls(script: Script) -> list[Roll]:
    return [r for r in script.requests if isinstance(r, Roll)]


def asked(script: Script) -> list[Choice]:
    return [r for r in script.requests if isinstance(r, Choice)]


def kinds(script: Script, kind: str) -> list[Event]:
    return [e for e in script.events if e.kind == kind]


# -- the card's thresholds ----------------------------------------------------------------
def test_d4_ten_or_greater_boundary():
    assert checks.recovery_passes(8, 2)  # 10
    assert not checks.recovery_passes(7, 2)  # 9


def test_d14_ten_or_greater_after_ht_taken_boundary():
    assert checks.morale_passes(10, 2, 2)  # 10
    assert not checks.morale_passes(9, 2, 2)  # 9


def test_d10_d12_must_exceed_de_boundary():
    assert not checks.hits(10, 3, 13)  # equal is a miss
    assert checks.hits(11, 3, 13)


def test_bot_odds_match_the_thresholds():
    assert checks.hit_chance(3, 13) == pytest.approx(10 / 20)  # faces 11-20
    assert checks.pass_chance(2) == pytest.approx(13 / 20)  # faces 8-20


# -- I. Deployment ------------------------------------------------------------------------
def deployment(battle: Battle, faces: list[int], choices: list[Any] = ()) -> Script:  # type: ignore[assignment]
    return drive(deploy(battle), faces, choices)


def test_d1_deployment_roll_adds_order_and_scouts():
    battle = make("Skirmishers, Spearmen", "Spearmen, Spearmen", order=(2, 1))
    script = deployment(battle, [5, 8])
    a, b = rolls(script)[:2]
    assert (a.side, b.side) == ("A", "B")
    assert "Order 2 + 1 Scout" in a.reason and "Order 1 + 0 Scouts" in b.reason
    (event,) = kinds(script, "deploy_roll")
    assert event.data["totals"] == {"A": 8, "B": 9}
    assert event.rules == ("d1",)


@pytest.mark.parametrize(("faces", "tie", "first"), [([10, 11], True, "B"), ([11, 11], False, "B")])
def test_d1_d2_a_scout_counts_at_the_boundary(faces, tie, first):
    battle = make("Skirmishers", "Spearmen", order=(1, 1))  # A: Order 1 + 1 Scout; B: Order 1
    script = deployment(battle, faces)  # 12 against 12: a tie; 13 against 12: B lost
    (event,) = kinds(script, "deploy_roll")
    assert event.data["tie"] is tie and event.data["first"] == first
    assert asked(script)[0].side == first  # the defender on a tie, the loser otherwise


def test_d1_loser_deploys_all_its_units_first():
    battle = make("Spearmen, Spearmen", "Spearmen, Spearmen")
    script = deployment(battle, [15, 3])  # A 16 beats B 4
    assert [c.side for c in asked(script)] == ["B", "B", "A", "A"]
    assert all(u.space is not None for u in battle.units)


def test_d1_winner_chooses_when_the_option_says_so():
    battle = make("Spearmen", "Spearmen", deploy_order="winner_chooses")
    script = deployment(battle, [15, 3], ["first"])
    first = asked(script)[0]
    assert first.side == "A" and first.default == "second"
    assert [c.side for c in asked(script)[1:]] == ["A", "B"]


@pytest.mark.parametrize(
    ("attacker", "expected"),
    [("A", ["B", "A", "B", "A", "A"]), ("B", ["A", "B", "A", "B", "A"])],
)
def test_d2_tie_deploys_alternately_defender_first(attacker, expected):
    battle = make("3 Spearmen", "2 Spearmen", attacker=attacker)
    script = deployment(battle, [10, 10])  # 11 each
    assert [c.side for c in asked(script)] == expected
    (event,) = kinds(script, "deploy_roll")
    assert event.data["tie"] is True and event.rules == ("d1", "d2")


def test_deployment_offers_only_home_rows_and_respects_stack_limit():
    battle = make("2 Spearmen", "Spearmen", stack_limit=1, columns=1)
    script = deployment(battle, [15, 3], ["a4", "a2"])  # B loses: deploys first
    last = asked(script)[-1]
    assert last.side == "A"
    keys = {o.key for o in last.options}
    assert keys == {"a1", "a2", "surrender"}  # A's Reserve and line only
    disabled = {o.key: o.disabled for o in last.options}
    assert "stack_limit" in disabled["a2"] and last.default == "a1"


# -- II. Combat round ---------------------------------------------------------------------
def test_d3_a_round_runs_its_six_steps_in_order():
    battle = make("Spearmen, Archers", "Spearmen, Crossbowmen")
    game = SeedsGame(battle)
    seen: list[str] = []

    def watch(req: Any) -> bool:
        if isinstance(req, TurnStart) and req.number == 2:
            return True
        if battle.round == 1 and (not seen or seen[-1] != battle.step):
            seen.append(battle.step)
        return False

    Script(fallback_face=varied()).run(game, until=watch)
    order = ["initiative", "movement", "ranged", "melee", "morale"]
    assert seen == order  # round 1: nobody is Shaken, so recovery asks for nothing


def test_d4_recovery_boundary_and_one_step_up():
    battle = place(make("Spearmen, Spearmen", "Spearmen"), A1="b2", A2="a2", B1="b3")
    battle.round = 2
    battle.unit("A1").state = SHAKEN
    battle.unit("A2").state = ROUTED
    script = drive(steps.recovery(battle), [8, 8])  # Mo 2: 10 and 10
    assert battle.unit("A1").state == STEADY
    assert battle.unit("A2").state == SHAKEN  # one step only
    assert [r.rules for r in rolls(script)] == [("d4",), ("d4",)]


def test_d4_recovery_fails_at_nine():
    battle = place(make("Spearmen", "Spearmen"), A1="b2", B1="b3")
    battle.unit("A1").state = SHAKEN
    drive(steps.recovery(battle), [7])  # 7 + Mo 2 = 9
    assert battle.unit("A1").state == SHAKEN


def test_d4_steady_units_do_not_roll():
    battle = place(make("Spearmen", "Spearmen"), A1="b2", B1="b3")
    assert rolls(drive(steps.recovery(battle))) == []


def test_d5_routed_units_in_the_reserve_are_removed_before_recovery():
    battle = place(make("Spearmen, Spearmen", "Spearmen"), A1="b1", A2="b2", B1="b3")
    battle.unit("A1").state = ROUTED
    battle.unit("A2").state = ROUTED
    script = drive(steps.recovery(battle), [1])
    assert battle.unit("A1").fate == REMOVED
    assert len(rolls(script)) == 1 and "A2" in rolls(script)[0].reason
    assert kinds(script, "removed")[0].rules == ("d5",)


def test_d6_initiative_is_opposed_1d20_plus_order():
    battle = make(order=(3, 0))
    script = drive(steps.initiative(battle), [8, 10])  # 11 beats 10
    assert battle.initiative == "A"
    assert [r.rules for r in rolls(script)] == [("d6",), ("d6",)]


def test_d6_tied_initiative_is_rolled_again():
    battle = make(order=(1, 1))
    script = drive(steps.initiative(battle), [5, 5, 4, 9])
    assert len(rolls(script)) == 4 and battle.initiative == "B"
    assert kinds(script, "initiative_tie")


@pytest.mark.parametrize(("rule", "winner"), [("attacker", "A"), ("defender", "B")])
def test_d6_tied_initiative_option(rule, winner):
    battle = make(order=(1, 1), initiative_ties=rule)
    drive(steps.initiative(battle), [5, 5])
    assert battle.initiative == winner


def movement(battle: Battle, first: str, choices: list[Any]) -> Script:
    battle.initiative = first
    return drive(actions.alternate(battle, "movement", actions.move, ("d8",)), [], choices)


def test_d7_sides_alternate_from_the_initiative_winner():
    battle = place(
        make("2 Spearmen", "2 Spearmen", neutral_rows=2), A1="a2", A2="c2", B1="a5", B2="c5"
    )
    script = movement(battle, "B", ["B1", "stay", "A1", "stay", "B2", "stay", "A2", "stay"])
    sides = [c.side for c in asked(script) if c.kind == "move"]
    assert sides[:8] == ["B", "B", "A", "A", "B", "B", "A", "A"]


def test_d7_after_one_side_passes_the_other_finishes():
    battle = place(
        make("2 Spearmen", "2 Spearmen", neutral_rows=2), A1="a2", A2="c2", B1="a5", B2="c5"
    )
    script = movement(battle, "A", ["pass", "B1", "stay", "B2", "stay"])
    passes = kinds(script, "pass")
    assert [p.data["side"] for p in passes] == ["A", "B"]
    assert passes[1].data["forced"] is True  # B had moved both units
    assert all(c.side == "B" for c in asked(script)[1:])


def test_d7_first_pass_ends_the_step_option():
    battle = place(
        make("2 Spearmen", "2 Spearmen", neutral_rows=2, pass_rule="first_pass_ends"),
        A1="a2",
        A2="c2",
        B1="a5",
        B2="c5",
    )
    script = movement(battle, "A", ["pass"])
    assert len(asked(script)) == 1 and battle.unit("B1").space == (4, 0)


def test_d7_each_unit_acts_once_per_step():
    battle = place(make("Spearmen", "Spearmen", neutral_rows=2), A1="a2", B1="a5")
    script = movement(battle, "A", ["A1", "b2"])
    assert battle.unit("A1").space == (1, 1)
    later = [c for c in asked(script) if c.side == "A"]
    assert len(later) == 2  # the unit pick and its destination, then A is done


def test_d8_move_one_space_per_mv():
    battle = place(make("Knights", "Spearmen", neutral_rows=2), A1="b2", B1="b5")
    knights = battle.unit("A1")
    spaces = reach(battle, knights)
    assert spaces[battle.board.parse("b4")] == 2
    assert battle.board.parse("b5") not in spaces
    script = movement(battle, "A", ["A1", lambda c: c.default])
    move_choice = asked(script)[1]
    refusal = {o.key: o.disabled for o in move_choice.options}
    assert refusal["b4"] is None and "b5" not in refusal  # 3 spaces away: not listed
    assert set(refusal) == {"stay", "surrender"} | {
        battle.board.key(s)
        for s in battle.board.spaces()
        if 0 < battle.board.distance(s, (1, 1)) <= 2
    }


def test_d9_a_unit_must_stop_on_entering_an_enemy_space():
    battle = place(make("Light Horse", "Spearmen"), A1="b2", B1="b3")
    spaces = reach(battle, battle.unit("A1"))
    assert spaces[(2, 1)] == 1  # b3, held by the enemy
    assert spaces[(3, 0)] == 3  # a4: around it
    assert (3, 1) not in spaces  # b4 lies only 2 away, but through b3
    script = movement(battle, "A", ["A1", "b3"])
    refusal = {o.key: o.disabled for o in asked(script)[1].options}
    assert refusal["b4"].startswith("out of reach")  # within Mv 3, but only through b3
    assert battle.unit("A1").charged == frozenset({"B1"})
    assert kinds(script, "move")[0].rules == ("d8", "d9")


def test_d9_engaged_units_cannot_walk_away():
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")
    script = movement(battle, "A", [])
    assert asked(script) == []  # nothing can move: both pass without being asked
    battle = place(make("Spearmen", "Spearmen", engaged_can_move=True), A1="b3", B1="b3")
    script = movement(battle, "A", ["A1", "a3"])
    assert battle.unit("A1").space == (2, 0)


def test_routed_units_flee_towards_their_reserve_first():
    battle = place(make("Light Horse", "Spearmen"), A1="b3", B1="c3")
    battle.unit("A1").state = ROUTED
    battle.initiative = "B"
    script = drive(steps.flight(battle))
    assert battle.unit("A1").space == (0, 1)  # b3 -> b1, its Reserve, Mv 3
    assert kinds(script, "flee")


# -- ranged -------------------------------------------------------------------------------
def ranged(battle: Battle, faces: list[int], choices: list[Any]) -> Script:
    battle.initiative = "A"
    battle.options["auto_attack"] = False  # every shot asked, so the scripts name it
    return drive(actions.alternate(battle, "ranged", actions.shoot, ("d10",)), faces, choices)


@pytest.mark.parametrize(("face", "hit"), [(10, False), (11, True)])
def test_d10_ranged_must_exceed_de(face, hit):
    battle = place(make("Archers", "Spearmen"), A1="b2", B1="b3")  # Ra 3 vs De 13
    script = ranged(battle, [face], ["A1>B1"])
    assert battle.unit("B1").taken == (1 if hit else 0)
    assert kinds(script, "hit" if hit else "miss")


def test_d11_only_orthogonally_adjacent_targets():
    battle = place(make("Archers", "3 Spearmen"), A1="b2", B1="c3", B2="b3", B3="b2")
    battle.options["engaged_can_shoot"] = True
    script = ranged(battle, [20], ["A1>B2"])
    offered = {o.key for o in asked(script)[0].options}
    assert "A1>B2" in offered
    assert "A1>B1" not in offered  # diagonal
    assert "A1>B3" not in offered  # same space
    assert battle.unit("B2").taken == 1


def test_one_prompt_names_the_attacker_and_its_target():
    """Steps 4-5 ask once per attack: every legal (unit, enemy) pair is an option, units that
    cannot act are listed once with the reason, and the suggestion is the bot's pair."""
    battle = place(
        make("Archers, Crossbowmen, Spearmen", "2 Spearmen"),
        A1="b2",
        A2="c2",
        A3="a2",
        B1="b3",
        B2="c3",
    )
    script = ranged(battle, [20, 1], ["A2>B2"])
    first = asked(script)[0]
    assert first.kind == "shoot" and "which unit shoots at which enemy" in first.prompt
    keys = [o.key for o in first.options]
    assert keys == ["A1>B1", "A2>B2", "pass", "surrender"]  # A3 has no Ra: not listed
    assert first.default == "A2>B2"  # Ra +4 against De 13 beats Ra +3
    second = asked(script)[1]
    assert [(o.key, o.disabled) for o in second.options[:2]] == [
        ("A1>B1", None),
        ("A2", "already shot this step"),
    ]
    assert [c.kind for c in asked(script)] == ["shoot", "shoot"]  # no separate target prompt


def test_d11_engaged_units_do_not_shoot_by_default():
    battle = place(make("Archers", "2 Spearmen"), A1="b2", B1="b2", B2="b3")
    script = ranged(battle, [], [])
    assert asked(script) == []


# -- melee --------------------------------------------------------------------------------
def melee(
    battle: Battle,
    faces: list[int],
    choices: list[Any],
    side: str = "A",
    acted: set[str] | None = None,
) -> Script:
    battle.options["auto_attack"] = False  # every attack asked, so the scripts name it
    return drive(actions.fight(battle, side, acted if acted is not None else set()), faces, choices)


@pytest.mark.parametrize(("face", "hit"), [(10, False), (11, True)])
def test_d12_melee_must_exceed_de(face, hit):
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")  # Me 3 vs De 13
    melee(battle, [face], ["A1>B1", "stand"])
    assert battle.unit("B1").taken == (1 if hit else 0)


@pytest.mark.parametrize(("face", "hit"), [(8, False), (9, True)])
def test_d12_charging_adds_two(face, hit):
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")
    battle.unit("A1").charged = frozenset({"B1"})
    script = melee(battle, [face], ["A1>B1", "stand"])
    assert battle.unit("B1").taken == (1 if hit else 0)
    assert "charging" in rolls(script)[0].reason


def test_d12_flanking_adds_two_for_the_second_attacker():
    battle = place(make("2 Spearmen", "Spearmen"), A1="b3", A2="b3", B1="b3")
    melee(battle, [11], ["A1>B1", "stand"])
    script = melee(battle, [9], ["A2>B1", "stand"], acted={"A1"})
    assert "flanking" in rolls(script)[0].reason
    assert battle.unit("B1").taken == 2


def test_d12_charging_and_flanking_give_two_not_four():
    battle = place(make("2 Spearmen", "Spearmen"), A1="b3", A2="b3", B1="b3")
    battle.unit("A2").charged = frozenset({"B1"})
    battle.attacked = {"B1": {"A1"}}
    script = melee(battle, [8], ["A2>B1", "stand"])
    assert "charging and flanking" in rolls(script)[0].reason
    assert battle.unit("B1").taken == 0  # 8 + 3 + 2 = 13 does not exceed 13


def test_d12_flank_outnumber_option():
    battle = place(make("2 Spearmen", "Spearmen", flank="outnumber"), A1="b3", A2="b3", B1="b3")
    script = melee(battle, [9], ["A1>B1", "stand"])
    assert "flanking" in rolls(script)[0].reason
    battle = place(make("2 Spearmen", "Spearmen", flank="off"), A1="b3", A2="b3", B1="b3")
    battle.attacked = {"B1": {"A2"}}
    script = melee(battle, [9], ["A1>B1", "stand"])
    assert "flanking" not in rolls(script)[0].reason


def test_d12_shaken_units_cannot_charge():
    battle = place(make("Spearmen", "Spearmen"), A1="b2", B1="b3")
    battle.unit("A1").state = SHAKEN
    assert (2, 1) not in reach(battle, battle.unit("A1"))
    battle.options["shaken_can_charge"] = True
    assert (2, 1) in reach(battle, battle.unit("A1"))


def test_d12_routed_units_cannot_attack():
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")
    battle.unit("A1").state = ROUTED
    assert asked(melee(battle, [], [])) == []


def test_d13_retreat_needs_to_win_outright_a_tie_fights():
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")
    script = melee(battle, [10, 10, 20], ["A1>B1", "retreat"])
    retreat = kinds(script, "retreat")[0]
    assert retreat.data["success"] is False and "a tie" in retreat.text
    assert battle.unit("B1").space == (2, 1) and battle.unit("B1").taken == 1


def test_d13_a_won_retreat_steps_back_and_cancels_the_attack():
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")
    script = melee(battle, [11, 10], ["A1>B1", "retreat"])
    assert battle.unit("B1").space == (3, 1)  # b4, its Reserve
    assert len(rolls(script)) == 2 and battle.unit("B1").taken == 0
    first, second = rolls(script)
    assert (first.side, second.side) == ("B", "A") and first.rules == ("d13",)


def test_d13_no_room_behind_means_no_retreat():
    battle = place(make("Spearmen", "Spearmen"), A1="b4", B1="b4")
    script = melee(battle, [20], ["A1>B1"])
    assert not [c for c in asked(script) if c.kind == "retreat"]
    assert "rear edge" in kinds(script, "no_retreat")[0].text


def test_d13_an_enemy_behind_blocks_the_retreat():
    battle = place(make("2 Spearmen", "Spearmen"), A1="b3", A2="b4", B1="b3")
    script = melee(battle, [20], ["A1>B1"])
    assert "an enemy holds b4" in kinds(script, "no_retreat")[0].text


def melee_step(battle: Battle, faces: list[int], choices: list[Any]) -> Script:
    battle.initiative = "A"
    return drive(actions.alternate(battle, "melee", actions.fight, ("d12",)), faces, choices)


def test_d7_a_single_shot_the_bot_would_make_is_made_without_asking():
    battle = place(make("Archers, Crossbowmen", "2 Spearmen"), A1="b2", A2="c2", B1="b3", B2="c3")
    battle.initiative = "A"
    script = drive(actions.alternate(battle, "ranged", actions.shoot, ("d10",)), [1, 1], ["A2>B2"])
    assert [c.kind for c in asked(script)] == ["shoot"]  # two shots to choose from: asked
    assert [e.data["attacker"] for e in kinds(script, "miss")] == ["A2", "A1"]  # then A1's


def test_d7_a_single_attack_the_bot_would_make_is_made_without_asking():
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")
    script = melee_step(battle, [1, 1], ["stand", "stand"])
    melee_asks = [c for c in asked(script) if c.kind == "melee"]
    assert melee_asks == []  # each side's one attack is made; only the retreats are asked
    assert [c.kind for c in asked(script)] == ["retreat", "retreat"]
    assert [e.data["attacker"] for e in kinds(script, "miss")] == ["A1", "B1"]


@pytest.mark.parametrize(
    "opts",
    [{"auto_attack": False}, {"pass_rule": "first_pass_ends"}],
)
def test_d7_the_single_attack_is_asked_when_a_pass_could_matter_or_the_option_is_off(opts):
    battle = place(make("Spearmen", "Spearmen", **opts), A1="b3", B1="b3")
    script = melee_step(battle, [1, 1], [])
    assert [c.kind for c in asked(script)][:2] == ["melee", "retreat"]


def test_d7_two_possible_attacks_are_asked():
    battle = place(make("Spearmen", "2 Spearmen"), A1="b3", B1="b3", B2="b3")
    script = melee_step(battle, [1, 1, 1], ["A1>B2", "stand"])
    first = asked(script)[0]
    assert first.kind == "melee" and {o.key for o in first.options} >= {"A1>B1", "A1>B2"}


def test_damage_one_ht_per_hit_destroys_at_ht():
    battle = place(make("Knights", "Skirmishers"), A1="b3", B1="b3")  # Ht 2
    battle.unit("B1").taken = 1
    script = melee(battle, [20], ["A1>B1", "stand"])
    assert battle.unit("B1").fate == DESTROYED
    assert kinds(script, "destroyed")


# -- morale -------------------------------------------------------------------------------
@pytest.mark.parametrize(("face", "state"), [(9, STEADY), (8, SHAKEN)])
def test_d14_morale_ten_or_greater_after_ht_taken(face, state):
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")  # Mo 2
    unit = battle.unit("A1")
    unit.taken, unit.damaged_this_round = 1, True
    script = drive(steps.morale(battle), [face])
    assert unit.state == state
    assert rolls(script)[0].rules == ("d14",)


def test_d14_only_units_damaged_this_round_check():
    battle = place(make("2 Spearmen", "Spearmen"), A1="b3", A2="a2", B1="b3")
    battle.unit("A2").taken = 2  # damaged in an earlier round
    battle.unit("A1").taken, battle.unit("A1").damaged_this_round = 1, True
    script = drive(steps.morale(battle), [20])
    assert len(rolls(script)) == 1 and "A1" in rolls(script)[0].reason


def test_d14_shaken_failing_becomes_routed():
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")
    unit = battle.unit("A1")
    unit.state, unit.taken, unit.damaged_this_round = SHAKEN, 1, True
    drive(steps.morale(battle), [1])
    assert unit.state == ROUTED and unit.fate == ""


def test_d15_routed_units_that_fail_again_are_destroyed():
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")
    unit = battle.unit("A1")
    unit.state, unit.taken, unit.damaged_this_round = ROUTED, 1, True
    script = drive(steps.morale(battle), [8])  # 8 + 2 - 1 = 9
    assert unit.fate == DESTROYED
    assert kinds(script, "destroyed")[0].rules == ("d14", "d15")


def test_d15_routed_units_that_pass_stay_routed():
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b3")
    unit = battle.unit("A1")
    unit.state, unit.taken, unit.damaged_this_round = ROUTED, 1, True
    drive(steps.morale(battle), [9])  # 10
    assert unit.state == ROUTED and unit.fate == ""


# -- III. Determine victor ----------------------------------------------------------------
def test_d16_all_destroyed_loses():
    battle = place(make("2 Spearmen", "Spearmen"), A1="b3", A2="a2", B1="b3")
    battle.unit("B1").fate = DESTROYED
    assert decided(battle)[0] == "A"


def test_d16_all_in_the_reserve_loses():
    battle = place(make("2 Spearmen", "Spearmen"), A1="b1", A2="a1", B1="b3")
    assert decided(battle)[0] == "B"
    battle.unit("A2").space = (1, 0)
    assert decided(battle) is None


def test_d16_the_reason_names_the_way_the_side_lost():
    battle = place(make("2 Spearmen", "2 Spearmen"), A1="b3", A2="a2", B1="b3", B2="b4")
    battle.unit("B1").fate = DESTROYED
    assert decided(battle) == ("A", "every unit Blue has left on the battlefield is in its Reserve")
    battle.unit("B2").fate = DESTROYED
    assert decided(battle) == ("A", "every unit of Blue is destroyed")
    battle.unit("B2").fate = REMOVED
    assert decided(battle) == ("A", "no unit of Blue is left on the battlefield")


def test_d16_both_out_at_once_is_a_draw():
    battle = place(make("Spearmen", "Spearmen"), A1="b1", B1="b4")
    assert decided(battle) == (None, "no unit of either side is left fighting outside its Reserve")


def warned(choice: Choice) -> set[str]:
    return {o.key for o in choice.options if "LOSES THE BATTLE" in o.label and "(d16)" in o.label}


def test_d16_a_deployment_leaving_every_unit_in_the_reserve_warns():
    """d16 (issue 12, item 12): the last unit to deploy into the Reserve, with every other
    unit of its side there already, loses the battle at once: the option says so."""
    battle = make("2 Spearmen", "Spearmen", columns=1)
    script = deployment(battle, [15, 3], ["a4", "a1", "a2"])  # B deploys first
    b_only, a_first, a_last = asked(script)
    assert warned(b_only) == {"a4"}  # B's one unit: its Reserve loses at once
    assert warned(a_first) == set()  # A2 has yet to deploy
    assert warned(a_last) == {"a1"}
    [label] = [o.label for o in a_last.options if o.key == "a1"]
    assert label.endswith("LOSES THE BATTLE: every unit of Red would be in its Reserve (d16)")


def test_d16_a_move_leaving_every_unit_in_the_reserve_warns():
    battle = place(make("2 Spearmen", "Spearmen", neutral_rows=2), A1="b2", A2="b1", B1="b5")
    script = movement(battle, "A", ["A1", "stay"])
    where = asked(script)[1]
    assert warned(where) == {"b1"}  # the Reserve space in reach (Mv 1)
    assert all("LOSES" not in o.label for o in where.options if o.key in ("a2", "c2", "b3"))


def test_d16_a_retreat_into_the_reserve_that_would_lose_warns():
    battle = place(make("Spearmen", "2 Spearmen"), A1="b3", B1="b3", B2="b4")
    script = melee(battle, [1, 1], ["A1>B1", "stand"])
    [ask_retreat] = [c for c in asked(script) if c.kind == "retreat"]
    assert warned(ask_retreat) == {"retreat"}
    battle = place(make("Spearmen", "2 Spearmen"), A1="b3", B1="b3", B2="c3")
    script = melee(battle, [1, 1], ["A1>B1", "stand"])
    [ask_retreat] = [c for c in asked(script) if c.kind == "retreat"]
    assert warned(ask_retreat) == set()  # B2 still fights outside the Reserve


def surrender_on(kind: str, side: str) -> Any:
    def pick(choice: Choice) -> str:
        if choice.kind == kind and choice.side == side:
            return SURRENDER
        if choice.kind == "surrender":
            return "yes"
        return choice.default

    return pick


def test_d16_surrender_is_offered_at_every_prompt_and_never_suggested():
    battle = make("Spearmen, Archers", "Spearmen, Crossbowmen")
    script = Script(fallback_face=varied())
    script.run(SeedsGame(battle))
    battle_choices = [c for c in asked(script) if c.kind != "surrender"]
    assert battle_choices
    for c in battle_choices:
        assert SURRENDER in {o.key for o in c.options} and c.default != SURRENDER
        assert "d16" in c.rules


def test_d16_surrender_ends_the_battle_for_the_other_side():
    battle = make("Spearmen, Archers", "Spearmen, Crossbowmen")
    script = Script(fallback_face=varied(), choices=[surrender_on("move", "B")] * 1000)
    script.run(SeedsGame(battle))
    assert script.outcome.winner == "A"
    assert "surrenders" in script.outcome.reason
    assert script.outcome.rules == ("d16", "d17")


def test_d16_surrender_is_offered_between_rounds_too():
    """d16 (issue 12, item 12): after each round both sides, the initiative winner first, may
    fight on (the default) or surrender, even a side that had no question that round."""
    battle = make("Spearmen, Archers", "Spearmen, Crossbowmen")
    script = Script(fallback_face=varied(), choices=[surrender_on("round_end", "B")] * 1000)
    script.run(SeedsGame(battle))
    ends = [c for c in asked(script) if c.kind == "round_end"]
    assert [c.prompt.split(":")[0] for c in ends] == ["End of round 1"] * len(ends)
    assert ends[-1].side == "B" and ends[-1].default == "fight"
    assert {o.key for o in ends[-1].options} == {"fight", SURRENDER}
    assert script.outcome.winner == "A" and "Blue surrenders" in script.outcome.reason
    assert battle.round == 1


def test_d16_surrender_must_be_confirmed():
    battle = make("Spearmen", "Spearmen")
    picks = [SURRENDER, "no"]
    script = Script(faces=[20, 1], choices=picks)
    script.run(SeedsGame(battle), until=lambda r: isinstance(r, TurnStart))
    confirm = asked(script)[1]
    assert confirm.kind == "surrender" and confirm.default == "no"
    assert asked(script)[2].prompt == asked(script)[0].prompt  # asked again
    assert script.outcome is None


def finish(battle: Battle, winner: str) -> Script:
    game = SeedsGame(battle)
    return drive(game.finish(winner, "test", ("d16",)))


def test_d17_losing_units_sharing_a_space_with_an_enemy_are_captured():
    battle = place(make("2 Spearmen", "Spearmen"), A1="b3", A2="a2", B1="b3")
    script = finish(battle, "B")
    assert battle.unit("A1").fate == CAPTURED
    assert battle.unit("A2").fate == ESCAPED
    assert kinds(script, "captured")[0].rules == ("d17",)
    result = script.outcome.data
    assert result["sides"]["A"]["captured"] == ["A1 Spearmen"]
    assert result["sides"]["A"]["escaped"] == ["A2 Spearmen"]
    assert result["sides"]["B"]["held_the_field"] == ["B1 Spearmen"]


def test_d17_units_cut_off_from_their_reserve_are_captured():
    battle = place(make("Spearmen", "Spearmen", columns=1), A1="a3", B1="a2")
    assert not way_home(battle, battle.unit("A1"))
    finish(battle, "B")
    assert battle.unit("A1").fate == CAPTURED


def test_d17_units_in_the_reserve_are_captured_only_with_an_enemy_there():
    battle = place(make("2 Spearmen", "2 Spearmen"), A1="a1", A2="c1", B1="a1", B2="b3")
    finish(battle, "B")
    assert battle.unit("A1").fate == CAPTURED
    assert battle.unit("A2").fate == ESCAPED


def test_d17_winners_are_never_captured_and_destroyed_are_listed():
    battle = place(make("Spearmen", "2 Spearmen"), A1="b3", B1="b3", B2="a3")
    battle.unit("B2").fate = DESTROYED
    script = finish(battle, "B")
    sides = script.outcome.data["sides"]
    assert sides["B"]["destroyed"] == ["B2 Spearmen"] and sides["B"]["captured"] == []
    assert sides["A"]["captured"] == ["A1 Spearmen"]


def test_d5_removed_units_count_as_escaped():
    battle = place(make("2 Spearmen", "Spearmen"), A1="b2", A2="a1", B1="b3")
    battle.unit("A2").fate = REMOVED
    script = finish(battle, "A")
    assert script.outcome.data["sides"]["A"]["escaped"] == ["A2 Spearmen"]


# -- the game as a whole ------------------------------------------------------------------
def test_max_rounds_ends_an_undecided_battle_as_a_draw():
    battle = make("Spearmen", "Spearmen", neutral_rows=3, max_rounds=1)
    script = Script(fallback_face=varied())
    script.run(SeedsGame(battle))
    assert script.outcome.winner is None and "max_rounds" in script.outcome.reason


def test_state_json_lists_every_unit():
    battle = place(make("Spearmen", "Spearmen"), A1="b3", B1="b1")
    battle.unit("A1").taken = 1
    state = SeedsGame(battle).state_json()
    a1 = state["sides"]["A"]["units"][0]
    b1 = state["sides"]["B"]["units"][0]
    expected = {
        "id": "A1",
        "type": "Spearmen",
        "space": "b3",
        "state": STEADY,
        "ht_taken": 1,
        "in_reserve": False,
        "destroyed": False,
        "captured": False,
    }
    assert {k: a1[k] for k in expected} == expected
    assert b1["space"] == "b1" and b1["in_reserve"] is False  # A's Reserve is not B's
    assert state["sides"]["A"]["role"] == "attacker" and state["sides"]["B"]["role"] == "defender"


# -- armies -------------------------------------------------------------------------------
def test_d1_building_an_army_unit_by_unit():
    options = resolve_options(RULESET.options, None)
    gen = RULESET.build_team("A", options)
    asked_: list[Choice] = []
    answers = iter(["build", "3", "Knights", "Light Horse", "done"])
    answer = None
    try:
        while True:
            choice = gen.send(answer)
            asked_.append(choice)
            answer = next(answers)
            assert choice.legal(answer) is None
    except StopIteration as stop:
        team = stop.value
    assert team["order"] == 3
    assert [u["type"] for u in team["units"]] == ["Knights", "Light Horse"]
    assert asked_[0].prompt == "pick an army"  # the screen says whose: "Side A: pick an army"
    assert asked_[0].default == "army:Northern Host"
    assert asked_[-1].prompt.endswith("(so far: Knights, Light Horse)")
    assert asked_[2].legal("done") == "an army needs at least one unit"
