"""Seeds of Wars properties: whatever the options, armies, dice and (legal) decisions, battles
end, and the state stays consistent at every request."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wargame_cli.rulesets.seeds_of_wars import teams
from wargame_cli.rulesets.seeds_of_wars.prompts import SURRENDER
from wargame_cli.rulesets.seeds_of_wars.rules import SeedsGame, new_battle
from wargame_cli.rulesets.seeds_of_wars.ruleset import RULESET
from wargame_cli.rulesets.seeds_of_wars.state import DESTROYED, STATES, Battle

from tests.helpers import Script
from wargame_cli.engine.requests import Choice, Outcome
from wargame_cli.ruleset import resolve_options

TYPES = list(teams.catalogue().types)

options_st = st.fixed_dictionaries(
    {
        "columns": st.integers(1, 4),
        "battle_lines": st.integers(1, 2),
        "neutral_rows": st.integers(0, 2),
        "stack_limit": st.integers(1, 3),
        "attacker": st.sampled_from(["A", "B"]),
        "deploy_order": st.sampled_from(["loser_first", "winner_chooses"]),
        "initiative_ties": st.sampled_from(["reroll", "attacker", "defender"]),
        "pass_rule": st.sampled_from(["other_finishes", "first_pass_ends"]),
        "flank": st.sampled_from(["attacked", "outnumber", "off"]),
        "shaken_can_charge": st.booleans(),
        "engaged_can_move": st.booleans(),
        "engaged_can_shoot": st.booleans(),
        "auto_attack": st.booleans(),
        "max_rounds": st.integers(1, 40),
    }
)


def build(data: Any, opts: dict[str, Any]) -> Battle:
    options = resolve_options(RULESET.options, opts)
    size = min(6, teams.max_units(options))
    armies = {}
    for side in ("A", "B"):
        units = data.draw(st.lists(st.sampled_from(TYPES), min_size=1, max_size=size))
        order = data.draw(st.integers(0, 5))
        armies[side] = teams.from_data({"order": order, "units": units}, options)
    return new_battle({"A": "Red", "B": "Blue"}, armies, options)


def check(battle: Battle) -> None:
    """Invariants that hold at every request."""
    limit = battle.options["stack_limit"]
    crowd = Counter((u.side, u.space) for u in battle.fighting())
    assert max(crowd.values(), default=0) <= limit
    for unit in battle.units:
        assert unit.state in STATES
        assert 0 <= unit.taken <= unit.kind.ht
        assert unit.taken < unit.kind.ht or unit.fate == DESTROYED
        if unit.space is not None:
            assert battle.board.contains(unit.space)
    assert battle.round <= battle.options["max_rounds"]


def play(battle: Battle, rng: random.Random, chooser: Any) -> Script:
    def watch(req: Any) -> bool:
        check(battle)
        if isinstance(req, Choice):
            assert req.default != SURRENDER
            assert req.legal(req.default) is None
        return False

    script = Script(choices=[chooser] * 100_000, fallback_face=lambda d: rng.randint(1, d))
    script.run(SeedsGame(battle), until=watch)
    assert isinstance(script.outcome, Outcome)
    check(battle)
    return script


def by_default(choice: Choice) -> str:
    return choice.default


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options_st, seed=st.integers(0, 2**32), data=st.data())
def test_bot_games_end_and_invariants_hold(opts, seed, data):
    battle = build(data, opts)
    script = play(battle, random.Random(seed), by_default)
    outcome = script.outcome
    assert battle.result is not None and outcome.data == battle.result
    if outcome.winner is not None:
        loser = "B" if outcome.winner == "A" else "A"
        assert battle.out_of_fight(loser)
        assert all(not u.fighting for u in battle.side_units(loser))  # captured or escaped
    else:
        assert "max_rounds" in outcome.reason or "either side" in outcome.reason


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options_st, seed=st.integers(0, 2**32), data=st.data())
def test_random_legal_decisions_keep_the_game_consistent(opts, seed, data):
    battle = build(data, opts)
    rng = random.Random(seed)

    def anything_legal(choice: Choice) -> str:
        legal = [o.key for o in choice.options if o.disabled is None and o.key != SURRENDER]
        return rng.choice(legal)

    play(battle, rng, anything_legal)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_default_armies_play_the_same_game_from_the_same_dice(seed):
    logs = []
    for _ in range(2):
        options = resolve_options(RULESET.options, None)
        teams = {s: RULESET.default_team(s, options)[0] for s in ("A", "B")}
        battle = new_battle({"A": "Red", "B": "Blue"}, teams, options)
        script = play(battle, random.Random(seed), by_default)
        logs.append([e.text for e in script.events])
    assert logs[0] == logs[1]


@pytest.mark.parametrize("bot_side", ["A", "B"])
def test_the_bot_beats_a_random_player_from_either_side(bot_side):
    """A measure of "sensible": the suggestions win against random legal decisions."""
    wins = 0
    for seed in range(20):
        rng = random.Random(seed)
        options = resolve_options(RULESET.options, None)
        teams = {s: RULESET.default_team(s, options)[0] for s in ("A", "B")}
        battle = new_battle({"A": "Red", "B": "Blue"}, teams, options)

        def pick(choice: Choice, rng: random.Random = rng) -> str:
            if choice.side == bot_side:
                return choice.default
            legal = [o.key for o in choice.options if o.disabled is None and o.key != SURRENDER]
            return rng.choice(legal)

        wins += play(battle, rng, pick).outcome.winner == bot_side
    assert wins >= 16
