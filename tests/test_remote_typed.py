"""Typed physical dice in remote play, by agreement at setup: the host proposes them
(`--dice B=manual`), the joiner's player accepts at their terminal and types side B's faces
there; the faces cross the wire, each such roll is labelled in both logs as typed by side B's
player, and verify and the report say so. Declined (or a bot joiner): every roll shared."""

from __future__ import annotations

import json
from typing import Any

import pexpect
import pytest

from tests.pty_helpers import ANSWERED
from tests.remote_helpers import Host, at_a_terminal, ended, join, same_saves, seated, verify

pytestmark = pytest.mark.pty


def _host(tmp_path, *more: str) -> Host:
    return Host(
        tmp_path, "tug-of-wargods", "--seat", "A", "--port", "0", "--bot", "--save", "h.json", *more
    )


def _joined(tmp_path, host: Host, answer: str) -> pexpect.spawn:
    """The joiner at a terminal: its team built and named, the proposal answered (Enter:
    accept; Down Enter: decline)."""
    child = at_a_terminal(tmp_path, "join", host.address, "--code", host.code, "--save", "j.json")
    seated(child, "B", "Joiners")
    child.expect("proposes typed physical dice for side B")
    child.send(answer)
    return child


def _played(tmp_path, answer: str) -> tuple[str, dict[str, Any], int]:
    """A game whose host proposed typed dice for side B, the proposal answered at the
    joiner's terminal, every face asked there typed as 1s: the host's lines, the save (the
    same on both machines) and how many rolls were typed."""
    host = _host(tmp_path, "--dice", "B=manual")
    typed = 0
    try:
        child = _joined(tmp_path, host, answer)
        while child.expect(["type the faces", "Saved to j.json"]) == 0:
            child.send("1 1 1\r")  # a d8, a d6 and a d4
            child.expect_exact(ANSWERED)  # that question is done: the next match is a new one
            typed += 1
        ended(child, host)
    finally:
        host.stop()
    return host.text(), same_saves(tmp_path / "h.json", tmp_path / "j.json"), typed


def test_accepted_the_joiner_types_its_sides_faces(tmp_path, wargame):
    told_host, data, typed = _played(tmp_path, "\r")  # Enter: accept
    assert "Joiners accepted typed dice for side B" in told_host
    assert data["setup"]["dice"] == "shared,B=manual"
    rolls = [e for e in data["log"] if e["t"] == "roll"]
    theirs = [e for e in rolls if e["side"] == "B"]
    assert typed == len(theirs) > 0
    assert all(e["source"] == "typed-B" and e["faces"] == [1, 1, 1] for e in theirs)
    assert all("shared" not in e for e in theirs)
    assert all(isinstance(e.get("sig"), str) for e in theirs)  # signed by B's machine
    ours = [e for e in rolls if e["side"] == "A"]
    assert ours and all(e["source"] == "shared" and "shared" in e for e in ours)
    told = " ".join(verify(tmp_path, tmp_path / "j.json").split())
    assert f"{3 * typed} typed in by side B's player at their own machine" in told
    report = wargame("replay", str(tmp_path / "h.json"), "--report", str(tmp_path / "r.md"))
    assert report.returncode == 0, report.stderr
    assert "typed in by side B's player" in " ".join((tmp_path / "r.md").read_text().split())
    _forged_typed_faces_fail_verify(tmp_path, wargame, data)


def _forged_typed_faces_fail_verify(tmp_path, wargame, data: dict[str, Any]) -> None:
    """A typed roll's signature forged (a signature of another statement) or left out, the
    save sealed again (as anyone can): the record was edited."""
    from wargame_cli.saves import seal

    log = [seal.unchained(e) for e in data["log"]]
    at = max(i for i, e in enumerate(log) if e.get("source") == "typed-B")
    other = next(e["shared"]["host_sig"] for e in log if "shared" in e)  # the host's, of another
    for what, edited in (
        ("forged", {**log[at], "sig": other}),
        ("left out", {k: v for k, v in log[at].items() if k != "sig"}),
    ):
        plain = {k: v for k, v in data.items() if k != "seal"}
        plain["log"] = [*log[:at], edited, *log[at + 1 :]]
        path = tmp_path / "forged.json"
        path.write_text(json.dumps(seal.sealed(plain)))
        done = wargame("replay", "--verify", str(path))
        said = " ".join(done.stderr.split())
        assert done.returncode == 2 and "the record was edited" in said, (what, said)


def test_declined_every_roll_is_shared(tmp_path):
    told_host, data, typed = _played(tmp_path, "\x1b[B\r")  # Down, Enter: decline
    assert typed == 0, "asked to type dice after declining"
    assert "Joiners declined typed dice for side B: every roll is shared" in told_host
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
