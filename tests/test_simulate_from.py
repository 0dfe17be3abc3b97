"""`simulate ID --from SAVE`: the saved position played on by bots with fresh dice, and for Tug
of WarGods the exact chance from that position; both through the real command."""

from __future__ import annotations

import json
from statistics import NormalDist

import pytest

from tests.cli_helpers import one_error_line, play_json

TUG = "tug-of-wargods"
MIRROR = ("--team-a", "Heru,Asar,Basti", "--team-b", "Heru,Asar,Basti")


def simulate(wargame, *args: str) -> dict:
    done = wargame("simulate", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def b_leads(wargame, tmp_path):
    """Two identical teams; after turn 1 side B has pulled A 3" towards the line."""
    save = tmp_path / "lead.json"
    play_json(
        wargame, TUG, *MIRROR, "--no-input", "--rolls", "1,1,1,5,3,1", "--turns", "1",
        "--save", str(save),
    )  # fmt: skip
    return save


def test_the_side_that_leads_is_favoured(wargame, b_leads):
    result = simulate(wargame, TUG, "--from", str(b_leads), "--games", "2000", "--seed", "3")
    assert result["from"] == {"save": str(b_leads), "turn": 1}
    assert result["win_rate"]["B"] > 0.5 and result["ci95"]["B"][0] > 0.5
    fresh = simulate(wargame, TUG, *MIRROR, "--games", "10", "--seed", "3")
    # the same fields as simulate, plus "from" (a fresh mirror adds its seat advantage)
    assert set(result) == set(fresh) - {"seat_advantage"} | {"from"}
    assert result["teams"] == fresh["teams"]
    assert result["turns"]["min"] >= 2  # the saved turn counts in the game's length
    exact = simulate(wargame, TUG, "--from", str(b_leads), "--exact")
    assert exact["exact"]["B"] > 0.5


def test_exact_from_agrees_with_20000_games_from_the_save(wargame, b_leads):
    """The exact chance lies in the Monte Carlo run's 95% interval (Bonferroni over the two
    sides), and the expected length agrees within the same number of standard errors."""
    result = simulate(
        wargame, TUG, "--from", str(b_leads), "--exact", "--games", "20000", "--seed", "11",
        "--workers", "2",
    )  # fmt: skip
    z = NormalDist().inv_cdf(1 - 0.05 / 4)
    from wargame_cli.simulate.stats import wilson

    for side in ("A", "B"):
        lo, hi = wilson(result["wins"][side], result["games"], z)
        assert lo <= result["exact"][side] <= hi, (side, result["win_rate"][side])
    turns = result["turns"]
    assert abs(turns["mean"] - result["exact_turns"]) <= z * turns["sd"] / 20000**0.5
    # and the position matters: from the deployment the mirror match is even
    even = simulate(wargame, TUG, *MIRROR, "--exact")
    assert even["exact"]["A"] == pytest.approx(0.5)
    assert result["exact"]["B"] > 0.7


def test_from_a_skirmish_save(wargame, tmp_path):
    save = tmp_path / "g.json"
    play_json(wargame, "seeds-of-wars", "--no-input", "--seed", "5", "--turns", "3", "--save",
              str(save))  # fmt: skip
    result = simulate(wargame, "seeds-of-wars", "--from", str(save), "--games", "6", "--seed", "2")
    assert result["from"] == {"save": str(save), "turn": 3}
    assert result["games"] == 6 and sum(result["wins"].values()) == 6
    assert result["turns"]["min"] > 3
    again = simulate(wargame, "seeds-of-wars", "--from", str(save), "--games", "6", "--seed", "2")
    assert again == result  # seeded
    shown = wargame("simulate", "seeds-of-wars", "--from", str(save), "--games", "2")
    assert shown.returncode == 0 and "Played on from" in shown.stdout


def test_from_refusals(wargame, tmp_path, b_leads):
    finished = tmp_path / "done.json"
    play_json(wargame, TUG, "--no-input", "--seed", "2", "--save", str(finished))
    assert "over" in one_error_line(
        wargame("simulate", TUG, "--from", str(finished), "--games", "5")
    )
    assert "tug-of-wargods game" in one_error_line(
        wargame("simulate", "seeds-of-wars", "--from", str(b_leads), "--games", "5")
    )
    assert "drop" in one_error_line(
        wargame("simulate", TUG, "--from", str(b_leads), "--games", "5", "--team-a", "Satyr x3")
    )
    assert "--games" in one_error_line(wargame("simulate", TUG, "--from", str(b_leads)))
    one_error_line(wargame("simulate", TUG, "--from", str(tmp_path / "nope.json"), "--exact"))
    skirmish = tmp_path / "s.json"
    play_json(wargame, "seeds-of-wars", "--no-input", "--seed", "5", "--turns", "1", "--save",
              str(skirmish))  # fmt: skip
    assert "--exact" in one_error_line(
        wargame("simulate", "seeds-of-wars", "--from", str(skirmish), "--exact")
    )
