"""A campaign's after-battle dice typed at the table, in a real pseudo-terminal: with `--dice
manual`, `campaign next` asks Squad Alpha's casualty d6 (b22) and Mobs and Morale's survival
d10 (e30) at a prompt, refuses a face the die cannot show there and then, and the roster and
the campaign file carry the faces typed, marked `manual` (issue 34)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, DRAWN, PROMPT, spawn

pytestmark = pytest.mark.pty


def _wargame(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WARGAME_SAVES_DIR": str(tmp_path / "saves"), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "wargame_cli", *args],
        capture_output=True, text=True, cwd=tmp_path, env=env,
    )  # fmt: skip


def _json(done: subprocess.CompletedProcess[str]) -> Any:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _battle_faces(tmp_path: Path, ruleset: str, seed: int) -> str:
    """The faces of a campaign battle the bots play with `seed`, its after-battle rolls of
    the battle's own (e30) left out: given as `--rolls`, the same battle is played again and
    only the after-battle dice are left to type."""
    _json(_wargame(tmp_path, "campaign", "new", "probe", ruleset, "--json"))
    shown = _json(
        _wargame(tmp_path, "campaign", "next", "probe", "--no-input", "--json", "--seed", str(seed))
    )
    log = json.loads(Path(shown["battle"]["save"]).read_text())["log"]
    faces = [
        face
        for entry in log
        if entry["t"] == "roll" and "e30" not in entry["rules"]
        for face in entry["faces"]
    ]
    return ",".join(map(str, faces))


def _typed_battle(tmp_path: Path, ruleset: str, seed: int) -> pexpect.spawn:
    faces = _battle_faces(tmp_path, ruleset, seed)
    _json(_wargame(tmp_path, "campaign", "new", "typed", ruleset, "--json"))
    return spawn(
        ["campaign", "next", "typed", "--seed", str(seed), "--bot", "A", "--bot", "B",
         "--dice", "manual", "--rolls", faces],
        str(tmp_path), str(tmp_path / "saves"), timeout=60,
    )  # fmt: skip


def _face_asked(child: pexpect.spawn, words: str) -> str:
    """Wait for the prompt for an after-battle die whose question holds `words`; the name
    it asks about."""
    child.expect(PROMPT)
    child.expect(words)
    return str(child.match.group(1)).strip()


def _answer(child: pexpect.spawn, text: str) -> None:
    child.send(text + "\r")
    child.expect_exact([ANSWERED, pexpect.EOF])  # the answered question is drawn again


def _refused_then(child: pexpect.spawn, wrong: str, why: str, right: str) -> None:
    child.send(wrong + "\r")
    child.expect_exact(why)  # refused at the prompt, which waits for a face it can take
    child.sendcontrol("u")
    _answer(child, right)


def _shown(tmp_path: Path) -> dict[str, Any]:
    return _shown_of(tmp_path, "typed")


def _shown_of(tmp_path: Path, name: str) -> dict[str, Any]:
    return _json(_wargame(tmp_path, "campaign", "show", name, "--json"))


def test_squad_alpha_casualty_d6_typed_after_the_battle(tmp_path):
    child = _typed_battle(tmp_path, "squad-alpha", 3)
    casualty = r"([A-Z][\w ]*), a casualty of battle 1: wounded on 4\+, else gone"
    first = _face_asked(child, casualty)
    _answer(child, "1")  # gone for good
    second = _face_asked(child, casualty)
    _refused_then(child, "7", "7 does not fit a d6 (1-6)", "6")  # wounded, back later
    while child.expect([PROMPT, pexpect.EOF]) == 0:  # the rest: the computer rolls them
        _answer(child, "")
    child.close()
    assert child.exitstatus == 0, child.before
    shown = _shown(tmp_path)
    battle = shown["battles"][0]
    assert battle["status"] == "finished"
    rolls = battle["after"]["rolls"]
    assert [(r["reason"].split(",")[0], r["faces"], r["source"]) for r in rolls[:2]] == [
        (first, [1], "manual"),
        (second, [6], "manual"),
    ]
    assert all(r["source"] == "rng" for r in rolls[2:])  # an empty answer: the computer's
    roster = {f["name"]: f for s in "AB" for f in shown["sides"][s]["figures"]}
    assert roster[first]["state"] == "gone"
    assert (roster[second]["state"], roster[second]["back"]) == ("wounded", 3)
    assert f"{first} is gone for good (rolled 1)." in battle["after"]["told"]


def test_mobs_and_morale_survival_d10_typed_at_the_end_of_the_battle(tmp_path):
    child = _typed_battle(tmp_path, "mobs-and-morale", 1)
    name = _face_asked(child, r"a d10 for each casualty, 5\+ lives: .*?\((\w[\w ]*) d10\)")
    _refused_then(child, "11", "11 does not fit a d10 (1-10)", "1")  # a 1: lost
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    battle = _shown(tmp_path)["battles"][0]
    roll = battle["after"]["rolls"][0]
    assert (roll["labels"], roll["faces"], roll["source"]) == ([name], [1], "manual")
    assert roll["in_battle"] is True and roll["rules"] == ["e30"]
    figure = next(f for f in _shown(tmp_path)["sides"]["A"]["figures"] if f["name"] == name)
    assert figure["state"] == "dead" and "lost in battle 1" in figure["deeds"]
    assert f"{name} is lost (rolled 1)." in battle["after"]["told"]


def test_campaign_next_offers_table_edits_before_turn_1_and_they_carry(tmp_path):
    """A GM at `campaign next` meets the battle set up before its first turn, with "Table…":
    an old wound dealt there is in the battle's log before turn 1, and carries."""
    _json(
        _wargame(
            tmp_path, "campaign", "new", "gods", "battle-of-ixu", "--json",
            "--team-a", "Tutok:4, Kuote:5", "--option", "health=6",
        )
    )  # fmt: skip
    child = spawn(
        ["campaign", "next", "gods", "--bot", "B", "--seed", "4"],
        str(tmp_path), str(tmp_path / "saves"), timeout=60,
    )  # fmt: skip
    child.expect_exact("Before turn 1: the battle is set up")
    child.expect_exact(DRAWN)  # drawn whole, waiting for a key
    child.send("\x1b[B\x1b[B\r")  # Table…
    child.expect_exact("Edit the table: what?")
    _answer(child, "")  # damage
    child.expect_exact("type what follows 'damage'")
    _answer(child, "Kuote 2")
    child.expect_exact("Who makes this edit")
    _answer(child, "")  # the GM
    _answer(child, "an old wound")
    child.expect_exact("Kuote takes 2 damage")
    child.expect_exact("Before turn 1")  # asked again: play, or edit more
    child.send("\x1b[B\r")  # Save and quit
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    save = _shown_of(tmp_path, "gods")["battles"][0]["save"]
    log = json.loads(Path(save).read_text())["log"]
    edit = next(i for i, e in enumerate(log) if e["t"] == "edit")
    assert log[edit]["text"].startswith("Kuote takes 2 damage")
    assert not any(e["t"] == "turn" for e in log[:edit])
    _json(_wargame(tmp_path, "resume", save, "--no-input", "--json"))
    # the next `campaign next` takes battle 1 up: Kuote's damage, the old wound's too, carries
    _wargame(tmp_path, "campaign", "next", "gods", "--no-input", "--turns", "0")
    assert _shown_of(tmp_path, "gods")["battles"][0]["status"] == "finished"
    end = _json(_wargame(tmp_path, "replay", save, "--json"))["state"]
    kuote = next(m for m in end["sides"]["A"]["models"] if m["name"] == "Kuote")
    figure = next(
        f for f in _shown_of(tmp_path, "gods")["sides"]["A"]["figures"] if f["name"] == "Kuote"
    )
    if kuote["status"] == "dead":
        assert figure["state"] == "dead"
    else:
        assert figure["wounds"] == kuote["damage"] >= 2
