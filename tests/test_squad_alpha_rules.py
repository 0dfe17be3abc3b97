"""Super Toy Soldier Squad Alpha, rule point by rule point (b1-b25, numbered as in
shared/rules-reading.md). Positions are drawn: one character per inch, side A's miniatures are
digits (1 = A1), side B's letters (a = B1); '#' blocking, '+' hard cover, '~' soft cover."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest
from wargame_cli.rulesets.squad_alpha import odds
from wargame_cli.rulesets.squad_alpha.activation import action_choice, activate
from wargame_cli.rulesets.squad_alpha.deployment import deploy, legal_spots, spot_problem
from wargame_cli.rulesets.squad_alpha.rules import SquadGame
from wargame_cli.rulesets.squad_alpha.ruleset import RULESET
from wargame_cli.rulesets.squad_alpha.state import GameState, new_state
from wargame_cli.rulesets.squad_alpha.teams import Soldier
from wargame_cli.rulesets.squad_alpha.turn import attribute, decide_by_survivors, initiative, steps

from tests.helpers import Script
from wargame_cli.engine.requests import Choice, Event, Roll, TurnStart
from wargame_cli.ruleset import resolve_options
from wargame_cli.tabletop.drawing import from_drawing
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.placement import cell_centres
from wargame_cli.wording import percent

OPEN = """
........
........
........
........
........
........
"""


def soldiers(spec: str) -> list[Soldier]:
    """`"e4 r2 c1"`: training initial and rating, named after their position."""
    out = []
    for i, word in enumerate(spec.split()):
        training = {"c": "conscript", "r": "regular", "e": "elite"}[word[0]]
        out.append(Soldier(f"{word[0].upper()}{i + 1}", training, int(word[1:])))
    return out


def make_state(
    drawing: str = OPEN, a: str = "e4 r1", b: str = "e4 r1", **options: Any
) -> GameState:
    """A battle in progress: squads `a` and `b` standing where the drawing puts them."""
    table, at = from_drawing(drawing)
    opts = resolve_options(RULESET.options, {**options, "table": table.to_data()})
    state = new_state({"A": "Reds", "B": "Blues"}, {"A": soldiers(a), "B": soldiers(b)}, opts)
    for char, point in at.items():
        mini_id = f"A{char}" if char.isdigit() else f"B{ord(char) - ord('a') + 1}"
        state.mini(mini_id).pos = point
    state.phase, state.turn, state.initiative = "battle", 1, "A"
    return state


class Sub:
    """Runs a part of the rules (a generator) as if it were a whole game."""

    def __init__(self, gen: Generator) -> None:
        self.gen = gen

    def play(self) -> Generator:
        return self.gen


def act(state: GameState, mini_id: str, step: int, faces=(), choices=()) -> Script:
    state.step = step
    script = Script(faces=faces, choices=choices)
    script.run(Sub(activate(state, state.mini(mini_id))))
    return script


def rolls(script: Script) -> list[Roll]:
    return [r for r in script.requests if isinstance(r, Roll)]


def asked(script: Script) -> list[Choice]:
    return [r for r in script.requests if isinstance(r, Choice)]


def kinds(script: Script) -> list[str]:
    return [e.kind for e in script.events]


# -- squads (b1-b3) ---------------------------------------------------------------------------

OPTS = resolve_options(RULESET.options, None)
FIVE = "Rook elite 4, Hawk e 2, Dusty r 1, Tiny c 0, Kid c 0"


def test_b1_five_to_ten_miniatures():
    assert len(RULESET.parse_team(FIVE, OPTS)["miniatures"]) == 5
    assert len(RULESET.parse_team("Boss e 5, 9x Grunt c 0", OPTS)["miniatures"]) == 10
    with pytest.raises(Exception, match=r"at least 5 miniatures, not 4 \(b1\)"):
        RULESET.parse_team("Rook e 4, Hawk e 2, Dusty r 1, Tiny c 0", OPTS)
    with pytest.raises(Exception, match=r"at most 10 miniatures, not 11 \(b1\)"):
        RULESET.parse_team("Boss e 5, 10x Grunt c 0", OPTS)


def test_b2_training_levels_and_rating_range():
    team = RULESET.parse_team("Rook:Elite:4, Hawk:reg:2, Dusty r 1, Tiny con 0, Kid c 0", OPTS)
    assert [m["training"] for m in team["miniatures"]] == [
        "elite",
        "regular",
        "regular",
        "conscript",
        "conscript",
    ]
    with pytest.raises(Exception, match="not a training level"):
        RULESET.parse_team("Rook veteran 4, Hawk e 2, Dusty r 1, Tiny c 0, Kid c 0", OPTS)
    with pytest.raises(Exception, match=r"rating 11 is outside 0-10 \(b2\)"):
        RULESET.parse_team("Rook e 11, Hawk e 2, Dusty r 1, Tiny c 0, Kid c 0", OPTS)
    wide = resolve_options(RULESET.options, ["rating_max=12"])
    assert RULESET.parse_team("Rook e 11, Hawk e 2, Dusty r 1, Tiny c 0, Kid c 0", wide)


def test_b3_exactly_one_leader_with_the_strictly_highest_rating():
    with pytest.raises(Exception, match=r"Rook and Hawk share the highest command rating 4"):
        RULESET.parse_team("Rook e 4, Hawk e 4, Dusty r 1, Tiny c 0, Kid c 0", OPTS)
    state = make_state(a="r1 e3 c0")
    assert state.squads["A"].leader_id == "A2"


# -- deployment (b4, b5) ----------------------------------------------------------------------


def undeployed(drawing: str = OPEN, **options: Any) -> GameState:
    state = make_state(drawing, **options)
    for m in state.all_minis():
        m.pos = None
    state.phase, state.turn, state.initiative = "deployment", 0, None
    return state


def test_b4_the_roll_off_winner_deploys_first_and_ties_roll_again():
    state = undeployed()
    script = Script(faces=[3, 3, 2, 5])
    script.run(Sub(deploy(state)))
    assert state.deploys_first == "B"
    placed = [c for c in asked(script) if c.kind == "deploy" and c.free_hint]
    assert [c.side for c in placed] == ["B", "A", "B", "A"]
    assert "tie at 3" in script.events[0].text


def test_b5_never_deploy_in_sight_of_an_enemy_already_placed():
    drawing = """
        ....#...
        ....#...
        ....#...
        ....#...
        ....#...
        ....#...
        """
    state = undeployed(drawing)
    state.mini("B1").pos = Point(1.5, 2.5)
    spots, level = legal_spots(state, state.mini("A1"))
    assert level == "hidden" and spots
    assert all(p.x > 5 for p in spots)  # only behind the wall
    reason = spot_problem(state, state.mini("A1"), Point(2.5, 4.5), level)
    assert reason is not None and "can see" in reason and "(b5)" in reason
    assert spot_problem(state, state.mini("A1"), Point(6.5, 4.5), level) is None


def test_b5_the_offered_spots_are_legal_and_typed_ones_are_checked():
    state = undeployed("\n".join(["........"] * 10))
    state.mini("B1").pos = Point(1.5, 1.5)
    state.mini("B2").pos = Point(6.5, 8.5)
    seen: list[Choice] = []

    def typed(choice: Choice) -> str:
        seen.append(choice)
        assert "can see" in choice.legal("2.5,8.5")  # in sight, beyond 6" of A's edge
        assert f"overlaps {state.mini('B1').name} (B1)" in choice.legal("1.6,1.6")
        assert "not a position" in choice.legal("here")
        assert choice.legal("3.25,2.75") is None  # any legal spot may be typed
        return "3.25,2.75"

    # an open table, every cell in sight: the default fallback offers cells near A's edge
    script = Script(choices=["A1", typed])
    script.run(Sub(_place(state, "A")))
    assert "deploy-fallback" in kinds(script)
    for option in seen[0].options:
        assert Point.parse(option.key).y <= 6
        assert seen[0].legal(option.key) is None
    assert state.mini("A1").pos == Point(3.25, 2.75)


def _place(state: GameState, side: str) -> Generator:
    from wargame_cli.rulesets.squad_alpha.deployment import place_one

    yield from place_one(state, side)


def test_b5_deployment_fallback_within_six_inches_of_own_edge():
    state = undeployed()
    state.mini("B1").pos = Point(4.5, 4.5)
    spots, level = legal_spots(state, state.mini("A1"))
    assert level == "band"
    assert all(p.y <= 6 for p in spots)


def test_b5_the_fallback_never_deploys_in_base_contact_with_an_enemy():
    """b5, deploy_fallback (issue 12, item 10): the band near one's own edge and the last
    resort (any free spot) still refuse spots touching an enemy: no melee on deployment."""
    state = undeployed()
    state.mini("B1").pos = Point(4.5, 1.5)  # standing inside A's fallback band
    spots, level = legal_spots(state, state.mini("A1"))
    assert level == "band" and spots
    touching = [p for p in cell_centres(state.table) if p.distance(Point(4.5, 1.5)) < 1.06]
    assert touching and not set(touching) & set(spots)
    for level in ("band", "anywhere"):
        reason = spot_problem(state, state.mini("A1"), Point(5.5, 1.5), level)
        assert reason is not None and "base contact with" in reason and "(b5)" in reason
    assert spot_problem(state, state.mini("A1"), Point(6.5, 1.5), "anywhere") is None


def test_b5_the_larger_squad_keeps_placing():
    state = make_state(a="e4 r1 c0", b="e4 r1")
    for m in state.all_minis():
        m.pos = None
    script = Script(faces=[6, 1])  # A deploys first
    script.run(Sub(deploy(state)))
    placed = [e.data["id"] for e in script.events if e.kind == "deploy"]
    assert [p[0] for p in placed] == ["A", "B", "A", "B", "A"]
    assert state.phase == "battle"


# -- initiative, dice, attribution (b6-b10) --------------------------------------------------


def test_b6_initiative_adds_the_leaders_current_rating():
    state = make_state(a="e4 r1", b="e2 r1")
    script = Script(faces=[2, 3])  # A: 2+4=6, B: 3+2=5
    script.run(Sub(initiative(state)))
    assert state.initiative == "A"
    assert "2+4=6" in script.events[-1].text and "3+2=5" in script.events[-1].text


def test_b24_five_casualties_against_a_rating_of_4_give_minus_1():
    """The seed's second example: the initiative roll gets -1 and step 2 needs a 1."""
    state = make_state(
        """
        ........
        .1......
        ........
        ........
        .....a..
        ........
        """,
        a="e4 c0 c0 c0 c0 c0",
        b="e4 r1",
    )
    for mini_id in ("A2", "A3", "A4", "A5", "A6"):
        state.mini(mini_id).alive = False
    assert state.current_rating("A") == -1 and state.modifier("A") == -1
    script = Script(faces=[5, 1])  # A: 5-1=4, B: 1+4=5
    script.run(Sub(initiative(state)))
    assert state.initiative == "B"
    assert "5-1=4" in script.events[-1].text
    # step 2: a 2 fails, only a 1 works
    assert not odds.test_passes((2, 2, 2), 2, -1)
    assert odds.test_passes((2, 1, 2), 2, -1)
    missed = act(state, "A1", 2, faces=[2, 2, 2], choices=["shoot:B1"])
    assert "E1 activates at step 2 (elite, 3 dice, needs 1 or less, morale -1)" in (
        missed.events[0].text
    )
    assert state.mini("B1").alive


def test_b7_one_die_per_living_miniature():
    state = make_state(
        """
        ........
        .1.2.3..
        ........
        ........
        .a.b....
        ........
        """,
        a="e4 r1 c0",
        b="e4 r1",
    )
    state.mini("A2").alive = False
    script = Script(faces=[4, 4, 2, 3, 6, 1])
    from wargame_cli.rulesets.squad_alpha.turn import roll_and_attribute

    script.run(Sub(roll_and_attribute(state)))
    dice = {r.side: len(r.dice) for r in rolls(script)}
    assert dice == {"A": 2, "B": 2}
    assert state.mini("A2").die is None  # b22: no die for a casualty


def test_b8_the_side_without_initiative_attributes_first_and_is_seen():
    state = make_state(
        """
        ........
        .1.2....
        ........
        ........
        .a.b....
        ........
        """
    )
    state.initiative = "A"
    script = Script(faces=[2, 5, 3, 4])
    from wargame_cli.rulesets.squad_alpha.turn import roll_and_attribute

    script.run(Sub(roll_and_attribute(state)))
    assert [r.side for r in rolls(script)] == ["B", "A"]
    choices = asked(script)
    assert [c.side for c in choices] == ["B", "A"]
    assert "they hold" in choices[1].prompt and "E1 2" in choices[1].prompt
    # the side attributing first sees what the other side rolled (both roll openly)
    assert choices[0].prompt.endswith("attribute your dice 2 5; Reds rolled 3 4")


SPOTS = """
........
.1.2.3..
........
........
.a.b.c..
........
"""


def test_b8_attribution_by_hand_one_miniature_at_a_time():
    state = make_state(SPOTS, a="e4 r1 c0", b="e4 r1 c0")
    state.initiative = "B"
    script = Script(choices=["by_hand", "6", "1"])
    script.run(Sub(attribute(state, "A", [1, 3, 6])))
    assert {m.id: m.die for m in state.squads["A"].minis} == {"A1": 6, "A2": 1, "A3": 3}
    assert script.events[-1].data == {"side": "A", "dice": {"A1": 6, "A2": 1, "A3": 3}}


def test_b8_the_suggestion_gives_low_dice_to_the_elite():
    state = make_state(SPOTS.replace("3", "."), a="e4 c1", b="e4 r1 c0")
    script = Script()
    script.run(Sub(attribute(state, "A", [1, 6])))
    assert state.mini("A1").die == 1 and state.mini("A2").die == 6


def test_b10_steps_in_order_initiative_side_first():
    state = make_state(
        """
        ........
        .1.2....
        ........
        ....#...
        .a.b#...
        ........
        """
    )
    state.initiative = "B"
    for mini_id, die in (("A1", 3), ("A2", 1), ("B1", 3), ("B2", 5)):
        state.mini(mini_id).die = die
    script = Script(faces=[6, 6, 6, 6, 6, 6, 6, 6, 6, 6], choices=["move"] * 4)
    script.run(Sub(steps(state)))
    order = [e.data["id"] for e in script.events if e.kind == "activate"]
    assert order == ["A2", "B1", "A1", "B2"]
    assert all(m.die is None for m in state.all_minis())  # b21: dice cleared for a new turn
    # each step that someone holds opens with who acts, the initiative side first
    announced = [e for e in script.events if e.kind == "step"]
    assert [e.data["step"] for e in announced] == [1, 3, 5]
    assert announced[1].text == "Step 3: Blues (E1) first, then Reds (E1)"
    assert announced[1].data["order"] == [["B", ["B1"]], ["A", ["A1"]]]
    assert announced[0].text == "Step 1: Reds (R2)"


def test_b10_the_owner_picks_the_order_within_a_step():
    state = make_state(
        """
        ........
        .1.2....
        ........
        ....#...
        .a..#...
        ........
        """
    )
    state.mini("A1").die = state.mini("A2").die = 4
    state.mini("B1").die = 6
    script = Script(faces=[6] * 10, choices=["A2", "move", "move", "move"])
    script.run(Sub(steps(state)))
    order = [e.data["id"] for e in script.events if e.kind == "activate"]
    assert order[:2] == ["A2", "A1"]
    assert asked(script)[0].kind == "order"


# -- action tests (b11-b14, b25) --------------------------------------------------------------

DUEL = """
........
.1......
........
........
......a.
........
"""


def test_b12_the_elite_at_step_2_hits_on_a_2_or_less():
    """The seed's first example: three dice, any 2 or less hits."""
    state = make_state(DUEL)
    script = act(state, "A1", 2, faces=[5, 2, 4], choices=["shoot:B1"])
    [test] = rolls(script)
    assert test.dice == (6, 6, 6)
    assert "needs 2 or less" in test.reason
    assert kinds(script) == ["activate", "shot", "test", "hit", "kill", "rating"]
    assert not state.mini("B1").alive


def test_b12_no_die_at_or_under_the_step_fails():
    state = make_state(DUEL)
    script = act(state, "A1", 2, faces=[3, 4, 5], choices=["shoot:B1"])
    assert kinds(script) == ["activate", "shot", "test"]
    assert state.mini("B1").alive


@pytest.mark.parametrize(("training", "dice"), [("c", 1), ("r", 2), ("e", 3)])
def test_b12_one_two_or_three_dice_by_training(training, dice):
    state = make_state(DUEL, a=f"{training}4 c0")
    script = act(state, "A1", 3, faces=[6] * dice, choices=["move"])
    assert len(rolls(script)[0].dice) == dice


def test_b13_a_six_fails_even_at_step_6():
    assert not odds.die_activates(6, 6, 0)
    assert odds.die_activates(5, 6, 0)
    state = make_state(DUEL)
    script = act(state, "A1", 6, faces=[6, 6, 6], choices=["shoot:B1"])
    assert state.mini("B1").alive
    assert "needs 5 or less" in rolls(script)[0].reason  # shown as it is: a 6 never passes


def test_b13_only_a_sure_thing_shows_100_percent():
    """b13 (issue 12, item 10): an elite at step 6 passes 1 - (1/6)^3 = 99.5% of the time,
    and 6-6-6 still fails: the move option must not read "100%"."""
    assert percent(1 - (1 / 6) ** 3) == "99.5%"
    assert percent(1.0) == "100%" and percent(0.0) == "0%"
    assert percent(0.004) == "0.4%" and percent(0.5) == "50%"
    assert percent(0.99999) == ">99.9%"
    state = make_state(DUEL)
    state.step = 6
    labels = [o.label for o in action_choice(state, state.mini("A1")).options]
    assert "if the test passes: 99.5%)" in labels[0]
    assert not any("100%" in label for label in labels)


def test_b25_a_one_always_activates_whatever_the_modifier():
    assert odds.die_activates(1, 1, -5)
    assert odds.pass_chance(1, 2, -9) == pytest.approx(1 / 6)
    state = make_state(DUEL, a="e4 c0 c0 c0 c0 c0 c0 c0 c0 c0")
    for i in range(2, 11):
        state.mini(f"A{i}").alive = False
    assert state.modifier("A") == -5
    act(state, "A1", 1, faces=[4, 1, 6], choices=["shoot:B1"])
    assert not state.mini("B1").alive


def test_b11_b14_a_passed_move_goes_up_to_4_inches():
    state = make_state(DUEL)
    seen: list[Choice] = []

    def far(choice: Choice) -> str:
        seen.append(choice)
        assert choice.legal("6.5,4.5") is not None  # more than 4"
        return "5.5,4.5"

    script = act(state, "A1", 4, faces=[3, 6, 6], choices=["move", far])
    assert state.mini("A1").pos == Point(5.5, 4.5)
    assert seen[0].kind == "move" and seen[0].free_hint == "x,y"
    assert kinds(script)[-1] == "move"


def farmstead_state() -> GameState:
    """The default Farmstead table: Ghost (A1) just south of the Barn's east end, Cpt Vex
    (B1) east of the Barn; everyone else far away in the south-west."""
    opts = resolve_options(RULESET.options, None)
    state = new_state(
        {"A": "Commandos", "B": "Bravo Squad"},
        {"A": soldiers("e3 r1"), "B": soldiers("e5 r1")},
        opts,
    )
    state.mini("A1").name, state.mini("B1").name = "Ghost", "Cpt Vex"
    state.mini("A1").pos, state.mini("B1").pos = Point(20.35, 9.27), Point(23.33, 10.67)
    state.mini("A2").pos, state.mini("B2").pos = Point(1.5, 1.5), Point(1.5, 3.5)
    state.phase, state.turn, state.initiative = "battle", 1, "A"
    return state


def test_b14_b17_the_contact_spot_beside_the_barn_corner_is_offered():
    """b14, b17 (issue 12, items 9 and 10): beside the Barn corner the menu left out every
    contact spot with Cpt Vex; only a typed 23.5,9.66 gave the free melee. The contact
    option is offered, its label says how far the move goes, and taking it gives b17."""
    state = farmstead_state()
    seen: list[Choice] = []

    def contact(choice: Choice) -> str:
        seen.append(choice)
        return next(o.key for o in choice.options if o.label.startswith("Into contact"))

    script = act(state, "A1", 4, faces=[1, 6, 6, 1, 6, 6], choices=["move", contact])
    [where] = seen
    [label] = [o.label for o in where.options if o.label.startswith("Into contact")]
    assert label.startswith("Into contact with Cpt Vex, ") and '"' in label
    [melee] = [e for e in script.events if e.kind == "melee"]
    assert melee.data == {"id": "A1", "target": "B1", "free": True}  # the free attack (b17)
    assert not state.mini("B1").alive
    assert where.legal("23.5,9.66") is None


def test_b14_a_move_may_bend_around_blocking_terrain_within_4_inches():
    """b14 (issue 12, item 10): players measure around corners. 22.6,11, east of the Barn,
    is 2.8" away in a straight line across the Barn's corner and 3.6" walking round it; the
    far side of the Barn is out of reach, and the event says the inches walked."""
    state = farmstead_state()
    state.mini("B1").pos = Point(1.5, 20.5)
    script = act(state, "A1", 4, faces=[1, 6, 6], choices=["move", "22.6,11"])
    assert state.mini("A1").pos == Point(22.6, 11)
    [moved] = [e for e in script.events if e.kind == "move"]
    assert moved.text == 'Ghost moves 3.6" to 22.6,11'
    state = farmstead_state()
    seen: list[Choice] = []
    act(state, "A1", 4, faces=[1, 6, 6], choices=["move", lambda c: seen.append(c) or "20.35,9.27"])
    refusal = seen[0].legal("22.6,12.5")  # 3.9" straight, 5.1" round the corner
    assert refusal == (
        'the way to 22.6,12.5 passes through Barn (impassable), and no way around it is within 4"'
    )


def test_b14_move_destinations_say_what_the_spot_is_worth():
    state = make_state(
        """
        ........
        ..~~....
        ..~~....
        ........
        .1...#a.
        .....#..
        """
    )
    seen: list[Choice] = []
    act(state, "A1", 3, faces=[1, 6, 6], choices=["move", lambda c: seen.append(c) or "1.5,1.5"])
    [where] = seen
    labels = {o.label for o in where.options}
    assert any(
        label.startswith("Stay where it is (1.5,1.5): out of every enemy's sight")
        for label in labels
    )
    assert "Into soft 1 (soft cover), 2.0\" (2.35,3.35): out of every enemy's sight" in labels
    assert 'Toward E1, 4.0" (5.2,3.03): seen by E1' in labels
    # every label says how far the move goes: stopped by the wall, it is no "full move"
    assert "East, 3.05\" (as far as it can go) (4.55,1.5): out of every enemy's sight" in labels
    assert all(where.legal(o.key) is None for o in where.options)


def test_b14_a_failed_move_moves_nothing():
    state = make_state(DUEL)
    act(state, "A1", 2, faces=[3, 6, 4], choices=["move"])
    assert state.mini("A1").pos == Point(1.5, 4.5)


# -- shooting and cover (b15, b16) ------------------------------------------------------------


def test_b15_targets_out_of_sight_are_refused_with_the_reason():
    state = make_state(
        """
        ........
        ...#....
        .1.#..a.
        ...#....
        ........
        ........
        """
    )
    state.step = 3
    gen = activate(state, state.mini("A1"))
    next(gen)  # the activation event
    choice = gen.send(None)
    assert isinstance(choice, Choice)
    shoot = next(o for o in choice.options if o.key == "shoot:B1")
    assert shoot.disabled == "no line of sight: block 1 is in the way"
    assert choice.default == "move"


def test_b15_b16_each_target_shows_its_cover_and_the_chance_to_kill():
    state = make_state(
        """
        ........
        ...+b...
        .1....a.
        ........
        ........
        ........
        """,
        a="r4 c0",
    )
    state.step = 3
    gen = activate(state, state.mini("A1"))
    next(gen)
    choice = gen.send(None)
    labels = {o.key: o.label for o in choice.options}
    # a regular at step 3: 1 - (1/2)^2 = 75% to pass; behind hard cover a 3+ save leaves 1/3
    assert labels["move"] == 'Move (up to 4" if the test passes: 75%)'
    assert labels["shoot:B1"] == 'Shoot E1 (5.0", in the open; kills 75%)'
    assert labels["shoot:B2"] == 'Shoot R2 (3.2", hard 1: save 3+; kills 25%)'


@pytest.mark.parametrize(
    ("row", "face", "saved"),
    [
        ("...+a+..", 3, True),  # cover from fire: 3+
        ("...+a+..", 2, False),
        ("...~a~..", 5, True),  # cover from view: 5+
        ("...~a~..", 4, False),
    ],
)
def test_b16_cover_saves_from_the_firers_perspective(row, face, saved):
    state = make_state(f"........\n.1......\n........\n{row}\n........\n........")
    script = act(state, "A1", 3, faces=[1, 6, 6, face], choices=["shoot:B1"])
    save = rolls(script)[-1]
    assert save.side == "B" and "cover save" in save.reason
    assert state.mini("B1").alive is saved


def test_b16_no_save_in_the_open():
    state = make_state(DUEL)
    script = act(state, "A1", 3, faces=[1, 6, 6], choices=["shoot:B1"])
    assert len(rolls(script)) == 1
    assert not state.mini("B1").alive


# -- melee (b17-b20) --------------------------------------------------------------------------

CLOSE = """
........
........
.1..a...
........
........
........
"""


def test_b17_moving_into_contact_gives_a_free_melee_attack():
    state = make_state(CLOSE)
    script = act(state, "A1", 3, faces=[2, 6, 6, 3, 6, 6], choices=["move", "3.5,3.5"])
    assert kinds(script)[:5] == ["activate", "test", "move", "melee", "test"]
    assert script.events[3].data["free"] is True
    assert not state.mini("B1").alive  # b19: no save in melee


def test_b18_in_contact_a_miniature_must_fight():
    state = make_state(
        """
        ........
        ........
        .1a.....
        ........
        ........
        ........
        """
    )
    state.mini("B1").pos = Point(2.5, 3.5)  # bases touching
    script = act(state, "A1", 4, faces=[6, 6, 5])
    assert not asked(script)  # no move or shoot on offer
    assert kinds(script) == ["activate", "melee", "test"]
    assert "must fight (b18)" in script.events[1].text


def test_b18_with_two_enemies_in_contact_the_owner_picks():
    state = make_state(
        """
        ........
        ........
        .1......
        ........
        ........
        ........
        """,
        b="e4 r1",
    )
    state.mini("B1").pos, state.mini("B2").pos = Point(2.5, 3.5), Point(1.5, 2.5)
    script = act(state, "A1", 4, faces=[1, 6, 6], choices=["B2"])
    assert asked(script)[0].kind == "melee"
    assert not state.mini("B2").alive and state.mini("B1").alive


def test_b19_a_melee_success_kills_even_in_hard_cover():
    state = make_state(
        """
        ........
        ........
        .1+a+...
        ........
        ........
        ........
        """
    )
    state.mini("A1").pos, state.mini("B1").pos = Point(2.5, 3.5), Point(3.5, 3.5)
    script = act(state, "A1", 4, faces=[4, 6, 6])
    assert len(rolls(script)) == 1  # no save roll
    assert not state.mini("B1").alive


MELEE = """
........
........
........
........
.1......
........
"""


def test_b20_a_missed_shot_at_a_melee_lands_on_the_other_party():
    state = make_state(MELEE, a="e4 r1", b="e4 r1")
    state.mini("A2").pos, state.mini("B1").pos = Point(5.5, 3.5), Point(6.5, 3.5)
    script = act(state, "A1", 2, faces=[5, 5, 5], choices=["shoot:B1"])
    assert kinds(script)[-3:] == ["hit", "kill", "rating"]
    assert "scored on R2" in script.events[-3].text
    assert not state.mini("A2").alive and state.mini("B1").alive


def test_b20_the_miniature_taking_the_miss_still_saves_from_the_firer():
    state = make_state(MELEE, a="e4 r1", b="e4 r1")
    state.mini("A2").pos, state.mini("B1").pos = Point(5.5, 2.5), Point(6.5, 2.5)
    state.table = from_drawing("........\n........\n........\n...+....\n........\n........")[0]
    script = act(state, "A1", 2, faces=[5, 5, 5, 3], choices=["shoot:B1"])
    assert "R2's cover save" in rolls(script)[-1].reason
    assert state.mini("A2").alive


def test_b20_with_several_in_the_melee_the_shooter_picks():
    state = make_state(MELEE, a="e4 r1 r1", b="e4 r1")
    state.mini("B1").pos = Point(6.5, 3.5)
    state.mini("A2").pos, state.mini("A3").pos = Point(5.5, 3.5), Point(7.5, 3.5)
    script = act(state, "A1", 2, faces=[5, 5, 5], choices=["shoot:B1", "A3"])
    assert asked(script)[-1].kind == "miss"
    assert not state.mini("A3").alive and state.mini("A2").alive


def test_b20_option_random_lets_a_die_pick():
    state = make_state(MELEE, a="e4 r1 r1", b="e4 r1", melee_miss="random")
    state.mini("B1").pos = Point(6.5, 3.5)
    state.mini("A2").pos, state.mini("A3").pos = Point(5.5, 3.5), Point(7.5, 3.5)
    script = act(state, "A1", 2, faces=[5, 5, 5, 1], choices=["shoot:B1"])
    assert rolls(script)[-1].dice == (2,)
    assert not state.mini("A2").alive and state.mini("A3").alive


# -- casualties and morale (b21-b24) ----------------------------------------------------------


def test_b22_a_casualty_never_acts():
    state = make_state(
        """
        ........
        .1.2....
        ........
        ....#...
        .a..#...
        ........
        """
    )
    state.mini("A1").die, state.mini("A2").die, state.mini("B1").die = 2, 4, 3
    state.mini("A2").alive = False
    script = Script(faces=[6] * 10, choices=["move"] * 4)
    script.run(Sub(steps(state)))
    assert [e.data["id"] for e in script.events if e.kind == "activate"] == ["A1", "B1"]


def test_b23_each_casualty_lowers_the_leaders_rating():
    state = make_state(DUEL, a="e4 c0", b="r3 c0 c0")
    state.mini("B2").pos, state.mini("B3").pos = Point(6.5, 1.5), Point(4.5, 0.5)
    act(state, "A1", 3, faces=[1, 6, 6], choices=["shoot:B2"])
    assert state.current_rating("B") == 2
    script = act(state, "A1", 3, faces=[1, 6, 6], choices=["shoot:B3"])
    assert state.current_rating("B") == 1
    assert script.events[-1].data == {"side": "B", "leader": "B1", "rating": 1}


def test_b23_dead_leader_keeps_counting_or_a_successor_takes_over():
    for option, expected in (("keep", 4 - 1), ("successor", 2 - 1)):
        state = make_state(DUEL, a="e4 r2 c0", dead_leader=option)
        state.mini("A1").alive = False
        assert state.current_rating("A") == expected


def test_b21_after_step_6_a_new_turn_with_new_initiative_and_dice():
    sealed = "\n".join(["........"] * 4 + ["########"] * 2 + ["........"] * 4)
    state = make_state(sealed)
    for m in state.all_minis():
        m.pos = None
    state.phase, state.turn = "deployment", 0
    game = SquadGame(state)
    faces = iter([6, 5] * 1000)
    script = Script(fallback_face=lambda d: min(d, next(faces)))
    script.run(game, until=lambda r: isinstance(r, TurnStart) and r.number == 3)
    turns = [r.number for r in script.requests if isinstance(r, TurnStart)]
    assert turns == [1, 2]
    reasons = [r.reason for r in rolls(script)]
    assert sum("Initiative roll-off, turn" in r for r in reasons) >= 2
    assert any("dice for turn 2" in r for r in reasons)


# -- victory ----------------------------------------------------------------------------------


def test_victory_when_a_side_has_no_miniatures_left():
    state = make_state(DUEL, a="e4 r1", b="e4")
    state.mini("A2").pos = Point(2.5, 0.5)
    state.mini("A1").die, state.mini("B1").die = 2, 5
    state.initiative = "A"
    script = Script(faces=[1, 6, 6], choices=["shoot:B1"])
    outcome = []

    def wrap() -> Generator:
        outcome.append((yield from steps(state)))

    script.run(Sub(wrap()))
    assert outcome[0].winner == "A" and "Blues has no miniatures left" in outcome[0].reason


def test_max_turns_decides_by_survivors():
    state = make_state(DUEL, a="e4 r1", b="e4 r1", max_turns=3)
    state.mini("B2").alive = False
    outcome = decide_by_survivors(state)
    assert outcome.winner == "A" and "(2 to 1)" in outcome.reason
    state.mini("A2").alive = False
    assert decide_by_survivors(state).winner is None


def test_a_whole_game_ends_with_an_outcome_and_events_cite_rules():
    from wargame_cli.ruleset import Setup

    opts = resolve_options(RULESET.options, ["max_turns=4"])
    teams = {s: RULESET.default_team(s, opts)[0] for s in ("A", "B")}
    game = RULESET.new_game(Setup({"A": "Reds", "B": "Blues"}, teams), opts)
    faces = iter([3, 5, 2, 4, 1, 6] * 2000)
    script = Script(fallback_face=lambda d: min(next(faces), d))
    script.run(game)
    assert script.outcome is not None
    for request in script.requests:
        if isinstance(request, (Roll, Choice)):
            assert request.rules, request
        if isinstance(request, Event):
            assert request.rules or request.kind == "deployed", request
