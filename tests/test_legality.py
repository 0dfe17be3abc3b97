"""One legality test per question: `Choice.legal(key)` says why a key is refused (None when
legal), and the menu's disabled reasons, the runner's refusals, `--choices`, the bot's
suggestion and the labels all agree with it, over random positions of every ruleset."""

from __future__ import annotations

import random

import pytest
from wargame_cli.rulesets.mobs_and_morale import teams as mobs_teams
from wargame_cli.rulesets.mobs_and_morale.actions import other_action
from wargame_cli.rulesets.mobs_and_morale.rules import new_battle
from wargame_cli.rulesets.mobs_and_morale.ruleset import RULESET as MOBS

from wargame_cli import registry
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.dice import RngDice
from wargame_cli.engine.requests import Choice, Option, Outcome, menu_or
from wargame_cli.engine.runner import Runner
from wargame_cli.engine.scripted import ChoiceScript, ScriptedController
from wargame_cli.errors import BadInput
from wargame_cli.ruleset import SIDES, resolve_options
from wargame_cli.tabletop.geometry import Point
from wargame_cli.testing.random_play import (
    Disagreement,
    RandomController,
    Tally,
    check_menu,
    new_session,
    random_team,
    ruleset_ids,
)

IDS = ruleset_ids()

MENU = (Option("a", "Apple"), Option("b", "Banana", disabled="out of bananas"), Option("c", "C"))


def test_a_menu_alone_judges_by_its_options():
    choice = Choice("A", "Which?", MENU, "a")
    assert choice.legal("a") is None and choice.legal("c") is None
    assert choice.legal("b") == "out of bananas"
    assert choice.legal("z") == "'z' is not one of the options; the open keys are a, c"


def test_a_judge_alone_decides_and_gives_the_menu_its_reasons():
    built = []

    def menu():
        built.append(1)
        return (Option("1,1", "Here"), Option("2,2", "There"), Option("5,5", "Far"))

    def judge(key):
        return None if key in ("1,1", "2,2", "3,3") else f"{key} is out of reach"

    choice = Choice("A", "Where?", menu, "2,2", free_hint="x,y", judge=judge)
    assert choice.legal("3,3") is None and choice.legal("9,9") == "9,9 is out of reach"
    assert built == []  # judged without the menu
    assert [o.disabled for o in choice.options] == [None, None, "5,5 is out of reach"]
    assert choice.legal("5,5") == "5,5 is out of reach"


def test_a_typed_key_that_names_a_disabled_option_is_refused_with_its_reason():
    """`menu_or`: typing the key of a disabled entry does not get round it."""
    choice = Choice(
        "A", "Which?", MENU, "a", free_hint="say it", judge=menu_or(MENU, lambda t: None)
    )
    assert choice.legal("b") == "out of bananas"
    assert choice.legal("a pear") is None and choice.legal("c") is None
    assert check_menu(choice) == MENU


def test_typed_answers_need_a_judge():
    with pytest.raises(TypeError, match="needs a judge"):
        Choice("A", "Where?", MENU, "a", free_hint="x,y")


def test_the_menu_check_has_teeth():
    """A describe that labels otherwise than the menu, and a bot's key the menu refuses,
    are caught."""
    wrong = Choice("A", "Which?", MENU, "a", judge=menu_or(MENU, str), describe=str.upper)
    with pytest.raises(Disagreement, match="describe"):
        check_menu(wrong)
    with pytest.raises(Disagreement, match="bot's 'b' is refused"):
        check_menu(Choice("A", "Which?", MENU, "b"))


def _action(a: str, b: str, where: dict[str, tuple[float, float]]) -> Choice:
    """Mobs and Morale's "which action?" for the first creature named in `where`."""
    options = resolve_options(
        MOBS.options, {"table": {"name": "open", "width": 36, "height": 24, "terrain": []}}
    )
    sides = {"A": mobs_teams.parse_inline(a, options), "B": mobs_teams.parse_inline(b, options)}
    battle = new_battle({"A": "Party", "B": "Tribe"}, sides, options)
    for name, (x, y) in where.items():
        battle.creatures[name].pos = Point(x, y)
    actor = battle.creatures[next(iter(where))]
    for n, c in enumerate(c for c in battle.creatures.values() if c.pos is None):
        c.pos = Point(2 + 2 * n, 23 if c.side == "B" else 1)
    return next(other_action(battle, [actor], actor.id))


def test_mobs_shove_and_rally_are_refused_as_the_menu_shows_them():
    """With no enemy in reach and no friendly mob, "shove" and "rally" are disabled, and
    typing them is refused with the same reason (the typed check once took both)."""
    choice = _action("Brakka=Warrior", "Ugrak=Chieftain", {"Brakka": (10, 5), "Ugrak": (30, 20)})
    shown = {o.key: o.disabled for o in choice.options}
    assert shown["shove"] == "no enemy within reach" == choice.legal("shove")
    assert shown["rally"] == "no friendly mob on the table" == choice.legal("rally")
    assert choice.legal("bellows a war cry") is None  # any other words are an action
    with pytest.raises(BadInput, match="no enemy within reach"):
        ScriptedController(ChoiceScript(["shove"]), BotController()).choose(choice, None)


def test_mobs_shove_in_reach_is_legal():
    choice = _action(
        "Brakka=Warrior", "Ugrak=Chieftain", {"Brakka": (10, 10), "Ugrak": (10, 11.05)}
    )
    assert choice.legal("shove") is None
    assert choice.label_of("shove") == "Shove Ugrak"


@pytest.mark.parametrize("ruleset_id", IDS)
def test_random_positions_judge_every_key_as_the_menu_shows_it(ruleset_id):
    """Over random legal play (random teams too), every menu is checked against `legal`
    and its labels, every disabled key tried is refused by the runner with the menu's
    reason, and every typed answer is judged as `legal` judges it."""
    tally = Tally()
    for seed in range(1, 5):
        controller = RandomController(random.Random(seed), tally, typed=0.3, disabled=0.3)
        session = new_session(ruleset_id, seed, controller, random_teams=seed % 2 == 0)
        session.runner.run(stop_after_turn=3)
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    for seed in range(4):
        for side in SIDES:
            random_team(ruleset, side, options, random.Random(f"{seed}{side}"), tally)
    assert tally.choices > 8
    if ruleset_id != "tug-of-wargods":  # its battle asks nothing: only its teams do
        assert sum(tally.refusals.values()) > 3, tally


def test_a_disabled_key_is_refused_by_the_runner_with_the_menus_reason():
    class Toy:
        def play(self):
            key = yield Choice("A", "Which?", MENU, "a")
            return Outcome(None, key)

        def state_json(self):
            return {}

    told = []

    class Twice:
        by = "human"
        keys = ["b", "c"]

        def choose(self, choice, game):
            return self.keys.pop(0)

        def refused(self, choice, key, reason):
            told.append((key, reason))

    runner = Runner(Toy(), RngDice(1), {"A": Twice()})
    runner.run()
    assert told == [("b", "out of bananas")]
    assert runner.outcome.reason == "c"
