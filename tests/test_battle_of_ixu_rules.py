"""The Battle of Ixu rule points c1-c9 and their defaults, each test named by its rule id."""

from __future__ import annotations

import pytest
from wargame_cli.rulesets.battle_of_ixu import attribution
from wargame_cli.rulesets.battle_of_ixu.ruleset import RULESET

from tests.helpers import Script
from wargame_cli.engine.requests import Choice, Event, Roll, TurnStart
from wargame_cli.errors import TeamError
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.tabletop.geometry import Point


class Kinds(Script):
    """A Script whose choices are queued per kind ("attribute", "move", "target");
    a kind with nothing queued takes the default (the bot's pick). Once the faces run out,
    d6s show 1 (never a hit) and d10s show 10 (a health check passed)."""

    def __init__(self, faces=(), **queues):
        super().__init__(faces, fallback_face=lambda die: 10 if die == 10 else 1)
        self.queues = {kind: list(keys) for kind, keys in queues.items()}

    def answer(self, req):
        if isinstance(req, Choice) and self.queues.get(req.kind):
            self.choices = [self.queues[req.kind].pop(0)]
        return super().answer(req)


def game(a="Ajax:3", b="Bron:3", **options):
    opts = resolve_options(RULESET.options, options)
    teams = {"A": RULESET.parse_team(a, opts), "B": RULESET.parse_team(b, opts)}
    return RULESET.new_game(Setup(names={"A": "Axes", "B": "Swords"}, teams=teams), opts)


def face_off(g, a="A1", b="B1", x=12.0):
    """Put two models in base contact mid-field (0.75" bases, centres 0.75" apart; places are
    kept to 0.01", as in play)."""
    g.state.get(a).pos = Point(x, 11.62)
    g.state.get(b).pos = Point(x, 12.37)


def one_turn(g, script):
    """Play turn 1 and stop at the start of turn 2 (or the end of the game)."""
    script.run(g, until=lambda r: isinstance(r, TurnStart) and r.number == 2)
    return script


def rolls(script):
    return [r for r in script.requests if isinstance(r, Roll)]


def events(script, kind):
    return [e for e in script.events if e.kind == kind]


# --- c1: experience ---------------------------------------------------------------------------
def test_c1_experience_words_and_numbers():
    opts = resolve_options(RULESET.options, None)
    team = RULESET.parse_team("Tutok:4, Kuote:elite, Ijoi:inexperienced, Oda", opts)
    assert [m["experience"] for m in team["models"]] == [4, 5, 3, 4]
    for bad in ("Tutok:6", "Tutok:2", "Tutok:hero"):
        with pytest.raises(TeamError, match=r"\(c1\)"):
            RULESET.parse_team(bad, opts)


def test_c1_experience_is_the_number_of_dice_rolled():
    g = game("Ajax:3", "Bron:5, Cato:4")
    script = one_turn(g, Script([9, 5, 1], fallback_face=lambda d: 1))
    experience = [r for r in rolls(script) if "experience dice" in r.reason]
    assert [len(r.dice) for r in experience] == [3, 5, 4]
    assert all(r.dice == (6,) * len(r.dice) for r in experience)  # default d6
    assert all("c1" in r.rules and "c2" in r.rules for r in experience)


def test_c1_die_size_is_an_option():
    g = game(die=8)
    script = one_turn(g, Script([9, 5], fallback_face=lambda d: 1))
    assert [r.dice for r in rolls(script) if "experience" in r.reason] == [(8,) * 3] * 2


# --- c2: attribution --------------------------------------------------------------------------
def test_c2_offers_the_orders_of_the_three_highest_and_ignores_the_rest():
    offered = attribution.assignments([1, 5, 3, 6])
    assert {(d.movement, d.combat, d.defence) for d in offered} == {
        (6, 5, 3),
        (6, 3, 5),
        (5, 6, 3),
        (5, 3, 6),
        (3, 6, 5),
        (3, 5, 6),
    }
    assert len(attribution.assignments([4, 4, 2, 1, 1])) == 3  # distinct orders only
    assert attribution.unused([1, 5, 3, 6], offered[0]) == [1]
    assert "ignore 1" in attribution.label([1, 5, 3, 6], offered[0])


def test_c2_typed_assignment_takes_one_rolled_die_per_place():
    faces = [6, 5, 3, 1]
    assert attribution.problem(faces, "1,5,3") is None  # any rolled dice may be used
    assert "no die twice" in attribution.problem(faces, "6,6,5")
    assert "no die twice" in attribution.problem(faces, "2,5,3")
    assert "three dice" in attribution.problem(faces, "6,5")


def test_c2_prompt_shows_the_dice_and_what_is_left():
    g = game()
    script = Script([9, 5, 6, 1, 3])
    choice = script.run(g, until=lambda r: isinstance(r, Choice))
    assert choice.kind == "attribute" and "c2" in choice.rules
    assert "rolled 6, 3, 1" in choice.prompt
    assert all("ignore" not in o.label for o in choice.options)  # three dice: none left
    assert choice.free_hint and choice.legal("6,6,6") and choice.legal("1,3,6") is None


def test_c2_the_attributed_dice_are_what_the_model_uses():
    g = game()
    face_off(g)
    script = Kinds([9, 5, 6, 4, 2, 1, 1, 1, 6, 6], attribute=["2,6,4"])
    one_turn(g, script)
    ajax = g.state.get("A1")
    assert (ajax.dice.movement, ajax.dice.combat, ajax.dice.defence) == (2, 6, 4)
    [attack] = [r for r in rolls(script) if r.reason.startswith("Ajax attacks")]
    assert attack.dice == (6,) * 6  # combat 6: six dice
    [event] = [e for e in events(script, "attribute") if e.data["model"] == "Ajax"]
    assert event.data["unused"] == []


def test_c2_no_question_when_every_face_is_equal():
    g = game()
    script = Script([9, 5, 3, 3, 3, 6, 2, 1])
    first = script.run(g, until=lambda r: isinstance(r, Choice))
    assert "Bron" in first.prompt  # Ajax had nothing to decide
    assert g.state.get("A1").dice.combat == 3


# --- c3: the four phases ----------------------------------------------------------------------
def test_c3_phases_run_in_order_each_turn():
    g = game()
    face_off(g)
    script = one_turn(g, Kinds([9, 5, 6, 4, 1, 6, 4, 1, 6, 6], attribute=["1,6,4", "1,6,4"]))
    phase_of = {"stand": "move", "charge": "move"}  # standing still is a movement too
    kinds = [phase_of.get(k, k) for k in script.kinds()]
    kinds = [k for k in kinds if k in ("order", "attribute", "move", "attack", "health")]
    first = {k: kinds.index(k) for k in set(kinds)}
    assert first["order"] < first["attribute"] < first["move"] < first["attack"] < first["health"]
    assert kinds == sorted(kinds, key=["order", "attribute", "move", "attack", "health"].index)


# --- c4: order ----------------------------------------------------------------------------------
def test_c4_a_d10_per_model_highest_first():
    g = game("Ajax:3", "Bron:3, Cato:3")
    script = one_turn(g, Script([2, 9, 5], fallback_face=lambda d: 1))
    order = rolls(script)[0]
    assert order.dice == (10, 10, 10) and "c4" in order.rules
    assert order.labels == ("Ajax", "Bron", "Cato")
    assert events(script, "order")[0].data["order"] == ["Bron", "Cato", "Ajax"]
    experience = [r.reason.split("'")[0] for r in rolls(script) if "experience" in r.reason]
    assert experience == ["Bron", "Cato", "Ajax"]  # attribution follows the order
    moves = [
        r.prompt.split(" ")[0]
        for r in script.requests
        if isinstance(r, Choice) and r.kind == "move"
    ]
    assert moves == ["Bron", "Cato", "Ajax"]  # and so does activation


def test_c4_ties_are_rerolled_among_the_tied_only():
    g = game("Ajax:3", "Bron:3, Cato:3")
    script = one_turn(g, Script([7, 7, 9, 3, 8], fallback_face=lambda d: 1))
    order_rolls = [r for r in rolls(script) if r.dice[0] == 10 and len(r.dice) > 1]
    assert order_rolls[1].dice == (10, 10) and order_rolls[1].labels == ("Ajax", "Bron")
    [event] = events(script, "order")
    assert event.data["order"] == ["Cato", "Bron", "Ajax"]
    assert event.data["rolls"]["Bron"] == [7, 8]
    assert event.text == "Order for turn 1: Cato (9), Bron (7, re-rolled 8), Ajax (7, re-rolled 3)"


def test_c4_ties_rerolled_again_while_still_tied():
    g = game()
    script = one_turn(g, Script([4, 4, 6, 6, 1, 2], fallback_face=lambda d: 1))
    assert events(script, "order")[0].data["order"] == ["Bron", "Ajax"]
    assert events(script, "order")[0].data["rolls"]["Ajax"] == [4, 6, 1]


def test_c4_order_ties_by_experience_option():
    g = game("Ajax:3", "Bron:5", order_ties="experience")
    script = one_turn(g, Script([7, 7], fallback_face=lambda d: 1))
    assert events(script, "order")[0].data["order"] == ["Bron", "Ajax"]
    assert sum(1 for r in rolls(script) if r.dice[0] == 10) == 1  # no re-roll needed


# --- c5: movement -------------------------------------------------------------------------------
def test_c5_moves_up_to_the_movement_die_in_inches():
    g = game()
    script = Kinds([9, 5, 4, 2, 1], attribute=["4,2,1"])
    choice = script.run(g, until=lambda r: isinstance(r, Choice) and r.kind == "move")
    ajax = g.state.get("A1")
    for option in choice.options:
        assert Point.parse(option.key).distance(ajax.pos) <= 4.01
    assert choice.free_hint == "x,y" and "c5" in choice.rules
    assert "away" in choice.legal("12,9")  # 7" away
    assert "off the" in choice.legal("12,0.2")
    assert choice.legal("12,5.5") is None


def test_c5_a_move_into_contact_is_a_charge():
    g = game()
    g.state.get("B1").pos = Point(12, 6)
    script = Kinds([9, 5, 6, 5, 4], attribute=["6,5,4"])
    one_turn(g, script)
    [charge] = events(script, "charge")
    assert charge.data["model"] == "Ajax" and charge.data["charged"] == ["Bron"]
    assert "Ajax charges Bron" in charge.text


def test_c5_models_may_leave_contact_freely():
    g = game()
    face_off(g)
    script = Kinds([9, 5, 6, 5, 4], attribute=["6,5,4"], move=["12,5.62"])
    one_turn(g, script)
    [away] = [e for e in events(script, "move") if e.data["model"] == "Ajax"]
    assert away.data["left"] == ["Bron"] and "backing away from Bron" in away.text


# --- c6: combat --------------------------------------------------------------------------------
def test_c6_beat_means_strictly_greater():
    g = game()
    face_off(g)
    # Ajax: combat 3 against Bron's defence 4; his dice 4, 5, 4: only the 5 beats it
    script = Kinds([9, 5, 6, 3, 1, 6, 4, 1, 4, 5, 4], attribute=["1,3,6", "1,6,4"])
    one_turn(g, script)
    [attack] = [e for e in events(script, "attack") if e.data["attacker"] == "Ajax"]
    assert attack.data["faces"] == [4, 5, 4] and attack.data["defence"] == 4
    assert attack.data["hits"] == 1
    assert g.state.get("B1").damage >= 1


def test_c6_each_die_that_beats_the_defence_is_one_damage():
    g = game()
    face_off(g)
    script = Kinds([9, 5, 6, 3, 1, 6, 2, 1, 6, 6, 6], attribute=["1,3,6", "1,6,2"])
    one_turn(g, script)
    [wound] = [e for e in events(script, "wound") if e.data["target"] == "Bron"]
    assert wound.data["damage"] == 3 and wound.data["attacker"] == "Ajax"
    assert wound.data["side"] == "B" and wound.data["total"] == 3


def test_c6_only_enemies_in_base_contact_can_be_fought():
    g = game("Ajax:3", "Bron:3, Cato:3")
    face_off(g, "A1", "B1")
    script = one_turn(g, Kinds([9, 5, 1, 6, 4, 1, 6, 4, 1, 6, 4, 1]))
    targets = [r for r in script.requests if isinstance(r, Choice) and r.kind == "target"]
    ajax_target = [t for t in targets if t.prompt.startswith("Ajax")]
    for choice in ajax_target:
        assert {o.key for o in choice.options} <= {"B1", "hold"}  # Cato is far away
    assert not [t for t in targets if t.prompt.startswith("Cato")]


def test_c6_combat_is_optional():
    g = game()
    face_off(g)
    script = Kinds([9, 5], target=["hold"])
    script.fallback_face = lambda d: 5
    one_turn(g, script)
    assert events(script, "hold")[0].data["model"] == "Ajax"
    assert not any(r.reason.startswith("Ajax attacks") for r in rolls(script))


# --- c7: death in combat ------------------------------------------------------------------------
def test_c7_a_model_totalled_dies_at_once_and_loses_its_attack():
    g = game("Ajax:3", "Bron:3, Cato:3", health=3)
    face_off(g, "A1", "B1")
    # order Ajax, Bron, Cato; Ajax combat 6 against Bron's defence 1: three 6s kill him
    faces = [9, 5, 1, 6, 6, 1, 2, 1, 1, 4, 4, 4, 6, 6, 6, 1, 1, 1]
    script = Kinds(faces, attribute=["1,6,6", "1,2,1"])
    one_turn(g, script)
    [death] = events(script, "death")
    assert death.data["model"] == "Bron" and death.data["lost_attack"] is True
    assert "c7" in death.rules and "before striking" in death.text
    assert g.state.get("B1").dead and g.state.get("B1").died_turn == 1
    assert not any(r.reason.startswith("Bron attacks") for r in rolls(script))
    assert not [r for r in script.requests if isinstance(r, Choice) and "Bron (combat" in r.prompt]
    assert not any("Bron's health check" in r.reason for r in rolls(script))  # c8: dead


def test_c7_a_model_that_already_struck_keeps_its_blow():
    g = game("Ajax:3", "Bron:3, Cato:3", health=3)
    face_off(g, "A1", "B1")
    # order Bron, Ajax, Cato: Bron strikes first, then Ajax kills him
    faces = [5, 9, 1, 1, 2, 1, 6, 6, 1, 4, 4, 4, 1, 1, 6, 6, 6, 1, 1, 1]
    script = Kinds(faces, attribute=["1,2,1", "1,6,6"])
    one_turn(g, script)
    assert any(r.reason.startswith("Bron attacks") for r in rolls(script))
    [death] = events(script, "death")
    assert death.data["lost_attack"] is False


# --- c8: health checks --------------------------------------------------------------------------
def test_c8_a_d10_at_or_under_total_damage_kills():
    g = game("Ajax:3", "Bron:3, Cato:3")
    face_off(g)
    g.state.get("B1").damage = 2  # from an earlier turn
    # Ajax combat 6 vs Bron defence 1: one hit (total 3), then a health check of exactly 3
    faces = [9, 5, 1, 6, 6, 1, 2, 1, 1, 4, 4, 4, 6, 1, 1, 1, 1, 1, 3]
    script = Kinds(faces, attribute=["1,6,6", "1,2,1"], target=["B1", "hold"])
    one_turn(g, script)
    [check] = events(script, "health")
    assert check.data == {"model": "Bron", "side": "B", "roll": 3, "damage": 3, "survives": False}
    assert events(script, "death")[0].data["phase"] == "health"
    assert g.state.get("B1").dead


def test_c8_a_roll_over_total_damage_survives():
    g = game()
    face_off(g)
    faces = [9, 5, 6, 6, 1, 2, 1, 1, 6, 1, 1, 1, 1, 1, 4]
    script = Kinds(faces, attribute=["1,6,6", "1,2,1"], target=["B1", "hold"])
    one_turn(g, script)
    [check] = events(script, "health")
    assert check.data["roll"] == 4 and check.data["damage"] == 1 and check.data["survives"]
    assert not g.state.get("B1").dead


def test_c8_only_models_damaged_this_turn_check():
    g = game()
    face_off(g)
    g.state.get("A1").damage = 5  # old wounds: no check unless hurt again this turn
    script = Kinds([9, 5], target=["hold", "hold"])
    script.fallback_face = lambda d: 2
    one_turn(g, script)
    assert not events(script, "health")
    assert not any("health check" in r.reason for r in rolls(script))


def test_c8_checks_use_a_d10_and_cite_c8():
    g = game()
    face_off(g)
    script = Kinds([9, 5, 6, 6, 1, 2, 1, 1, 6, 6, 6, 6, 6, 6], attribute=["1,6,6", "1,2,1"])
    one_turn(g, script)
    [check] = [r for r in rolls(script) if "health check" in r.reason]
    assert check.dice == (10,) and check.rules == ("c8",)


# --- c9, health option and victory --------------------------------------------------------------
def test_c9_no_ranged_attacks_unless_a_team_gives_one():
    reference = RULESET.reference()
    assert "none unless a team file gives a model a ranged attack" in reference.text_of("c9")
    g = game()
    script = one_turn(g, Script([9, 5], fallback_face=lambda d: 6))
    assert not [r for r in script.requests if isinstance(r, Choice) and r.kind == "target"]


def test_health_option_and_per_model_health():
    g = game("Ajax:3:4, Brin:5", "Bron", health=7)
    assert [w.health for w in g.state.warriors] == [4, 7, 7]
    assert g.state_json()["sides"]["A"]["models"][0]["health"] == 4


def test_last_side_standing_wins():
    g = game(health=1)
    face_off(g)
    script = Kinds([9, 5, 6, 6, 1, 2, 1, 1, 6], attribute=["1,6,6", "1,2,1"])
    script.run(g)
    assert script.outcome.winner == "A"
    assert "every model of Swords has fallen" in script.outcome.reason
    assert script.outcome.data["fallen"] == [{"model": "Bron", "side": "B", "turn": 1}]


def test_max_turns_cap_decides_by_models_then_health():
    g = game("Ajax:3, Brin:3", "Bron:3", max_turns=2)
    script = Kinds(([9, 5, 1] + [1] * 9) * 2)  # d6s of 1: nobody is ever hurt
    script.run(g)
    assert script.outcome.winner == "A" and "2-turn cap" in script.outcome.reason
    assert sum(isinstance(r, TurnStart) for r in script.requests) == 2
    even = game(max_turns=1)
    script = Kinds([9, 5] + [1] * 6)
    script.run(even)
    assert script.outcome.winner is None and "draw" in script.outcome.reason


def test_events_are_facts_a_report_can_read():
    g = game()
    face_off(g)
    script = one_turn(g, Script([9, 5], fallback_face=lambda d: 5))
    assert all(isinstance(e, Event) and e.rules for e in script.events)
    assert {"order", "attribute", "stand", "attack"} <= set(script.kinds())
    assert all(
        set(r.rules) <= {f"c{i}" for i in range(1, 10)}
        for r in script.requests
        if hasattr(r, "rules")
    )


def test_c6_target_options_say_what_beats_the_defence():
    g = game("Ajax:3", "Bron:3, Cato:3")
    face_off(g, "A1", "B1")
    g.state.get("B2").pos = Point(12.75, 11.62)  # beside Ajax, touching him
    # Ajax combat 5; Bron defence 6 (unbeatable on a d6), Cato defence 4
    faces = [9, 5, 1, 5, 5, 1, 6, 1, 1, 4, 1, 1]
    script = Kinds(faces, attribute=["1,5,5", "1,1,6", "1,1,4"])
    choice = script.run(g, until=lambda r: isinstance(r, Choice) and r.kind == "target")
    labels = {o.key: o.label for o in choice.options}
    assert labels["B1"] == (
        "Attack Bron (defence 6: no d6 can beat it; 10 health left; a hit 0%, kills 0%)"
    )
    # no five hits take ten health, but each hit makes the d10 health check one likelier to
    # fail (c8): kills = the expected hits / 10 = 5/3 / 10
    assert labels["B2"] == "Attack Cato (defence 4: 5-6 hit; 10 health left; a hit 87%, kills 17%)"
    assert choice.default == "B2"


def test_c5_a_move_never_reads_longer_than_the_die():
    """Positions are kept to 0.01", so a full diagonal move can measure 5.01" for a 5: the log
    says 5", as a player with a ruler would."""
    g = game()
    script = Kinds([9, 5, 5, 2, 1], attribute=["5,2,1"], move=["15.54,5.54"])
    one_turn(g, script)
    [move] = [e for e in events(script, "move") if e.data["model"] == "Ajax"]
    assert move.data["inches"] == 5.01 and 'moves 5" to 15.54,5.54' in move.text


def test_c5_standing_still_is_its_own_kind():
    g = game()
    face_off(g)
    script = one_turn(g, Kinds([9, 5]))
    stands = events(script, "stand")
    assert {e.data["model"] for e in stands} == {"Ajax", "Bron"}
    assert all(e.data["inches"] == 0 and "stands fast" in e.text for e in stands)
