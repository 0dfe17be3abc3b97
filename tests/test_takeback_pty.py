"""Take back at a real terminal: choose, see the dice, take it back from the next question,
choose differently: the same faces come out, the save lists the take-back and verifies."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, PROMPT, spawn
from wargame_cli import registry
from wargame_cli.engine.requests import Choice, TurnStart
from wargame_cli.engine.session import start
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.saves.seal import unchained

pytestmark = pytest.mark.pty

UP, DOWN = "\x1b[A", "\x1b[B"
GAMES = {  # ruleset: (side A's team, side B's team, seed)
    "seeds-of-wars": ("order=2, Knights, Archers", "order=1, Guard, Skirmishers", "3"),
    "battle-of-ixu": ("Ajax:3", "Bron:3", "4"),
}


def position(ruleset_id: str, a: str, b: str, seed: str, log: list | None = None):
    """A runner with these teams, bots on both sides, fed `log` (or played to the end)."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    loaded = {"A": ruleset.load_team(a, options), "B": ruleset.load_team(b, options)}
    teams = {s: team for s, (team, _) in loaded.items()}
    names = {s: name or f"Side {s}" for s, (_, name) in loaded.items()}  # as `play` names them
    session = start(ruleset, Setup(names, teams), options, int(seed))
    if log is None:
        session.runner.run()
    else:
        session.runner.controllers = {}
        session.runner.replay(log)
    return session.runner


def items(choice: Choice) -> list[tuple[str, bool]]:
    """The options as the prompt lists them: (key, enabled), a typed suggestion first. After
    them come "Type it", "Look…" and, always last, "Take back"."""
    out = [(o.key, o.disabled is None) for o in choice.options]
    if choice.default not in {o.key for o in choice.options}:
        out.insert(0, (choice.default, True))
    return out


def to_take_back(choice: Choice) -> str:
    """Up from the suggestion, past the first option, wraps round to "Take back"."""
    enabled = [k for k, on in items(choice) if on]
    return UP * (enabled.index(choice.default) + 1)


def presses(choice: Choice, goal: str) -> str:
    """Arrow presses from the suggestion to the option `goal` (disabled ones are skipped)."""
    enabled = [k for k, on in items(choice) if on]
    steps = enabled.index(goal) - enabled.index(choice.default)
    return DOWN * steps if steps > 0 else UP * -steps


def plan(ruleset_id: str):
    """From the Enter-only game: side A's first decision with another legal option and dice
    after it, the prompts before it, and the keys that take it back at the next prompt."""
    a, b, seed = GAMES[ruleset_id]
    log = position(ruleset_id, a, b, seed).log
    prompts = 0
    for at, entry in enumerate(log):
        if entry["t"] == "turn" and entry["n"] > 1:
            prompts += 1  # the between-turns question
        if entry["t"] != "choice" or entry["side"] != "A":
            continue
        nxt = next(
            (j for j in range(at + 1, len(log)) if _asks_a(log[j])), None
        )  # the next prompt side A sees
        rolls = [e for e in log[at + 1 : nxt] if e["t"] == "roll"]
        choice = position(ruleset_id, a, b, seed, log[:at]).pending
        other = [k for k, on in items(choice) if on and k != entry["key"]]
        if rolls and other and nxt is not None:
            there = position(ruleset_id, a, b, seed, log[:nxt]).pending
            # between turns: [Play on, Save and quit, (Look…,) Take back]
            undo = UP if isinstance(there, TurnStart) else to_take_back(there)
            return log, at, prompts, undo, choice, other[0]
        prompts += 1
    raise AssertionError("no decision of side A with dice after it")


def _asks_a(entry: dict) -> bool:
    return (entry["t"] == "choice" and entry["side"] == "A") or (
        entry["t"] == "turn" and entry["n"] > 1
    )


def enter(child: pexpect.spawn, keys: str = "") -> None:
    child.expect(PROMPT)
    child.send(keys + "\r")
    child.expect_exact(ANSWERED)


@pytest.mark.parametrize("ruleset_id", sorted(GAMES))
def test_take_back_keeps_the_dice(tmp_path, ruleset_id):
    a, b, seed = GAMES[ruleset_id]
    log, at, prompts, undo, choice, instead = plan(ruleset_id)
    saves = tmp_path / "saves"
    path = tmp_path / "game.json"
    child = spawn(
        ["play", ruleset_id, "--seed", seed, "--bot", "B", "--team-a", a, "--team-b", b,
         "--save", str(path)],
        str(tmp_path), str(saves), timeout=60,
    )  # fmt: skip
    screen = io.StringIO()
    child.logfile_read = screen
    for _ in range(prompts + 1):  # up to and including the decision to take back
        enter(child)
    enter(child, undo)  # "Take back" at the next question
    child.expect("took back")
    enter(child, presses(choice, instead))
    child.expect([PROMPT, pexpect.EOF])
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus in (0, 130)
    data = json.loads(path.read_text())
    data["log"] = [unchained(e) for e in data["log"]]  # without the save's hash chain
    (done,) = data["takebacks"]
    assert done["at"] == at and done["side"] == "A"
    assert done["taken"]["key"] == log[at]["key"] and done["new"]["key"] == instead
    assert data["log"][:at] == [
        dict(e, by="human") if e["t"] == "choice" and e["side"] == "A" else e for e in log[:at]
    ]
    assert data["log"][at]["key"] == instead
    before = [e for e in log[at + 1 :] if e["t"] == "roll"]
    after = [e for e in data["log"][at + 1 :] if e["t"] == "roll"]
    same = 0
    for old, new in zip(before, after, strict=False):
        if old["dice"] != new["dice"]:
            break
        assert new["faces"] == old["faces"]  # the tape: the faces seen before the take-back
        same += 1
    assert same >= 1
    assert "took back" in screen.getvalue()
    verified = subprocess.run(
        [sys.executable, "-m", "wargame_cli", "replay", str(path), "--verify"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert verified.returncode == 0, verified.stderr


def test_take_back_while_building_a_team(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(["play", "tug-of-wargods", "--seed", "5", "--bot", "B", "--turns", "1"],
                  str(tmp_path), str(saves))  # fmt: skip
    child.expect("pick a team")
    child.send(DOWN * 2 + "\r")  # from the suggested team down to "Build a team model by model"
    child.expect("model 1 of 3")
    child.send("\r")  # the suggestion (the first unit)
    child.expect("model 2 of 3")
    child.send(UP + "\r")  # up from the first unit wraps to "Take back"
    child.expect("model 1 of 3")  # asked again
    child.send(UP + "\r")  # take back the way of picking too
    child.expect("pick a team")
    child.send("\r")  # the suggested team this time
    child.expect("Name for side A")
    child.send("\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    [save] = list(saves.glob("*.json"))
    assert json.loads(save.read_text())["setup"]["teams"]["A"]["models"] == [
        "Sebeki",
        "Asar",
        "Asar",
    ]
