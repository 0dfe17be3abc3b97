"""A whole hot-seat game of Squad Alpha through the interactive prompts, in a real
pseudo-terminal: every question answered with Enter, which takes the suggestion (the bot's own
choice); and a typed position refused with its reason."""

from __future__ import annotations

import io
import json

import pexpect
import pytest

from tests.pty_helpers import PROMPT, press_enter_until_done, spawn

pytestmark = pytest.mark.pty


def test_enter_alone_plays_a_whole_game(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        ["play", "squad-alpha", "--seed", "3", "--option", "max_turns=3"],
        str(tmp_path),
        str(saves),
        timeout=60,
    )
    screen = io.StringIO()
    child.logfile_read = screen
    child.expect("Who plays side A")
    child.send("\r")
    answered = press_enter_until_done(child, limit=1000)
    child.close()
    assert child.exitstatus == 0
    assert answered >= 40
    shown = screen.getvalue()
    for needle in (
        "pick a squad",
        "where does",  # deployment
        "attribute your dice",
        "move or shoot?",
        "(suggested)",
        "cover from fire (hard)",
        "leader Sgt Rook",
    ):
        assert needle in shown, needle
    [save] = list(saves.glob("*.json"))
    data = json.loads(save.read_text())
    assert data["status"] == "finished"
    assert data["setup"]["players"] == {"A": "human", "B": "human"}
    decisions = [e for e in data["log"] if e["t"] == "choice"]
    assert decisions and all(e["by"] == "human" for e in decisions)
    assert {"deploy", "attribute", "action"} <= {e["kind"] for e in decisions}


def test_a_typed_deployment_spot_is_checked_and_refused_with_the_reason(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        ["play", "squad-alpha", "--seed", "3", "--bot", "B", "--turns", "1", "--rolls", "6,1"],
        str(tmp_path),
        str(saves),
        timeout=60,
    )
    child.expect("pick a squad")
    child.send("\r")
    child.expect("Name for side A")
    child.send("\r")
    child.expect("which miniature deploys next")
    child.send("\r")
    child.expect("where does Sgt Rook deploy")
    child.expect(PROMPT)
    # up from the suggestion wraps to the last entries: "Take back", "Look…", "Type it (x,y)"
    child.send("\x1b[A\x1b[A\x1b[A")
    child.send("\r")
    child.expect(r"\(x,y\)")
    child.send("30,3\r")
    child.expect("off the")  # refused with the reason, asked again
    child.send("\x15")  # clear the line
    child.send("12.5,2.5\r")
    child.expect("deploys Sgt Rook at 12.5,2.5")
    press_enter_until_done(child, limit=1000)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    [save] = list(saves.glob("*.json"))
    data = json.loads(save.read_text())
    placed = next(
        e
        for e in data["log"]
        if e["t"] == "choice" and e["kind"] == "deploy" and e["key"] == "12.5,2.5"
    )
    assert placed["by"] == "human"
