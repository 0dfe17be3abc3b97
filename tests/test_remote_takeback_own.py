"""A remote take-back asks back the asker's own latest decision, never the other player's:
two real processes on loopback, the host a person at a terminal (its decisions a person's,
so take-backable), the joiner a script that asks to take back once. The host's player is
asked in words which decision of the joiner's goes, and both saves credit the joiner."""

from __future__ import annotations

import codecs
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, DRAWN, PROMPT
from tests.remote_helpers import JOIN_LINE, at_a_terminal, env, reap, same_saves, verify

pytestmark = pytest.mark.pty

CHEAT = Path(__file__).with_name("remote_cheat.py")


def test_a_take_back_asks_back_the_askers_own_decision_in_words(tmp_path):
    host = at_a_terminal(tmp_path, "host", "squad-alpha", "--listen", "127.0.0.1", "--seat",
                         "A", "--port", "0", "--team", "Alpha Squad", "--name", "Hosts",
                         "--option", "max_turns=1", "--save", "h.json",
                         size=(45, 160))  # fmt: skip
    host.timeout = 120
    # the host's screen is sometimes written with a character cut in two (two writers at
    # once, seen under load): read what can be read, as a terminal would
    host._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    host.expect(JOIN_LINE)
    address, code = host.match.group(1), host.match.group(2)
    joined = (tmp_path / "joiner.out").open("w")  # a file: a full pipe would stall the joiner
    joiner = subprocess.Popen(
        [sys.executable, str(CHEAT), "undo", str(tmp_path / "none.json"), "join", address,
         "--code", code, "--bot", "--name", "Guests", "--save", "j.json"],  # fmt: skip
        stdout=joined, stderr=subprocess.STDOUT, text=True, env=env(tmp_path),
        cwd=tmp_path,
    )  # fmt: skip
    asked: list[str] = []
    try:
        for _ in range(300):
            if host.expect([PROMPT, pexpect.EOF]) == 1:
                break
            host.expect_exact(DRAWN)
            found = re.search(r"Guests asks to take back ([^\x1b\r\n]*)\. ", host.before)
            if found:
                asked.append(found.group(1))
            host.send("\r")  # Agree, and the suggestion at every question of the host's
            host.expect_exact([ANSWERED, pexpect.EOF])
        host.expect(pexpect.EOF)
        host.close()
        assert joiner.wait(timeout=120) == 0, (tmp_path / "joiner.out").read_text()
    finally:
        reap(joiner)
        joined.close()
        host.terminate(force=True)
    saved = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    (taken,) = saved["takebacks"]
    assert taken["side"] == "B" and taken["taken"]["by"] == "script", taken
    assert len(asked) == 1, asked
    words = asked[0]
    assert words.startswith("their last decision: "), words
    assert taken["taken"]["label"] in words, words
    report = subprocess.run(
        [sys.executable, "-m", "wargame_cli", "replay", "h.json", "--no-input"],
        capture_output=True, text=True, env=env(tmp_path), cwd=tmp_path,
    )  # fmt: skip
    told = " ".join(report.stdout.split())
    assert "Guests took back" in told and "Hosts took back" not in told, told[-2000:]
    verify(tmp_path, tmp_path / "h.json")
