"""Seeds of Wars through the interactive prompts in a real pseudo-terminal: a whole battle on
Enter alone, surrender picked from a prompt, and physical dice typed in."""

from __future__ import annotations

import json
from pathlib import Path

import pexpect
import pytest
from wargame_cli.rulesets.seeds_of_wars.ruleset import RULESET

from tests.pty_helpers import press_enter_until_done, spawn
from wargame_cli.engine.requests import Choice
from wargame_cli.engine.session import start
from wargame_cli.ruleset import Setup, resolve_options

pytestmark = pytest.mark.pty

UP, DOWN = "\x1b[A", "\x1b[B"
TEAMS = ("order=2, Knights, Archers", "order=1, Guard, Skirmishers")


def only_save(saves: Path) -> dict:
    [save] = list(saves.glob("*.json"))
    return json.loads(save.read_text())


def test_enter_alone_plays_a_whole_battle(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(["play", "seeds-of-wars", "--seed", "5"], str(tmp_path), str(saves), timeout=60)
    answered = press_enter_until_done(child, limit=3000)
    child.close()
    assert child.exitstatus == 0
    data = only_save(saves)
    assert data["status"] == "finished" and data["result"]["winner"] in ("A", "B", None)
    assert data["setup"]["players"] == {"A": "human", "B": "human"}
    assert data["setup"]["teams"]["A"]["name"] == "Northern Host"
    choices = [e for e in data["log"] if e["t"] == "choice"]
    assert answered > len(choices) > 20  # plus names, players, armies and turn pauses
    # one question per attack, lone attacks made without asking: 168 prompts before, 110 now;
    # then each side's fight-on-or-surrender between rounds (d16): 2 a round
    rounds = (
        data["result"]["rounds"]
        if "rounds" in data["result"]
        else len([e for e in data["log"] if e["t"] == "turn"])
    )
    between = [c for c in choices if c["kind"] == "round_end"]
    assert len(between) == 2 * (rounds - 1)
    assert answered - len(between) <= 115
    assert not {c["kind"] for c in choices} - {
        "deploy",
        "move",
        "shoot",
        "melee",
        "retreat",
        "round_end",
    }
    assert {c["by"] for c in choices} == {"human"}
    assert "surrender" not in {c["key"] for c in choices}


def first_choice() -> Choice:
    """The battle's first question for these teams and seed, as the rules will ask it."""
    options = resolve_options(RULESET.options, None)
    teams = {s: RULESET.parse_team(t, options) for s, t in zip("AB", TEAMS, strict=True)}
    session = start(RULESET, Setup({"A": "A", "B": "B"}, teams), options, seed=3, controllers={})
    runner = session.runner
    while not isinstance(runner.pending, Choice):
        runner.step()
    return runner.pending


def test_surrender_is_a_choice_at_a_prompt(tmp_path):
    saves = tmp_path / "saves"
    choice = first_choice()
    keys = [o.key for o in choice.options]
    assert keys[-1] == "surrender"
    child = spawn(
        ["play", "seeds-of-wars", "--seed", "3", "--team-a", TEAMS[0], "--team-b", TEAMS[1]],
        str(tmp_path),
        str(saves),
    )
    child.expect("which space")
    child.expect(r"\(suggested\)")
    # wraps round past "Take back", "Look…" and "Table…" to the last option
    child.send(UP * (keys.index(choice.default) + 4))
    child.send("\r")
    child.expect("Surrender the battle\\?")
    child.send(DOWN + "\r")  # "Yes, surrender"
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    data = only_save(saves)
    loser = choice.side
    assert data["status"] == "finished"
    assert data["result"]["winner"] == ("B" if loser == "A" else "A")
    assert "surrenders" in data["result"]["reason"]
    picks = [(e["kind"], e["key"]) for e in data["log"] if e["t"] == "choice"]
    assert picks == [("deploy", "surrender"), ("surrender", "yes")]


def test_manual_dice_are_checked_against_the_d20(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        ["play", "seeds-of-wars", "--dice", "manual", "--team-a", TEAMS[0], "--team-b", TEAMS[1]],
        str(tmp_path),
        str(saves),
    )
    child.expect("Deployment: 1d20 \\+ Order 2 \\+ 0 Scouts.*type the faces")
    child.send("21\r")
    child.expect("does not fit a d20")
    child.send("\x15" + "1\r")
    child.expect("type the faces")
    child.send("20\r")
    child.expect("Deploy A1 Knights")  # A lost the roll: it deploys first
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    rolls = [e for e in only_save(saves)["log"] if e["t"] == "roll"]
    assert [(r["faces"], r["source"]) for r in rolls] == [([1], "manual"), ([20], "manual")]
