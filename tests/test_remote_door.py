"""The door and the connection against visitors that misbehave, with a real `wargame host`
on loopback: unreadable hellos are refused and counted, never the door's end; slow or idle
visitors hold no one else out; a spectator that stops reading never holds the game; a
player whose connection went half-open is noticed, and its seat taken over by the code's
holder; and the advice printed when the door closes works as printed."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.remote_helpers import (
    Host,
    env,
    join,
    log_length,
    played_out,
    reap,
    same_saves,
    start_join,
    verify,
)
from tests.remote_visitor import Trickle, connect, hello_body, idle, nested, say
from wargame_cli.remote import codes

VISITOR = str(Path(__file__).with_name("remote_visitor.py"))  # run as a script: see there


def _host(tmp_path: Path, ruleset: str = "squad-alpha", *args: str) -> Host:
    return Host(tmp_path, ruleset, "--port", "0", "--bot", "--save", "h.json", *args)


def _watch(tmp_path: Path, host: Host) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "wargame_cli", "watch", host.address, "--code", host.watch_code]
        + ["--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(tmp_path),
        cwd=tmp_path,
    )


def _no_traceback(host: Host) -> None:
    assert "Traceback" not in host.text(), host.text()


# -- item 6: every bad hello is a counted try, never the door's end -----------------------


def test_unreadable_hellos_are_counted_tries_and_the_joiner_still_gets_in(tmp_path):
    host = _host(tmp_path)
    try:
        sock, fingerprint = connect(host.address)
        sock.close()
        # a hello nested far past any stack, without a code
        deep = ('{"t": "hello", "x": ' + nested(20_000) + ', "n": 0}').encode()
        assert say(host.address, deep) == b""
        host.wait_for(r"refused a visitor from .*nests deeper.*\(1 of 3 tries\)")
        # a spectator's hello, with the right code, holding 1e999 in its roll in progress
        roll = ', "roll": {"commit": "' + "0" * 64 + '", "value": "' + "1" * 64 + '", '
        roll += '"at": 1, "tip": "x", "dice": [1e999]}'
        assert say(host.address, hello_body(host.watch_code, fingerprint, roll)) == b""
        host.wait_for(r"refused a visitor from .*not finite.*\(2 of 3 tries\)")
        played_out(tmp_path, host)  # the rightful joiner: the third try is not needed
    finally:
        host.stop()
    _no_traceback(host)
    same_saves(tmp_path / "h.json", tmp_path / "j.json")


# -- items 2 and 10: a message that cannot be read mid-game is one line on both sides -----


def test_a_host_that_nests_its_reveal_stops_the_joiner_with_one_line(tmp_path):
    """The host answers the joiner's value with a message nested past any stack, instead of
    its reveal (the veto by crashing the joiner): the joiner stops with one line, exit 2."""
    record = tmp_path / "sent.json"
    host = Host(
        tmp_path,
        "squad-alpha",
        "--port",
        "0",
        "--bot",
        "--save",
        "h.json",
        program=(VISITOR, "5", "30", "15", "--", "--nest-reveal", str(record)),
    )
    try:
        done = join(tmp_path, host, "--bot", "--save", "j.json")
        host.wait()
    finally:
        host.stop()
    assert record.exists(), host.text()  # the nested message was sent
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "nests deeper than 64 levels" in lines[0], done.stderr
    assert "nests deeper than 64 levels" in host.text()  # told to the host too
    verify(tmp_path, tmp_path / "j.json")
