"""Tug of WarGods exact odds: the chain's moves are the game's moves, its probabilities agree
with Monte Carlo, and `--exact` / `--matrix` through the real command."""

from __future__ import annotations

import json
import random
from statistics import NormalDist

import pytest
from wargame_cli.rulesets.tug_of_wargods import odds
from wargame_cli.rulesets.tug_of_wargods.ruleset import RULESET

from wargame_cli.engine.requests import Roll, TurnStart
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.simulate import batch
from wargame_cli.simulate.stats import spread, wilson

TUG = "tug-of-wargods"

MATCH_UPS = [
    # (team A, team B, options)
    ("Sebeki,Asar,Asar", "Heru,Asar,Basti", []),
    ("Sebeki,Asar,Asar", "Sebeki,Asar,Asar", []),
    ("Amazon,Satyr,Satyr", "Heru,To-Tanem,Mycenean", ["rounding=down"]),
    ("Beloved,Basti,Basti", "Sebeki,Sebeki,Asar", ["spacing=0"]),
    (
        "Wendigo,Frost Maiden,Frost Maiden",
        "Asar,Anubi,Khemru",
        ["start=1.5", "spacing=2.5", "tie_penalty_stacks=true"],
    ),
    ("Heru,Asar,Basti", "Satyr,Satyr,Satyr", ["start=8", "spacing=0.5"]),
]
GAMES = 5000


def setup_of(team_a: str, team_b: str, options: dict) -> Setup:
    return Setup(
        names={"A": "A", "B": "B"},
        teams={"A": RULESET.parse_team(team_a, options), "B": RULESET.parse_team(team_b, options)},
    )


def test_sum_counts_and_difference_odds():
    assert odds.sum_counts([6, 6]) == {s: 6 - abs(7 - s) for s in range(2, 13)}
    diff = odds.difference_odds([6], [4])
    assert sum(diff.values()) == 1
    assert diff[0] == pytest.approx(4 / 24)  # a15: ties
    assert min(diff) == -3 and max(diff) == 5


def test_every_turn_of_real_games_is_a_move_of_the_chain():
    """Play real games through the generator and check each turn against the chain: the
    chain has no rules of its own that could drift from the game's."""
    options = resolve_options(RULESET.options, ["rounding=down"])
    for team_a, team_b in (("Sebeki,Asar,Asar", "Heru,Asar,Basti"), ("Satyr x3", "Asar x3")):
        setup = setup_of(team_a, team_b, options)
        chain = odds.Chain(options)
        chain.solve(odds.difference_odds(odds.pool(setup.teams["A"]), odds.pool(setup.teams["B"])))
        rng = random.Random(5)
        for _ in range(150):
            game = RULESET.new_game(setup, options)
            gen, answer, sums, before = game.play(), None, {}, None
            while True:
                try:
                    req = gen.send(answer)
                except StopIteration as stop:
                    assert chain.move(before, sums["A"] - sums["B"]) == stop.value.winner
                    break
                answer = None
                if isinstance(req, TurnStart):
                    key = odds._key(game.state)
                    if before is not None:
                        assert chain.move(before, sums["A"] - sums["B"]) == chain.index[key]
                    before = chain.index[key]
                elif isinstance(req, Roll):
                    answer = tuple(rng.randint(1, d) for d in req.dice)
                    sums[req.side] = sum(answer)


@pytest.mark.parametrize(("team_a", "team_b", "given"), MATCH_UPS)
def test_monte_carlo_agrees_with_exact(team_a, team_b, given):
    """Each side's exact chance lies in the Monte Carlo run's interval (Bonferroni-widened
    for the number of match-ups and sides, so the family as a whole is at 95%); the mean
    game length agrees within the same number of standard errors."""
    options = resolve_options(RULESET.options, given)
    setup = setup_of(team_a, team_b, options)
    exact = odds.exact(setup.teams["A"], setup.teams["B"], options)
    assert exact.a + exact.b == pytest.approx(1.0)
    tally = batch.run(batch.Job(TUG, setup, options, 17, GAMES), RULESET)
    wins = {"A": 0, "B": 0}
    lengths: dict[int, int] = {}
    for (winner, turns, _), count in tally.results.items():
        wins[winner] += count
        lengths[turns] = lengths.get(turns, 0) + count
    z = NormalDist().inv_cdf(1 - 0.05 / (2 * 2 * len(MATCH_UPS)))
    for side, p in (("A", exact.a), ("B", exact.b)):
        lo, hi = wilson(wins[side], GAMES, z)
        assert lo <= p <= hi, (side, wins[side] / GAMES, p)
    length = spread(lengths)
    assert abs(length.mean - exact.turns) <= z * length.sd / GAMES**0.5


def test_mirror_match_is_even_and_sides_are_complementary():
    options = resolve_options(RULESET.options, None)
    same = odds.exact(
        {"models": ["Heru", "Asar", "Basti"]}, {"models": ["Basti", "Asar", "Heru"]}, options
    )
    assert same.a == pytest.approx(0.5, abs=1e-12)
    for a, b in (("Sebeki,Asar,Asar", "Heru,Asar,Basti"), ("Beloved,Basti,Basti", "Satyr x3")):
        forward = odds.exact(*setup_of(a, b, options).teams.values(), options)
        backward = odds.exact(*setup_of(b, a, options).teams.values(), options)
        assert forward.a == pytest.approx(backward.b, abs=1e-12)
        assert forward.turns == pytest.approx(backward.turns, abs=1e-9)


def test_legal_pools_follow_the_team_limits():
    pools, examples = odds.legal_pools(resolve_options(RULESET.options, None))
    assert len(pools) == 29  # 35 multisets of 5 dice sizes, less two d12s (5) and three d10s
    assert (12, 12, 4) not in pools and (10, 10, 10) not in pools
    assert all(len(team) == 3 for team in examples)
    loose, _ = odds.legal_pools(resolve_options(RULESET.options, ["restrictions=off"]))
    assert len(loose) == 35


def test_cli_exact_without_games(wargame):
    done = wargame("simulate", TUG, "--exact", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["exact"]["A"] == pytest.approx(0.9025231837, abs=1e-9)
    assert out["exact"]["A"] + out["exact"]["B"] == pytest.approx(1.0)
    assert "games" not in out
    rounded = json.loads(
        wargame("simulate", TUG, "--exact", "--json", "--option", "rounding=down").stdout
    )
    assert rounded["exact"]["A"] != out["exact"]["A"]


def test_cli_matrix(wargame):
    done = wargame("simulate", TUG, "--matrix", "--json")
    assert done.returncode == 0, done.stderr
    m = json.loads(done.stdout)["matrix"]
    n = len(m["pools"])
    assert n == 29 and len(m["p"]) == n
    for i in range(n):
        assert m["p"][i][i] == pytest.approx(0.5, abs=1e-9)
        for j in range(n):
            assert m["p"][i][j] + m["p"][j][i] == pytest.approx(1.0)
    assert m["tiers"][0] == "d12 d10 d10" and m["tiers"][-1] == "d4 d4 d4"
    shown = wargame("simulate", TUG, "--matrix")
    assert shown.returncode == 0, shown.stderr
    assert "d12 d10 d10" in shown.stdout and "exact" in shown.stdout


def test_exact_endings_and_length_percentiles_match_the_bot_games(wargame):
    from tests.test_simulate_runs import run_json

    exact = run_json(wargame, TUG, "--exact")
    endings = exact["exact_endings"]
    assert sum(endings["A"].values()) == pytest.approx(exact["exact"]["A"], abs=1e-9)
    assert sum(endings["B"].values()) == pytest.approx(exact["exact"]["B"], abs=1e-9)
    games = run_json(wargame, TUG, "--games", "20000", "--seed", "1", "--workers", "1")
    for side, by in endings.items():
        for how, chance in by.items():
            assert games["endings"][side][how] / 20000 == pytest.approx(chance, abs=0.01)
    lengths = exact["exact_lengths"]
    assert lengths["p50"] == games["turns"]["median"]
    assert lengths["p90"] == games["turns"]["p90"]
    assert list(lengths.values()) == sorted(lengths.values())
    shown = wargame("simulate", TUG, "--exact")
    assert "Exact length percentiles" in shown.stdout and "a18" in shown.stdout
