"""Mobs and Morale's `max_rounds` (issue 12, item 11; e29): a safeguard so that computer games
end, off in a game where a person plays a side, announced at the start and at the last round
where it is on, and tallied by `simulate` apart from the endings e29 names."""

from __future__ import annotations

import json
from pathlib import Path

import pexpect
import pytest

from tests.pty_helpers import spawn
from wargame_cli.registry import get
from wargame_cli.ruleset import resolve_options, safeguards_for

MOBS = "mobs-and-morale"


def limit_events(log: list[dict]) -> list[dict]:
    return [e for e in log if e["t"] == "event" and e.get("kind") == "round_limit"]


def test_e29_the_safeguard_is_off_with_a_person_unless_set():
    ruleset = get(MOBS)
    options = resolve_options(ruleset.options, None)
    assert options["max_rounds"] == 40
    bots = {"A": "bot", "B": "bot"}
    person = {"A": "human", "B": "bot"}
    assert safeguards_for(ruleset, options, [], bots)["max_rounds"] == 40
    assert safeguards_for(ruleset, options, [], person)["max_rounds"] == 0
    chosen = resolve_options(ruleset.options, ["max_rounds=5"])
    assert safeguards_for(ruleset, chosen, ["max_rounds=5"], person)["max_rounds"] == 5


def test_e29_a_computer_game_announces_the_limit_and_its_last_round(wargame, tmp_path):
    save = tmp_path / "g.json"
    done = wargame(
        "play", MOBS, "--no-input", "--seed", "7", "--option", "max_rounds=2", "--save", str(save)
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(save.read_text())
    first, last = limit_events(data["log"])
    assert "after round 2" in first["text"] and data["log"].index(first) < 3
    assert last["text"].startswith("Round 2 is the last (max_rounds)")
    assert data["result"]["winner"] is None and "max_rounds" in data["result"]["reason"]
    assert "Round 2 is the last" in done.stdout


def test_e29_simulate_tallies_the_round_limit_apart_from_e29_endings(wargame):
    done = wargame(
        "simulate", MOBS, "--games", "6", "--seed", "1", "--option", "max_rounds=3", "--json"
    )
    assert done.returncode == 0, done.stderr
    endings = json.loads(done.stdout)["endings"]
    assert endings["draw"] == {"round limit (max_rounds) (e29)": 6}  # no game ends in 3 rounds
    shown = wargame("simulate", MOBS, "--games", "6", "--seed", "1", "--option", "max_rounds=3")
    assert "round limit (max_rounds)" in shown.stdout


@pytest.mark.pty
def test_e29_a_game_with_a_person_has_no_round_limit(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(["play", MOBS, "--seed", "7", "--bot", "B"], str(tmp_path), str(saves))
    child.expect("pick a team")
    child.send("\r")
    child.expect("Name for side A")
    child.send("\r")
    child.expect("Centre of the deployment area")  # the first question of the battle
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    [save] = list(Path(saves).glob("*.json"))
    data = json.loads(save.read_text())
    assert data["options"]["max_rounds"] == 0
    assert limit_events(data["log"]) == []
