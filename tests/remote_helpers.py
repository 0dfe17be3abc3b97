"""Both ends of a remote game as real processes on loopback: the host started in the
background (its `wargame join` line read from its output), the joiner run to its end."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

JOIN_LINE = re.compile(r"wargame(?:_cli)? join (\S+) --code (\S+)")  # any invocation
WATCH_LINE = re.compile(r"wargame(?:_cli)? watch (\S+) --code (\S+)")


def env(tmp: Path) -> dict[str, str]:
    return {
        **os.environ,
        "COLUMNS": "100",
        "WARGAME_SAVES_DIR": str(tmp / "saves"),
        "PYTHONUNBUFFERED": "1",
    }


class Host:
    """A `wargame host` process; `address` and `code` from the line it prints."""

    def __init__(
        self, tmp: Path, *args: str, program: tuple[str, ...] = ("-m", "wargame_cli")
    ) -> None:
        """`program`: what Python runs, with its first arguments (a scripted host's)."""
        self.out_path = tmp / f"host-{time.monotonic_ns()}.out"
        self.out = self.out_path.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, *program, "host", "--listen", "127.0.0.1", *args],
            stdout=self.out,
            stderr=subprocess.STDOUT,
            env=env(tmp),
            cwd=tmp,
        )
        try:
            found = self.wait_for(JOIN_LINE)
            self.address, self.code = found.group(1), found.group(2)
            self.watch_code = self.wait_for(WATCH_LINE).group(2)
        except BaseException:
            self.stop()  # never left listening after a failed start
            raise

    def text(self) -> str:
        return self.out_path.read_text()

    def wait_for(self, pattern: re.Pattern[str] | str, timeout: float = 30) -> Any:
        pattern = re.compile(pattern) if isinstance(pattern, str) else pattern
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = pattern.search(self.text())
            if found:
                return found
            if self.proc.poll() is not None:
                found = pattern.search(self.text())
                if found:
                    return found
                raise AssertionError(f"host ended ({self.proc.returncode}):\n{self.text()}")
            time.sleep(0.05)
        raise AssertionError(f"no {pattern.pattern!r} from the host:\n{self.text()}")

    def wait(self, timeout: float = 60) -> int:
        try:
            return self.proc.wait(timeout)
        finally:
            self.out.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.out.close()


def join(tmp: Path, host: Host, *args: str, code: str | None = None, timeout: float = 90) -> Any:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "wargame_cli",
            "join",
            host.address,
            "--code",
            code or host.code,
            *args,
        ],
        capture_output=True,
        text=True,
        env=env(tmp),
        cwd=tmp,
        timeout=timeout,
    )


def played_out(tmp: Path, host: Host) -> Any:
    """A bot joiner (saving to j.json) plays `host`'s game to its end; both exit 0."""
    try:
        done = join(tmp, host, "--bot", "--save", "j.json")
        assert done.returncode == 0, done.stderr + done.stdout
        assert host.wait() == 0, host.text()
    finally:
        host.stop()
    return done


def start_join(
    tmp: Path, host: Host, *args: str, program: tuple[str, ...] = ("-m", "wargame_cli")
) -> subprocess.Popen[str]:
    """`wargame join` of `host` in the background (`program`: what Python runs, with its
    first arguments: a modified joiner's)."""
    return subprocess.Popen(
        [sys.executable, *program, "join", host.address, "--code", host.code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env(tmp),
        cwd=tmp,
    )


def reap(proc: subprocess.Popen[str]) -> None:
    """A process a test started, ended if it still runs (never left behind by a failure)."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def carry_on(tmp: Path, joiner: subprocess.Popen[str], save: str = "h.json") -> tuple[Host, str]:
    """`wargame host --resume SAVE` (a bot) after the host died: the joiner, trying again
    meanwhile, plays on with it to the end, and both exit 0. The host, and what the joiner
    printed."""
    again = Host(tmp, "--resume", save, "--bot")
    try:
        out, _ = joiner.communicate(timeout=90)
        assert joiner.returncode == 0, out
        assert "the host dropped" in out
        assert again.wait() == 0, again.text()
    finally:
        again.stop()
    return again, out


def verify(tmp: Path, save: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "wargame_cli", "replay", "--verify", str(save)],
        capture_output=True,
        text=True,
        env=env(tmp),
        cwd=tmp,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def same_saves(a: Path, b: Path) -> dict[str, Any]:
    """Both saves state the same game (the seal covers all but when each was written)."""
    one, two = json.loads(a.read_text()), json.loads(b.read_text())
    assert one["log"] == two["log"]
    assert one["seal"] == two["seal"]
    return one


def log_length(save: Path) -> int:
    try:
        return len(json.loads(save.read_text())["log"])
    except (OSError, ValueError, KeyError):
        return 0


def at_a_terminal(tmp_path: Path, *args: str, size: tuple[int, int] = (24, 80)) -> Any:
    """`wargame ARGS` in a pseudo-terminal of `size`, in `tmp_path`."""
    from tests.pty_helpers import spawn

    return spawn(
        list(args), cwd=str(tmp_path), saves=str(tmp_path / "saves"), timeout=60, size=size
    )


def seated(child: Any, side: str, name: str | None = None) -> None:
    """At a terminal: this side's team picked (the suggestion) and named (`name`, or the
    default)."""
    child.expect("pick")  # this side's team, built here
    child.expect("Take back")
    child.send("\r")
    child.expect(f"Name for side {side}")
    child.send("\r" if name is None else f"\x15{name}\r")  # clear the default, type a name


def ended(child: Any, host: Host) -> None:
    """The terminal's game ran to its end, and the host's, both with exit 0."""
    import pexpect

    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert host.wait() == 0, host.text()
