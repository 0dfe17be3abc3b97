"""The kit's smoke test in a pseudo-terminal: `wargame play ID --bot B --turns 1` as a person
at a keyboard plays it, pressing Enter (the suggested answer) at every question, from the
team set-up on. It must draw its questions and take the answers; after `answers` of them a
game still asking is interrupted with Ctrl-C, which must save it and exit 130. Either way the
save it wrote verifies and no traceback is shown. Standard library only (`pty`), so an
outside ruleset's author needs nothing but the package."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

from wargame_cli.saves import games

DRAWN = b"\x1b[?7h"  # prompt_toolkit turns line wrapping back on when a question is drawn
ROWS, COLUMNS = 40, 120


class TerminalFailed(AssertionError):
    """The game in a pseudo-terminal did not play its first turn as it should."""


def check_terminal(
    ruleset_id: str, folder: Path, seed: int = 3, limit: float = 60.0, answers: int = 8
) -> str:
    """Play in a pseudo-terminal with Enter at every question, the first turn or `answers`
    answers then Ctrl-C; the save written verifies. Skipped (said so) where the system has
    no pseudo-terminals."""
    try:
        import pty
        import termios
    except ImportError:
        return "skipped: this system has no pseudo-terminals"
    import fcntl
    import struct

    save = folder / f"{ruleset_id}-terminal.json"
    main, child_end = pty.openpty()
    fcntl.ioctl(child_end, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    env = {
        **os.environ,
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
        "COLUMNS": str(COLUMNS),
        "LINES": str(ROWS),
        "WARGAME_SAVES_DIR": str(folder / "saves"),
    }
    args = ["play", ruleset_id, "--bot", "B", "--seed", str(seed), "--turns", "1"]
    process = subprocess.Popen(
        [sys.executable, "-m", "wargame_cli", *args, "--save", str(save)],
        stdin=child_end,
        stdout=child_end,
        stderr=child_end,
        cwd=folder,
        env=env,
        start_new_session=True,
    )
    os.close(child_end)
    seen, pressed, stopped = bytearray(), 0, False
    try:
        pressed, stopped = _answer_with_enter(process, main, seen, limit, answers)
    finally:
        os.close(main)
        if process.poll() is None:
            process.kill()
            process.wait()
    shown = seen.decode("utf-8", "replace")
    if "Traceback" in shown:
        raise TerminalFailed(f"a traceback in the terminal: {_tail(shown)}")
    if process.returncode != (130 if stopped else 0):
        how = "after Ctrl-C" if stopped else "after its first turn"
        raise TerminalFailed(f"the game exited {process.returncode} {how}: {_tail(shown)}")
    if not save.exists():
        how = "at Ctrl-C" if stopped else "after its first turn"
        raise TerminalFailed(f"the game stopped {how} without writing its save")
    games.verify(save)
    how = "then Ctrl-C saved it" if stopped else "to the end of turn 1"
    return f"{pressed} answers at the keyboard, {how}; the save verified"


def _answer_with_enter(
    process: subprocess.Popen[bytes], main: int, seen: bytearray, limit: float, answers: int
) -> tuple[int, bool]:
    """Read all the game writes; press Enter once a question is drawn and the screen is
    still, Ctrl-C at the question after `answers` answers. Returns the answers given and
    whether Ctrl-C was pressed."""
    deadline, pressed, drawn_at, stopped = time.monotonic() + limit, 0, -1, False
    while True:
        if time.monotonic() > deadline:
            raise TerminalFailed(f"still playing after {limit:g} s: {_tail(bytes(seen))}")
        ready, _, _ = select.select([main], [], [], 0.15)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the game ended and closed its end of the terminal
                chunk = b""
            if not chunk:
                process.wait(timeout=30)
                return pressed, stopped
            seen += chunk
            if DRAWN in chunk:
                drawn_at = len(seen)
            continue
        if process.poll() is not None:
            return pressed, stopped
        if drawn_at >= 0 and not stopped:  # a question is drawn, the screen still: answer
            stopped = pressed >= answers
            os.write(main, b"\x03" if stopped else b"\r")
            pressed, drawn_at = pressed + (not stopped), -1


def _tail(shown: str | bytes, chars: int = 300) -> str:
    text = shown.decode("utf-8", "replace") if isinstance(shown, bytes) else shown
    plain = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(plain.split())[-chars:]
