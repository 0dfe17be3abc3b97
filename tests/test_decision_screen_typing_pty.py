"""At a real terminal, 80x24: typing at a list that offers "Type it" types the answer (no key
is lost, nothing is picked by mistake), and what happened since the side last decided can be
read in full through "Look…"."""

from __future__ import annotations

import pexpect
import pytest

from tests.pty_helpers import Terminal, settle, spawn

pytestmark = pytest.mark.pty

UP, DOWN, ESC = "\x1b[A", "\x1b[B", "\x1b"


def start_mobs(tmp_path) -> tuple[pexpect.spawn, Terminal]:
    child = spawn(["play", "mobs-and-morale", "--seed", "3", "--bot", "B", "--no-save"],
                  str(tmp_path), str(tmp_path / "saves"), size=(24, 80))  # fmt: skip
    screen = Terminal(24, 80)
    child.logfile_read = screen
    child.expect("pick a team")
    child.send("\r")
    child.expect("Name for side A")
    child.send("\r")
    child.expect("Deploy Brakka")
    settle(child)
    return child, screen


def test_typing_at_a_list_with_type_it_types_the_answer(tmp_path):
    child, screen = start_mobs(tmp_path)
    child.send("5,2")  # straight at the list: the first key opens the typed answer
    settle(child)
    shown = screen.text().rstrip()
    assert "(x,y;" in shown and shown.endswith(" 5,2"), shown  # typing, every key kept
    child.send("\r")
    child.expect("Deploy Ysolde")
    settle(child)
    assert "Brakka deploys around 5,2" in screen.text()
    child.sendcontrol("c")
    child.expect(pexpect.EOF)


def test_what_happened_since_the_last_decision_can_be_looked_at(tmp_path):
    child, screen = start_mobs(tmp_path)
    child.send(UP + UP + "\r")  # up from the suggestion: Take back, then Look…
    child.expect("Look at what")
    settle(child)
    assert "Since your last decision" in screen.text()
    child.send(DOWN + "\r")  # past the full board: what happened
    settle(child)
    assert any(line.startswith("Deployment areas:") for line in screen.lines())
    child.send(ESC)
    child.expect("Deploy Brakka")
    child.sendcontrol("c")
    child.expect(pexpect.EOF)


def test_enter_alone_at_a_typed_answer_goes_back_to_the_list(tmp_path):
    child, screen = start_mobs(tmp_path)
    child.send("7")  # a stray key at the list opens the typed answer...
    settle(child)
    assert "empty: back to the list" in " ".join(screen.text().split())
    child.send("\x7f\r")  # ...rubbed out, Enter with nothing typed: the list again
    settle(child)
    assert "Type it (x,y)" in screen.text()
    assert "Deploy Brakka" in screen.text() and "Deploy Ysolde" not in screen.text()
    child.send("\r")  # the suggestion
    child.expect("Deploy Ysolde")
    child.sendcontrol("c")
    child.expect(pexpect.EOF)


def test_a_long_question_being_typed_at_wraps_between_words(tmp_path):
    """The typing line wraps at the terminal's edge whatever it holds; the question before
    the answer is wrapped at words all the same, and the typed text follows it."""
    child = spawn(["play", "squad-alpha", "--seed", "11", "--bot", "B", "--no-save",
                   "--team-a", "Alpha Squad", "--team-b", "Bravo Squad",
                   "--name-a", "Reds", "--name-b", "Blues"],
                  str(tmp_path), str(tmp_path / "saves"), size=(24, 80))  # fmt: skip
    screen = Terminal(24, 80)
    child.logfile_read = screen
    child.expect("which miniature deploys next")
    settle(child)
    child.send("\r")  # Sgt Rook
    child.expect("where does Sgt Rook deploy")
    settle(child)
    child.send("9.5,3.5")
    settle(child)
    lines = [line.rstrip() for line in screen.lines()]
    first = next(i for i, line in enumerate(lines) if "where does Sgt Rook deploy?" in line)
    assert lines[first].endswith("back to the"), lines[first]  # a whole word ends the row
    assert lines[first + 1] == "  list) (Esc: look) 9.5,3.5", lines[first + 1]
    child.send("\r")
    child.expect("Reds deploys Sgt Rook at 9.5,3.5")
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
