"""The lab's settings side, through the real command: a unit's stats changed without editing
code (`--unit`, `--sweep UNIT.STAT`, and the same change written in a team file), teams as
settings on common random numbers (`--compare team-a=...`, `--matrix --teams DIR`), and what
each unit type is worth (`--points`, `rules ID --points`, `--budget N`). Tug of WarGods'
exact odds check what they can exactly."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import one_error_line
from tests.test_simulate_runs import run_json

TUG, SEEDS, MOBS = "tug-of-wargods", "seeds-of-wars", "mobs-and-morale"


# -- 1. change a unit ---------------------------------------------------------------------
def test_a_changed_die_plays_as_that_die_exactly(wargame):
    """Sebeki at d8: two Sebeki and a To-Tanem are then three d8s, as three To-Tanem are, so
    the exact odds are exactly even; stock Sebeki (d10) are not."""
    teams = ("--team-a", "2 Sebeki, To-Tanem", "--team-b", "3 To-Tanem", "--exact")
    stock = run_json(wargame, TUG, *teams)
    assert stock["exact"]["A"] > 0.6 and "unit_changes" not in stock
    out = run_json(wargame, TUG, *teams, "--unit", "Sebeki.die=8")
    assert out["exact"]["A"] == pytest.approx(0.5, abs=1e-12)
    assert out["unit_changes"] == {"Sebeki": {"die": 8}}
    assert out["teams"]["A"]["team"]["models"] == ["Sebeki (die=8)", "Sebeki (die=8)", "To-Tanem"]


def test_a_team_file_changes_a_die_as_the_flag_does(wargame, tmp_path):
    """Tug's `models=[{unit="Sebeki", die=8}]` and `--unit Sebeki.die=8` make the same team,
    as Seeds of Wars' `{type="Knights", De=11}` and `--unit Knights.De=11` do."""
    tug = tmp_path / "slow.toml"
    tug.write_text('models = [{unit = "Sebeki", die = 8}, {unit = "Sebeki", die = 8}, "To-Tanem"]')
    by_file = run_json(wargame, TUG, "--team-a", str(tug), "--exact")
    by_flag = run_json(
        wargame, TUG, "--team-a", "2 Sebeki, To-Tanem", "--unit", "Sebeki.die=8", "--exact"
    )
    assert by_file["teams"]["A"]["team"] == by_flag["teams"]["A"]["team"]
    assert by_file["exact"] == by_flag["exact"]
    seeds = tmp_path / "army.toml"
    seeds.write_text('units = [{type = "Knights", De = 11}, "Spearmen"]')
    file_army = run_json(wargame, SEEDS, "--team-a", str(seeds), "--games", "1", "--workers", "1")
    flag_army = run_json(
        wargame, SEEDS, "--team-a", "Knights, Spearmen", "--unit", "Knights.De=11",
        "--games", "1", "--workers", "1",
    )  # fmt: skip
    assert file_army["teams"]["A"]["team"]["units"] == flag_army["teams"]["A"]["team"]["units"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((TUG, "--unit", "Sebki.die=8"), "--unit: no unit type 'Sebki'; did you mean Sebeki?"),
        ((TUG, "--unit", "Sebeki.dei=8"), "--unit: Sebeki has no stat 'dei'; did you mean die?"),
        ((TUG, "--unit", "Sebeki.die=30"), "Sebeki.die: 30 is outside its range, 2 to 20"),
        ((TUG, "--unit", "Sebeki.die=big"), "Sebeki.die: 'big' is not a whole number"),
        ((TUG, "--unit", "Sebeki=8"), "expected UNIT.STAT"),
        (("pit-fight", "--unit", "Kid.rating=2"), "pit-fight declares no unit stats"),
        (
            ("squad-alpha", "--unit", "elite.dice=11"),
            "elite.dice: 11 is outside its range, 1 to 10",
        ),
        (("squad-alpha", "--unit", "Kid.rating=2"), "no unit type 'Kid'; unit types: conscript"),
        (("battle-of-ixu", "--unit", "elite.dice=2"), "elite.dice: 2 is outside its range, 3 to"),
        (("battle-of-ixu", "--unit", "regular.helth=12"), "did you mean health?"),
        ((MOBS, "--unit", "Tribal Warior.fierce=3"), "did you mean Tribal Warrior?"),
        ((TUG, "--sweep", "Sebeki.die=4..40"), "--sweep Sebeki.die: 21 is outside its range"),
        ((TUG, "--sweep", "Sebki.die=6,8"), "--sweep: no unit type 'Sebki'; did you mean Sebeki?"),
    ],
)
def test_a_bad_unit_change_is_one_line(wargame, args, words):
    done = wargame("simulate", *args, "--games=2")
    assert words in one_error_line(done)


def test_a_bad_stat_in_a_team_file_is_one_line(wargame, tmp_path):
    team = tmp_path / "t.toml"
    team.write_text('models = [{unit = "Sebeki", die = 40}, "Asar", "Asar"]')
    assert "Sebeki.die: 40 is outside" in one_error_line(
        wargame("simulate", TUG, "--team-a", str(team), "--exact")
    )


def test_a_sweep_over_a_unit_stat_keeps_changed_units_apart(wargame):
    """`--sweep Knights.De=12..14`: each value a setting on the same dice; the figures per unit
    type name the changed Knights apart from stock ones (De 13 is the stock value)."""
    out = run_json(
        wargame, SEEDS, "--sweep", "Knights.De=12..14", "--games", "6", "--seed", "5",
        "--team-a", "Knights, Spearmen", "--team-b", "Knights, Swordsmen", "--workers", "1",
    )  # fmt: skip
    assert out["key"] == "Knights.De"
    assert [row["setting"] for row in out["settings"]] == [
        {"Knights.De": 12},
        {"Knights.De": 13},
        {"Knights.De": 14},
    ]
    kinds = [set(row["units"]) for row in out["settings"]]
    assert "Knights (De=12)" in kinds[0] and "Knights" not in kinds[0]
    assert "Knights" in kinds[1] and not any("(De=" in k for k in kinds[1])
    assert "Knights (De=14)" in kinds[2]


def test_a_changed_profile_is_named_apart_in_the_figures(wargame):
    out = run_json(
        wargame, MOBS, "--unit", "Warrior.fierce=6", "--team-a", "Warrior",
        "--team-b", "Ranger", "--games", "2", "--seed", "1", "--workers", "1",
    )  # fmt: skip
    assert out["unit_changes"] == {"Warrior": {"fierce": 6}}
    assert "Warrior (fierce=6)" in out["units"] and "Warrior" not in out["units"]


# -- 2. teams as settings -------------------------------------------------------------------
def test_compare_takes_teams_on_the_same_dice(wargame):
    """Two teams for side A, each against the same side B on the same dice: each row plays
    its team (the team text's commas stay in it), and the paired difference is told."""
    out = run_json(
        wargame, TUG, "--games", "300", "--seed", "2", "--workers", "1",
        "--compare", "team-a=2 Sebeki, To-Tanem", "--compare", "team-a=Sebeki, 2 To-Tanem",
    )  # fmt: skip
    first, second = out["settings"]
    assert first["setting"] == {"team-a": "2 Sebeki, To-Tanem"}
    assert first["teams"]["A"]["models"] == ["Sebeki", "Sebeki", "To-Tanem"]
    assert second["teams"]["A"]["models"] == ["Sebeki", "To-Tanem", "To-Tanem"]
    assert "win_rate_a" in second["difference"]
    # an option and a unit stat in the same setting as a team
    mixed = run_json(
        wargame, TUG, "--games", "4", "--seed", "2", "--workers", "1",
        "--compare", "team-a=2 Sebeki, To-Tanem,start=3",
        "--compare", "team-a=2 Sebeki, To-Tanem,Sebeki.die=8",
    )  # fmt: skip
    one, two = mixed["settings"]
    assert one["options"]["start"] == 3.0 and one["teams"]["A"]["models"][0] == "Sebeki"
    assert two["teams"]["A"]["models"][0] == "Sebeki (die=8)"


def test_matrix_ranks_a_folder_of_team_files(wargame, tmp_path):
    folder = tmp_path / "teams"
    folder.mkdir()
    (folder / "a.toml").write_text('name = "Twin Sebeki"\nmodels = ["Sebeki", "Sebeki", "Asar"]')
    (folder / "b.json").write_text(json.dumps({"models": ["Basti", "Basti", "Satyr"]}))
    (folder / "c.toml").write_text('models = [{unit = "Sebeki", die = 4}, "Basti", "Basti"]')
    (folder / "notes.txt").write_text("not a team")
    out = run_json(
        wargame, TUG, "--matrix", "--teams", str(folder), "--games", "20", "--seed", "1",
        "--workers", "1",
    )  # fmt: skip
    matrix = out["matrix"]
    assert matrix["teams"] == ["Twin Sebeki", "b", "c"]
    assert matrix["ranking"][0] == "Twin Sebeki"
    (folder / "a.toml").unlink()
    (folder / "b.json").unlink()
    line = one_error_line(
        wargame("simulate", TUG, "--matrix", "--teams", str(folder), "--games", "4")
    )
    assert "needs at least two teams" in line
    line = one_error_line(wargame("simulate", TUG, "--teams", str(folder), "--games", "4"))
    assert "--teams DIR goes with --matrix" in line
    line = one_error_line(
        wargame("simulate", TUG, "--matrix", "--teams", "nowhere", "--games", "4")
    )
    assert "no such folder" in line


# -- 3. points ------------------------------------------------------------------------------
def test_equal_total_sides_are_exactly_even(wargame):
    """The exact claim `--points` states for Tug: equal total die sides (here 22) are exactly
    50%, though the pools differ; the exact odds say so, not a sample."""
    out = run_json(
        wargame, TUG, "--team-a", "Sebeki, Asar, Asar", "--team-b", "2 Heru, Asar", "--exact"
    )
    assert out["exact"]["A"] == pytest.approx(0.5, abs=1e-12)


def test_points_are_measured_and_exact_where_the_odds_settle_them(wargame, tmp_path):
    env = {"WARGAME_CACHE_DIR": str(tmp_path / "cache")}
    args = (
        "simulate",
        TUG,
        "--points",
        "--games",
        "400",
        "--seed",
        "3",
        "--json",
        "--workers",
        "1",
    )
    done = wargame(*args, env=env)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    exact = out["exact"]
    assert exact["points"]["Beloved of Sobek"] == 12 and exact["points"]["Basti"] == 4
    assert "exactly 50%" in exact["statement"] and "64 pairs" in exact["statement"]
    assert "total alone does not settle" in exact["statement"]
    values = {row["unit"]: row for row in out["points"]["values"]}
    assert set(values) == set(exact["points"])
    big, small = values["Beloved of Sobek"], values["Basti"]
    assert big["ci95"][0] > small["ci95"][1]  # a d12 is worth more than a d4, clearly
    assert big["ci95"][0] < big["strength"] < big["ci95"][1]
    assert out["points"]["relative"] is True  # three models a team: only differences
    assert min(row["points"] for row in values.values()) == 1.0
    # asked again: the same answer, from the cache's one file
    again = wargame(*args, env=env)
    assert json.loads(again.stdout) == out
    assert len(list((tmp_path / "cache").iterdir())) == 1
    # a changed die changes the exact points, and the measurement's key
    changed = wargame(*args, "--unit", "Sebeki.die=12", env=env)
    assert json.loads(changed.stdout)["exact"]["points"]["Sebeki"] == 12
    assert len(list((tmp_path / "cache").iterdir())) == 2


def test_points_without_exact_odds_are_fitted_over_teams_of_any_size(wargame, tmp_path):
    env = {"WARGAME_CACHE_DIR": str(tmp_path / "cache")}
    done = wargame(
        "simulate", SEEDS, "--points", "--games", "60", "--seed", "1", "--json",
        "--workers", "1", env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert "exact" not in out and out["points"]["relative"] is False
    assert out["points"]["games"] == 60 and out["points"]["match_ups"] == 15
    for row in out["points"]["values"]:
        lo, hi = row["ci95"]
        assert lo <= row["strength"] <= hi


def test_rules_points_and_its_refusals(wargame, tmp_path):
    env = {"WARGAME_CACHE_DIR": str(tmp_path / "cache")}
    done = wargame("rules", TUG, "--points", env=env)
    assert done.returncode == 0, done.stderr
    assert "exact points" in done.stdout and "Beloved of Sobek" in done.stdout
    assert "exactly 50%" in " ".join(done.stdout.split())
    assert "declares no unit types" in one_error_line(wargame("rules", "pit-fight", "--points"))
    assert "drop the rule points" in one_error_line(wargame("rules", TUG, "a1", "--points"))


def test_a_budget_builds_two_teams_of_equal_points(wargame):
    """Tug's exact points: two teams of 24 points (other dice, the same total sides) are
    exactly even."""
    out = run_json(wargame, TUG, "--budget", "24", "--exact", "--seed", "4")
    assert out["budget"] == {"points": 24, "values": "exact", "cost": {"A": 24.0, "B": 24.0}}
    a, b = (out["teams"][side]["team"]["models"] for side in "AB")
    assert a != b
    assert out["exact"]["A"] == pytest.approx(0.5, abs=1e-12)
    line = one_error_line(
        wargame("simulate", TUG, "--budget", "24", "--team-a", "Greentoe", "--exact")
    )
    assert "--budget builds both teams" in line
    assert "no legal team costs 5" in one_error_line(
        wargame("simulate", TUG, "--budget", "5", "--exact")
    )


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--points", "--team-a", "Greentoe"), "--points draws its own random teams"),
        (("--points", "--swap"), "one study at a time"),
        (("--budget", "20", "--matrix"), "--budget builds one match-up"),
        (("--unit", "Sebeki.die=8", "--matrix"), "--unit with --matrix needs --games N"),
    ],
)
def test_points_budget_and_units_refuse_what_they_cannot_do(wargame, args, words):
    assert words in one_error_line(wargame("simulate", TUG, *args))
