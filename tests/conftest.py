from __future__ import annotations

import io
import os
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# WARGAME_TEST_PROCESSES=1 runs every `wargame` fixture call as its own process again.
IN_PROCESS = os.environ.get("WARGAME_TEST_PROCESSES", "") in ("", "0")


@dataclass
class Done:
    """What a finished `wargame` run left: as `subprocess.CompletedProcess` has it."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str


def _pipe(text: str = "") -> io.TextIOWrapper:
    """A text stream like a pipe's: UTF-8, not a terminal."""
    return io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8", write_through=True)


def _exit_code(code: object, stderr: io.TextIOWrapper) -> int:
    """`sys.exit(code)` as the interpreter turns it into an exit status."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=stderr)
    return 1


def run_in_process(args: list[str], input: str, env: dict[str, str], cwd: Path) -> Done:
    """`wargame ARGS` through `wargame_cli.cli.app:main`, the function the installed command
    calls, in this process: its own environment, folder, argv and standard streams (pipes,
    not a terminal). Whatever would end the process ends the run: `sys.exit` gives the exit
    code, an uncaught exception a traceback on stderr and exit code 1."""
    from wargame_cli.cli.app import main

    stdin, stdout, stderr = _pipe(input), _pipe(), _pipe()
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        patch.chdir(cwd)
        patch.setattr(sys, "argv", ["wargame", *args])
        patch.setattr(sys, "stdin", stdin)
        patch.setattr(sys, "stdout", stdout)
        patch.setattr(sys, "stderr", stderr)
        try:
            main()
            code = 0
        except SystemExit as stop:
            code = _exit_code(stop.code, stderr)
        except Exception:
            traceback.print_exc(file=stderr)
            code = 1
        stdout.flush()
        stderr.flush()
    return Done(
        list(args),
        code,
        stdout.buffer.getvalue().decode(),
        stderr.buffer.getvalue().decode(),
    )


def run_as_process(args: list[str], input: str, env: dict[str, str], cwd: Path) -> Done:
    """`python -m wargame_cli ARGS` as a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "wargame_cli", *args],
        capture_output=True,
        text=True,
        input=input,
        env={**os.environ, **env},
        timeout=120,
        cwd=cwd,
    )
    return Done(list(args), done.returncode, done.stdout, done.stderr)


def _runner(tmp_path: Path, in_process: bool):
    def run(*args: str, input: str | None = None, env: dict | None = None) -> Done:
        full_env = {
            "WARGAME_SAVES_DIR": str(tmp_path / "saves"),
            "NO_COLOR": "1",
            "COLUMNS": "120",
            **(env or {}),
        }
        how = run_in_process if in_process else run_as_process
        return how(list(args), input if input is not None else "", full_env, tmp_path)

    return run


@pytest.fixture
def wargame(tmp_path):
    """Run the real `wargame` entry point (no terminal on stdin), saves under tmp_path.

    In this process by default (see `run_in_process`): a new interpreter costs about half a
    second a run. `wargame_process` and the pexpect tests start real processes."""
    return _runner(tmp_path, IN_PROCESS)


@pytest.fixture
def wargame_process(tmp_path):
    """`wargame` as a process of its own: for what only a process shows (exit on a signal,
    startup imports, the shell's completion variables)."""
    return _runner(tmp_path, False)
