"""Older versions of each ruleset stay reachable (`wargame_cli/versions.py`): a game built
under an earlier version follows that version's rules where they differed."""

from __future__ import annotations

import pytest
from wargame_cli.rulesets.squad_alpha.deployment import spot_problem

from tests.test_squad_alpha_rules import act, farmstead_state, undeployed
from wargame_cli import registry, versions
from wargame_cli.engine.session import bot_game
from wargame_cli.tabletop.geometry import Point

EARLIER = {
    "squad-alpha": "2",
    "battle-of-ixu": "2",
    "seeds-of-wars": "2",
    "mobs-and-morale": "1",
}


@pytest.mark.parametrize("ruleset_id", sorted(EARLIER))
def test_a_game_of_an_earlier_version_follows_that_version(ruleset_id):
    ruleset = registry.get(ruleset_id)
    older = versions.at_version(ruleset, EARLIER[ruleset_id])
    assert older.version == EARLIER[ruleset_id] and older.id == ruleset.id
    assert registry.get(ruleset_id).version == ruleset.version  # the registry's is untouched
    assert versions.at_version(ruleset, ruleset.version) is ruleset
    now = bot_game(ruleset, 3, max_turns=1).game.state
    then = bot_game(older, 3, max_turns=1).game.state
    assert now.rules_version == int(ruleset.version)
    assert then.rules_version == int(EARLIER[ruleset_id])


def test_squad_alpha_version_2_may_deploy_touching_an_enemy():
    """Version 3 refused a deployment in base contact (b5); version 2 allowed it."""
    state = undeployed()
    state.mini("B1").pos = Point(4.5, 1.5)
    touching = Point(5.5, 1.5)
    assert "base contact with" in (
        spot_problem(state, state.mini("A1"), touching, "anywhere") or ""
    )
    state.rules_version = 2
    assert spot_problem(state, state.mini("A1"), touching, "anywhere") is None


def test_squad_alpha_version_2_moves_in_straight_lines_only():
    """22.6,11 is 3.6" walking round the Barn's corner: version 3 bends round it; version 2
    refuses a way through the Barn."""
    seen = []
    for version in (4, 2):
        state = farmstead_state()
        state.rules_version = version
        state.mini("B1").pos = Point(1.5, 20.5)
        act(
            state,
            "A1",
            4,
            faces=[1, 6, 6],
            choices=["move", lambda c: seen.append(c) or "20.35,9.27"],
        )
    now, then = (choice.legal("22.6,11") for choice in seen)
    assert now is None
    assert then is not None and "Barn" in then
