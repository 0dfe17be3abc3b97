"""Drive the real `wargame` command in a pseudo-terminal, as a person at a keyboard would."""

from __future__ import annotations

import os
import sys

import pexpect

PROMPT = r"\?(?:\x1b\[[0-9;]*m)* "  # questionary marks every question with "?"
ANSWERED = "\x1b[?2004l"  # prompt_toolkit leaves bracketed-paste mode when a prompt is done
DRAWN = "\x1b[?7h"  # prompt_toolkit turns line wrapping back on when a drawing of it is done


def spawn(
    args: list[str], cwd: str, saves: str, timeout: int = 30, size: tuple[int, int] = (50, 120)
) -> pexpect.spawn:
    """`wargame ARGS` in a pseudo-terminal of `size` (rows, columns)."""
    rows, columns = size
    env = {
        **os.environ,
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
        "COLUMNS": str(columns),
        "LINES": str(rows),
        "WARGAME_SAVES_DIR": saves,
    }
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable,
        ["-m", "wargame_cli", *args],
        cwd=cwd,
        env=env,
        encoding="utf-8",
        timeout=timeout,
        dimensions=(rows, columns),
    )


class Terminal:
    """What a person sees: a terminal emulator (pyte) fed everything the program writes.
    Set it as the child's `logfile_read`."""

    def __init__(self, rows: int, columns: int) -> None:
        import pyte

        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)

    def write(self, data: str) -> None:
        self.stream.feed(data)

    def flush(self) -> None:
        pass

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        return "\n".join(self.lines())


def drawn(child: pexpect.spawn) -> None:
    """Wait for the next question to be drawn whole (its "?", then the end of the drawing)."""
    child.expect(PROMPT)
    child.expect_exact(DRAWN)


def settle(child: pexpect.spawn, quiet: float = 0.4) -> None:
    """Wait until the program has drawn everything (no output for `quiet` seconds)."""
    while True:
        index = child.expect([pexpect.TIMEOUT, r"[\s\S]+", pexpect.EOF], timeout=quiet)
        if index != 1:
            return


def press_enter_until_done(child: pexpect.spawn, limit: int = 2000) -> int:
    """Answer every prompt with Enter (the suggested default); returns the prompts answered."""
    answered = 0
    while answered < limit:
        index = child.expect([PROMPT, pexpect.EOF])
        if index == 1:
            return answered
        child.send("\r")
        child.expect_exact([ANSWERED, pexpect.EOF])  # the answered question is re-drawn
        answered += 1
    raise AssertionError(f"still prompting after {limit} answers")
