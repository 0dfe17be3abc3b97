"""What each screen of a remote game shows: Mobs and Morale's hidden deployment stays hidden
across machines (the joiner never sees where the host's pieces stand before the reveal, nor
the host the joiner's, nor a spectator either side's), though both logs hold every entry; and
while the other side decides, a person can Look… and the screen follows the other's moves."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, PROMPT, Terminal
from tests.remote_helpers import (
    JOIN_LINE,
    Host,
    at_a_terminal,
    env,
    join,
    same_saves,
    seated,
    verify,
)

REVEALED = "Deployment revealed"


def _deploy_lines(save: Path) -> dict[str, list[str]]:
    """Each side's deployment lines in the log, by the reveal's list of each side's pieces."""
    log = json.loads(save.read_text())["log"]
    revealed = next(e for e in log if e["t"] == "event" and e.get("kind") == "revealed")
    out: dict[str, list[str]] = {"A": [], "B": []}
    for entry in log:
        if entry["t"] == "event" and entry.get("kind") == "deploy":
            side = "A" if set(entry["data"]["at"]) <= set(revealed["data"]["A"]) else "B"
            out[side].append(entry["text"])
    return out


def _before_reveal(text: str) -> str:
    assert REVEALED in text, text[-2000:]
    return text[: text.index(REVEALED)]


def test_hidden_deployment_stays_hidden_on_each_screen(tmp_path):
    host = Host(
        tmp_path, "mobs-and-morale", "--seat", "A", "--port", "0", "--bot", "--save", "h.json"
    )
    try:
        watcher = subprocess.Popen(
            [sys.executable, "-m", "wargame_cli", "watch", host.address, "--code", host.watch_code],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env(tmp_path),
        )
        host.wait_for("a spectator joined")
        joiner = join(tmp_path, host, "--bot", "--save", "j.json", timeout=120)
        assert joiner.returncode == 0, joiner.stderr
        seen, _ = watcher.communicate(timeout=60)
        assert host.wait() == 0
    finally:
        host.stop()
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert data["options"]["deployment"] == "hidden"
    lines = _deploy_lines(tmp_path / "h.json")
    assert lines["A"] and lines["B"]
    screens = {"host": host.text(), "joiner": joiner.stdout, "spectator": seen}
    hidden = {"host": lines["B"], "joiner": lines["A"], "spectator": lines["A"] + lines["B"]}
    shown = {"host": lines["A"], "joiner": lines["B"], "spectator": []}
    for who, text in screens.items():
        before = _before_reveal(text)
        for line in hidden[who]:
            assert line not in before, f"the {who} saw {line!r} before the reveal"
        for line in shown[who]:
            assert line in before, f"the {who} did not see its own {line!r}"
    after = joiner.stdout[joiner.stdout.index(REVEALED) :]
    assert "Round 1" in after  # the board of round 1: every piece, revealed
    verify(tmp_path, tmp_path / "j.json")


@pytest.mark.pty
def test_the_joiners_screen_never_shows_the_hosts_hidden_pieces(tmp_path):
    host = Host(
        tmp_path, "mobs-and-morale", "--seat", "A", "--port", "0", "--bot", "--save", "h.json"
    )
    screen = Terminal(24, 80)
    try:
        child = at_a_terminal(
            tmp_path, "join", host.address, "--code", host.code, "--save", "j.json"
        )
        seated(child, "B")
        child.logfile_read = screen  # from here on: the game's screens, as drawn
        seen: list[str] = []
        while True:  # each of this side's deployment questions, answered by its suggestion
            child.expect(PROMPT)
            child.expect(r"\((?:Use arrow keys|the list scrolls)")  # the whole question is drawn
            if "where?" not in screen.text():
                break  # both sides have deployed: the battle's first question
            seen.append(screen.text())
            child.send("\r")
            child.expect_exact(ANSWERED)
        revealed = screen.text()
        child.sendintr()
        child.expect(pexpect.EOF)
        child.close()
    finally:
        host.stop()
    lines = _deploy_lines(tmp_path / "h.json")
    theirs = {line.split(" deploy")[0] for line in lines["A"]}  # the host's pieces' names
    assert seen and any("A: hidden until both sides have deployed" in s for s in seen)
    for drawn in seen:
        for name in theirs:
            assert name not in drawn, f"{name} shown to the joiner before the reveal:\n{drawn}"
    assert "hidden until" not in revealed  # then both sides are on the screen


def _host_at_a_terminal(tmp_path) -> tuple[pexpect.spawn, str, str]:
    where = ["--port", "0", "--listen", "127.0.0.1"]
    child = at_a_terminal(tmp_path, "host", "squad-alpha", *where, "--save", "h.json")
    seated(child, "A", "Hosts")
    child.expect(JOIN_LINE)
    return child, child.match.group(1), child.match.group(2)


@pytest.mark.pty
def test_look_while_waiting_and_the_screen_follows_the_other_side(tmp_path):
    hosting, address, code = _host_at_a_terminal(tmp_path)
    joining = at_a_terminal(tmp_path, "join", address, "--code", code, "--save", "j.json")
    children: dict[str, Any] = {"Hosts": hosting, "Joiners": joining}
    try:
        seated(joining, "B", "Joiners")
        # the roll-off decides who deploys first: that side is asked, the other waits
        first = hosting.expect(["waiting for Joiners", "which miniature deploys next"])
        waiter, decider = ("Hosts", "Joiners") if first == 0 else ("Joiners", "Hosts")
        waiting, deciding = children[waiter], children[decider]
        if first == 1:
            waiting.expect(f"waiting for {decider}")
        else:
            deciding.expect("which miniature deploys next")
        drawn = r"\((?:Use arrow keys|the list scrolls)"
        waiting.expect(drawn)
        waiting.send("\r")  # Look…, the only item while waiting
        waiting.expect("Look at what")
        waiting.expect("PgUp/PgDn scroll")
        waiting.send("\r")  # the full board
        waiting.expect("Look at what")
        deciding.expect(drawn)
        deciding.send("\r")  # which miniature: the suggestion
        deciding.expect("where")
        deciding.expect(drawn)
        deciding.send("\r")  # where: the suggestion
        # Look… ended by their move, the screen drawn again with it
        waiting.expect(f"{decider} deploys .* at")
        waiting.expect(["waiting for", "which miniature deploys next"])
        for child in children.values():
            child.sendintr()
        for child in children.values():
            child.expect(pexpect.EOF)
            child.close()
    finally:
        for child in children.values():
            if child.isalive():
                child.terminate(force=True)
    saved = json.loads((tmp_path / "h.json").read_text())
    theirs = [e for e in saved["log"] if e["t"] == "choice" and e["by"] == "human"]
    assert len(theirs) >= 2
