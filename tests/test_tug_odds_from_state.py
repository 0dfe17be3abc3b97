"""Tug of WarGods exact chances from any position (`odds.chance_from_state`): they agree with a
Monte Carlo of the same position, played on from copies of it by the rules' own `fast_play`."""

from __future__ import annotations

import copy
from statistics import NormalDist, mean, stdev

import pytest
from wargame_cli.rulesets.tug_of_wargods import odds, teams
from wargame_cli.rulesets.tug_of_wargods.rules import TugState, fast_play, new_state, resolve
from wargame_cli.rulesets.tug_of_wargods.ruleset import RULESET

from wargame_cli.engine.fast import face_source
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.simulate.stats import wilson

GAMES = 4000


def state_of(team_a: str, team_b: str, given: list[str]) -> TugState:
    options = resolve_options(RULESET.options, given)
    setup = Setup(
        names={"A": "A", "B": "B"},
        teams={"A": RULESET.parse_team(team_a, options), "B": RULESET.parse_team(team_b, options)},
    )
    return RULESET.new_game(setup, options).state


def after(state: TugState, totals: list[tuple[int, int]]) -> TugState:
    """The position after turns with these totals (before penalties), by the rules' `resolve`."""
    for sum_a, sum_b in totals:
        state.turn += 1
        assert resolve(state, sum_a, sum_b).win is None
    return state


def with_penalties(state: TugState, a: int, b: int) -> TugState:
    """A position the rules never make (unequal penalties), to check the gap is handled."""
    state.sides["A"].penalty, state.sides["B"].penalty = a, b
    return state


POSITIONS = {
    # A pulled B 3" twice: B's front model is across once, A leads.
    "A leads": lambda: after(state_of("Sebeki,Asar,Asar", "Heru,Asar,Basti", []), [(9, 3), (7, 3)]),
    # B's front model crossed and came back: one crossing already on the record (a18).
    "a crossing on record": lambda: after(
        state_of("Heru,Asar,Basti", "Heru,Asar,Basti", []), [(3, 13), (11, 3)]
    ),
    # A tie just happened: both teams at -1 on the next roll (a16), stacking.
    "tie pending, stacking": lambda: after(
        state_of("Amazon,Satyr,Satyr", "Heru,To-Tanem,Mycenean", ["tie_penalty_stacks=true"]),
        [(8, 5), (9, 9), (7, 7)],
    ),
    "unequal penalties, not stacking": lambda: with_penalties(
        after(state_of("Satyr x3", "Asar x3", ["rounding=down"]), [(6, 10)]), 3, 0
    ),
    "unequal penalties, stacking": lambda: with_penalties(
        after(
            state_of("Satyr x3", "Asar x3", ["tie_penalty_stacks=true", "spacing=0.5"]), [(5, 2)]
        ),
        0,
        2,
    ),
    "columns of other sizes": lambda: after(
        new_state(
            {"A": "A", "B": "B"},
            {"A": ["Sebeki", "Asar"], "B": ["Heru", "Asar", "Basti", "Asar"]},
            teams.dice_of(),
            resolve_options(RULESET.options, ["start=3"]),
        ),
        [(4, 6)],
    ),
}


def monte_carlo(state: TugState, games: int, seed: int) -> tuple[dict[str, int], list[int]]:
    """Wins per side and the turns each game still took, played on from copies of `state`."""
    below = face_source(seed)
    wins = {"A": 0, "B": 0}
    lengths = []
    for _ in range(games):
        win, turns = fast_play(copy.deepcopy(state), below)
        wins[win[0]] += 1
        lengths.append(turns - state.turn)
    return wins, lengths


@pytest.mark.parametrize("name", list(POSITIONS))
def test_chance_from_a_position_agrees_with_monte_carlo(name):
    """Each side's exact chance lies in the Monte Carlo interval (Bonferroni-widened over the
    positions and sides, so the family as a whole is at 95%)."""
    state = POSITIONS[name]()
    chance = odds.chance_from_state(state, state.options)
    assert set(chance) == {"A", "B", "draw"}
    assert chance["A"] + chance["B"] == pytest.approx(1.0)
    assert chance["draw"] == 0.0
    wins, lengths = monte_carlo(state, GAMES, seed=len(name))
    z = NormalDist().inv_cdf(1 - 0.05 / (2 * 3 * len(POSITIONS)))
    for side in ("A", "B"):
        lo, hi = wilson(wins[side], GAMES, z)
        assert lo <= chance[side] <= hi, (side, wins[side] / GAMES, chance[side])
    expected = odds.exact_from_state(state).turns  # the turns still to play
    assert abs(mean(lengths) - expected) <= z * stdev(lengths) / GAMES**0.5


def test_the_position_changes_the_chance():
    """Not the match-up's odds again: a lead, a crossing and a penalty gap each move it."""
    fresh = state_of("Sebeki,Asar,Asar", "Heru,Asar,Basti", [])
    start = odds.chance_from_state(fresh)
    assert start["A"] == pytest.approx(
        odds.exact(
            RULESET.parse_team("Sebeki,Asar,Asar", fresh.options),
            RULESET.parse_team("Heru,Asar,Basti", fresh.options),
            fresh.options,
        ).a
    )
    lead_b = after(state_of("Sebeki,Asar,Asar", "Heru,Asar,Basti", []), [(3, 11)])
    assert odds.chance_from_state(lead_b)["A"] < start["A"]
    gap = with_penalties(state_of("Sebeki,Asar,Asar", "Heru,Asar,Basti", []), 4, 0)
    assert odds.chance_from_state(gap)["A"] < start["A"]
    even = with_penalties(state_of("Sebeki,Asar,Asar", "Heru,Asar,Basti", []), 2, 2)
    assert odds.chance_from_state(even)["A"] == pytest.approx(start["A"], abs=1e-12)


def test_a_won_game_is_certain():
    state = state_of("Sebeki,Asar,Asar", "Heru,Asar,Basti", [])
    fast_play(state, face_source(3))
    chance = odds.chance_from_state(state)
    assert chance[state.winner] == 1.0 and chance["draw"] == 0.0
    assert chance["A"] + chance["B"] == 1.0


def test_chance_line_names_both_sides_in_whole_percents():
    state = POSITIONS["A leads"]()
    line = odds.chance_line(state)
    assert line == "A 99% · B 1%"
    assert odds.chance_line(POSITIONS["unequal penalties, not stacking"]()) == "A <0.1% · B >99.9%"
    even = state_of("Heru,Asar,Basti", "Basti,Asar,Heru", [])
    even.sides["A"].name, even.sides["B"].name = "Greentoe", "Clearsky"
    assert odds.chance_line(even) == "Greentoe 50% · Clearsky 50%"
