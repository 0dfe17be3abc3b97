"""`wargame fork`: a game branched at the end of a turn is a save of its own that resumes to
the end, starts with the original's turns, names its parent and verifies."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import one_error_line, play_json

# A seed whose bot game lasts beyond turn 3, for each ruleset.
GAMES = {
    "tug-of-wargods": "2",
    "squad-alpha": "5",
    "battle-of-ixu": "5",
    "seeds-of-wars": "5",
    "mobs-and-morale": "5",
}


def turn_end(log: list[dict], turn: int) -> int:
    """Where turn `turn` ends in a log: where the next one starts."""
    return next(i for i, e in enumerate(log) if e["t"] == "turn" and e["n"] == turn + 1)


def load(path) -> dict:
    """A save as read back, its log entries without their place in the save's hash chain
    (`h`, which a fork's own header changes): the game itself."""
    data = json.loads(path.read_text())
    data["log"] = [{k: v for k, v in e.items() if k != "h"} for e in data["log"]]
    return data


@pytest.mark.parametrize("ruleset_id", list(GAMES))
def test_a_fork_at_turn_2_resumes_to_the_end_and_verifies(wargame, tmp_path, ruleset_id):
    original = tmp_path / "original.json"
    play_json(
        wargame, ruleset_id, "--no-input", "--seed", GAMES[ruleset_id], "--save", str(original)
    )
    before = original.read_text()
    fork = tmp_path / "fork.json"
    made = wargame("fork", str(original), "--turn", "2", "--save", str(fork), "--json")
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout) == {
        "save": str(fork),
        "forked_from": {"save": "original.json", "turn": 2},
        "turns": 2,
        "status": "in_progress",
    }
    assert original.read_text() == before  # the original is untouched
    parent, child = load(original), load(fork)
    cut = turn_end(parent["log"], 2)
    assert child["log"] == parent["log"][:cut]  # the first two turns, nothing after
    assert child["status"] == "in_progress" and child["turns"] == 2 and child["result"] is None
    assert child["forked_from"] == {"save": "original.json", "turn": 2}
    assert wargame("replay", str(fork), "--verify").returncode == 0

    done = wargame("resume", str(fork), "--no-input", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "finished"
    resumed = load(fork)
    assert resumed["log"][:cut] == parent["log"][:cut]
    assert resumed["forked_from"] == {"save": "original.json", "turn": 2}  # kept on resume
    verified = wargame("replay", str(fork), "--verify", "--json")
    assert verified.returncode == 0 and json.loads(verified.stdout)["status"] == "finished"


def test_a_fork_of_a_fork(wargame, tmp_path):
    original = tmp_path / "original.json"
    play_json(wargame, "seeds-of-wars", "--no-input", "--seed", "5", "--save", str(original))
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert wargame("fork", str(original), "--turn", "3", "--save", str(first)).returncode == 0
    assert wargame("fork", str(first), "--turn", "1", "--save", str(second)).returncode == 0
    grandchild = load(second)
    assert grandchild["forked_from"] == {"save": "first.json", "turn": 1}
    assert grandchild["log"] == load(original)["log"][: turn_end(load(original)["log"], 1)]
    assert wargame("replay", str(second), "--verify").returncode == 0
    done = wargame("resume", str(second), "--no-input", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["status"] == "finished"
    assert wargame("replay", str(second), "--verify").returncode == 0
    # a fork at the deployment: nothing of the battle kept
    third = tmp_path / "third.json"
    assert wargame("fork", str(second), "--turn", "0", "--save", str(third)).returncode == 0
    assert load(third)["turns"] == 0
    assert all(e["t"] != "turn" for e in load(third)["log"])
    assert wargame("replay", str(third), "--verify").returncode == 0


def test_a_fork_without_save_goes_to_the_saves_folder(wargame, tmp_path):
    original = tmp_path / "original.json"
    play_json(wargame, "tug-of-wargods", "--no-input", "--seed", "2", "--save", str(original))
    for expected in ("original_fork-t1.json", "original_fork-t1-2.json"):
        made = wargame("fork", str(original), "--turn", "1", "--json")
        assert made.returncode == 0, made.stderr
        assert json.loads(made.stdout)["save"] == str(tmp_path / "saves" / expected)
    shown = wargame("fork", str(original), "--turn", "1")
    assert " resume " in " ".join(shown.stdout.split()).split("play on with: ")[1]


def test_fork_refuses_to_overwrite_and_bad_turns(wargame, tmp_path):
    original = tmp_path / "original.json"
    play_json(wargame, "tug-of-wargods", "--no-input", "--seed", "2", "--save", str(original))
    turns = load(original)["turns"]
    taken = tmp_path / "taken.json"
    taken.write_text("my notes")
    line = one_error_line(wargame("fork", str(original), "--turn", "1", "--save", str(taken)))
    assert "exists" in line and "--force" in line
    assert taken.read_text() == "my notes"
    forced = wargame("fork", str(original), "--turn", "1", "--save", str(taken), "--force")
    assert forced.returncode == 0 and load(taken)["forked_from"]["turn"] == 1
    before = original.read_text()
    line = one_error_line(
        wargame("fork", str(original), "--turn", "1", "--save", str(original), "--force")
    )
    assert "being forked" in line and original.read_text() == before
    line = one_error_line(wargame("fork", str(original), "--turn", str(turns + 1)))
    assert f"0 (the deployment) to {turns}" in line
    line = one_error_line(wargame("fork", str(original), "--turn", str(turns)))
    assert "ended" in line  # the last turn of a finished game leaves nothing to play
    one_error_line(wargame("fork", str(original), "--turn", "-1"))
    assert "folder" in one_error_line(
        wargame("fork", str(original), "--turn", "1", "--save", str(tmp_path), "--force")
    )
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    assert "cannot write" in one_error_line(
        wargame("fork", str(original), "--turn", "1", "--save", str(blocked / "f.json"))
    )
    one_error_line(wargame("fork", str(tmp_path / "nope.json"), "--turn", "1"))


def test_fork_of_a_save_stopped_mid_turn(wargame, tmp_path):
    """A save cut short inside a turn (a bad scripted face stops the game in round 2, keeping
    what was valid): that round cannot be forked, the one before can."""
    whole = tmp_path / "whole.json"
    play_json(wargame, "seeds-of-wars", "--no-input", "--seed", "5", "--save", str(whole))
    rolls, first_of_round_2 = [], None
    for entry in load(whole)["log"]:
        if entry["t"] == "turn" and entry["n"] == 2:
            first_of_round_2 = len(rolls)
        if entry["t"] == "roll":
            rolls.append(entry["faces"])
    assert first_of_round_2 is not None
    faces = [f for roll in rolls[: first_of_round_2 + 1] for f in roll]  # one roll into round 2
    original = tmp_path / "original.json"
    stopped = wargame(
        "play", "seeds-of-wars", "--no-input", "--seed", "5",
        "--rolls", ",".join(map(str, faces)) + ",99", "--save", str(original),
    )  # fmt: skip
    assert stopped.returncode == 2
    data = load(original)
    assert data["status"] == "in_progress" and data["log"][-1]["t"] != "turn"
    assert wargame("replay", str(original), "--verify").returncode == 0
    line = one_error_line(wargame("fork", str(original), "--turn", "2"))
    assert "not over" in line
    fork = tmp_path / "fork.json"
    assert wargame("fork", str(original), "--turn", "1", "--save", str(fork)).returncode == 0
    assert load(fork)["log"] == data["log"][: turn_end(data["log"], 1)]
    assert wargame("replay", str(fork), "--verify").returncode == 0
