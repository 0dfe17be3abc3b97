"""Seeds of Wars' `auto_attack`: an attack the rules make for a side without asking is never
silent. Its line ends "(the only legal action, taken for you: option auto_attack)" on the
person's screen and in the log; `--option auto_attack=false` at setup asks every attack, and
`wargame rules seeds-of-wars` says both."""

from __future__ import annotations

import json
import re

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, PROMPT, Terminal, spawn

NOTE = "(the only legal action, taken for you: option auto_attack)"
ATTACK = re.compile(
    r"A\d [A-Z][\w ]* (?:shoots|attacks) B\d [\w ]*: \d+ \+ [^()]*" + re.escape(NOTE)
)


def _texts(save) -> list[str]:
    return [e.get("text", "") for e in json.loads(save.read_text())["log"]]


@pytest.mark.pty
def test_a_persons_attack_made_for_them_is_said_on_their_screen(tmp_path):
    child = spawn(["play", "seeds-of-wars", "--seed", "5", "--bot", "B", "--no-save"],
                  str(tmp_path), str(tmp_path / "saves"), timeout=60, size=(45, 120))  # fmt: skip
    screen = Terminal(45, 120)
    child.logfile_read = screen
    seen = None
    for _ in range(400):
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            break
        flat = " ".join(" ".join(screen.lines()).split())
        seen = ATTACK.search(flat)
        if seen:
            break
        child.send("\r")
        child.expect_exact([ANSWERED, pexpect.EOF])
    child.terminate(force=True)
    assert seen, "side A's attack made without asking was never said on the screen"


def test_the_note_marks_every_attack_made_without_asking_and_the_option_turns_it_off(
    wargame, tmp_path
):
    on, off = tmp_path / "on.json", tmp_path / "off.json"
    for path, extra in ((on, ()), (off, ("--option", "auto_attack=false"))):
        done = wargame("play", "seeds-of-wars", "--no-input", "--seed", "3", *extra,
                       "--save", str(path))  # fmt: skip
        assert done.returncode == 0, done.stderr
    noted = [t for t in _texts(on) if NOTE in t]
    assert noted and all(" shoots " in t or " attacks " in t for t in noted)
    assert not [t for t in _texts(off) if NOTE in t]
    log_on = json.loads(on.read_text())["log"]
    asked_on = sum(1 for e in log_on if e["t"] == "choice" and e["kind"] in ("shoot", "melee"))
    log_off = json.loads(off.read_text())["log"]
    asked_off = sum(1 for e in log_off if e["t"] == "choice" and e["kind"] in ("shoot", "melee"))
    assert asked_off > asked_on
    rules = " ".join(wargame("rules", "seeds-of-wars").stdout.split())
    assert "taken for you: option auto_attack" in rules and "--option auto_attack=false" in rules
