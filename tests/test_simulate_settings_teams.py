"""Every report of a study states both teams of every setting it played: `--compare
team-a=...` never names the first setting's team as if it played them all (issue 35, item 4),
a sweep of a unit's stat lists each setting's changed rosters, and `--matrix` and `--mirrors`
state (and play) the run's unit changes."""

from __future__ import annotations

import json

from tests.test_simulate_runs import run_json

TUG = "tug-of-wargods"
TEAMS = ("--compare", "team-a=2 Sebeki, To-Tanem", "--compare", "team-a=Sebeki, 2 To-Tanem")
FEW = ("--games", "20", "--seed", "1", "--workers", "1")


def _rosters(by_setting, side):
    return [row["teams"][side]["roster"] for row in by_setting]


def test_compared_teams_are_each_stated_in_json(wargame):
    out = run_json(wargame, TUG, *FEW, *TEAMS)
    rows = out["run"]["by_setting"]
    assert [row["setting"] for row in rows] == [
        "team-a=2 Sebeki, To-Tanem",
        "team-a=Sebeki, 2 To-Tanem",
    ]
    first, second = ([line.split(":")[0] for line in roster] for roster in _rosters(rows, "A"))
    assert first == ["Sebeki", "Sebeki", "To-Tanem"]
    assert second == ["Sebeki", "To-Tanem", "To-Tanem"]
    b = _rosters(rows, "B")
    assert b[0] == b[1] and rows[0]["teams"]["B"]["name"] == "Clearsky"


def test_compared_teams_are_each_stated_on_the_terminal_and_the_page(wargame, tmp_path):
    page = tmp_path / "compare.html"
    done = wargame("simulate", TUG, *FEW, *TEAMS, "--html", str(page))
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "each setting's team (A) against Clearsky (B)" in " ".join(text.split())
    assert "Side A (A) against" not in text
    about = text[text.index("This run") :]
    one = about.index("Setting team-a=2 Sebeki, To-Tanem:")
    two = about.index("Setting team-a=Sebeki, 2 To-Tanem:")
    assert about[one:two].count("Sebeki: die d10") == 2
    assert about[two:].count("To-Tanem: die d8") == 2
    assert about[one:two].count("Clearsky") == about[two:].count("Clearsky") == 1
    html = page.read_text(encoding="utf-8")
    assert "each setting&#x27;s team (A) against Clearsky (B)" in html
    assert "<h3>Setting team-a=2 Sebeki, To-Tanem</h3>" in html
    assert "<h3>Setting team-a=Sebeki, 2 To-Tanem</h3>" in html


def test_a_unit_sweep_states_each_settings_rosters_and_an_option_sweep_one(wargame):
    out = run_json(
        wargame, TUG, *FEW, "--team-a", "2 Sebeki, To-Tanem", "--sweep", "Sebeki.die=6,8"
    )
    a = _rosters(out["run"]["by_setting"], "A")
    assert a[0][:2] == ["Sebeki (die=6)"] * 2 and a[1][:2] == ["Sebeki (die=8)"] * 2
    same = run_json(wargame, TUG, *FEW, "--sweep", "start=3,4")
    assert "by_setting" not in same["run"]  # one pair of teams played every setting
    assert "Clearsky" in json.dumps(same["run"]["teams"])


def test_mirrors_and_matrix_play_and_state_the_unit_changes(wargame, tmp_path):
    mirrors = run_json(wargame, TUG, "--mirrors", "--games", "4", "--unit", "Sebeki.die=6")
    assert mirrors["unit_changes"] == {"Sebeki": {"die": 6}}
    assert mirrors["run"]["settings"]["unit changes"] == {"Sebeki": {"die": 6}}
    rosters = [line for team in mirrors["run"]["teams"] for line in team["roster"]]
    assert "Sebeki (die=6)" in rosters and not any(r.startswith("Sebeki:") for r in rosters)
    folder = tmp_path / "teams"
    folder.mkdir()
    (folder / "a.toml").write_text('name = "Slow"\nmodels = ["Sebeki", "To-Tanem", "To-Tanem"]')
    (folder / "b.toml").write_text('name = "Fast"\nmodels = ["Sebeki", "Sebeki", "To-Tanem"]')
    matrix = run_json(
        wargame, TUG, "--matrix", "--teams", str(folder), "--games", "4", "--unit", "Sebeki.die=6"
    )
    assert matrix["run"]["settings"]["unit changes"] == {"Sebeki": {"die": 6}}
