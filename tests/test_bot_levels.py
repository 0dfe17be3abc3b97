"""Bot levels (`--bot-level`): policies apart from the rules, played through the real CLI.

Every registered ruleset (a plugin too) plays, saves and verifies at the random and the
search level; the default level is the rules' hint, as before levels existed; a seed plays
the same game; the search really searches (its choices are not the hint's everywhere)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import one_error_line, play_json

from wargame_cli import registry

IDS = [info.id for info in registry.all_infos()]


@pytest.fixture(autouse=True)
def _no_time_guard(monkeypatch):
    """The search's time guard lifted: on a loaded machine it would cut a decision short
    and a seed would not replay the same choices (which these tests check)."""
    monkeypatch.setenv("WARGAME_SEARCH_GUARD", "600")


def _played(wargame: Any, ruleset_id: str, folder: Path, name: str, *args: str) -> dict[str, Any]:
    """A bot game saved under `folder`, which `replay --verify` verifies; its save."""
    path = folder / f"{name}.json"
    play_json(wargame, ruleset_id, "--no-input", "--save", str(path), *args)
    verified = wargame("replay", str(path), "--verify", "--json")
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["verified"] is True
    return json.loads(path.read_text())


def _decisions(save: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e.get("side", ""), e["key"]) for e in save["log"] if e["t"] == "choice"]


@pytest.mark.parametrize("ruleset_id", IDS)
def test_random_level_ends_saves_and_verifies(wargame, tmp_path, ruleset_id):
    save = _played(wargame, ruleset_id, tmp_path, "r1", "--bot-level", "random", "--seed", "5")
    assert save["status"] == "finished"
    assert save["setup"]["bots"] == {"A": "random", "B": "random"}
    again = _played(wargame, ruleset_id, tmp_path, "r2", "--bot-level", "random", "--seed", "5")
    assert again["log"] == save["log"]  # the same seed, the same game


@pytest.mark.parametrize("ruleset_id", IDS)
def test_search_level_plays_saves_and_verifies(wargame, tmp_path, ruleset_id):
    """Search on side A for a turn (a whole game costs a minute in a tabletop ruleset):
    saved, verified, and the same seed makes the same choices."""
    args = ("--bot-level", "A=search,B=default", "--seed", "4", "--turns", "1")
    save = _played(wargame, ruleset_id, tmp_path, "s1", *args)
    assert save["setup"]["bots"] == {"A": "search"}
    assert _played(wargame, ruleset_id, tmp_path, "s2", *args)["log"] == save["log"]


def test_search_level_ends_a_game(wargame, tmp_path):
    """A whole game with the search on both sides ends, saves and verifies (the plugin's
    pit fight when installed, which has no code for the search; else Tug of WarGods)."""
    ruleset_id = "pit-fight" if "pit-fight" in IDS else "tug-of-wargods"
    save = _played(wargame, ruleset_id, tmp_path, "s", "--bot-level", "search", "--seed", "2")
    assert save["status"] == "finished"


def test_default_level_plays_the_hints(wargame, tmp_path):
    """`--bot-level default` is the game every bot played before levels: the same log as no
    level at all, and its save reads like one written before levels existed."""
    plain = _played(wargame, "squad-alpha", tmp_path, "plain", "--seed", "6")
    default = _played(
        wargame, "squad-alpha", tmp_path, "default", "--seed", "6", "--bot-level", "default"
    )
    assert default["log"] == plain["log"] and "bots" not in default["setup"]


def test_search_chooses_otherwise_than_the_hint(wargame, tmp_path):
    """The search's decisions differ from the default bot's somewhere on the same seed."""
    args = ("--seed", "3", "--turns", "1")
    plain = _played(wargame, "mobs-and-morale", tmp_path, "plain", *args)
    searched = _played(
        wargame, "mobs-and-morale", tmp_path, "search", *args, "--bot-level", "A=search"
    )
    assert _decisions(searched) != _decisions(plain)


def test_resume_keeps_the_level(wargame, tmp_path):
    path = tmp_path / "g.json"
    play_json(
        wargame, "squad-alpha", "--no-input", "--seed", "9", "--turns", "1",
        "--bot-level", "random", "--save", str(path),
    )  # fmt: skip
    done = wargame("resume", str(path), "--no-input", "--json", "--turns", "2")
    assert done.returncode == 0, done.stderr
    assert json.loads(path.read_text())["setup"]["bots"] == {"A": "random", "B": "random"}


@pytest.mark.parametrize("level", ["clever", "C=search", ""])
def test_unknown_level_is_one_line(wargame, level):
    done = wargame("play", "squad-alpha", "--no-input", "--no-save", "--bot-level", level)
    assert "--bot-level" in one_error_line(done)


def test_replay_names_the_level(wargame, tmp_path):
    """Where the program says a side is the computer, it says at which level."""
    path = tmp_path / "g.json"
    play_json(
        wargame, "tug-of-wargods", "--no-input", "--seed", "3",
        "--bot-level", "A=random", "--save", str(path),
    )  # fmt: skip
    shown = wargame("replay", str(path))
    assert shown.returncode == 0, shown.stderr
    assert "computer, random level" in shown.stdout
    report = tmp_path / "report.md"
    done = wargame("replay", str(path), "--report", str(report))
    assert done.returncode == 0, done.stderr
    assert "played by the computer, random level" in report.read_text()


def test_a_remote_side_plays_its_level(tmp_path):
    """`wargame host --bot --bot-level random` against a default joiner, two processes on
    loopback: the game ends, the host's save records its side's level, and both verify."""
    from tests.remote_helpers import Host, played_out, verify

    host = Host(
        tmp_path, "squad-alpha", "--seat", "A", "--port", "0", "--bot",
        "--bot-level", "random", "--save", "h.json",
    )  # fmt: skip
    played_out(tmp_path, host)
    data = json.loads((tmp_path / "h.json").read_text())
    assert data["status"] == "finished" and data["setup"]["bots"] == {"A": "random"}
    verify(tmp_path, tmp_path / "h.json")


def _simulated(wargame: Any, *args: str) -> dict[str, Any]:
    done = wargame(
        "simulate", "squad-alpha", "--games", "4", "--seed", "1", "--workers", "1", "--json", *args
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_simulate_plays_the_levels(wargame):
    """`simulate --bot-level`: the default level is the plain simulation (the same games as
    no flag); another level plays other games (random on side A loses them all here)."""
    plain = _simulated(wargame)
    assert _simulated(wargame, "--bot-level", "default")["lengths"] == plain["lengths"]
    randomly = _simulated(wargame, "--bot-level", "A=random")
    assert plain["wins"]["A"] > 0 and randomly["wins"]["A"] < plain["wins"]["A"]


def test_the_default_evaluation_reads_material_and_health():
    """The search's default judgement, from the state alone: pieces in the game and the
    share of health they keep (a plugin's state is read the same way)."""
    from dataclasses import dataclass, field

    from wargame_cli.bots.evaluate import material

    @dataclass
    class Piece:
        side: str
        health: int
        damage: int = 0
        dead: bool = False

    @dataclass
    class State:
        pieces: list[Piece] = field(default_factory=list)

    @dataclass
    class Game:
        state: State

    game = Game(
        State([Piece("A", 4), Piece("A", 4, damage=2), Piece("B", 4), Piece("B", 4, dead=True)])
    )
    assert material(game, "A") == pytest.approx((2 + 1.5) - 2)
    assert material(game, "B") == pytest.approx(-1.5)
