"""Properties of Tug of WarGods over random games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from wargame_cli.rulesets.tug_of_wargods import teams
from wargame_cli.rulesets.tug_of_wargods.ruleset import RULESET

from wargame_cli.engine.requests import Event, Outcome, Roll
from wargame_cli.ruleset import Setup, resolve_options

LEGAL = [
    ["Sebeki", "Asar", "Asar"],
    ["Heru", "Asar", "Basti"],
    ["Minotaur", "Sebeki", "Sebeki"],
    ["Satyr", "Satyr", "Satyr"],
    ["Wendigo", "Frost Maiden", "Frost Maiden"],
    ["Beloved of Sobek", "Typhon", "Nekharu"],
]


@settings(max_examples=200, deadline=None)
@given(
    a=st.sampled_from(LEGAL),
    b=st.sampled_from(LEGAL),
    rounding=st.sampled_from(["exact", "down"]),
    start=st.sampled_from([2.0, 4.0, 6.5]),
    spacing=st.sampled_from([0.0, 1.0, 1.5]),
    stacks=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_random_games_end_and_keep_the_invariants(a, b, rounding, start, spacing, stacks, seed):
    rng = random.Random(seed)
    opts = resolve_options(
        RULESET.options,
        {"rounding": rounding, "start": start, "spacing": spacing, "tie_penalty_stacks": stacks},
    )
    game = RULESET.new_game(
        Setup({"A": "A", "B": "B"}, {"A": {"models": a}, "B": {"models": b}}), opts
    )
    gen = game.play()
    answer = None
    for _ in range(5000):
        try:
            req = gen.send(answer)
        except StopIteration as stop:
            outcome = stop.value
            break
        answer = None
        if isinstance(req, Roll):
            answer = tuple(rng.randint(1, d) for d in req.dice)
        elif isinstance(req, Event) and req.kind == "pull":
            fa, fb = game.state.sides["A"].front, game.state.sides["B"].front
            assert fa + fb == 2 * start  # a14
            for team in game.state.sides.values():  # the column keeps its spacing
                ds = [m.distance for m in team.models]
                assert all(abs((y - x) - spacing) < 1e-9 for x, y in zip(ds, ds[1:], strict=False))
    else:
        raise AssertionError("no winner after 5000 requests")
    assert isinstance(outcome, Outcome) and outcome.winner in ("A", "B")
    loser = game.state.sides["B" if outcome.winner == "A" else "A"]
    assert loser.across_count >= 2 or any(m.crossings >= 2 for m in loser.models)
    winner = game.state.sides[outcome.winner]
    assert winner.across_count < 2 and all(m.crossings < 2 for m in winner.models)


@given(st.lists(st.sampled_from(sorted(teams.catalogue().units)), min_size=3, max_size=3))
def test_builder_offers_exactly_the_legal_units(models):
    """Team building never offers a unit that `validate` would refuse, and refuses none it takes."""
    opts = resolve_options(RULESET.options, None)
    legal = not teams.problems(models, opts)
    builder = teams.builder("A", opts)
    choice = builder.send(None)
    choice = builder.send("build")
    reachable = True
    for i, unit in enumerate(models):
        if choice.legal(unit) is not None:
            reachable = False
            break
        try:
            choice = builder.send(unit)
        except StopIteration as stop:
            assert i == 2 and stop.value == models
    assert reachable == legal
