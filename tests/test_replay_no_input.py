"""`replay --no-input` into a pipe or a file: every line of the game is told, and the pictures
a view draws beside a line (a grid after a move) come once a turn for each kind of entry, not
after every move."""

from __future__ import annotations

import json
import re

import pytest

from tests.cli_helpers import play_json

SEEDS = {
    "tug-of-wargods": "2",
    "squad-alpha": "5",
    "battle-of-ixu": "5",
    "seeds-of-wars": "5",
    "mobs-and-morale": "5",
}


def words(text: str) -> str:
    """The text with its wrapping and the frames around it taken out."""
    return " ".join(re.sub(r"[│┃║]", " ", text).split())


@pytest.mark.parametrize("ruleset_id", list(SEEDS))
def test_every_event_is_told_off_a_terminal(wargame, tmp_path, ruleset_id):
    save = tmp_path / "g.json"
    play_json(wargame, ruleset_id, "--no-input", "--seed", SEEDS[ruleset_id], "--save", str(save))
    shown = wargame("replay", str(save), "--no-input")
    assert shown.returncode == 0, shown.stderr
    told = words(shown.stdout)
    log = json.loads(save.read_text())["log"]
    # a Seeds of Wars result is told as a table, on a terminal too
    events = [e for e in log if e["t"] == "event" and e.get("kind") != "result"]
    missing = [e["text"] for e in events if words(e["text"]) not in told]
    assert not missing, missing[:3]


def test_the_seeds_grid_is_not_redrawn_after_every_move(wargame, tmp_path):
    save = tmp_path / "g.json"
    large = ["--option", "columns=5", "--option", "battle_lines=2", "--option", "army_size=12"]
    game = play_json(
        wargame, "seeds-of-wars", "--no-input", "--seed", "7", *large, "--save", str(save)
    )
    log = json.loads(save.read_text())["log"]
    moves = sum(1 for e in log if e["t"] == "event" and e.get("kind") in ("move", "flee"))
    shown = wargame("replay", str(save), "--no-input").stdout
    grids = shown.count("┃ row")
    rounds = game["turns"]
    assert shown.count("begins ─") == rounds  # the board at every round's start
    # the round's board, at most one grid after moves and one after fights, the deployment's
    assert rounds <= grids <= 3 * rounds + 2
    assert grids < rounds + moves  # a terminal shows the grid after each move too
