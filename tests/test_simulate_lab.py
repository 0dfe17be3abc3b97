"""The balance lab through the real command: both seats, settings compared on common random
numbers, sweeps, every ruleset's matrix, the page, the cluster, and one clear line for every
bad input."""

from __future__ import annotations

import json

import pytest

from tests.test_simulate_runs import run_json
from wargame_cli.simulate.settings import expand

TUG, SEEDS = "tug-of-wargods", "seeds-of-wars"


def test_swap_plays_both_seats_and_tells_the_seat_advantage(wargame):
    args = (SEEDS, "--games", "41", "--seed", "3", "--team-a", "Town Watch")
    out = run_json(wargame, *args, "--team-b", "Border Raiders", "--swap", "--workers", "1")
    assert out["swap"] is True and out["games"] == 41
    first, second = out["seats"]
    assert (first["games"], second["games"]) == (21, 20)
    # the teams' wins over both seats: team A's as seat A in the first half, as B in the second
    assert out["wins"]["A"] == first["wins"]["A"] + second["wins"]["B"]
    seat = out["seat_advantage"]
    assert seat["A"] == first["wins"]["A"] + second["wins"]["A"]
    assert seat["A"] + seat["B"] + seat["draws"] == 41
    assert seat["ci95"][0] <= seat["share_a"] <= seat["ci95"][1]
    again = run_json(wargame, *args, "--team-b", "Border Raiders", "--swap", "--workers", "2")
    assert again == out  # the same games on any number of workers


def test_a_mirror_tells_its_seat_advantage_unasked(wargame):
    out = run_json(wargame, TUG, "--games", "300", "--seed", "4", "--team-b", "Greentoe")
    assert out["teams"]["A"]["team"] == out["teams"]["B"]["team"]
    assert out["seat_advantage"]["A"] == out["wins"]["A"]
    other = run_json(wargame, TUG, "--games", "300", "--seed", "4")
    assert "seat_advantage" not in other  # not a mirror


def test_compare_plays_every_setting_on_the_same_dice(wargame):
    settings = "--compare start=4 --compare start=4 --compare start=2,rounding=down"
    out = run_json(wargame, TUG, "--games", "400", "--seed", "8", *settings.split())
    first, same, other = out["settings"]
    assert out["mode"] == "compare" and "difference" not in first
    assert same["wins"] == first["wins"]  # common random numbers: the very same games
    zero = same["difference"]["win_rate_a"]
    assert zero == {"estimate": 0.0, "lo": 0.0, "hi": 0.0}
    assert other["setting"] == {"start": 2.0, "rounding": "down"}
    d = other["difference"]["turns"]
    assert d["lo"] < d["estimate"] < d["hi"] < 0  # nearer the line: shorter games
    assert d["estimate"] == pytest.approx(other["turns"]["mean"] - first["turns"]["mean"])


def test_sweep_over_a_range_has_a_table_and_a_plot(wargame):
    out = run_json(wargame, TUG, "--games", "200", "--seed", "2", "--sweep", "start=2..4")
    assert [row["setting"]["start"] for row in out["settings"]] == [2.0, 3.0, 4.0]
    assert out["key"] == "start"
    means = [row["turns"]["mean"] for row in out["settings"]]
    assert means == sorted(means)  # further from the line: longer games
    shown = wargame("simulate", TUG, "--games", "200", "--seed", "2", "--sweep", "start=2..4")
    assert shown.returncode == 0, shown.stderr
    for needle in ("sweep of start", "start=3.0", "Plot", "●", "How the games ended"):
        assert needle in shown.stdout


def test_sweep_values_expand():
    assert expand("k", "3..9:2") == ["3", "5", "7", "9"]
    assert expand("k", "1,4..5") == ["1", "4", "5"]
    assert expand("k", "0.5..1.5:0.5") == ["0.5", "1", "1.5"]


def test_matrix_ranks_every_ready_team_in_both_seats(wargame):
    out = run_json(wargame, SEEDS, "--matrix", "--games", "6", "--seed", "1")
    m = out["matrix"]
    assert m["teams"] == ["Northern Host", "Southern Levy", "Border Raiders", "Town Watch"]
    for i in range(4):
        assert m["score"][i][i] is None
        for j in range(4):
            if i != j:
                assert m["score"][i][j] + m["score"][j][i] == pytest.approx(1)
    assert sorted(m["ranking"]) == sorted(m["teams"])
    ranked = [m["strength"][m["teams"].index(t)] for t in m["ranking"]]
    assert ranked == sorted(ranked, reverse=True)
    seat = m["seat_advantage"]
    assert seat["A"] + seat["B"] + seat["draws"] == 6 * 6  # six match-ups, six games each


def test_tug_keeps_its_exact_matrix(wargame):
    out = run_json(wargame, TUG, "--matrix")
    assert len(out["matrix"]["pools"]) == 29


def test_html_page_is_written_whole_with_charts(wargame, tmp_path):
    page = tmp_path / "lab.html"
    done = wargame("simulate", TUG, "--games", "100", "--seed", "1", "--swap", "--html", str(page))
    assert done.returncode == 0, done.stderr
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "<svg" in text and "Seat advantage" in text
    assert "<script" not in text
    again = wargame("simulate", TUG, "--games", "10", "--html", str(page))
    assert again.returncode == 2 and "--force" in again.stderr
    assert page.read_text() == text  # nothing lost
    sweep = wargame(
        "simulate", TUG, "--games", "50", "--sweep", "start=2,3", "--html", str(page), "--force"
    )
    assert sweep.returncode == 0 and "Game length (mean)" in page.read_text()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--compare", "start=2"), "at least two settings"),
        (("--compare", "start=2", "--compare", "nope=1"), "unknown option 'nope'"),
        (("--compare", "start=2", "--compare", "rounding=up"), "rounding"),
        (("--compare", "start=2", "--compare", "start"), "KEY=VALUE"),
        (("--sweep", "start="), "at least two values"),
        (("--sweep", "start=3"), "at least two values"),
        (("--sweep", "start=5..2"), "empty"),
        (("--sweep", "nope=1,2"), "unknown option 'nope'"),
        (("--sweep", "start=1,x"), "not a float"),
        (("--swap", "--sweep", "start=1,2"), "one study at a time"),
        (("--cluster", "tcp://127.0.0.1:9"), "no Dask scheduler answers"),
    ],
)
def test_bad_lab_input_is_one_line_and_exit_2(wargame, args, needle):
    done = wargame("simulate", TUG, "--games", "10", *args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and needle in lines[0], done.stderr
    assert done.stdout == ""


def test_matrix_needs_games_where_there_are_no_exact_odds(wargame):
    done = wargame("simulate", SEEDS, "--matrix")
    assert done.returncode == 2 and "--games" in done.stderr


def test_a_local_cluster_plays_the_same_games(wargame):
    pytest.importorskip("distributed")
    args = ("squad-alpha", "--games", "8", "--seed", "5", "--sweep", "max_turns=3,6")
    here = run_json(wargame, *args, "--workers", "2")
    there = run_json(wargame, *args, "--cluster", "local", "--workers", "2")
    one = run_json(wargame, *args, "--workers", "1")
    assert here == there == one
    assert json.dumps(here)  # plain JSON


def test_seeds_of_wars_tells_its_units_and_who_won_the_contests(wargame):
    out = run_json(wargame, SEEDS, "--games", "30", "--seed", "6", "--workers", "1")
    units = out["units"]
    armies = [out["teams"][side]["team"] for side in ("A", "B")]
    fielded = sum(len(army["units"]) for army in armies) * 30
    assert sum(u["fielded"] for u in units.values()) == fielded
    assert all(u["games"] == 30 for u in units.values())
    kills = sum(u["kills"] * u["fielded"] for u in units.values())
    deaths = sum(u["deaths"] for u in units.values())
    assert 0 < round(kills) <= deaths  # a unit destroyed by morale may have no killer
    for u in units.values():
        assert u["survival"] == pytest.approx(1 - u["deaths"] / u["fielded"])
        assert u["damage"] >= u["kills"]  # a kill takes at least one Ht
    first = out["firsts"]["first initiative"]
    assert first["games"] == 30 and 0 <= first["won"] <= 30
    assert out["firsts"]["deployment roll-off"]["games"] <= 30  # a tie has no winner
    again = run_json(wargame, SEEDS, "--games", "30", "--seed", "6", "--workers", "2")
    assert again == out


@pytest.mark.pty
def test_ctrl_c_stops_the_games_and_shows_the_partial_result(tmp_path):
    import pexpect

    from tests.pty_helpers import spawn

    child = spawn(
        ["simulate", "squad-alpha", "--games", "4000", "--seed", "2", "--workers", "2"],
        str(tmp_path),
        str(tmp_path / "saves"),
        timeout=120,
        size=(24, 80),
    )
    child.expect(r"/4000")  # the progress bar: games done of the games asked
    child.expect(r"/s")  # the rate
    child.sendcontrol("c")
    child.expect("Stopped by Ctrl-C")
    child.expect(r"(\d+) bot-vs-bot games")
    done = int(child.match.group(1))
    assert 0 < done < 4000
    child.expect("Game length")
    child.expect("interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


@pytest.mark.parametrize(
    ("ruleset_id", "games", "contests"),
    [
        ("squad-alpha", "8", {"deployment roll-off", "first initiative"}),
        ("battle-of-ixu", "20", {"first initiative"}),
    ],
)
def test_every_casualty_is_credited_to_the_model_that_caused_it(
    wargame, ruleset_id, games, contests
):
    out = run_json(wargame, ruleset_id, "--games", games, "--seed", "2", "--workers", "1")
    units = out["units"]
    kills = sum(u["kills"] * u["fielded"] for u in units.values())
    assert round(kills) == sum(u["deaths"] for u in units.values()) > 0
    if ruleset_id == "squad-alpha":
        assert set(units) <= {"elite", "regular", "conscript"}
        assert all(u["damage"] is None for u in units.values())  # a hit kills or is saved
    else:
        assert all(u["damage"] >= u["kills"] for u in units.values())
    assert set(out["firsts"]) == contests


CONTESTS = {  # what each ruleset's games tell per unit type and contest (None: no units)
    "squad-alpha": {"deployment roll-off", "first initiative"},
    "seeds-of-wars": {"deployment roll-off", "first initiative"},
    "battle-of-ixu": {"first initiative"},  # warbands line up without a roll (c1)
    "mobs-and-morale": {"first initiative"},  # deployment is simultaneous by default (e2)
    "tug-of-wargods": None,  # no model is hurt, removed or kills; both sides roll at once
}


@pytest.mark.parametrize("ruleset_id", sorted(CONTESTS))
def test_every_ruleset_with_units_tells_them_and_its_contests(wargame, ruleset_id):
    from wargame_cli import registry

    assert {info.id for info in registry.all_infos() if info.builtin} == set(CONTESTS)
    out = run_json(wargame, ruleset_id, "--games", "6", "--seed", "4", "--workers", "1")
    if CONTESTS[ruleset_id] is None:
        assert "units" not in out and "firsts" not in out
        assert registry.get(ruleset_id).sim_watcher() is None
        return
    assert out["units"] and all(u["fielded"] >= u["games"] == 6 for u in out["units"].values())
    assert set(out["firsts"]) == CONTESTS[ruleset_id]
    shown = wargame("simulate", ruleset_id, "--games", "6", "--seed", "4", "--workers", "1")
    assert "Per unit type" in shown.stdout
    for contest in CONTESTS[ruleset_id]:
        assert f"The side that won the {contest} won" in shown.stdout
