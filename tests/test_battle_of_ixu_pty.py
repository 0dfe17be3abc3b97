"""A whole hot-seat Battle of Ixu through the interactive prompts, in a real pseudo-terminal:
every question answered with Enter, which takes the suggestion (the bot's own choice)."""

from __future__ import annotations

import io
import json

import pexpect
import pytest

from tests.pty_helpers import press_enter_until_done, spawn

pytestmark = pytest.mark.pty


def test_enter_alone_plays_a_whole_game(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(["play", "battle-of-ixu", "--seed", "4"], str(tmp_path), str(saves), timeout=60)
    screen = io.StringIO()
    child.logfile_read = screen
    child.expect("Who plays side A")
    child.send("\r")
    answered = press_enter_until_done(child)
    child.close()
    assert child.exitstatus == 0
    assert answered >= 30
    shown = screen.getvalue()
    for needle in (
        "pick a warband",
        "movement, combat, defence",
        "move up to",
        "fight whom?",
        "(suggested)",
        "The plains of Ixu, turn 1",
        "Order for turn 1",
    ):
        assert needle in shown, (
            needle
        )  # dice, moves and fights every turn, and a pause between turns
    [save] = list(saves.glob("*.json"))
    data = json.loads(save.read_text())
    assert data["status"] == "finished"
    assert data["setup"]["players"] == {"A": "human", "B": "human"}
    assert data["setup"]["names"] == {"A": "Axes", "B": "Swords"}
    decisions = [e for e in data["log"] if e["t"] == "choice"]
    assert decisions and all(e["by"] == "human" for e in decisions)
    assert {"attribute", "move", "target"} <= {e["kind"] for e in decisions}


def test_a_typed_move_is_checked_and_refused_with_the_reason(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        [
            "play",
            "battle-of-ixu",
            "--seed",
            "4",
            "--bot",
            "B",
            "--team-a",
            "Ajax:3",
            "--team-b",
            "Bron:3",
            "--turns",
            "1",
            "--rolls",
            "9,1,6,5,4",
        ],
        str(tmp_path),
        str(saves),
    )
    child.expect("movement, combat, defence")
    child.send("\r")  # the suggestion
    child.expect("Ajax at 12,2: move up to")
    # up from the first option wraps to the last: "Take back", "Look…", "Type it (x,y)"
    child.send("\x1b[A\x1b[A\x1b[A\r")
    child.expect(r"\(x,y\)")
    child.send("12,20\r")
    child.expect("away; the move allows")
    child.send("\x15")  # clear the line
    child.send("13,4\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    [save] = list(saves.glob("*.json"))
    log = json.loads(save.read_text())["log"]
    [move] = [e for e in log if e["t"] == "choice" and e["kind"] == "move" and e["side"] == "A"]
    assert move["key"] == "13,4" and move["by"] == "human"


def test_manual_dice_for_order_and_experience(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        [
            "play",
            "battle-of-ixu",
            "--dice",
            "manual",
            "--bot",
            "A",
            "--bot",
            "B",
            "--team-a",
            "Ajax:3",
            "--team-b",
            "Bron:3",
            "--turns",
            "1",
        ],
        str(tmp_path),
        str(saves),
    )
    child.expect("order for turn 1")
    child.send("11 3\r")
    child.expect("does not fit a d10")
    child.send("\x15")
    child.send("8 3\r")
    child.expect("Ajax's experience dice")
    child.send("6 5 4\r")
    child.expect("Bron's experience dice")
    child.send("3 3 3\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    [save] = list(saves.glob("*.json"))
    log = json.loads(save.read_text())["log"]
    assert [e["faces"] for e in log if e["t"] == "roll"] == [[8, 3], [6, 5, 4], [3, 3, 3]]
    assert {e["source"] for e in log if e["t"] == "roll"} == {"manual"}
