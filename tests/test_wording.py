"""Wording (issue 12, item 15): no "1 units", "Knights's", "combat 1 dice", "tries to
bellows", "Side A: pick a team for side A" or "Swords wins"; a refused `--choices` key says
why; `wargame rules ID POINT` shows the reading chosen for the point."""

from __future__ import annotations

import json

import pytest
from wargame_cli.rulesets.battle_of_ixu.attribution import label
from wargame_cli.rulesets.battle_of_ixu.state import Dice
from wargame_cli.rulesets.mobs_and_morale.actions import other_action

from tests.cli_helpers import one_error_line
from tests.test_mobs_and_morale_rules import battle as mobs_battle
from tests.test_mobs_and_morale_rules import place as mobs_place
from tests.test_mobs_and_morale_rules import run as mobs_run
from tests.test_seeds_of_wars_rules import kinds, make, melee, place
from wargame_cli.engine.requests import Choice
from wargame_cli.registry import get
from wargame_cli.ruleset import resolve_options
from wargame_cli.wording import plural, possessive, victory

RULESETS = ["tug-of-wargods", "squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale"]


def test_plural_possessive_and_victory():
    assert plural(1, "unit") == "1 unit" and plural(2, "unit") == "2 units"
    assert plural(1, "die", "dice") == "1 die" and plural(3, "die", "dice") == "3 dice"
    assert possessive("A1 Knights") == "A1 Knights'" and possessive("Ann") == "Ann's"
    assert victory("Swords") == "Victory to Swords"


def test_d13_a_retreat_names_the_knights_attack_without_s_apostrophe_s():
    battle = place(make("Knights", "Spearmen"), A1="b3", B1="b3")
    script = melee(battle, [15, 1], ["A1>B1", "retreat"])
    [retreat] = kinds(script, "retreat")
    assert "A1 Knights' attack is lost" in retreat.text


def test_c2_an_attribution_with_one_combat_die_says_die():
    shown = label([5, 1, 3], Dice(movement=5, combat=1, defence=3))
    assert "combat 1 die," in shown and "dice" not in shown


def test_e9_a_typed_action_is_quoted_not_conjugated():
    b = mobs_battle(a="Brakka=Warrior", b="Ugrak=Chieftain")
    mobs_place(b, Brakka=(10, 10), Ugrak=(10, 11.05))
    script = mobs_run(
        other_action(b, [b.creatures["Brakka"]], "Brakka"),
        choices=["bellows a war cry", "fails"],
    )
    ruling = [r for r in script.requests if isinstance(r, Choice)][1]
    assert ruling.prompt == 'GM: Brakka tries this: "bellows a war cry". How does it turn out?'
    script = mobs_run(
        other_action(b, [b.creatures["Brakka"]], "Brakka"), choices=["search", "fails"]
    )
    ruling = [r for r in script.requests if isinstance(r, Choice)][1]
    assert ruling.prompt.startswith("GM: Brakka tries to search the area.")


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_team_building_prompts_do_not_repeat_the_side(ruleset_id):
    """The screen puts the side's name before every question ("Side A: pick a team"), so
    the question itself does not say it again."""
    ruleset = get(ruleset_id)
    builder = ruleset.build_team("A", resolve_options(ruleset.options, None))
    choice = next(builder)
    for _ in range(4):
        shown = choice.prompt.removeprefix("Side A: ")
        assert "side a" not in shown.lower(), shown
        key = "build" if any(o.key == "build" for o in choice.options) else choice.default
        try:
            choice = builder.send(key)
        except StopIteration:
            break


def test_a_won_game_reads_victory_to_the_team(wargame):
    done = wargame("play", "battle-of-ixu", "--no-input", "--no-save", "--seed", "7")
    assert done.returncode == 0 and "Victory to " in done.stdout and " wins" not in done.stdout


def test_a_refused_choices_key_names_the_open_keys(wargame):
    done = wargame(
        "play", "seeds-of-wars", "--no-input", "--no-save", "--seed", "1", "--choices", "A1>B2"
    )
    line = one_error_line(done)
    assert "'A1>B2' is not one of the options; the open keys are a2, b2, c2, a1, b1, c1" in line


def test_rules_point_shows_the_reading_chosen(wargame):
    text = " ".join(wargame("rules", "seeds-of-wars", "d7").stdout.split())
    assert text.startswith("d7 Turns alternate until one side or the other passes.")
    assert "reading: Alternating (d7, gap 4)" in text
    assert "option pass_rule (default other_finishes)" in text
    data = json.loads(wargame("rules", "seeds-of-wars", "d7", "--json").stdout)
    assert data[0]["readings"][0].startswith("Alternating (d7, gap 4)")
    assert {o["name"] for o in data[0]["options"]} >= {"pass_rule"}
