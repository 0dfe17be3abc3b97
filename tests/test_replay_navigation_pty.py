"""Replay navigation in a real pseudo-terminal: next, previous, jump to a turn, last, quit,
each page showing the turn the reader asked for."""

from __future__ import annotations

import json

import pexpect
import pytest

from tests.cli_helpers import play_json
from tests.pty_helpers import spawn

pytestmark = pytest.mark.pty

DOWN = "\x1b[B"


def round_texts(save) -> dict[int, list[str]]:
    """Short event lines of each round, to recognise its page."""
    data = json.loads(save.read_text())
    out: dict[int, list[str]] = {}
    turn = 0
    for entry in data["log"]:
        if entry["t"] == "turn":
            turn = entry["n"]
        elif entry["t"] == "event" and len(entry["text"]) < 60:
            out.setdefault(turn, []).append(entry["text"])
    return out


def test_next_previous_jump_last_and_quit(wargame, tmp_path):
    save = tmp_path / "g.json"
    game = play_json(wargame, "seeds-of-wars", "--no-input", "--seed", "5", "--save", str(save))
    last = game["turns"]
    assert last >= 6
    texts = round_texts(save)
    child = spawn(["replay", str(save)], str(tmp_path), str(tmp_path / "saves"))

    def at(turn: int) -> None:
        title = "The deployment" if turn == 0 else f"Round {turn} of {last}"
        child.expect_exact(title)
        if turn:
            child.expect_exact(texts[turn][0])
        child.expect_exact("Replay, at " + ("the deployment" if turn == 0 else f"round {turn}"))

    child.expect_exact("Northern Host")  # the header: the sides and their teams
    child.expect_exact("Southern Levy")
    at(0)
    child.send("\r")  # Next
    at(1)
    child.send("\r")  # Next
    at(2)
    child.send(DOWN + "\r")  # Previous
    at(1)
    child.send(DOWN * 2 + "\r")  # Jump to a round
    child.expect_exact("Which round?")
    child.send(DOWN * 3 + "\r")  # from round 1 (the suggestion) down to round 4
    at(4)
    child.send(DOWN * 4 + "\r")  # Next, Previous, Jump, First, Last
    at(last)
    child.expect_exact("Quit")
    child.send("\r")  # at the last round Enter quits
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_fork_resumes_with_a_person(wargame, tmp_path):
    """`resume` of a fork asks the person at the terminal (side A) and plays to the end."""
    from tests.pty_helpers import press_enter_until_done

    save, fork = tmp_path / "g.json", tmp_path / "fork.json"
    play_json(wargame, "seeds-of-wars", "--no-input", "--seed", "5", "--save", str(save))
    assert wargame("fork", str(save), "--turn", "2", "--save", str(fork)).returncode == 0
    child = spawn(["resume", str(fork), "--bot", "B"], str(tmp_path), str(tmp_path / "saves"))
    assert press_enter_until_done(child) > 0
    child.close()
    assert child.exitstatus == 0
    data = json.loads(fork.read_text())
    assert data["status"] == "finished" and data["forked_from"]["turn"] == 2
    assert any(e["t"] == "choice" and e["by"] == "human" for e in data["log"])
    assert wargame("replay", str(fork), "--verify").returncode == 0
