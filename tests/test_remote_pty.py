"""The joiner at a real terminal (pexpect): it builds and names its own team on its own
screen, answers its side's questions with the same decision screen as at one terminal, sees
"waiting for NAME…" while the host decides, and Ctrl-C saves and exits 130 while the host
waits for it to come back."""

from __future__ import annotations

import pexpect
import pytest

from tests.pty_helpers import PROMPT
from tests.remote_helpers import (
    Host,
    at_a_terminal,
    ended,
    played_out,
    same_saves,
    seated,
    verify,
)

pytestmark = pytest.mark.pty


def _join_at_a_terminal(tmp_path, host: Host, size=(24, 80)) -> pexpect.spawn:
    child = at_a_terminal(
        tmp_path, "join", host.address, "--code", host.code, "--save", "j.json", size=size
    )
    child.expect(r"host key fingerprint\s+SHA256:")  # wrapped at words on a narrow screen
    seated(child, "B", "Joiners")
    return child


def test_the_joiner_builds_names_and_plays_at_its_terminal(tmp_path):
    host = Host(
        tmp_path, "tug-of-wargods", "--seat", "A", "--port", "0", "--bot", "--save", "h.json"
    )
    try:
        child = _join_at_a_terminal(tmp_path, host)
        child.expect("Victory to")
        child.expect("Saved to j.json")
        ended(child, host)
    finally:
        host.stop()
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert data["setup"]["names"]["B"] == "Joiners"
    verify(tmp_path, tmp_path / "j.json")


def test_decisions_at_the_terminal_then_ctrl_c_and_a_rejoin(tmp_path):
    host = Host(tmp_path, "squad-alpha", "--seat", "A", "--port", "0", "--bot", "--save", "h.json")
    try:
        child = _join_at_a_terminal(tmp_path, host, size=(45, 120))
        for _ in range(2):  # two of this side's decisions, on the decision screen
            child.expect("Joiners: ")
            child.expect(PROMPT)
            child.send("\r")
        # the second taken (a redraw of its own screen is not yet a new question): the host's
        # move awaited, or made already and this side's next deployment asked
        child.expect(["waiting for ", "Joiners: which miniature"])
        child.sendintr()  # once: heard even as the other side's move ends the wait
        child.expect("interrupted; game saved to j.json")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 130
        host.wait_for("Joiners (dropped|left)")
        host.wait_for("waiting for them to join again")
        played_out(tmp_path, host)
    finally:
        host.stop()
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    people = [e for e in data["log"] if e["t"] == "choice" and e["by"] == "human"]
    assert len(people) >= 2 and all(e["side"] == "B" for e in people)
    verify(tmp_path, tmp_path / "h.json")
