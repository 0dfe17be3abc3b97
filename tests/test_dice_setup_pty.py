"""Who rolls the dice, asked at setup (issue 22 item 3): when setup asks who plays each side,
it asks who rolls too, and a side's real dice are typed while the computer rolls the other's;
`--dice` given, or the players given by flags, ask nothing."""

from __future__ import annotations

import io
import json

import pexpect
import pytest

from tests.pty_helpers import settle, spawn

pytestmark = pytest.mark.pty

UP, DOWN = "\x1b[A", "\x1b[B"


def test_setup_asks_who_rolls_and_side_a_types_its_faces(tmp_path, wargame):
    saves = tmp_path / "saves"
    child = spawn(["play", "tug-of-wargods", "--seed", "3", "--turns", "1"],
                  str(tmp_path), str(saves))  # fmt: skip
    child.expect("Who plays side A")
    child.send("\r")  # a person
    child.expect("Who plays side B")
    child.send(DOWN + "\r")  # the computer
    child.expect("Who rolls the dice")
    child.expect("Take back")
    settle(child)
    child.send(UP + "\r")  # Take back: who plays side B is asked again
    child.expect("Who plays side B")
    child.send(DOWN + "\r")
    child.expect("Who rolls the dice")
    settle(child)
    child.send(DOWN * 2 + "\r")  # real dice for side A, the computer for side B
    for _ in range(6):  # the team and the name, as suggested
        index = child.expect(["pick a team", "Name for side A", "type the faces"])
        if index == 2:
            break
        settle(child)
        child.send("\r")
    child.send("9 6 5\r")  # side A's pull, thrown at the table
    child.expect(pexpect.EOF, timeout=30)
    [save] = list(saves.glob("*.json"))
    data = json.loads(save.read_text())
    assert data["setup"]["dice"] == "A=manual,B=auto"
    first = next(e for e in data["log"] if e["t"] == "roll")
    assert (first["side"], first["faces"], first["source"]) == ("A", [9, 6, 5], "manual")
    told = json.loads(wargame("replay", str(save), "--verify", "--json").stdout)
    assert told["provenance"]["dice"]["manual"] == 3 and told["provenance"]["dice"]["rng"] == 3


def test_with_the_players_given_by_flags_nothing_is_asked_about_dice(tmp_path):
    args = ["play", "tug-of-wargods", "--seed", "3", "--turns", "1", "--bot", "B"]
    args += ["--team-a", "Greentoe", "--no-save"]
    child = spawn(args, str(tmp_path), str(tmp_path / "s"))
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect(pexpect.EOF, timeout=30)
    child.close()
    assert child.exitstatus == 0
    assert "Game in progress after turn 1" in seen.getvalue()
    assert "Who rolls the dice" not in seen.getvalue()
