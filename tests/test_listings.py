"""What the listings and references tell, through the real entry point: option ranges, ready
teams, rulesets at 80 columns, simulate's words, and what Ctrl-C says it kept."""

from __future__ import annotations

import json
import os

import pytest

from tests.cli_helpers import one_error_line
from tests.pty_helpers import PROMPT, spawn

RULESETS = ("tug-of-wargods", "squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale")


def test_every_number_option_shows_its_range(wargame):
    done = wargame("rules", "seeds-of-wars", env={"COLUMNS": "80"})
    assert "columns  default 3; int 1-8; rule d8" in done.stdout
    wide = wargame("rules", "squad-alpha", env={"COLUMNS": "140"})
    assert "-10 to 20, at most" in wide.stdout
    data = json.loads(wargame("rules", "seeds-of-wars", "--json").stdout)
    columns = next(o for o in data["options"] if o["name"] == "columns")
    assert (columns["minimum"], columns["maximum"]) == (1, 8)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_reference_lists_its_ready_teams(wargame, ruleset_id):
    data = json.loads(wargame("rules", ruleset_id, "--json").stdout)
    ready = data["ready_teams"]
    assert ready, ruleset_id
    text = " ".join(wargame("rules", ruleset_id, env={"COLUMNS": "100"}).stdout.split())
    assert "Ready teams" in text
    for team in ready:
        assert " ".join(f"- {team['name']}: {team['team']}".split()) in text
        # and each one named is a team the flags take
        played = wargame(
            "play", ruleset_id, "--team-a", team["name"], "--no-input", "--turns", "1", "--no-save"
        )
        assert played.returncode == 0, (team["name"], played.stderr)


def test_squad_alpha_lists_the_commandos_the_readme_uses(wargame):
    data = json.loads(wargame("rules", "squad-alpha", "--json").stdout)
    assert "Commandos" in [t["name"] for t in data["ready_teams"]]


def test_rulesets_at_80_columns_cut_no_file_name(wargame):
    done = wargame("rulesets", env={"COLUMNS": "80"})
    for seed in ("000_eaa62a6788245757.txt", "002_5187e8e16bfe3a7c.txt"):
        assert seed in done.stdout
    assert "…" not in done.stdout
    assert all(len(line.rstrip()) <= 80 for line in done.stdout.splitlines())


def test_options_that_bound_each_other_are_checked_together(wargame):
    done = wargame(
        "play", "squad-alpha", "--no-input", "--no-save", "--option", "rating_min=5",
        "--option", "rating_max=2",
    )  # fmt: skip
    line = one_error_line(done)
    assert "rating_min=5 is above rating_max=2" in line


def test_a_non_finite_option_is_named_as_typed(wargame):
    done = wargame("play", "tug-of-wargods", "--no-input", "--no-save", "--option", "start=1e400")
    assert "'1e400' is not a finite number" in one_error_line(done)


def test_simulate_counts_rounds_and_names_its_figures(wargame):
    done = wargame("simulate", "mobs-and-morale", "--games", "4", "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert "rounds (95% interval" in done.stdout and " turns (" not in done.stdout
    assert "after_battle" not in done.stdout
    assert "after battle: The Lantern Company (A)" in done.stdout


def test_exact_odds_read_as_words(wargame):
    done = wargame("simulate", "tug-of-wargods", "--exact", env={"COLUMNS": "200"})
    assert "Greentoe (A) 0.9" in done.stdout and "Victory to" not in done.stdout
    inline = wargame(
        "simulate", "tug-of-wargods", "--exact", "--team-a", "Sebeki,Asar,Asar",
        "--team-b", "Heru,Asar,Basti", env={"COLUMNS": "200"},
    )  # fmt: skip
    assert "Side A 0." in inline.stdout and "Side A (A)" not in inline.stdout


def test_a_version_in_other_digits_is_not_a_number(wargame, tmp_path):
    save = tmp_path / "g.json"
    wargame("play", "tug-of-wargods", "--no-input", "--seed", "3", "--save", str(save))
    data = json.loads(save.read_text())
    data["ruleset"]["version"] = "\u0662"  # ARABIC-INDIC DIGIT TWO
    save.write_text(json.dumps(data))
    assert "version" in one_error_line(wargame("replay", str(save), "--no-input"))


@pytest.mark.pty
def test_ctrl_c_during_setup_says_nothing_was_saved(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(["play", "tug-of-wargods"], cwd=str(tmp_path), saves=str(saves))
    child.expect(PROMPT)
    child.sendintr()
    child.expect("interrupted during setup: no game had started, nothing was saved")
    child.expect(pexpect_eof())
    child.close()
    assert child.exitstatus == 130
    assert not saves.exists() or not os.listdir(saves)


def pexpect_eof():
    import pexpect

    return pexpect.EOF


@pytest.mark.pty
@pytest.mark.parametrize("save", [True, False])
def test_ctrl_c_in_a_game_says_what_was_kept(tmp_path, save):
    saves = tmp_path / "saves"
    args = ["play", "tug-of-wargods", "--seed", "9", "--team-a", "Sebeki,Asar,Asar"]
    args += ["--team-b", "Heru,Asar,Basti"]
    child = spawn(args + ([] if save else ["--no-save"]), cwd=str(tmp_path), saves=str(saves))
    child.expect("Turn 1 is over")
    child.sendintr()
    child.expect(r"interrupted; game saved to \S+" if save else "interrupted; nothing was saved")
    child.expect(pexpect_eof())
    child.close()
    assert child.exitstatus == 130
    assert len(list(saves.glob("*.json"))) == (1 if save else 0)


def test_simulate_refuses_a_team_file_name_that_play_refuses(wargame, tmp_path):
    team = tmp_path / "bad.toml"
    team.write_text('name = "Bad\\u001b[2J"\nmodels = ["Sebeki", "Asar", "Asar"]\n')
    for command in ("play", "simulate"):
        extra = ["--games", "2"] if command == "simulate" else ["--no-input", "--no-save"]
        done = wargame(command, "tug-of-wargods", "--team-a", str(team), *extra)
        assert "terminal escapes" in one_error_line(done), command


def test_saves_lists_rounds_winners_by_name_draws_and_forks(wargame, tmp_path):
    folder = tmp_path / "s"
    common = ["--no-input", "--saves-dir", str(folder)]
    wargame("play", "mobs-and-morale", "--seed", "1", *common)
    wargame("play", "battle-of-ixu", "--seed", "1", "--turns", "2", *common)
    wargame("play", "battle-of-ixu", "--seed", "2", "--option", "max_turns=2", *common)
    saved = {p: json.loads(p.read_text()) for p in folder.glob("battle-of-ixu*.json")}
    [ixu] = [p for p, data in saved.items() if data["status"] == "in_progress"]
    assert wargame("fork", str(ixu), "--turn", "1", "--saves-dir", str(folder)).returncode == 0
    text = " ".join(
        wargame("saves", "--saves-dir", str(folder), env={"COLUMNS": "200"}).stdout.split()
    )
    assert "round 8, finished, won by The Lantern Company (A)" in text
    assert "winner " not in text
    assert "finished, a draw" in text  # seed 2 at the 2-turn cap: the sides even
    assert f"a fork of {ixu.name} after turn 1" in text
    rows = json.loads(wargame("saves", "--json", "--saves-dir", str(folder)).stdout)
    assert [r["forked_from"]["turn"] for r in rows if r.get("forked_from")] == [1]


def test_resuming_a_fork_says_it_is_one(wargame, tmp_path):
    save = tmp_path / "g.json"
    wargame(
        "play", "battle-of-ixu", "--no-input", "--seed", "1", "--turns", "2", "--save", str(save)
    )
    fork = tmp_path / "f.json"
    assert wargame("fork", str(save), "--turn", "1", "--save", str(fork)).returncode == 0
    done = wargame("resume", str(fork), "--no-input", "--turns", "2")
    assert done.returncode == 0, done.stderr
    assert "Resuming a fork of g.json, branched after turn 1." in " ".join(done.stdout.split())


def test_a_save_problem_names_the_save_once(wargame, tmp_path):
    save = tmp_path / "g.json"
    wargame("play", "squad-alpha", "--no-input", "--seed", "2", "--turns", "1", "--save", str(save))
    data = json.loads(save.read_text())  # an unsealed (version 1) save naming a far table file
    data["version"] = 1
    data.pop("seal", None)
    for entry in data["log"]:
        entry.pop("h", None)
    data["options"]["table"] = "../elsewhere.toml"
    save.write_text(json.dumps(data))
    line = one_error_line(wargame("replay", str(save), "--no-input"))
    assert line.count("save ") == 1 and "not in the save's own folder" in line


@pytest.mark.pty
def test_the_first_mobs_and_morale_screen_keys_the_terrain_once(tmp_path):
    from tests.pty_helpers import Terminal, drawn

    args = ["play", "mobs-and-morale", "--bot", "B", "--team-a", "The Lantern Company"]
    args += ["--name-a", "Lanterns", "--seed", "4"]
    child = spawn(args, cwd=str(tmp_path), saves=str(tmp_path / "s"), size=(45, 120))
    screen = Terminal(45, 120)
    child.logfile_read = screen
    drawn(child)
    text = screen.text()
    assert "Deploy Brakka" in text
    assert text.count("standing stones") == 1, text
    child.sendintr()
    child.expect(pexpect_eof())
