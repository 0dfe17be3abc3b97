"""Point on the map, through `wargame play` in a real pseudo-terminal: `p` opens the cursor,
keys move it cell by cell, the facts line says where it is and what the rules say of it, and
Enter answers that spot exactly as typing it would (the save records it as a person's)."""

from __future__ import annotations

import json
import re
from typing import Any

import pexpect

from tests.pty_helpers import ANSWERED, PROMPT, Terminal, press_enter_until_done, settle, spawn

ROWS, COLUMNS = 30, 100
FACTS = re.compile(r"cursor at \(([0-9.]+,[0-9.]+)\)")


def _cursor_facts(child: pexpect.spawn, term: Terminal) -> tuple[str, str]:
    """Once the screen settles, the spot the cursor's facts line gives and its verdict."""
    settle(child)
    lines = term.lines()
    at = max(i for i, line in enumerate(lines) if FACTS.search(line))
    spot = FACTS.search(lines[at])
    assert spot is not None
    return spot.group(1), lines[at + 1]


def _point_and_pick(child: pexpect.spawn, term: Terminal, keys: list[str]) -> str:
    """`p`, then move with `keys` (the first move every time, then further until the spot
    is allowed), then Enter: the spot picked."""
    child.send("p")
    start, _ = _cursor_facts(child, term)
    for key in keys:
        child.send(key)
        spot, verdict = _cursor_facts(child, term)
        if spot != start and verdict.startswith("allowed"):
            break
    assert spot != start  # the keys moved the cursor
    assert verdict.startswith("allowed"), verdict
    child.send("\r")
    return spot


def _until(child: pexpect.spawn, pattern: str) -> None:
    while True:
        child.expect(PROMPT)
        child.expect(r"[^\r\n]+")
        if re.search(pattern, child.after):
            return
        child.send("\r")
        child.expect_exact(ANSWERED)


def _game(tmp_path, args: list[str], timeout: int = 90) -> tuple[pexpect.spawn, Terminal, Any]:
    """`wargame play ARGS` at ROWS x COLUMNS, seen through a terminal emulator."""
    saves = tmp_path / "saves"
    child = spawn(["play", *args], str(tmp_path), str(saves), timeout, (ROWS, COLUMNS))
    term = Terminal(ROWS, COLUMNS)
    child.logfile_read = term
    return child, term, saves


def _played(child: pexpect.spawn, saves) -> list[dict]:
    press_enter_until_done(child, limit=1500)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    [save] = list(saves.glob("*.json"))
    return json.loads(save.read_text())["log"]


def test_squad_alpha_deploys_where_the_cursor_points(tmp_path):
    child, term, saves = _game(
        tmp_path, ["squad-alpha", "--seed", "3", "--bot", "B", "--turns", "1"]
    )
    _until(child, "where does Sgt Rook deploy")
    spot = _point_and_pick(child, term, ["l", "l", "L", "j", "j", "J", "h"])
    child.expect(f"deploys Sgt Rook at {re.escape(spot)}")
    log = _played(child, saves)
    [placed] = [e for e in log if e["t"] == "choice" and e["kind"] == "deploy" and e["key"] == spot]
    assert placed["by"] == "human" and placed["side"] == "A"


def test_battle_of_ixu_moves_where_the_cursor_points_and_esc_goes_back(tmp_path):
    args = ["battle-of-ixu", "--seed", "4", "--bot", "B", "--team-a", "Ajax:3"]
    args += ["--team-b", "Bron:3", "--turns", "1", "--rolls", "9,1,6,5,4"]
    child, term, saves = _game(tmp_path, args)
    child.expect("movement, combat, defence")
    child.send("\r")
    child.expect("Ajax at 12,2: move up to")
    child.expect_exact("Point on the map")
    child.send("p")
    _cursor_facts(child, term)
    child.send("\x1b")  # Esc: back to the list, the same question
    child.expect("Ajax at 12,2: move up to")
    settle(child)
    spot = _point_and_pick(child, term, ["j", "j", "2", "j", "h", "h"])
    log = _played(child, saves)
    [move] = [e for e in log if e["t"] == "choice" and e["kind"] == "move" and e["side"] == "A"]
    assert move["key"] == spot and move["by"] == "human"


def test_battle_of_ixu_tab_aims_at_a_target_and_enter_attacks_it(tmp_path):
    child, term, saves = _game(tmp_path, ["battle-of-ixu", "--seed", "4", "--turns", "3"], 120)
    _until(child, "fight whom")
    settle(child)
    child.send("p")
    settle(child)
    child.send("\t")  # the next target: the cursor on it, the line of fire drawn
    settle(child)
    lines = term.lines()
    [verdict] = [line for line in lines if line.startswith("target: ")]
    label = verdict.removeprefix("target: ")
    child.send("\r")
    log = _played(child, saves)
    attacks = [e for e in log if e["t"] == "choice" and e["kind"] == "target"]
    assert any(e["label"] == label and e["by"] == "human" for e in attacks), (label, attacks[:3])
