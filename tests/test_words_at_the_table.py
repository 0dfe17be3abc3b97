"""Words that say what happened: a brief report never says "nobody is hit" of a hit a save
took back; the squad builder suggests the next free Trooper number; Take back at the first
setting-up question says why in a player's words."""

from __future__ import annotations

import pexpect
import pytest

from tests.pty_helpers import Terminal, settle, spawn

DOWN, UP = "\x1b[B", "\x1b[A"


def test_a_brief_report_says_a_saved_hit_was_saved(wargame, tmp_path):
    save = tmp_path / "g.json"
    assert wargame("play", "squad-alpha", "--no-input", "--seed", "5",
                   "--save", str(save)).returncode == 0  # fmt: skip
    brief = " ".join(
        wargame("replay", str(save), "--report", "-", "--style", "brief").stdout.split()
    )
    # turn 3: Sparks hits Moss, and Moss's save takes the hit back
    assert "Between Sparks and Moss, nobody is hit" not in brief
    assert "Between Sparks and Moss, the one hit that lands is saved" in brief


@pytest.mark.pty
def test_the_builder_suggests_the_next_free_trooper_number(tmp_path):
    child = spawn(["play", "squad-alpha", "--bot", "B", "--no-save"], str(tmp_path),
                  str(tmp_path / "saves"), size=(30, 120))  # fmt: skip
    screen = Terminal(30, 120)
    child.logfile_read = screen
    child.expect("pick a squad")
    child.send(DOWN * 4 + "\r")  # Build a squad miniature by miniature
    child.expect("miniature 1")
    settle(child)
    child.send("Sgt Rook elite 4, 3x Trooper conscript 0, Hawk regular 2")  # typing at the list
    settle(child)
    child.send("\r")
    child.expect("miniature 6")
    settle(child)
    text = screen.text()
    assert "Add Trooper 4 " in text and "Trooper 5" not in text, text
    child.sendcontrol("c")
    child.expect(pexpect.EOF)


@pytest.mark.pty
def test_take_back_at_the_first_setting_up_question_says_why(tmp_path):
    child = spawn(["play", "squad-alpha", "--no-save"], str(tmp_path), str(tmp_path / "saves"),
                  size=(30, 120))  # fmt: skip
    screen = Terminal(30, 120)
    child.logfile_read = screen
    child.expect("Who plays side A")
    settle(child)
    child.send(UP + "\r")  # Take back, the last item
    child.expect("Refused")
    settle(child)
    said = " ".join(screen.text().split())
    assert "this is the first question, so there is no earlier answer to change" in said
    assert "Ctrl-C leaves" in said
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
