"""Mobs and Morale rule points e1-e30, each test named by its rule id. Battles are built from
inline teams, creatures placed by hand, and the rules driven with scripted dice and choices."""

from __future__ import annotations

import itertools

import pytest
from wargame_cli.rulesets.mobs_and_morale import (
    bot,
    cohesion,
    combat,
    initiative,
    moves,
    pools,
    teams,
)
from wargame_cli.rulesets.mobs_and_morale.actions import other_action
from wargame_cli.rulesets.mobs_and_morale.deploy import deploy
from wargame_cli.rulesets.mobs_and_morale.morale import morale_phase
from wargame_cli.rulesets.mobs_and_morale.rules import (
    MobsGame,
    battle_over,
    finish,
    initiative_phase,
    new_battle,
    slots,
)
from wargame_cli.rulesets.mobs_and_morale.ruleset import RULESET
from wargame_cli.rulesets.mobs_and_morale.state import Battle
from wargame_cli.rulesets.mobs_and_morale.turns import take_turn

from tests.helpers import Script
from wargame_cli.engine.requests import Choice, Event, Roll, TurnStart
from wargame_cli.errors import OptionError, TeamError
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.tabletop.detours import way_to
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body

PARTY = "Brakka=Warrior, Ysolde=Ranger"
TRIBE = "Ugrak=Chieftain, Red=4 Tribal Warrior under Ugrak"


def opts(**given):
    return resolve_options(RULESET.options, given)


OPEN = {"name": "open ground", "width": 36, "height": 24, "terrain": []}
CLEARING = next(o.default for o in RULESET.options if o.name == "table")


def battle(a=PARTY, b=TRIBE, **options) -> Battle:
    """Two teams on open ground (unless a `table` is given), nobody placed yet."""
    o = opts(**{"table": OPEN, **options})
    sides = {"A": teams.parse_inline(a, o), "B": teams.parse_inline(b, o)}
    return new_battle({"A": "Party", "B": "Tribe"}, sides, o)


def place(b: Battle, **where) -> None:
    """Put creatures on the table: `place(b, Brakka=(5, 5), Red_1=(5, 6.1))` (_ for space)."""
    for name, (x, y) in where.items():
        b.creatures[name.replace("_", " ")].pos = Point(x, y)


def park(b: Battle) -> None:
    """Everyone not placed yet stands out of the way along the far edges, 2" apart."""
    spots = {"A": 0, "B": 0}
    for c in b.creatures.values():
        if c.pos is None:
            spots[c.side] += 1
            y = 1 if c.side == "A" else 23
            c.pos = Point(34 - 2 * spots[c.side], y) if c.mob is None else Point(0, 0)


class Steps:
    """Wrap a rules generator so `Script.run` can drive it like a game."""

    def __init__(self, gen):
        self.gen = gen

    def play(self):
        result = yield from self.gen
        return result


def run(gen, faces=(), choices=(), **kw) -> Script:
    script = Script(faces, choices, **kw)
    script.run(Steps(gen))
    return script


def rolls(script: Script) -> list[Roll]:
    return [r for r in script.requests if isinstance(r, Roll)]


def choices_of(script: Script, kind: str) -> list[Choice]:
    return [r for r in script.requests if isinstance(r, Choice) and r.kind == kind]


def texts(script: Script) -> list[str]:
    return [e.text for e in script.events]


# --- setup -----------------------------------------------------------------------------------
def test_e1_each_side_deploys_inside_its_own_area():
    b = battle()
    run(deploy(b))
    for c in b.creatures.values():
        assert b.areas[c.side][0].holds(c.body()), c.id
    assert b.areas["A"][0].rect.y1 == 6 and b.areas["B"][0].rect.y0 == 18


def test_e1_deployment_refuses_typed_spot_outside_area():
    b = battle()
    script = Script()
    req = script.run(Steps(deploy(b)), until=lambda r: isinstance(r, Choice))
    assert req.kind == "deploy" and req.free_hint == "x,y"
    assert "outside" in req.legal("18,12")
    assert req.legal("5,3") is None


def test_e2_surprised_side_deploys_first():
    b = battle(surprised="B")
    script = run(deploy(b))
    sides = [c.side for c in choices_of(script, "deploy")]
    assert sides == ["B", "B", "A", "A"]
    b = battle()
    assert [c.side for c in choices_of(run(deploy(b)), "deploy")] == ["A", "A", "B", "B"]


def test_e3_initiative_deployment_lowest_first_with_its_mobs():
    b = battle(deploy_order="initiative")
    # Brakka 2 dice -> 2 successes, Ysolde 3 -> 0, Ugrak 4 -> 1 (Red is controlled: no roll)
    script = run(deploy(b), faces=[9, 9, 1, 1, 1, 9, 1, 1, 1])
    assert [r.dice for r in rolls(script)] == [(10,) * 2, (10,) * 3, (10,) * 4]
    order = [c.prompt.split()[1] for c in choices_of(script, "deploy")]
    assert order == ["Ysolde", "Ugrak", "Red", "Brakka"]
    assert script.events[0].text == (
        "Deployment: lowest initiative deploys first: Ysolde (0 successes), "
        "Ugrak (1 success; with Red), Brakka (2 successes)"
    )


# --- initiative ------------------------------------------------------------------------------
def test_e4_e5_minions_do_not_roll_and_act_in_their_controllers_slot():
    b = battle(
        a="Brakka=Warrior", b="Ugrak=Chieftain, Red=3 Tribal Warrior under Ugrak, Pack=3 Wolf"
    )
    park(b)
    script = run(initiative_phase(b), faces=[1, 1] + [9, 9, 9, 9] + [9])
    reasons = [r.reason for r in rolls(script)]
    assert [r.split(":")[0] for r in reasons] == ["Brakka", "Ugrak", "Pack"]  # uncontrolled
    assert b.order[:2] == ["Ugrak", "mob:Red"]  # the mob shares its controller's slot


def test_e5_uncontrolled_mob_rolls_once_with_its_best_presence():
    b = battle(a="Brakka=Warrior", b="Pack=3 Wolf")
    park(b)
    script = run(initiative_phase(b), faces=[1, 1, 9])
    assert [r.dice for r in rolls(script)] == [(10, 10), (10,)]
    assert b.order == ["mob:Pack", "Brakka"]


def test_e6_most_successes_first():
    b = battle()
    park(b)
    # Brakka 2 dice (1 success), Ysolde 3 (3 successes), Ugrak 4 (0)
    run(initiative_phase(b), faces=[6, 5, 10, 7, 6, 1, 2, 3, 5])
    assert b.order == ["Ysolde", "Brakka", "Ugrak", "mob:Red"]


def test_e7_ties_go_to_base_initiative_then_d10_rolloff_until_separated():
    a, c = initiative.Contender("a", "A1", "A", 1, 3), initiative.Contender("c", "C", "B", 1, 3)
    low = initiative.Contender("l", "Low", "B", 1, 1)
    script = Script(faces=[9, 9, 9, 4, 4, 2, 8])  # all 1 success; a & c tie on base 3
    gen = initiative.roll_initiative([low, a, c], 10, 6, "initiative")
    holder = {}

    def capture():
        holder["out"] = yield from gen
        return None

    script.run(Steps(capture()))
    order, scores = holder["out"]
    assert scores == {"l": 1, "a": 1, "c": 1}
    assert [x.key for x in order] == ["c", "a", "l"]  # 4-4 re-rolled, then 2 vs 8
    rolloffs = [r for r in rolls(script) if r.rules == ("e7",)]
    assert len(rolloffs) == 2 and rolloffs[0].labels == ("A1", "C")


# --- turns -----------------------------------------------------------------------------------
def test_e8_never_move_act_move():
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    place(b, Brakka=(30, 10), Ugrak=(30, 15))
    seen = []

    def pick(req):
        seen.append({o.key: o.disabled for o in req.options})
        return req.default

    script = run(
        take_turn(b, "Brakka"),
        faces=[1, 1, 1, 1],
        choices=["move", lambda r: r.default, pick],
    )
    attack = [k for k in seen[0] if k.startswith("attack:")]
    assert attack and seen[0][attack[0]] is None  # moved into contact, may attack
    assert "already moved" in seen[0]["move"]
    # moved and acted: the turn is over, with no question left to ask
    kinds = [c.kind for c in script.requests if isinstance(c, Choice)]
    assert kinds == ["turn", "move", "turn"]
    assert "attack" in script.kinds()


def test_e8_act_then_move_is_allowed():
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    place(b, Brakka=(10, 10), Ugrak=(10, 11.05))
    script = run(take_turn(b, "Brakka"), faces=[1, 1, 1, 1], choices=["attack:Ugrak", "move"])
    then = [c for c in script.requests if isinstance(c, Choice)][1]
    assert then.default == "end"
    assert "already acted" in next(o.disabled for o in then.options if o.key == "attack:Ugrak")
    assert [c.kind for c in script.requests if isinstance(c, Choice)] == ["turn", "turn", "move"]


def test_e9_other_action_ruled_by_the_gm_and_logged():
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    place(b, Brakka=(10, 10), Ugrak=(10, 11.05))
    script = run(
        other_action(b, [b.creatures["Brakka"]], "Brakka"),
        choices=["climb the standing stones", "fails"],
    )
    action, ruling = (r for r in script.requests if isinstance(r, Choice))
    assert action.side == "A" and action.free_hint and ruling.side == "B"
    assert action.legal("[red]x") is not None
    [event] = script.events
    assert event.kind == "other" and "climb the standing stones" in event.text
    assert event.data["ruling"] == "fails"


def test_e9_shove_pushes_the_enemy_away():
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    place(b, Brakka=(30, 10), Ugrak=(30, 11.05))
    run(other_action(b, [b.creatures["Brakka"]], "Brakka"), choices=["shove", "succeeds"])
    assert b.creatures["Ugrak"].pos == Point(30, 13.05)


def test_e9_rally_spares_a_mob_its_morale_test():
    b = battle()
    park(b)
    red = b.mobs["Red"]
    place(b, Ugrak=(20, 20), Red_1=(20, 21.5), Red_2=(21.5, 21.5), Red_3=(23, 21.5))
    run(other_action(b, [b.creatures["Ugrak"]], "Ugrak"), choices=["rally", "succeeds"])
    red.dead_pool.append("Red 4")
    b.creatures["Red 4"].status = "dead"
    script = run(morale_phase(b))
    assert not rolls(script) and red.casualty_pool == ["Red 4"]


def test_e10_every_unit_takes_a_turn_then_morale():
    b = battle()
    game = MobsGame(b)
    script = Script(fallback_face=lambda d: 1)
    script.run(game, until=lambda r: isinstance(r, TurnStart) and r.number == 2)
    turns = [r.prompt.split(":")[0] for r in choices_of(script, "turn")]
    for unit in ("Brakka", "Ysolde", "Ugrak", "Red"):
        assert unit in turns
    assert choices_of(script, "retreat")  # the end of round came after every turn


# --- attacks ---------------------------------------------------------------------------------
def test_e11_attack_needs_an_enemy_within_one_inch():
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    place(b, Brakka=(10, 10), Ugrak=(10, 12.2))  # 1.2" between bases
    script = Script()
    req = script.run(Steps(take_turn(b, "Brakka")), until=lambda r: isinstance(r, Choice))
    attack = next(o for o in req.options if o.key == "attack")
    assert attack.disabled == 'no enemy within 1" (e11)'
    place(b, Ugrak=(10, 11.9))  # 0.9"
    req = Script().run(Steps(take_turn(b, "Brakka")), until=lambda r: isinstance(r, Choice))
    assert any(o.key == "attack:Ugrak" and o.disabled is None for o in req.options)


def test_e11_reach_trait_attacks_from_two_inches():
    b = battle(a="Tarn=Spearwarden", b="Ugrak=Chieftain")
    place(b, Tarn=(10, 10), Ugrak=(10, 12.9))  # 1.9" between bases
    req = Script().run(Steps(take_turn(b, "Tarn")), until=lambda r: isinstance(r, Choice))
    assert req.default == "attack:Ugrak"


def test_e12_e13_equal_to_defence_cancels():
    assert pools.successes([6, 5, 10], 6) == 2
    assert pools.cancelled([5, 4, 6], 5) == 2  # 5 equals the defence: cancels
    assert pools.damage(3, [5, 4, 6], 5) == 1
    assert pools.damage(2, [9, 9], 5) == 0


def test_e12_e13_e14_an_attack_rolls_fierce_then_one_defence_die_per_success():
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    place(b, Brakka=(10, 10), Ugrak=(10, 11.05))
    brakka, ugrak = b.creatures["Brakka"], b.creatures["Ugrak"]
    script = run(combat.attack(b, [brakka], "Ugrak", "Brakka"), faces=[6, 9, 3, 7, 5, 4, 1])
    fierce, defence = rolls(script)
    assert fierce.dice == (10,) * 4 and fierce.side == "A"
    assert defence.dice == (10,) * 3 and defence.side == "B"  # three successes
    assert ugrak.health == 8 - 2  # defence 5: the 5 cancels, 4 and 1 do not
    assert texts(script)[:2] == [
        "Brakka attacks Ugrak: Fierce 6 9 3 7 -> 3 successes in the pool",
        "Ugrak rolls 5 4 1 against defence 5: cancels 1 of 3, 2 damage",
    ]


def test_e14_no_successes_no_defence_roll():
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    place(b, Brakka=(10, 10), Ugrak=(10, 11.05))
    script = run(combat.attack(b, [b.creatures["Brakka"]], "Ugrak", "Brakka"), faces=[1] * 4)
    assert len(rolls(script)) == 1 and b.creatures["Ugrak"].health == 8


# --- mobs ------------------------------------------------------------------------------------
def test_e15_a_character_controls_at_most_twice_its_presence():
    o = opts()
    teams.parse_inline("Ugrak=Chieftain, 8 Tribal Warrior under Ugrak", o)  # Presence 4
    with pytest.raises(TeamError, match=r"at most 8 .*\(e15\)"):
        teams.parse_inline(
            "Ugrak=Chieftain, 5 Tribal Warrior under Ugrak, 4 Tribal Warrior under Ugrak", o
        )
    teams.parse_inline("Ugrak=Chieftain, 9 Tribal Warrior", o)  # uncontrolled: no limit


def test_e16_non_humanoids_need_pack_to_form_mobs():
    o = opts()
    teams.parse_inline("4 Wolf", o)  # Pack
    teams.parse_inline("1 Giant Rat", o)  # one alone is no mob
    with pytest.raises(TeamError, match=r"neither humanoid nor Pack.*\(e16\)"):
        teams.parse_inline("3 Giant Rat", o)


def test_e17_cohesion_chain_and_all_pairs():
    line = [Body(f"m{i}", Point(3.5 * i, 0), 0.5) for i in range(3)]  # 2.5" gaps
    assert cohesion.split(line, "chain") == (["m0", "m1", "m2"], [])
    kept, lost = cohesion.split(line, "all")  # m0 and m2 are 6" apart
    assert len(kept) == 2 and len(lost) == 1
    apart = [*line, Body("far", Point(20, 0), 0.5)]
    assert cohesion.split(apart, "chain")[1] == ["far"]


def test_e17_straggler_removed_at_the_start_of_a_move():
    b = battle(a="Brakka=Warrior", b="Red=3 Tribal Warrior")
    place(b, Brakka=(5, 3), Red_1=(10, 20), Red_2=(11.2, 20), Red_3=(30, 20))
    script = run(take_turn(b, "mob:Red"), faces=[], choices=["move", "stay", "end"])
    assert b.creatures["Red 3"].status == "straggler"
    assert b.mobs["Red"].casualty_pool == ["Red 3"] and not b.mobs["Red"].dead_pool
    assert "removed" in script.kinds()


def test_e17_straggler_option_puts_them_in_the_dead_pool():
    b = battle(a="Brakka=Warrior", b="Red=3 Tribal Warrior", stragglers="dead_pool")
    place(b, Brakka=(5, 3), Red_1=(10, 20), Red_2=(11.2, 20), Red_3=(30, 20))
    run(take_turn(b, "mob:Red"), choices=["move", "stay", "end"])
    assert b.mobs["Red"].dead_pool == ["Red 3"]


WALLED = {
    "name": "walled",
    "width": 36,
    "height": 24,
    "terrain": [{"name": "long wall", "kind": "blocking", "x": 0, "y": 11, "w": 34, "h": 2}],
}


def test_e17_mob_move_previews_stragglers_and_the_bot_avoids_them():
    b = battle(a="Wren=Mystic", b="Red=2 Tribal Warrior", table=WALLED)  # not outmatched
    # a long wall between them (y 11-13): Red 1, south of it, cannot follow Red 2 north, not
    # even round the wall's end (e17: only a figure that cannot keep within 3" is lost)
    place(b, Wren=(20, 22), Red_1=(9.5, 10.4), Red_2=(9.5, 13.6))
    plans = moves.mob_plans(b, b.mobs["Red"])
    north = next(p for p in plans if p.label.startswith("North, full"))
    assert north.stragglers == ["Red 1"] and "1 would straggle" in north.label
    best = bot.mob_move(b, b.mobs["Red"], plans)
    assert not next(p for p in plans if p.key == best).stragglers


def test_e17_followers_are_placed_to_keep_the_chain():
    """e17 (issue 12, item 11): on the Clearing, Red 1 stands south of the standing stones
    (x 8-11, y 11-13) and cannot go straight north; when Red 2 leads north, Red 1 is placed
    round the stones within 3" of it instead of being lost."""
    b = battle(a="Wren=Mystic", b="Red=2 Tribal Warrior", table=CLEARING)
    place(b, Wren=(30, 3), Red_1=(9.5, 10.4), Red_2=(12.5, 10.4))
    plans = moves.mob_plans(b, b.mobs["Red"])
    north = next(p for p in plans if p.label.startswith("North, full"))
    assert north.stragglers == [] and "straggle" not in north.label
    red1, red2 = north.spots["Red 1"], north.spots["Red 2"]
    assert red2 == Point(12.5, 16.4)  # the lead goes where it was sent
    assert red1 != Point(9.5, 10.4)
    assert cohesion.split([Body("Red 1", red1, 0.5), Body("Red 2", red2, 0.5)], "chain")[1] == []
    way = way_to(b.table, b.creatures["Red 1"].body(), red1, 6, [Body("Wren", Point(30, 3), 0.5)])
    assert way is not None and way.length <= 6.01


def test_e5_the_owner_chooses_whether_the_controller_or_its_mob_acts_first():
    """e5 (issue 12, item 11): minions share their controller's initiative, so Odda's first
    question offers to let the Hounds act first; they take their whole turn, then Odda's
    turn goes on. The bot keeps the controller first."""
    b = battle(a="Odda=Houndmaster, Hounds=2 War Hound under Odda", b="Ugrak=Chieftain")
    place(b, Odda=(5, 3), Hounds_1=(7, 3), Hounds_2=(8.2, 3), Ugrak=(30, 21))
    seen: list[Choice] = []

    def first(choice: Choice) -> str:
        seen.append(choice)
        return "first:mob:Hounds"

    script = run(take_turn(b, "Odda", ["mob:Hounds"]), choices=[first, "end", "end"])
    offer = seen[0]
    assert "e5" in offer.rules and not offer.default.startswith("first:")
    assert offer.options[-2].key == "first:mob:Hounds" and offer.options[-1].key == "end"
    turns = [c for c in script.requests if isinstance(c, Choice)]
    assert [c.prompt.split(":")[0] for c in turns] == ["Odda", "Hounds", "Odda"]
    assert "first:mob:Hounds" not in {o.key for o in turns[2].options}  # once only
    assert [e.kind for e in script.events] == ["slot"]


def test_e5_the_slot_runs_the_controller_then_its_mobs_unless_they_went_first():
    b = battle(a="Odda=Houndmaster, Hounds=2 War Hound under Odda", b="Ugrak=Chieftain")
    place(b, Odda=(5, 3), Hounds_1=(7, 3), Hounds_2=(8.2, 3), Ugrak=(30, 21))
    b.order = ["Ugrak", "Odda", "mob:Hounds"]
    assert slots(b) == [["Ugrak"], ["Odda", "mob:Hounds"]]


def test_e18_e19_a_mob_moves_once_and_every_figure_in_range_rolls():
    b = battle(a="Brakka=Warrior", b="Red=4 Tribal Warrior")
    place(b, Brakka=(10, 10), Red_1=(10, 11.05), Red_2=(11.05, 10), Red_3=(10, 14), Red_4=(9, 14))
    script = run(take_turn(b, "mob:Red"), faces=[1] * 6, choices=["attack:Brakka", "end"])
    [fierce] = rolls(script)
    assert fierce.dice == (10,) * 6  # 2 figures in range x Fierce 3
    assert set(fierce.labels) == {"Red 1", "Red 2"}


def test_e20_a_mob_targets_one_character_or_one_whole_mob():
    b = battle(a="Brakka=Warrior, Hounds=3 War Hound under Brakka", b="Red=3 Tribal Warrior")
    place(
        b,
        Brakka=(10, 10),
        Hounds_1=(12, 12),
        Hounds_2=(13.2, 12),
        Hounds_3=(14.4, 12),
        Red_1=(10, 11.05),
        Red_2=(12, 13.05),
        Red_3=(20, 20),
    )
    req = Script().run(Steps(take_turn(b, "mob:Red")), until=lambda r: isinstance(r, Choice))
    attacks = {o.key for o in req.options if o.key.startswith("attack:")}
    assert attacks == {"attack:Brakka", "attack:mob:Hounds"}


def test_e21_carry_over_arithmetic():
    assert pools.carry_over(5, [2, 2, 2]) == [2, 2, 1]
    assert pools.carry_over(7, [2, 2]) == [2, 2]


def test_e21_e22_e23_mob_damage_carries_over_the_owner_choosing_who_falls():
    b = battle(
        a="Brakka=Warrior, Hounds=3 War Hound under Brakka",
        b="Red=2 Tribal Warrior",
        minion_health=2,
    )
    place(
        b,
        Brakka=(30, 3),
        Hounds_1=(10, 10),
        Hounds_2=(11.2, 10),
        Hounds_3=(12.4, 10),
        Red_1=(10, 11.05),
        Red_2=(11.2, 11.05),
    )
    red = [b.creatures["Red 1"], b.creatures["Red 2"]]
    # 2 Red figures x Fierce 3 = 6 dice, 5 successes; 5 defence dice (defence 8) cancel one
    script = run(
        combat.attack(b, red, "mob:Hounds", "Red"),
        faces=[9, 9, 9, 9, 9, 1] + [8, 1, 1, 1, 1],
        choices=["Hounds 3", "Hounds 1"],
    )
    picks = choices_of(script, "casualty")
    assert [c.side for c in picks] == ["A", "A"] and picks[0].rules == ("e21", "e22")
    hounds = {i: b.creatures[f"Hounds {i}"] for i in (1, 2, 3)}
    assert hounds[3].status == hounds[1].status == "dead"
    assert hounds[2].health == 2 and hounds[2].status == "standing"  # 4 damage: 2 + 2
    assert b.mobs["Hounds"].dead_pool == ["Hounds 3", "Hounds 1"]


def test_e21_a_single_attacker_hits_one_figure_and_excess_is_lost():
    b = battle(a="Brakka=Warrior", b="Red=3 Tribal Warrior")
    place(b, Brakka=(10, 10), Red_1=(10, 11.05), Red_2=(11.2, 11.05), Red_3=(12.4, 11.05))
    run(
        combat.attack(b, [b.creatures["Brakka"]], "Red 1", "Brakka"),
        faces=[9] * 4 + [1] * 4,
        choices=["Red 1"],  # the owner's pick (e22)
    )
    assert [b.creatures[f"Red {i}"].status for i in (1, 2, 3)] == ["dead", "standing", "standing"]


def test_e22_the_mobs_owner_picks_the_figure_a_characters_attack_removes():
    """e22 (issue 12, item 11): Brakka strikes at Red 1, but the Tribe (side B), owner of the
    mob, decides which figure in Brakka's reach is removed; Red 3, out of reach, is not
    offered."""
    b = battle(a="Brakka=Warrior", b="Red=3 Tribal Warrior")
    place(b, Brakka=(10, 10), Red_1=(10, 11.05), Red_2=(11.2, 11.05), Red_3=(12.4, 11.05))
    script = run(
        combat.attack(b, [b.creatures["Brakka"]], "Red 1", "Brakka"),
        faces=[9] * 4 + [1] * 4,
        choices=["Red 2"],
    )
    [pick] = [r for r in script.requests if isinstance(r, Choice)]
    assert pick.side == "B" and pick.rules == ("e22",) and pick.kind == "casualty"
    assert [o.key for o in pick.options] == ["Red 1", "Red 2"]
    assert [b.creatures[f"Red {i}"].status for i in (1, 2, 3)] == ["standing", "dead", "standing"]
    [death] = [e for e in script.events if e.kind == "death"]
    assert death.data["creature"] == "Red 2"


# --- morale ----------------------------------------------------------------------------------
def test_e24_morale_counts_dice_under_the_score_not_equal():
    assert pools.in_danger([4, 5, 6, 1], 5) == 2


def mob_with_dead(dead: int, **options) -> Battle:
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain, Red=6 Tribal Warrior under Ugrak", **options)
    place(b, Brakka=(5, 3), Ugrak=(20, 22))
    for i in range(1, 7):
        place(b, **{f"Red_{i}": (10 + 1.2 * i, 20)})
    red = b.mobs["Red"]
    for i in range(1, dead + 1):
        c = b.creatures[f"Red {i}"]
        c.status, c.pos = "dead", None
        red.dead_pool.append(c.id)
    return b


def test_e24_only_mobs_that_lost_creatures_test():
    b = mob_with_dead(0)
    assert not rolls(run(morale_phase(b)))


def test_e24_e25_e26_e27_morale_presence_saves_the_rest_flee():
    b = mob_with_dead(3)
    # 3 dead dice vs morale 5: 4 and 1 are under, 5 is not -> 2 in danger
    # Ugrak's Presence 4: one success saves one; one flees, the owner picks Red 6
    script = run(morale_phase(b), faces=[4, 5, 1] + [6, 1, 1, 1], choices=["Red 6"])
    morale, presence = rolls(script)
    assert morale.dice == (10,) * 3 and presence.dice == (10,) * 4
    assert presence.rules == ("e25",)
    [flee] = choices_of(script, "casualty")
    assert flee.side == "B" and flee.rules == ("e26",)
    assert b.creatures["Red 6"].status == "fled"
    assert b.mobs["Red"].casualty_pool == ["Red 6", "Red 1", "Red 2", "Red 3"]
    assert b.mobs["Red"].dead_pool == []
    assert texts(script)[:2] == [
        "Red tests morale 5: 4 5 1 -> 2 under 5, 2 in danger of fleeing",
        "Ugrak holds Red: Presence 6 1 1 1 -> keeps 1 of 2 from running",
    ]


def test_e25_no_presence_save_without_a_standing_controller():
    b = mob_with_dead(2)
    b.creatures["Ugrak"].status = "dead"
    script = run(morale_phase(b), faces=[1, 1])
    assert len(rolls(script)) == 1
    assert sum(b.creatures[f"Red {i}"].status == "fled" for i in range(3, 7)) == 2


def test_e26_flight_is_capped_by_the_mob():
    b = mob_with_dead(5)
    b.creatures["Ugrak"].status = "dead"
    script = run(morale_phase(b), faces=[1] * 5)
    assert b.creatures["Red 6"].status == "fled"
    assert texts(script)[0] == (
        "Red tests morale 5: 1 1 1 1 1 -> 5 under 5, 1 in danger of fleeing (only 1 left)"
    )


# --- the end ---------------------------------------------------------------------------------
def test_e28_each_round_ends_with_a_retreat_choice_and_new_initiative():
    b = battle()
    script = Script(fallback_face=lambda d: 1)
    script.run(MobsGame(b), until=lambda r: isinstance(r, TurnStart) and r.number == 3)
    assert len(choices_of(script, "retreat")) == 4
    assert sum(e.kind == "initiative" for e in script.events) == 2


def test_e29_destroyed_side_loses():
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    park(b)
    b.creatures["Ugrak"].status = "dead"
    assert battle_over(b) == ("A", "Tribe is destroyed", ("e29",), "loser destroyed")


def test_e29_a_side_that_left_by_its_edge_escaped():
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    place(b, Brakka=(10, 3), Ugrak=(20, 20))
    script = run(take_turn(b, "Brakka"), choices=["move", "leave"])
    assert b.creatures["Brakka"].status == "escaped" and "escape" in script.kinds()
    assert battle_over(b) == ("B", "Party escaped by its table edge", ("e29",), "loser escaped")


def test_e29_both_sides_retreating_is_a_draw():
    b = battle()
    game = MobsGame(b)
    script = Script(fallback_face=lambda d: 1, choices=[])
    script.choices = [lambda r: "retreat" if r.kind == "retreat" else r.default] * 200
    script.run(game)
    assert script.outcome.winner is None and script.outcome.reason == "both sides retreated"


def test_e30_casualties_survive_on_five_or_more():
    assert pools.survives(5) and not pools.survives(4)
    b = mob_with_dead(2, npc_survival=True)
    b.creatures["Brakka"].status = "dead"
    b.sides["A"].fallen.append("Brakka")
    script = run(finish(b, None, "test", ("e29",)), faces=[5, 4, 10])
    outcome = script.outcome
    assert [r.dice for r in rolls(script)] == [(10,), (10, 10)]
    rows = outcome.data["after_battle"]
    assert rows["A"] == [
        {"creature": "Brakka", "mob": None, "how": "dead", "roll": 5, "fate": "wounded"}
    ]
    assert [r["fate"] for r in rows["B"]] == ["lost", "wounded"]


def test_e30_npc_casualties_not_rolled_by_default():
    b = mob_with_dead(2)
    script = run(finish(b, "A", "test", ("e29",)))
    assert not rolls(script)
    assert {r["fate"] for r in script.outcome.data["after_battle"]["B"]} == {"not rolled (NPC)"}


def test_max_rounds_caps_the_battle_as_a_draw():
    b = battle(max_rounds=2)
    script = Script(fallback_face=lambda d: 1)
    script.run(MobsGame(b))
    assert script.outcome.winner is None and "max_rounds" in script.outcome.reason
    assert b.round == 2


# --- teams and options -----------------------------------------------------------------------
def test_inline_team_names_profiles_mobs_and_controllers():
    team = teams.parse_inline("Ugrak=Chieftain, Red Spears=4 Tribal Warrior under Ugrak", opts())
    assert team["characters"][0]["name"] == "Ugrak"
    [mob] = team["mobs"]
    assert mob["name"] == "Red Spears" and mob["controller"] == "Ugrak"
    assert mob["members"][0]["health"] == 1 and mob["members"][0]["count"] == 4
    assert (
        teams.parse_inline("Chieftain, 2 Wolf under Chieftain", opts())["mobs"][0]["controller"]
        == "Chieftain"
    )


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("Dragon", "unknown creature"),
        ("Tribal Warrior=Warrior under Bob", "only minions"),
        ("4 Tribal Warrior under Nobody", "not a character"),
        ("", "empty team"),
    ],
)
def test_inline_team_errors(text, match):
    with pytest.raises(TeamError, match=match):
        teams.parse_inline(text, opts())


def test_team_data_round_trips_and_keeps_full_stats():
    team = teams.parse_inline(TRIBE, opts())
    assert teams.from_data(team, opts()) == team
    custom = {
        "characters": [{"name": "Ogre", "presence": 1, "fierce": 6, "defence": 4, "health": 12}]
    }
    assert teams.from_data(custom, opts())["characters"][0]["initiative"] == 1


def test_success_on_above_the_die_is_refused():
    o = opts(die=6, success_on=8)
    setup = Setup(
        {"A": "a", "B": "b"}, {"A": teams.parse_inline(PARTY, o), "B": teams.parse_inline(TRIBE, o)}
    )
    with pytest.raises(OptionError, match="never show"):
        RULESET.new_game(setup, o)


def test_every_request_cites_rules():
    b = battle()
    script = Script(fallback_face=lambda d: (d + 1) // 2)
    script.run(MobsGame(b))
    for req in script.requests:
        if isinstance(req, Roll | Choice | Event):
            assert req.rules and all(r.startswith("e") for r in req.rules), req
    # each default was judged legal when it was asked (`Script.answer`), in its position
    assert any(isinstance(req, Choice) for req in script.requests)


def build(side, answers):
    """Drive team building: each answer is a key or None for the suggestion."""
    gen = RULESET.build_team(side, opts())
    asked, answer = [], None
    try:
        while True:
            choice = gen.send(answer)
            asked.append(choice)
            pick = answers.pop(0) if answers else None
            answer = choice.default if pick is None else pick
            assert choice.legal(answer) is None, (answer, choice.legal(answer))
    except StopIteration as stop:
        return stop.value, asked


def test_e15_team_builder_suggests_the_preset_and_offers_only_room_left():
    team, asked = build("B", [])
    assert team == RULESET.default_team("B", opts())[0] and len(asked) == 1
    team, asked = build(
        "B",
        ["build", "Chieftain", "Tribal Warrior", None, "5", "Tribal Warrior", None, None, "done"],
    )
    counts = [c for c in asked if c.prompt.startswith("how many")]
    assert [len(c.options) for c in counts] == [8, 3]  # 2 x Presence 4, then what is left
    assert [m["controller"] for m in team["mobs"]] == ["Chieftain", "Chieftain"]
    rat = next(o for o in asked[1].options if o.key == "Giant Rat")
    assert "e16" in rat.disabled


def test_the_team_builder_stops_at_the_figures_a_side_may_have():
    """Found by random legal play: four uncontrolled mobs of 12 once built a team of 44+
    figures that "Done" then refused with an error; now the last mob is offered only the
    room left, and at 40 figures every "Add" is shown disabled, with the reason."""
    mob = ["Tribal Warrior", "none", "12"]
    team, asked = build("B", ["build", *mob, *mob, *mob, "Tribal Warrior", "none", "4", "done"])
    counts = [c for c in asked if c.prompt.startswith("how many")]
    assert [len(c.options) for c in counts] == [12, 12, 12, 4]
    assert sum(m["count"] for mob in team["mobs"] for m in mob["members"]) == 40
    full = asked[-1]
    assert full.options[0].disabled == "at most 40 figures a side"
    assert full.legal(full.options[0].key) == "at most 40 figures a side"
    assert full.default == "done" and full.legal("done") is None


def test_e19_bot_mob_closes_on_a_target_it_can_reach_not_a_blocked_one():
    """Its nearest enemy is walled off by its own chieftain: it goes for the next one instead
    of "closing" without moving a figure (a game once stood still like this for rounds)."""
    b = battle(
        a="Brakka=Warrior, Tarn=Spearwarden",
        b="Ugrak=Chieftain, Bone=2 Tribal Warrior under Ugrak",
        table=CLEARING,
    )
    place(
        b,
        Brakka=(22.6, 12.58),
        Tarn=(18.33, 12.38),
        Ugrak=(22.97, 13.51),
        Bone_1=(24.04, 15.25),
        Bone_2=(23.37, 14.48),
    )
    b.rules_version = 2  # version 3 walks round the chieftain: the next test
    plans = moves.mob_plans(b, b.mobs["Bone"])
    blocked = next(p for p in plans if p.key == "close:Brakka")
    assert not blocked.moved and "no room to close" in blocked.label
    script = run(take_turn(b, "mob:Bone"), faces=[1] * 12)
    turn, move = choices_of(script, "turn")[0], choices_of(script, "move")[0]
    assert turn.default == "move" and move.default == "close:Tarn"
    assert "then in reach" in move.label_of("close:Tarn")
    assert [r.labels for r in rolls(script)][0][0].startswith("Bone")  # then it attacks


def test_e19_version_3_close_on_walks_round_the_chieftain_to_the_nearest_enemy():
    """The same position under version 3: both figures walk round their chieftain's base
    (the pathfinder) into reach of Brakka, so the closing move is no longer blocked."""
    b = battle(
        a="Brakka=Warrior, Tarn=Spearwarden",
        b="Ugrak=Chieftain, Bone=2 Tribal Warrior under Ugrak",
        table=CLEARING,
    )
    place(b, Brakka=(22.6, 12.58), Tarn=(18.33, 12.38), Ugrak=(22.97, 13.51))
    place(b, Bone_1=(24.04, 15.25), Bone_2=(23.37, 14.48))
    plan = moves.close_on(b, b.mobs["Bone"], "Brakka")
    assert plan.in_reach == 2 and plan.label == "Close on Brakka (2 of 2 then in reach)"
    others = [c.body() for c in b.standing() if c.mob != "Bone"]
    for fid, spot in plan.spots.items():
        f = b.creatures[fid]
        assert spot is not None and f.at.distance(spot) <= f.move
        assert way_to(b.table, f.body(), spot, f.move, others) is not None


# --- added by the audit: rule points the first tests left loose ------------------------------
def test_e17_straggler_removed_at_the_end_of_a_move():
    o = opts(table=OPEN)
    slow = {"profile": "Tribal Warrior", "move": 1}
    sides = {
        "A": teams.parse_inline("Brakka=Warrior", o),
        "B": teams.from_data(
            {"mobs": [{"name": "Red", "members": [{"profile": "Tribal Warrior"}, slow]}]}, o
        ),
    }
    b = new_battle({"A": "Party", "B": "Tribe"}, sides, o)
    place(b, Brakka=(5, 3), Red_1=(20, 20), Red_2=(21.2, 20))  # together at the start
    script = run(take_turn(b, "mob:Red"), choices=["move", "20,14", "end"])
    [lost] = [e for e in script.events if e.kind == "removed"]
    assert lost.data == {"creature": "Red 2", "mob": "Red", "how": "straggler", "when": "end"}
    assert lost.rules == ("e17",) and b.creatures["Red 2"].status == "straggler"
    assert b.mobs["Red"].casualty_pool == ["Red 2"] and b.creatures["Red 1"].standing


def test_e21_e22_no_pick_when_the_damage_kills_every_figure_left():
    b = battle(a="Brakka=Warrior, Hounds=3 War Hound under Brakka", b="Red=3 Tribal Warrior")
    park(b)
    place(b, Hounds_1=(10, 10), Hounds_2=(11.2, 10), Hounds_3=(12.4, 10))
    place(b, Red_1=(10, 11.05), Red_2=(11.2, 11.05), Red_3=(12.4, 11.05))
    red = [b.creatures[f"Red {i}"] for i in (1, 2, 3)]
    # 9 dice, 5 successes; 1 cancelled: 4 damage on 3 figures of health 1
    script = run(
        combat.attack(b, red, "mob:Hounds", "Red"), faces=[9] * 5 + [1] * 4 + [9] + [1] * 4
    )
    assert not choices_of(script, "casualty")  # the order changes nothing: not asked
    assert b.mobs["Hounds"].dead_pool == ["Hounds 1", "Hounds 2", "Hounds 3"]
    assert script.events[-1].kind == "overkill" and script.events[-1].data["left"] == 1


def test_e26_no_pick_when_the_whole_mob_flees():
    b = mob_with_dead(4)  # Red 5 and Red 6 left
    b.creatures["Ugrak"].status = "dead"
    script = run(morale_phase(b), faces=[1, 1, 9, 9])  # 2 in danger, no controller (e25)
    assert not choices_of(script, "casualty")
    assert [b.creatures[f"Red {i}"].status for i in (5, 6)] == ["fled", "fled"]
    fled = [e.data["creature"] for e in script.events if e.kind == "removed"]
    assert fled == ["Red 5", "Red 6"]


def test_e26_the_owner_still_picks_when_some_stay():
    b = mob_with_dead(4)
    b.creatures["Ugrak"].status = "dead"
    script = run(morale_phase(b), faces=[1, 9, 9, 9], choices=["Red 5"])
    [pick] = choices_of(script, "casualty")
    assert pick.side == "B" and b.creatures["Red 5"].status == "fled"
    assert b.creatures["Red 6"].standing


def test_e9_the_gm_may_rule_in_words_and_the_ruling_is_logged_as_said():
    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    place(b, Brakka=(10, 10), Ugrak=(10, 11.05))
    script = run(
        other_action(b, [b.creatures["Brakka"]], "Brakka"),
        choices=["shove", "Ugrak stumbles but keeps his feet"],
    )
    ruling = choices_of(script, "ruling")[0]
    assert ruling.side == "B" and ruling.free_hint and ruling.default == "partial"
    assert ruling.legal("x" * 101) and ruling.legal("[red]no") and not ruling.legal("ok")
    [event] = script.events
    assert event.text == "Brakka: Shove Ugrak. The GM rules: Ugrak stumbles but keeps his feet"
    assert b.creatures["Ugrak"].pos == Point(10, 11.05)  # words move nobody


def test_e7_initiative_event_says_how_ties_were_broken_and_who_acts_in_the_slot():
    b = battle(a="Brakka=Warrior, Tarn=Spearwarden")
    park(b)
    # Brakka 1 success (base 2), Tarn 1 (base 2), Ugrak 1 (base 3): Ugrak on base; roll-off 3-8
    script = run(initiative_phase(b), faces=[9, 1, 9, 1, 9, 1, 1, 1, 3, 8])
    [event] = [e for e in script.events if e.kind == "initiative"]
    assert event.text == (
        "Round 0 initiative: Ugrak (1 success; base 3; with Red), "
        "Tarn (1 success; base 2, roll-off), Brakka (1 success; base 2, roll-off)"
    )
    assert b.order == ["Ugrak", "mob:Red", "Tarn", "Brakka"]


def test_map_labels_are_unique_even_for_look_alike_names_and_big_mobs():
    b = battle(
        a="Ranger, Ranger, Ranger",  # numbered: Ranger, Ranger 2, Ranger 3
        b="Ugrak=Chieftain, Red=8 Tribal Warrior under Ugrak, Reds=12 Tribal Warrior",
    )
    labels = [c.label for c in b.creatures.values()]
    assert len(set(labels)) == len(labels) and all(len(x) == 2 for x in labels)
    assert [b.creatures[n].label for n in ("Ranger", "Ranger 2", "Ranger 3")] == ["Ra", "R2", "R3"]


def test_options_are_declared_in_options_toml():
    import tomllib

    from wargame_cli.rulesets.mobs_and_morale.ruleset import FOLDER

    declared = tomllib.loads((FOLDER / "options.toml").read_text())
    assert [o.name for o in RULESET.options] == list(declared)
    for o in RULESET.options:
        assert o.doc == declared[o.name]["doc"] and o.rule == declared[o.name]["rule"]
    table = next(o for o in RULESET.options if o.name == "table")
    assert table.default["name"] == "Grey Hill clearing" and len(table.default["terrain"]) == 3


def test_e9_e24_bot_rallies_a_mob_facing_a_morale_test_when_it_has_nothing_to_attack():
    b = battle()
    park(b)
    place(b, Ugrak=(20, 20), Red_1=(20, 21.5), Red_2=(21.5, 21.5), Red_3=(23, 21.5))
    red = b.mobs["Red"]
    b.creatures["Red 4"].status, b.creatures["Red 4"].pos = "dead", None
    red.dead_pool.append("Red 4")
    script = run(take_turn(b, "Ugrak"))  # every answer the suggestion
    turn = choices_of(script, "turn")
    assert [c.default for c in turn] == ["move", "other"]
    action = choices_of(script, "action")[0]
    assert action.default == "rally" and action.label_of("rally") == (
        "Rally Red (1 in its dead pool)"
    )
    assert red.rallied == "partial"  # the GM's suggested ruling
    red.dead_pool.clear()
    assert choices_of(run(take_turn(b, "Ugrak")), "turn")[-1].default == "end"


def test_same_names_on_both_sides_are_told_apart_by_side():
    b = battle(a="Brakka=Warrior, Red=2 Tribal Warrior", b="Brakka=Warrior, Red=2 Tribal Warrior")
    assert list(b.creatures) == ["Brakka", "Red 1", "Red 2", "Brakka (B)", "Red (B) 1", "Red (B) 2"]
    assert [m.side for m in b.mobs.values()] == ["A", "B"]


def test_e15_e16_team_builder_shows_stats_and_room_left():
    _, asked = build("B", ["build", "Chieftain", "Tribal Warrior", None, "5", "Tribal Warrior"])
    add = asked[1]
    assert add.label_of("Chieftain") == (
        'Add a character: Chieftain (Presence 4, Fierce 4, defence 5, health 8, move 6", humanoid)'
    )
    second_boss = [c for c in asked if c.prompt.startswith("who controls")][1]
    assert second_boss.label_of("Chieftain") == "Under Chieftain (room for 3 more: 2 x Presence)"


def test_e15_the_limit_is_the_controllers_own_presence_even_when_overridden():
    team = {
        "characters": [{"name": "Ugrak", "profile": "Chieftain", "presence": 1}],
        "mobs": [{"name": "Red", "controller": "Ugrak", "members": [{"profile": "Wolf"}] * 3}],
    }
    with pytest.raises(TeamError, match=r"controls 3 minions but may control at most 2"):
        teams.from_data(team, opts())
    team["characters"][0]["presence"] = 2
    assert teams.from_data(team, opts())["mobs"][0]["controller"] == "Ugrak"  # Wolves: Pack


def test_e5_a_mob_sent_first_takes_one_turn_a_round():
    b = battle(a="Odda=Houndmaster, Hounds=3 War Hound under Odda", max_rounds=6)
    firsts = []

    def pick(choice: Choice) -> str:
        first = next((o.key for o in choice.options if o.key.startswith("first:")), None)
        if first:
            firsts.append(first)
        return first or choice.default

    faces = itertools.cycle([7, 2, 9, 4, 10, 1, 6, 3, 8, 5])
    script = Script(fallback_face=lambda d: min(d, next(faces)), choices=[pick] * 5000)
    script.run(MobsGame(b))
    assert script.outcome is not None and firsts
    per_round: list[int] = []
    for req in script.requests:
        if isinstance(req, TurnStart):
            per_round.append(0)
        elif isinstance(req, Choice) and req.prompt == "Hounds: move or act":
            per_round[-1] += 1
    assert max(per_round) == 1


class _Game:
    def __init__(self, state: Battle) -> None:
        self.state = state


def test_the_search_weighs_a_character_above_a_minion_and_a_retreat_as_a_loss():
    """The search bot's evaluation (`Ruleset.evaluate`): worth is fighting strength, so a
    Chieftain's wound costs the tribe more than a minion fled; a side that retreats is
    worth less than the same side fighting on (it is leaving the table, e29); the judgement
    of one side is the other's negated. Material alone (`bots.evaluate.material`) counted
    the minion as much as the Chieftain's whole health."""
    from wargame_cli.bots.evaluate import material

    b = battle()
    place(b, Brakka=(10, 10), Ysolde=(12, 10), Ugrak=(10, 20))
    for n in range(1, 5):
        place(b, **{f"Red_{n}": (8 + 2 * n, 22)})
    game = _Game(b)
    start = RULESET.evaluate(game, "A")
    assert RULESET.evaluate(game, "B") == pytest.approx(-start)
    b.creatures["Ugrak"].damage = 1
    wounded = RULESET.evaluate(game, "A")
    b.creatures["Ugrak"].damage = 0
    b.creatures["Red 4"].status, b.creatures["Red 4"].pos = "fled", None
    fled = RULESET.evaluate(game, "A")
    assert start < fled < wounded  # a Chieftain's wound weighs more than a minion gone
    b.creatures["Red 4"].status, b.creatures["Red 4"].pos = "standing", Point(16, 22)
    b.creatures["Ugrak"].damage = 1
    assert material(game, "A") < material(_Game(_fled(b)), "A")  # material: the other way
    b.creatures["Ugrak"].damage = 0
    b.sides["A"].retreating = True
    assert RULESET.evaluate(game, "A") < start


def _fled(b: Battle) -> Battle:
    """`b` with Red 4 fled and nobody wounded (a copy)."""
    import copy

    out = copy.deepcopy(b)
    out.creatures["Ugrak"].damage = 0
    out.creatures["Red 4"].status, out.creatures["Red 4"].pos = "fled", None
    return out
