"""Take back while setting up, at a real terminal: every setting-up question offers it, and it
asks the question before again (the name -> the team -> who plays -> the ruleset)."""

from __future__ import annotations

import json

import pexpect
import pytest

from tests.pty_helpers import Terminal, settle, spawn

pytestmark = pytest.mark.pty

UP, DOWN, ESC = "\x1b[A", "\x1b[B", "\x1b"


def test_take_back_from_the_name_to_the_team_and_choose_another(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(["play", "tug-of-wargods", "--seed", "5", "--bot", "B", "--turns", "1"],
                  str(tmp_path), str(saves))  # fmt: skip
    child.expect("pick a team")
    child.send("\r")  # the suggested team (Greentoe)
    child.expect("Name for side A")
    child.expect_exact("(Esc: take back)")
    child.send(ESC)  # take the name question back: the team question is asked again
    child.expect("pick a team")
    child.send(DOWN + "\r")  # another team this time
    child.expect("Name for side A")
    child.send("\r")  # its name, as suggested
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    [save] = list(saves.glob("*.json"))
    setup = json.loads(save.read_text())["setup"]
    assert setup["teams"]["A"]["models"] == ["Heru", "Asar", "Basti"]  # Clearsky, not Greentoe
    assert setup["names"]["A"] == "Clearsky"


def test_take_back_walks_back_through_who_plays_to_the_ruleset(tmp_path):
    child = spawn(["play", "--seed", "5", "--no-save", "--turns", "1"],
                  str(tmp_path), str(tmp_path / "saves"), size=(24, 80))  # fmt: skip
    screen = Terminal(24, 80)
    child.logfile_read = screen
    child.expect("Which ruleset")
    child.send(UP + "\r")  # Take back, the last item: nothing before it, refused
    child.expect("nothing to take back")
    child.expect("Which ruleset")
    child.send("\r")  # the first ruleset
    child.expect("Who plays side A")
    child.send("\r")  # a person
    child.expect("Who plays side B")
    settle(child)
    assert "Take back" in screen.text()
    child.send(UP + "\r")  # Take back: side A's player is asked again
    child.expect("Who plays side A")
    child.send(UP + "\r")  # and again: back to the ruleset
    child.expect("Which ruleset")
    child.send(DOWN + "\r")  # another ruleset this time
    child.expect("Who plays side A")
    child.send(ESC)  # an Esc at a list does nothing
    child.sendcontrol("c")
    child.expect(pexpect.EOF)


def test_the_team_question_can_look_at_unit_profiles(tmp_path):
    child = spawn(["play", "tug-of-wargods", "--seed", "5", "--bot", "B", "--no-save"],
                  str(tmp_path), str(tmp_path / "saves"), size=(24, 80))  # fmt: skip
    screen = Terminal(24, 80)
    child.logfile_read = screen
    child.expect("pick a team")
    settle(child)
    assert "Look…" in screen.text() and "Take back" in screen.text()
    child.send(DOWN * 3 + "\r")  # down from the suggestion past Clearsky and Build: Look…
    child.expect("Look at what")
    child.send("\r")  # Unit profiles
    child.expect("Unit profiles")
    settle(child)
    assert "Sebeki" in screen.text()  # a unit of the ruleset, drawn above the menu
    child.send(ESC)  # back to the question
    child.expect("pick a team")
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
