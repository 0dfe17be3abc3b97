"""Ctrl-C while `wargame` starts (issue 32 item 15): from the first line of the `wargame`
script (bin/wargame, installed as the command) an interrupt is one line and exit 130, never a
traceback. A generated console script would first import `re`, then the package (whose
`import signal` loads `enum`): a Ctrl-C in either came out as a KeyboardInterrupt traceback.

Before the script's first line only Python's own start-up runs (`site` and the standard
streams): an interrupt there is Python's (it may say that it failed to start), and its frames
are all Python's own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bin" / "wargame"
ONE_LINE = b"wargame: interrupted\n"

# Runs the script as Python would, after a hook that interrupts the process at its N-th import
# (each import of a module not loaded yet): an interrupt at a known point of the start, every
# time, however fast the machine.
AT_IMPORT = """\
import os, signal, sys
script, nth = sys.argv[1], int(sys.argv[2])
count = [0]
def hook(event, args):
    if event == "import":
        count[0] += 1
        if count[0] == nth:
            os.kill(os.getpid(), signal.SIGINT)
sys.argv = [script, "rules", "tug-of-wargods"]
code = compile(open(script, encoding="utf-8").read(), script, "exec")
sys.addaudithook(hook)
exec(code, {"__name__": "__main__", "__file__": script})
"""


def _ended_in_one_line(proc: subprocess.CompletedProcess[bytes], at: object) -> None:
    assert b"Traceback" not in proc.stderr and b"KeyboardInterrupt" not in proc.stderr, (
        at,
        proc.stderr.decode(errors="replace"),
    )
    if proc.returncode != 0:  # 0: the command was done before the interrupt
        assert (proc.returncode, proc.stderr) == (130, ONE_LINE), (at, proc.stderr)


def test_ctrl_c_at_any_import_of_the_start_is_one_line_and_130():
    """The interrupt comes at the script's 1st, 2nd, ... import (its own, then the package's
    and typer's): each time one line and 130."""
    met = 0
    for nth in (1, 2, 3, 4, 6, 12, 40):
        done = subprocess.run(
            [sys.executable, "-c", AT_IMPORT, str(SCRIPT), str(nth)],
            capture_output=True,
            timeout=60,
            cwd=ROOT,
            env={**os.environ, "NO_COLOR": "1"},
        )
        _ended_in_one_line(done, nth)
        met += done.returncode == 130
    assert met >= 6


def _installed() -> Path:
    found = Path(sys.executable).with_name("wargame")
    if not found.exists() or "_signal.signal" not in found.read_text(errors="replace"):
        pytest.skip("the wargame beside this interpreter is not this checkout's script")
    return found


def _pythons_own(err: bytes, script: Path) -> bool:
    """An interrupt before the script's first line: a traceback of Python's start-up alone,
    no frame of it in the script or the package."""
    frames = [line for line in err.splitlines() if line.strip().startswith(b"File ")]
    ours = (str(script).encode(), str(ROOT / "wargame_cli").encode())
    return bool(frames) and not any(where in line for line in frames for where in ours)


def test_ctrl_c_in_the_first_milliseconds_of_the_installed_command():
    """A real Ctrl-C at several small delays from the start of the installed command."""
    script = _installed()
    command = [str(script), "rules", "tug-of-wargods"]
    met = 0
    for delay in (0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.12, 0.15):
        proc = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "NO_COLOR": "1"},
            # as from a terminal: a process started in the background inherits SIGINT ignored
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        try:
            time.sleep(delay)
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if (proc.returncode == -signal.SIGINT and err == b"") or _pythons_own(err, script):
            continue  # before Python ran a line of ours (it may fail to start: its own words)
        done = subprocess.CompletedProcess(command, proc.returncode, b"", err)
        _ended_in_one_line(done, delay)
        met += 1
    assert met  # some interrupts met the script or the program, not only Python's start-up
