"""Sampled odds (`wargame_cli/engine/sampled.py`): an option's chances estimated by playing it
on clones of the position with dice of their own. The estimate agrees with the exact
arithmetic where there is one, repeats with its seed, and never moves the game it samples."""

from __future__ import annotations

import pytest

from wargame_cli import registry
from wargame_cli.engine.requests import Choice
from wargame_cli.engine.sampled import Estimate, Until, option_chance, sample, win_chance
from wargame_cli.engine.session import Session, default_setup, start
from wargame_cli.ruleset import resolve_options
from wargame_cli.testing.random_play import ruleset_ids


def at_question(ruleset_id: str, seed: int, wanted, skip: int = 0) -> Session:
    """A bot game stopped, unanswered, at the first question `wanted` accepts (after `skip`)."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    session = start(ruleset, default_setup(ruleset, options), options, seed)
    runner = session.runner
    while runner.pending is not None:
        pending = runner.pending
        if isinstance(pending, Choice) and wanted(pending):
            if skip == 0:
                return session
            skip -= 1
        runner.step()
    raise AssertionError(f"{ruleset_id} seed {seed} asked no such question")


@pytest.fixture
def pit() -> Session:
    if "pit-fight" not in ruleset_ids():
        pytest.skip("tests/plugin_pit is not installed")
    return at_question("pit-fight", 3, lambda c: c.side == "A" and "strike" in c.prompt)


def test_a_strikes_chance_to_wound_is_the_dice_arithmetic(pit):
    """Pit Fight's strike wounds an unguarded fighter on 4+ (to_hit): one half, exactly."""
    estimate = option_chance(pit, "strike", lambda s: s.saw("wound", attacker="A"), 400)
    low, high = estimate.interval
    assert estimate.samples == 400 and low < 0.5 < high and high - low < 0.11
    assert "about" in estimate.words() and "±" in estimate.words()
    never = option_chance(pit, "guard", lambda s: s.saw("wound", attacker="A"), 50)
    assert never.hits == 0 and never.interval[1] < 0.1  # honest at 0%: not zero wide


def test_an_estimate_repeats_with_its_seed_and_leaves_the_game_as_it_stood(pit):
    log, state = list(pit.runner.log), pit.game.state_json()
    wounds = lambda s: s.saw("wound")  # noqa: E731
    first = option_chance(pit, "strike", wounds, 60, seed=7)
    assert option_chance(pit, "strike", wounds, 60, seed=7) == first
    assert pit.runner.log == log and pit.game.state_json() == state
    assert isinstance(pit.runner.pending, Choice)  # still waiting on its question
    ended = win_chance(pit, "strike", "A", samples=20)
    assert 0 <= ended.hits <= 20


def test_a_sample_stops_where_it_is_told(pit):
    import random

    short = sample(pit, "strike", random.Random(1), Until.CHOICE)
    whole = sample(pit, "strike", random.Random(1), Until.END)
    assert short.outcome is None and whole.outcome is not None
    assert whole.events[: len(short.events)] == short.events


def test_a_tabletop_ruleset_fills_its_odds_by_sampling():
    """Squad Alpha at its first move: the sampled chance of reaching the next turn's start
    without a loss, for two of its spots, from clones of the position (no arithmetic of its
    own)."""
    session = at_question("squad-alpha", 2, lambda c: c.kind == "move")
    choice = session.runner.pending
    keys = [o.key for o in choice.options if o.disabled is None][:2]
    for key in keys:
        safe = option_chance(session, key, lambda s: not s.saw("kill"), 8, until=Until.TURN)
        assert isinstance(safe, Estimate) and 0 <= safe.value <= 1 and safe.samples == 8


def test_an_estimate_needs_a_sample(pit):
    with pytest.raises(ValueError, match="at least one sample"):
        option_chance(pit, "strike", lambda s: True, samples=0)
