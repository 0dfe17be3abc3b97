"""Typed physical dice in remote play, by agreement at setup: the host proposes them
(`--dice B=manual`), the joiner's player accepts at their terminal and types side B's faces
there; the faces cross the wire, each such roll is labelled in both logs as typed by side B's
player, and verify and the report say so. Declined (or a bot joiner): every roll shared."""

from __future__ import annotations

import json

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, spawn
from tests.remote_helpers import Host, join, same_saves, verify

pytestmark = pytest.mark.pty


def _host(tmp_path, *more: str) -> Host:
    return Host(
        tmp_path, "tug-of-wargods", "--seat", "A", "--port", "0", "--bot", "--save", "h.json", *more
    )


def _joined(tmp_path, host: Host, answer: str) -> pexpect.spawn:
    """The joiner at a terminal: its team built and named, the proposal answered (Enter:
    accept; Down Enter: decline)."""
    child = spawn(
        ["join", host.address, "--code", host.code, "--save", "j.json"],
        cwd=str(tmp_path),
        saves=str(tmp_path / "saves"),
        timeout=60,
        size=(24, 80),
    )
    child.expect("pick")
    child.send("\r")
    child.expect("Name for side B")
    child.send("\x15Joiners\r")
    child.expect("proposes typed physical dice for side B")
    child.send(answer)
    return child


def test_accepted_the_joiner_types_its_sides_faces(tmp_path, wargame):
    host = _host(tmp_path, "--dice", "B=manual")
    try:
        child = _joined(tmp_path, host, "\r")
        typed = 0
        while child.expect(["type the faces", "Saved to j.json"]) == 0:
            child.send("1 1 1\r")  # a d8, a d6 and a d4
            child.expect_exact(ANSWERED)  # that question is done: the next match is a new one
            typed += 1
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert host.wait() == 0, host.text()
    finally:
        host.stop()
    assert "Joiners accepted typed dice for side B" in host.text()
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert data["setup"]["dice"] == "shared,B=manual"
    rolls = [e for e in data["log"] if e["t"] == "roll"]
    theirs = [e for e in rolls if e["side"] == "B"]
    assert typed == len(theirs) > 0
    assert all(e["source"] == "typed-B" and e["faces"] == [1, 1, 1] for e in theirs)
    assert all("shared" not in e for e in theirs)
    ours = [e for e in rolls if e["side"] == "A"]
    assert ours and all(e["source"] == "shared" and "shared" in e for e in ours)
    told = " ".join(verify(tmp_path, tmp_path / "j.json").split())
    assert f"{3 * typed} typed in by side B's player at their own machine" in told
    report = wargame("replay", str(tmp_path / "h.json"), "--report", str(tmp_path / "r.md"))
    assert report.returncode == 0, report.stderr
    assert "typed in by side B's player" in " ".join((tmp_path / "r.md").read_text().split())


def test_declined_every_roll_is_shared(tmp_path):
    host = _host(tmp_path, "--dice", "B=manual")
    try:
        child = _joined(tmp_path, host, "\x1b[B\r")  # Down, Enter: decline
        index = child.expect(["type the faces", "Saved to j.json"])
        assert index == 1, "asked to type dice after declining"
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert host.wait() == 0
    finally:
        host.stop()
    assert "Joiners declined typed dice for side B: every roll is shared" in host.text()
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert data["setup"]["dice"] == "shared"
    assert all(e["source"] == "shared" for e in data["log"] if e["t"] == "roll")
    verify(tmp_path, tmp_path / "h.json")


def test_a_bot_joiner_declines_and_the_host_cannot_type_for_its_bot(tmp_path, wargame):
    host = _host(tmp_path, "--dice", "B=manual")
    try:
        done = join(tmp_path, host, "--bot", "--save", "j.json")
        assert done.returncode == 0, done.stderr
        assert host.wait() == 0
    finally:
        host.stop()
    assert "Declined: no person at this machine to throw dice" in done.stdout
    data = json.loads((tmp_path / "j.json").read_text())
    assert data["setup"]["dice"] == "shared"
    refused = wargame(
        "host",
        "tug-of-wargods",
        "--bot",
        "--dice",
        "A=manual",
        "--port",
        "0",
        "--save",
        str(tmp_path / "x.json"),
    )
    assert refused.returncode == 2
    assert "the computer plays it here" in refused.stderr and "Traceback" not in refused.stderr
