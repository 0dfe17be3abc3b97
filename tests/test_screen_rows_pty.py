"""Nothing a decision screen draws goes past the terminal's rows: played in a real
pseudo-terminal whose scrollback is kept, no line is ever pushed into it (the title of a
resumed fork at 80x24 once was: the screen was one row too tall)."""

from __future__ import annotations

import re
import subprocess
import sys

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, Terminal, drawn, settle, spawn

pytestmark = pytest.mark.pty


class Scrolled(Terminal):
    """A terminal emulator that keeps what scrolls off its top (pyte's history)."""

    def __init__(self, rows: int, columns: int) -> None:
        import pyte

        self.screen = pyte.HistoryScreen(columns, rows, history=1000)
        self.stream = pyte.Stream(self.screen)

    def scrolled(self) -> list[str]:
        """The lines pushed off the top since the last `forget`."""
        return ["".join(c.data for c in row.values()).rstrip() for row in self.screen.history.top]

    def forget(self) -> None:
        self.screen.history.top.clear()


def _wargame(*args: str, saves) -> None:
    env_saves = {"WARGAME_SAVES_DIR": str(saves)}
    import os

    done = subprocess.run(
        [sys.executable, "-m", "wargame_cli", *args],
        env={**os.environ, **env_saves},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("size", [(24, 80), (45, 120)])
def test_a_resumed_fork_at_turn_3_keeps_every_screen_within_the_rows(tmp_path, size):
    saves = tmp_path / "saves"
    whole = tmp_path / "whole.json"
    fork = tmp_path / "fork.json"
    _wargame("play", "squad-alpha", "--bot", "A", "--bot", "B", "--seed", "5", "--no-input",
             "--option", "max_turns=6", "--save", str(whole), saves=saves)  # fmt: skip
    _wargame("fork", str(whole), "--turn", "2", "--save", str(fork), saves=saves)
    child = spawn(["resume", str(fork), "--bot", "B"], str(tmp_path), str(saves), 90, size)
    child.delaybeforesend = None
    term = Scrolled(*size)
    child.logfile_read = term
    drawn(child)
    settle(child, 0.3)
    term.forget()  # the lines before the first screen (what is resumed) may scroll
    for n in range(16):  # turn 3's questions, each answered as suggested
        child.send("\r")
        child.expect_exact(ANSWERED)
        drawn(child)
        settle(child, 0.3)
        assert not term.scrolled(), (n, term.scrolled(), "\n".join(term.lines()))
        if n == 0:  # the first question of turn 3: its title on the top row
            assert re.match(r"Turn 3\b", term.lines()[0]), "\n".join(term.lines())
    child.sendintr()
    child.expect(pexpect.EOF)
