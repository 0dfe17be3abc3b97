"""A table's ruling (the GM ends the battle, naming who won) is legal for a person and never
taken by a bot: a GM's bot that took it would win every battle by fiat, and the balance lab
would measure that, not the rules."""

from __future__ import annotations

from wargame_cli import registry
from wargame_cli.bots.base import controller, open_keys
from wargame_cli.engine.requests import Choice, Option
from wargame_cli.engine.session import default_setup, start
from wargame_cli.ruleset import resolve_options


def test_a_bot_may_take_every_legal_key_but_a_ruling():
    choice = Choice(
        side="B",
        prompt="Fight on?",
        options=(
            Option("fight", "Fight on"),
            Option("retreat", "Retreat", disabled="no edge"),
            Option("end:decimated:A", "End the battle: A is decimated", ruling=True),
        ),
        default="fight",
    )
    assert open_keys(choice) == ["fight"]


def test_random_bots_play_mobs_and_morale_to_an_ending_the_rules_reach():
    """Both sides on the random bot: before rulings were marked, the GM's random bot chose one
    of the five "End the battle" options at most round ends, and the battle ended by fiat."""
    ruleset = registry.get("mobs-and-morale")
    options = resolve_options(ruleset.options, None)
    for seed in (1, 2, 3):
        bots = {side: controller(ruleset, "random") for side in "AB"}
        session = start(ruleset, default_setup(ruleset, options), options, seed, None, bots)
        session.runner.run()
        kinds = [e.get("kind") for e in session.runner.log if isinstance(e, dict)]
        assert "declared" not in kinds, seed
        assert session.runner.finished
