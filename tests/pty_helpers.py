"""Drive the real `wargame` command in a pseudo-terminal, as a person at a keyboard would."""

from __future__ import annotations

import os
import sys

import pexpect

PROMPT = r"\?(?:\x1b\[[0-9;]*m)* "  # questionary marks every question with "?"
ANSWERED = "\x1b[?2004l"  # prompt_toolkit leaves bracketed-paste mode when a prompt is done


def spawn(args: list[str], cwd: str, saves: str, timeout: int = 30) -> pexpect.spawn:
    env = {
        **os.environ,
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
        "COLUMNS": "120",
        "LINES": "50",
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
        dimensions=(50, 120),
    )


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
