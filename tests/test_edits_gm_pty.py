""" "Table…" refuses a bad edit at once, in a real pseudo-terminal: at a question the table
cannot be edited at, only the edits it can take are offered; a name no figure has is refused
when the words are entered, before who and why are asked; a game stopped before its first
turn (`--turns 0`) is met by the between-turns question, for old wounds (issue 34)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.pty_helpers import spawn
from tests.test_edits_pty import SMALL, UP, enter_until, verified

pytestmark = pytest.mark.pty


def test_table_refuses_the_first_bad_word_before_who_and_why(tmp_path):
    saves, path = tmp_path / "saves", tmp_path / "mm.json"
    child = spawn(
        ["play", "mobs-and-morale", "--seed", "5", "--bot", "B", "--turns", "1", *SMALL,
         "--save", str(path)],
        str(tmp_path), str(saves), timeout=60,
    )  # fmt: skip
    child.expect("Deploy Brakka")
    child.send(UP * 4 + "\r")  # Table…
    child.expect("Edit the table: what")
    child.expect("damage: damage CREATURE N \\(not at this question")  # nor heal, move...
    child.expect("end: end WINNER")
    child.send("\x1b[B\x1b[B\r")  # Back to the question
    child.expect("Deploy Brakka")
    enter_until(child, "move or act")
    child.send(UP * 3 + "\r")  # Table…
    child.expect("Edit the table: what")
    child.send("\r")  # damage
    child.expect("type what follows 'damage'")
    child.send("Nobody 2\r")
    child.expect("no creature 'Nobody'; there are: Brakka, Tarn, Ugrak")
    child.sendcontrol("u")
    child.send("Ugrak 2\r")
    child.expect("Who makes this edit")
    child.send("\r")
    child.expect("Why")
    child.send("a falling rock\r")
    child.expect("Table edit by the GM: Ugrak takes 2 damage")
    child.close(force=True)


def test_a_save_stopped_before_round_1_is_met_by_table_for_old_wounds(tmp_path):
    saves, path = tmp_path / "saves", tmp_path / "mm.json"
    made = subprocess.run(
        [sys.executable, "-m", "wargame_cli", "play", "mobs-and-morale", "--no-input",
         "--seed", "5", "--turns", "0", "--save", str(path)],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    child = spawn(
        ["resume", str(path), "--bot", "B", "--turns", "1"], str(tmp_path), str(saves), timeout=60
    )
    child.expect("Before round 1")
    child.send(UP * 3 + "\r")  # Table…
    child.expect("Edit the table: what")
    child.send("\r")  # damage
    child.expect("type what follows 'damage'")
    child.send("Brakka 2\r")
    child.expect("Who makes this edit")
    child.send("\r")
    child.expect("Why")
    child.send("an old wound\r")
    child.expect("Brakka takes 2 damage")
    child.expect("Before round 1")  # asked again: play, or edit more
    child.send("\x1b[B\r")  # Save and quit
    child.expect("Saved to")
    child.close()
    log = json.loads(path.read_text())["log"]
    assert [e["text"] for e in log if e["t"] == "edit"] == ["Brakka takes 2 damage (5/7 left)"]
    assert not any(e["t"] == "turn" for e in log)
    assert verified(tmp_path, path)["verified"] is True
