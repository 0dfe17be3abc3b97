"""A whole hot-seat game of Tug of WarGods through the interactive prompts, in a real
pseudo-terminal: every question answered with Enter."""

from __future__ import annotations

import json
from pathlib import Path

import pexpect
import pytest

from tests.pty_helpers import PROMPT, press_enter_until_done, spawn

pytestmark = pytest.mark.pty


def test_enter_alone_plays_a_whole_game(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(["play", "--seed", "5"], str(tmp_path), str(saves))
    child.expect("Which ruleset")
    child.send("\r")
    answered = press_enter_until_done(child)
    child.close()
    assert child.exitstatus == 0
    assert answered >= 6  # names, players, two teams, and a pause per turn
    [save] = list(saves.glob("*.json"))
    data = json.loads(save.read_text())
    assert data["status"] == "finished"
    assert data["setup"]["players"] == {"A": "human", "B": "human"}
    assert data["setup"]["teams"]["A"]["models"] == ["Sebeki", "Asar", "Asar"]


def test_team_building_shows_illegal_units_disabled_and_saves_on_quit(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        ["play", "tug-of-wargods", "--seed", "2", "--bot", "B"], str(tmp_path), str(saves)
    )
    child.expect("pick a team")
    # from the suggested Greentoe pick, down past Clearsky to "Build a team model by model"
    for _ in range(2):
        child.send("\x1b[B")  # arrow down
    child.send("\r")
    child.expect("model 1 of 3")
    child.send("\r")  # the suggestion: a d12
    child.expect("model 2 of 3")
    child.expect("Minotaur.*at most 1 d12")  # shown, disabled, with the reason
    child.send("\r")
    child.expect("model 3 of 3")
    child.send("\r")
    child.expect("Name for side A")
    child.send("\x15Mira\r")  # clear the suggested name, type another
    child.expect("Turn 1 is over")
    child.send("\x1b[B\r")  # Save and quit
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    [save] = list(Path(saves).glob("*.json"))
    data = json.loads(save.read_text())
    assert data["status"] == "in_progress" and data["turns"] == 1
    assert data["setup"]["names"]["A"] == "Mira"
    assert data["setup"]["players"] == {"A": "human", "B": "bot"}


def test_ctrl_c_saves_and_exits_130(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        [
            "play",
            "tug-of-wargods",
            "--seed",
            "9",
            "--team-a",
            "Sebeki,Asar,Asar",
            "--team-b",
            "Heru,Asar,Basti",
        ],
        str(tmp_path),
        str(saves),
    )
    child.expect("Turn 1 is over")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    [save] = list(Path(saves).glob("*.json"))
    data = json.loads(save.read_text())
    assert data["status"] == "in_progress" and data["turns"] >= 1


def test_manual_dice_refuses_impossible_faces(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        [
            "play",
            "tug-of-wargods",
            "--dice",
            "manual",
            "--team-a",
            "Sebeki,Asar,Asar",
            "--team-b",
            "Heru,Asar,Basti",
            "--turns",
            "1",
        ],
        str(tmp_path),
        str(saves),
    )
    child.expect("type the faces")
    child.send("4 3 7\r")
    child.expect("does not fit a d6")
    child.send("\x15")  # clear the line
    child.send("4 3 6\r")
    child.expect("type the faces")
    child.send("4 4 3\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    [save] = list(Path(saves).glob("*.json"))
    rolls = [e for e in json.loads(save.read_text())["log"] if e["t"] == "roll"]
    assert [r["faces"] for r in rolls] == [[4, 3, 6], [4, 4, 3]]
    assert {r["source"] for r in rolls} == {"manual"}


def test_replay_steps_turn_by_turn_with_enter(tmp_path, wargame):
    path = tmp_path / "g.json"
    wargame("play", "tug-of-wargods", "--no-input", "--seed", "3", "--save", str(path))
    child = spawn(["replay", str(path)], str(tmp_path), str(tmp_path / "saves"))
    child.expect("Greentoe")  # the header names the sides
    child.expect(PROMPT)
    child.expect("Next turn: the end of turn 1")
    for turn in (1, 2):  # Enter steps on, decision by decision, into turn 1 and turn 2
        for _ in range(50):
            child.send("\r")
            if child.expect([f"Turn {turn} of", PROMPT]) == 0:
                break
        else:
            raise AssertionError(f"Enter never reached turn {turn}")
    press_enter_until_done(child)  # Enter reads on to the last turn, then quits
    child.close()
    assert child.exitstatus == 0


def test_a_quick_pick_names_the_side(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        ["play", "tug-of-wargods", "--bot", "A", "--seed", "1", "--turns", "1"],
        str(tmp_path),
        str(saves),
    )
    child.expect("pick a team")
    child.send("\x1b[A\r")  # up from the suggested Clearsky to Greentoe
    child.expect("Name for side B")
    child.send("\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    [save] = list(Path(saves).glob("*.json"))
    data = json.loads(save.read_text())
    # side A (the computer) is Greentoe too: the suggested name is made distinct
    assert data["setup"]["names"] == {"A": "Greentoe", "B": "Greentoe (B)"}
    assert data["setup"]["teams"]["B"]["models"] == ["Sebeki", "Asar", "Asar"]
