""" "Table…" refuses a bad edit at once, in a real pseudo-terminal: at a question the table
cannot be edited at, only the edits it can take are offered; a name no figure has is refused
when the words are entered, before who and why are asked (issue 34)."""

from __future__ import annotations

import pytest

from tests.pty_helpers import spawn
from tests.test_edits_pty import SMALL, UP, enter_until

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
