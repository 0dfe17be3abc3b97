"""Physical dice and stopping: Ctrl-C before a turn's first face saves no empty turn, resume
keeps the save's dice mode, and `--rolls` with manual dice asks the rest one roll at a time."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pexpect
import pytest

from tests.pty_helpers import spawn
from wargame_cli.engine.dice import ManualDice, ScriptDice
from wargame_cli.engine.requests import Roll

pytestmark = pytest.mark.pty

QUESTION = r"roll (\S+) and type the faces \(([^)]*)\)"


def ones(child: pexpect.spawn) -> None:
    """Answer the manual-dice question on screen with a 1 for every die it asks for."""
    child.expect(QUESTION)
    count = sum(int(n) for n in re.findall(r"(\d+)d\d+", child.match.group(1)))
    child.send(" ".join("1" * count) + "\r")


def wargame(cwd, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "wargame_cli", *args],
        capture_output=True, text=True, cwd=cwd, env={"NO_COLOR": "1", "PATH": ""},
    )  # fmt: skip


def test_ctrl_c_before_a_turns_first_face_saves_no_empty_turn_and_resume_types_on(tmp_path):
    saves, path = tmp_path / "saves", tmp_path / "tug.json"
    args = ["--bot", "A", "--bot", "B", "--save", str(path)]
    child = spawn(["play", "tug-of-wargods", "--dice", "manual", *args], str(tmp_path), str(saves))
    ones(child)  # turn 1: a roll for each side
    ones(child)
    child.expect(QUESTION)  # turn 2 asks for its dice: stop before typing any
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    data = json.loads(path.read_text())
    assert data["turns"] == 1 and data["setup"]["dice"] == "manual"
    assert [e["n"] for e in data["log"] if e["t"] == "turn"] == [1]
    listed = wargame(tmp_path, "saves", "--json", "--saves-dir", str(tmp_path))
    (row,) = [r for r in json.loads(listed.stdout) if r["path"].endswith("tug.json")]
    assert row["turns"] == 1
    assert wargame(tmp_path, "replay", str(path), "--verify").returncode == 0
    # resume: the save's dice were typed in, so they still are, and the screen says so
    child = spawn(["resume", str(path), "--turns", "1"], str(tmp_path), str(saves))
    child.expect("Dice: typed in by hand \\(as the save was played\\)")
    ones(child)  # turn 2, asked again from its start
    ones(child)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    data = json.loads(path.read_text())
    assert data["turns"] == 2
    assert [e["source"] for e in data["log"] if e["t"] == "roll"] == ["manual"] * 4


def test_resume_dice_flag_overrides_the_saves_mode(tmp_path):
    saves, path = tmp_path / "saves", tmp_path / "tug.json"
    # a fixed seed whose generated turn 2 does not end the game (an unseeded one sometimes did)
    args = ["--bot", "A", "--bot", "B", "--save", str(path), "--turns", "1", "--seed", "2"]
    child = spawn(["play", "tug-of-wargods", "--dice", "manual", *args], str(tmp_path), str(saves))
    ones(child)
    ones(child)
    child.expect(pexpect.EOF)
    child.close()
    done = wargame(tmp_path, "resume", str(path), "--no-input", "--turns", "1")
    assert done.returncode == 0 and "no one is here to type them" in done.stderr
    assert json.loads(path.read_text())["setup"]["dice"] == "manual"  # kept for a person
    done = wargame(tmp_path, "resume", str(path), "--dice", "auto", "--turns", "1")
    assert done.returncode == 0, done.stderr
    assert "Dice: rolled by the seeded generator (as --dice says)." in done.stdout
    assert not done.stderr  # a note, not a warning
    data = json.loads(path.read_text())
    assert [e["source"] for e in data["log"] if e["t"] == "roll"] == ["manual"] * 2 + ["rng"] * 4
    assert data["setup"]["dice"] == "auto"


def test_rolls_then_manual_dice_ask_one_question_per_roll_with_labels(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        ["play", "battle-of-ixu", "--dice", "manual", "--rolls", "8", "--bot", "A", "--bot", "B",
         "--team-a", "Ajax:3", "--team-b", "Bron:3", "--turns", "1"],
        str(tmp_path), str(saves),
    )  # fmt: skip
    child.expect(QUESTION)  # the order roll's second die, the first came from --rolls
    assert child.match.group(1) == "1d10" and child.match.group(2) == "Bron d10"
    child.send("3\r")
    child.expect("Ajax's experience dice")
    child.expect(QUESTION)  # the next roll is one question for all its dice
    assert child.match.group(1) == "3d6"
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()
    [save] = list(saves.glob("*.json"))
    order = json.loads(save.read_text())["log"][1]
    assert order["faces"] == [8, 3] and order["sources"] == ["script", "manual"]


def test_script_then_manual_dice_in_process():
    asked = []

    def ask(roll):
        asked.append(roll)
        return [2] * len(roll.dice)

    dice = ScriptDice([5], ManualDice(ask))
    thrown = dice.throw(Roll((6, 6, 6), "attack", "A", labels=("Ann", "Bob", "Cy")))
    assert thrown.faces == (5, 2, 2) and thrown.source == ("script", "manual", "manual")
    assert [(r.dice, r.labels) for r in asked] == [((6, 6), ("Bob", "Cy"))]
