""" "Table…" at the table, in a real pseudo-terminal: a GM's edit at a creature's turn in Mobs
and Morale (the question is asked again on the edited table), and a die corrected between
turns in Tug of WarGods with side A's dice typed and side B's rolled by the computer."""

from __future__ import annotations

import json
import subprocess
import sys

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, PROMPT, Terminal, press_enter_until_done, spawn

pytestmark = pytest.mark.pty

UP, DOWN = "\x1b[A", "\x1b[B"
SMALL = [
    "--team-a",
    "Brakka=Warrior, Tarn=Spearwarden",
    "--team-b",
    "Ugrak=Chieftain, Red=3 Tribal Warrior under Ugrak",
]


def verified(cwd, path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "wargame_cli", "replay", str(path), "--verify", "--json"],
        capture_output=True, text=True, cwd=cwd, env={"NO_COLOR": "1", "PATH": ""},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def enter_until(child: pexpect.spawn, text: str) -> None:
    """Enter at every question until one whose line holds `text`."""
    while True:
        child.expect(PROMPT)
        child.expect(r"[^\r\n]+")
        if text in child.after:
            return
        child.send("\r")
        child.expect_exact(ANSWERED)


def test_a_gm_edit_at_a_turn_asks_the_turn_again_on_the_edited_table(tmp_path):
    saves, path = tmp_path / "saves", tmp_path / "mm.json"
    child = spawn(
        ["play", "mobs-and-morale", "--seed", "5", "--bot", "B", "--turns", "1", *SMALL,
         "--save", str(path)],
        str(tmp_path), str(saves), timeout=60,
    )  # fmt: skip
    enter_until(child, "move or act")
    child.send(UP * 3 + "\r")  # up from the suggestion: Take back, Look…, Table…
    child.expect("Edit the table: what")
    child.send("\r")  # damage
    child.expect("type what follows 'damage'")
    child.send('"Ugrak" 2\r')
    child.expect("Who makes this edit")
    child.send("\r")  # the GM
    child.expect("Why")
    child.send("a falling rock\r")
    child.expect("Table edit by the GM: Ugrak takes 2 damage")  # on the screen, and then
    child.expect("move or act")  # the same creature's turn, asked again
    child.send("\r")
    press_enter_until_done(child)
    child.close()
    assert child.exitstatus == 0
    log = json.loads(path.read_text())["log"]
    (edit,) = [e for e in log if e["t"] == "edit"]
    assert (edit["action"], edit["args"], edit["by"], edit["why"]) == (
        "damage", ["Ugrak", "2"], "GM", "a falling rock",
    )  # fmt: skip
    after = log[log.index(edit) + 1]
    assert after["t"] == "choice" and after["kind"] == "turn"  # the rebuilt question
    (told,) = verified(tmp_path, path)["provenance"]["edits"]
    assert told.startswith("by the GM: Ugrak takes 2 damage (") and told.endswith(
        "(a falling rock)"
    )


def test_a_die_corrected_between_turns_with_dice_by_side(tmp_path):
    saves, path = tmp_path / "saves", tmp_path / "tug.json"
    child = spawn(
        ["play", "tug-of-wargods", "--seed", "4", "--team-a", "Sebeki,Asar,Asar",
         "--team-b", "Heru,Asar,Basti", "--dice", "A=manual,B=auto", "--save", str(path)],
        str(tmp_path), str(saves), timeout=60,
    )  # fmt: skip
    term = Terminal(50, 120)
    child.logfile_read = term
    child.expect("or nothing: the computer rolls it")  # side A's pull: typed
    child.send("5 5 5\r")
    try:
        child.expect("Turn 1 is over")
    except pexpect.TIMEOUT:
        raise AssertionError(term.text()) from None  # side B's pull was rolled by the computer
    child.send(UP * 3 + "\r")  # Take back, Look…, Table…
    child.expect("Edit the table: what")
    child.send(DOWN + "\r")  # end, then die
    child.expect("Correct which die")
    child.send(UP * 4 + "\r")  # from the last die (6) up to die 2
    child.expect(r"Die 2 \(d6\) shows 5")
    child.send("7\r")
    child.expect("does not fit a d6")
    child.send("\x15" + "2\r")
    child.expect("Who makes this edit")
    child.send("\r")
    child.expect("Why")
    child.send("it was a 2\r")
    child.expect("Turn 1 is over")
    child.send(DOWN + "\r")  # save and quit
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    data = json.loads(path.read_text())
    rolls = [e for e in data["log"] if e["t"] == "roll"]
    assert rolls[0]["faces"] == [5, 2, 5] and rolls[0]["source"] == "manual"
    assert rolls[1]["source"] == "rng" and data["setup"]["dice"] == "A=manual,B=auto"
    (fix,) = [e for e in data["log"] if e["t"] == "edit"]
    assert fix["data"]["was"] == 5 and fix["data"]["face"] == 2 and fix["data"]["die"] == 2
    told = verified(tmp_path, path)["provenance"]
    assert told["dice"] == {
        "script": 0,
        "manual": 2,
        "rng": 3,
        "corrected": 1,
        "shared": 0,
        "typed-A": 0,
        "typed-B": 0,
    }
