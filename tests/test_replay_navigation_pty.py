"""Replay navigation in a real pseudo-terminal: next, previous, jump to a turn, last, quit,
each page showing the turn the reader asked for."""

from __future__ import annotations

import json

import pexpect
import pytest

from tests.cli_helpers import play_json
from tests.pty_helpers import Terminal, drawn, settle, spawn

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


def _screen(child, term) -> str:
    drawn(child)
    settle(child, 0.3)
    return term.text()


@pytest.mark.parametrize("size", [(24, 80), (30, 100), (45, 120)])
def test_the_replay_is_a_screen_stepping_decision_by_decision_and_turn_by_turn(
    wargame, tmp_path, size
):
    save = tmp_path / "g.json"
    game = play_json(wargame, "seeds-of-wars", "--no-input", "--seed", "5", "--save", str(save))
    last = game["turns"]
    assert last >= 6
    rows, columns = size
    term = Terminal(rows, columns)
    child = spawn(["replay", str(save)], str(tmp_path), str(tmp_path / "saves"), size=size)
    child.logfile_read = term

    def at(title: str) -> list[str]:
        text = _screen(child, term)
        lines = term.lines()
        assert lines[0].startswith(title), text  # one title, the screen's first row
        assert sum(line.startswith("Round ") and " of " + str(last) in line for line in lines) <= 1
        assert any(line.startswith("? Replay") for line in lines), text  # the navigation
        assert "Quit" in text
        return lines

    first = at("The deployment")
    assert "Northern Host" in "\n".join(first)  # the header, paged
    child.send("\r")  # Enter reads on: round 1's first decision
    one = at("Round 1 of 7, decision 1 of ")
    assert "Round 1, step" in "\n".join(one)  # its lines under the step they happened in
    assert "The battle is over" not in "\n".join(one)  # the board as it stood, not at the end
    assert one[1].startswith("Round 1, step")  # the board's own title, below the screen's
    child.send("\r")
    at("Round 1 of 7, decision 2 of ")
    child.send(DOWN + "\r")  # Previous
    at("Round 1 of 7, decision 1 of ")
    child.send(DOWN * 2 + "\r")  # Next round: the end of round 1
    end = at("Round 1 of 7: the end of round 1")
    assert any("-- lines 1-" in line for line in end) or rows >= 45  # paged from its top
    child.send("\x1b[6~")  # PgDn: later lines
    later = at("Round 1 of 7: the end of round 1")
    if any("-- lines 1-" in line for line in end):
        assert later != end
        child.send("\x1b[5~")  # PgUp: back to its first lines
        assert any("-- lines 1-" in line for line in at("Round 1 of 7: the end of round 1"))
    child.send(DOWN * 4 + "\r")  # past Next, Previous, Next round, Previous round: Jump
    text = _screen(child, term)
    if "Which round?" not in text:  # the short items share a row: Jump is the first of them
        raise AssertionError(text)
    child.send(DOWN * 3 + "\r")  # from round 1 down to round 4
    at("Round 4 of 7: the end of round 4")
    child.send("\x1b[B" * 6 + "\r")  # Last
    at(f"Round {last} of {last}: the end of round {last}")
    child.send("\r")  # at the very end Enter quits
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
