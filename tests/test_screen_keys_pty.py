"""The prompt's keys in a real pseudo-terminal, through `wargame play`: Esc answers without
prompt_toolkit's half-second escape wait (the setting; the timing is bench/'s), Look… comes
back to Look… (never to a move), Left/Right move along the short items' row, a digit picks a
listed die, and a list longer than the screen says it scrolls even when its question is wider
than the screen."""

from __future__ import annotations

import json
import re

import pexpect
import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tests.pty_helpers import ANSWERED, Terminal, drawn, settle, spawn
from wargame_cli.ui.app import ESCAPE_TIMEOUT, SCROLL_HINTS, PromptApp

pytestmark = pytest.mark.pty

DOWN, UP, ESC = "\x1b[B", "\x1b[A", "\x1b"


def test_the_prompt_waits_no_half_second_for_an_escape_sequence():
    with create_pipe_input() as pipe:
        app = PromptApp(None, input=pipe, output=DummyOutput())
        assert app.app.ttimeoutlen == ESCAPE_TIMEOUT <= 0.05
        app.close()


def _hot_seat(tmp_path, size=(24, 80), *extra: str):
    saves = tmp_path / "saves"
    args = ["play", "squad-alpha", "--seed", "3", *extra]
    child = spawn(args, str(tmp_path), str(saves), 60, size)
    child.delaybeforesend = None
    term = Terminal(*size)
    child.logfile_read = term
    return child, term, saves


def _until(child, term, pattern: str, limit: int = 200) -> str:
    """Enter at every question until one matching `pattern` is drawn."""
    for _ in range(limit):
        drawn(child)
        settle(child, 0.2)
        if re.search(pattern, term.text()):
            return term.text()
        child.send("\r")
        child.expect_exact(ANSWERED)
    raise AssertionError(f"no question matching {pattern!r}")


def _pointed(term) -> str:
    """What the pointer is on: the rest of the line after it (the short items share one)."""
    line = next(line for line in term.lines() if "»" in line)
    return line.split("»", 1)[1]


def _look_and_back(child, term) -> None:
    """Enter on Look…, then Esc: the same question again, drawn."""
    child.send("\r")
    child.expect_exact("Look at what?")
    settle(child, 0.2)
    child.send(ESC)  # back to the question at once
    drawn(child)
    settle(child, 0.2)


def test_look_comes_back_to_look_and_enter_makes_no_move(tmp_path):
    child, term, saves = _hot_seat(tmp_path, (24, 80), "--no-save")
    _until(child, term, r"which miniature deploys next\?")
    child.send(DOWN * 2)  # Brick, the third
    settle(child, 0.2)
    assert "Brick" in _pointed(term)
    child.send(DOWN * 5)  # past Fang, Jinx, Moss and Table… to Look…
    settle(child, 0.2)
    assert _pointed(term).lstrip().startswith("Look…")
    _look_and_back(child, term)
    assert "which miniature deploys next?" in term.text()
    assert _pointed(term).lstrip().startswith("Look…")  # where it left, not on a move
    _look_and_back(child, term)  # Enter opens Look… again: nothing is decided
    assert "which miniature deploys next?" in term.text()
    assert not list(saves.glob("*.json"))
    child.sendintr()
    child.expect(pexpect.EOF)


RIGHT, LEFT = "\x1b[C", "\x1b[D"


def test_left_and_right_move_along_the_short_items_row(tmp_path):
    child, term, _ = _hot_seat(tmp_path)
    _until(child, term, r"which miniature deploys next\?")
    child.send(UP)  # from the first option up to the last short item
    settle(child, 0.2)
    assert _pointed(term).lstrip().startswith("Take back")
    child.send(LEFT)
    settle(child, 0.2)
    assert _pointed(term).lstrip().startswith("Look…")
    child.send(LEFT)
    settle(child, 0.2)
    assert _pointed(term).lstrip().startswith("Table…")
    child.send(LEFT)  # never off the row's end
    settle(child, 0.2)
    assert _pointed(term).lstrip().startswith("Table…")
    child.send(RIGHT * 2)
    settle(child, 0.2)
    assert _pointed(term).lstrip().startswith("Take back")
    child.send(UP * 3)  # Up and Down go through the list as before: Look…, Table…, Moss
    settle(child, 0.2)
    assert "Moss" in _pointed(term)
    child.send(RIGHT)  # on an option proper, Right does nothing
    settle(child, 0.2)
    assert "Moss" in _pointed(term)
    child.sendintr()
    child.expect(pexpect.EOF)


def test_the_issue_repro_at_120x45_commits_no_move_after_look(tmp_path):
    """Down x6 to Look…, Enter, Esc, Enter: Look… again, no miniature deployed."""
    saves = tmp_path / "saves"
    args = ["play", "squad-alpha", "--bot", "B", "--team-a", "Commandos"]
    args += ["--team-b", "Recruits", "--seed", "7", "--no-save"]
    child = spawn(args, str(tmp_path), str(saves), 60, (45, 120))
    child.delaybeforesend = None
    term = Terminal(45, 120)
    child.logfile_read = term
    _until(child, term, r"which miniature deploys next\?")
    child.send(DOWN * 6)
    settle(child, 0.2)
    assert _pointed(term).lstrip().startswith("Look…")
    _look_and_back(child, term)
    assert _pointed(term).lstrip().startswith("Look…")
    child.send("\r")
    child.expect_exact("Look at what?")  # not "where does … deploy?"
    child.sendintr()
    child.expect(pexpect.EOF)


def test_look_in_the_squad_builder_comes_back_to_look(tmp_path):
    child, term, _ = _hot_seat(tmp_path)
    _until(child, term, r"pick a squad")
    child.send(UP * 2)  # Look… (Take back is the last)
    settle(child, 0.2)
    assert _pointed(term).lstrip().startswith("Look…")
    _look_and_back(child, term)
    assert "pick a squad" in term.text()
    assert _pointed(term).lstrip().startswith("Look…")
    child.sendintr()
    child.expect(pexpect.EOF)


def test_esc_at_a_typed_question_opens_look_and_esc_comes_back(tmp_path):
    child, term, _ = _hot_seat(tmp_path)
    _until(child, term, r"where does .* deploy\?")
    child.send("x")  # typing at the list starts the typed answer
    child.expect_exact("(Esc: look)")
    settle(child, 0.2)
    child.send(ESC)
    child.expect_exact("Look at what?")
    settle(child, 0.2)
    child.send(ESC)
    child.expect_exact("(Esc: look) x")  # the typed question again, what was typed kept
    settle(child, 0.2)
    assert "(Esc: look) x" in term.text()
    child.sendintr()
    child.expect(pexpect.EOF)


def test_a_digit_picks_a_listed_die(tmp_path):
    child, term, saves = _hot_seat(tmp_path, (30, 100))
    _until(child, term, r"attribute your dice")
    child.send(DOWN + "\r")  # one miniature at a time
    text = _until(child, term, r"Which die for")
    left = re.search(r"Which die for (.+?) \(\w+\)\? Left: ([\d ]+)", text)
    assert left is not None, text
    faces = left.group(2).split()
    pick = faces[-1]  # not the suggestion, most likely: the pointer is not what picks
    child.send(pick)
    child.expect_exact(ANSWERED)
    drawn(child)
    child.sendintr()  # saves the game at the next question
    child.expect(pexpect.EOF)
    child.close()
    [save] = list(saves.glob("*.json"))
    log = json.loads(save.read_text())["log"]
    picked = [e for e in log if e["t"] == "choice" and e["kind"] == "attribute"][-1]
    assert picked["key"] == pick


def test_the_scroll_hint_shows_when_the_question_is_wider_than_the_screen(tmp_path):
    child, term, _ = _hot_seat(tmp_path, (20, 44))
    text = _until(child, term, r"where does .* deploy")
    question = next(i for i, line in enumerate(term.lines()) if line.startswith("? "))
    assert len(term.lines()[question]) > 30  # the question fills its row and wraps
    header = " ".join(term.lines()[question : question + 3])
    assert any(hint in header for hint in SCROLL_HINTS), text
    child.sendintr()
    child.expect(pexpect.EOF)
