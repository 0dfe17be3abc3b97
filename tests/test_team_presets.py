"""The ready teams the menus offer are accepted by name on the command line, for every
ruleset, and a team built piece by piece is not given a preset's name (issue 12, item 14)."""

from __future__ import annotations

import json
from pathlib import Path

import pexpect
import pytest

from tests.cli_helpers import one_error_line, play_json
from tests.pty_helpers import spawn

PRESETS = [
    ("tug-of-wargods", "Greentoe", "clearsky"),
    ("squad-alpha", "Commandos", "bravo squad"),
    ("battle-of-ixu", "Veterans", "LEVY"),
    ("seeds-of-wars", "Northern Host", "border-raiders"),
    ("mobs-and-morale", "The Hound Pack", "the wolf shaman"),
]


@pytest.mark.parametrize(("ruleset_id", "team_a", "team_b"), PRESETS)
def test_preset_names_are_accepted_by_team_flags(wargame, ruleset_id, team_a, team_b):
    result = play_json(
        wargame,
        ruleset_id,
        "--team-a",
        team_a,
        "--team-b",
        team_b,
        "--no-input",
        "--no-save",
        "--seed",
        "2",
        "--turns",
        "1",
    )
    names = {side: result["state"]["sides"][side]["name"] for side in ("A", "B")}
    assert names["A"] == team_a
    assert names["B"].lower().replace(" ", "").replace("-", "") == team_b.lower().replace(
        " ", ""
    ).replace("-", "")  # the preset's own spelling, whatever case was typed


def test_a_preset_name_with_a_typo_is_still_one_clear_line(wargame):
    done = wargame("play", "squad-alpha", "--team-a", "Comandos", "--no-input", "--no-save")
    assert "Comandos" in one_error_line(done)


def test_named_side_keeps_its_name_over_the_presets(wargame):
    result = play_json(
        wargame,
        "squad-alpha",
        "--team-a",
        "Commandos",
        "--name-a",
        "Ghosts",
        "--no-input",
        "--no-save",
        "--turns",
        "1",
    )
    assert result["state"]["sides"]["A"]["name"] == "Ghosts"


@pytest.mark.pty
def test_a_team_built_model_by_model_is_not_named_after_a_preset(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        ["play", "tug-of-wargods", "--seed", "2", "--bot", "B"], str(tmp_path), str(saves)
    )
    child.expect("pick a team")
    for _ in range(2):  # from the suggested Greentoe, past Clearsky to "Build a team..."
        child.send("\x1b[B")
    child.send("\r")
    for n in (1, 2, 3):
        child.expect(f"model {n} of 3")
        child.send("\r")
    child.expect("Name for side A")
    child.send("\r")  # the suggested name
    child.expect("Turn 1 is over")
    child.send("\x1b[B\r")  # Save and quit
    child.expect(pexpect.EOF)
    child.close()
    [save] = list(Path(saves).glob("*.json"))
    data = json.loads(save.read_text())
    assert data["setup"]["teams"]["A"]["models"] != ["Sebeki", "Asar", "Asar"]
    assert data["setup"]["names"]["A"] == "Side A"
