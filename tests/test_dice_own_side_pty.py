"""Typed dice for one side (`--dice B=manual`): that side's player types only their own dice.
A roll-off or an order roll between both sides' figures asks each side for its own: the
computer rolls the other side's (here played by the computer), and the log keeps one roll
with each die's source. A wrong count of faces is told in words that read right."""

from __future__ import annotations

import json

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, Terminal, spawn

pytestmark = pytest.mark.pty

QUESTION = r"roll (\S+) and type the faces \(([^)]*)\)"


def _first_roll(path) -> dict:
    return next(e for e in json.loads(path.read_text())["log"] if e["t"] == "roll")


def test_a_roll_off_asks_the_typing_side_for_its_own_die_only(tmp_path):
    path = tmp_path / "g.json"
    child = spawn(["play", "squad-alpha", "--dice", "B=manual", "--bot", "A", "--bot", "B",
                   "--seed", "3", "--save", str(path)], str(tmp_path), str(tmp_path / "saves"),
                  timeout=90)  # fmt: skip
    screen = Terminal(50, 120)
    child.logfile_read = screen
    child.expect(QUESTION)
    assert child.match.group(1) == "1d6" and child.match.group(2) == "Bravo Squad d6"
    child.send("3 4\r")  # two faces for the one die asked
    child.expect("given for")
    child.expect(r"\(1d6\)")
    assert "2 faces given for 1 die (1d6)" in screen.text()
    child.send("\x7f" * 3 + "5\r")
    for _ in range(5):  # a tie rolls again, each side its own die again
        child.expect_exact(ANSWERED)
        if child.expect([r"Deployment roll-off \(roll \d+\)", "Initiative roll-off"]) == 1:
            break  # side B's next roll: the roll-off was settled
        child.expect(QUESTION)
        assert child.match.group(1) == "1d6"
        child.send("6\r")
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()
    roll = _first_roll(path)
    assert roll["reason"].startswith("Deployment roll-off") and roll["faces"][1] == 5
    assert roll["sources"] == ["rng", "manual"]


def test_an_order_roll_of_both_sides_models_asks_each_side_for_its_own(tmp_path):
    path = tmp_path / "g.json"
    child = spawn(["play", "battle-of-ixu", "--dice", "A=manual", "--bot", "A", "--bot", "B",
                   "--seed", "3", "--save", str(path)], str(tmp_path), str(tmp_path / "saves"),
                  timeout=90)  # fmt: skip
    child.expect(QUESTION)
    assert child.match.group(1) == "3d10"
    assert child.match.group(2) == "Tutok d10, Kuote d10, Ijoi d10"  # side A's models only
    child.send("1 2 3\r")
    child.expect("experience dice")  # side A's next roll: the order roll was settled
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()
    roll = _first_roll(path)
    assert roll["faces"][:3] == [1, 2, 3] and roll["sources"] == ["manual"] * 3 + ["rng"] * 3
