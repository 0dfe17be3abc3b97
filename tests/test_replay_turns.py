"""`replay --turn N`: the table as it stood at the end of a turn, the same state `play --turns
N` stopped with; `replay --odds N`: each side's chance at the end of every turn."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import one_error_line, play_json
from wargame_cli.simulate.from_save import odds_by_turn

SEEDS = {
    "tug-of-wargods": "2",
    "squad-alpha": "5",
    "battle-of-ixu": "5",
    "seeds-of-wars": "5",
    "mobs-and-morale": "5",
}


@pytest.mark.parametrize("ruleset_id", list(SEEDS))
def test_replay_turn_json_is_the_state_play_turns_gave(wargame, tmp_path, ruleset_id):
    seed = SEEDS[ruleset_id]
    save = tmp_path / "g.json"
    whole = play_json(wargame, ruleset_id, "--no-input", "--seed", seed, "--save", str(save))
    for turn in (1, 3):
        stopped = play_json(
            wargame, ruleset_id, "--no-input", "--seed", seed, "--turns", str(turn), "--no-save"
        )
        done = wargame("replay", str(save), "--turn", str(turn), "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == {
            "save": str(save),
            "turn": turn,
            "state": stopped["state"],
        }
    last = wargame("replay", str(save), "--turn", str(whole["turns"]), "--json")
    assert json.loads(last.stdout)["state"] == whole["state"]
    shown = wargame("replay", str(save), "--turn", "2")
    assert shown.returncode == 0, shown.stderr
    assert "the table at the end of" in shown.stdout.lower()
    line = one_error_line(wargame("replay", str(save), "--turn", str(whole["turns"] + 1)))
    assert f"to {whole['turns']}" in line


def test_replay_turn_shows_the_tug_chance(wargame, tmp_path):
    save = tmp_path / "g.json"
    play_json(wargame, "tug-of-wargods", "--no-input", "--seed", "2", "--save", str(save))
    shown = wargame("replay", str(save), "--turn", "0").stdout
    # the default teams from the deployment: simulate --exact's figure
    exact = json.loads(wargame("simulate", "tug-of-wargods", "--exact", "--json").stdout)
    assert f"Greentoe {100 * exact['exact']['A']:.0f}%" in shown
    assert "the deployment" in shown


def test_tug_play_and_replay_show_the_chance_after_every_pull(wargame, tmp_path):
    save = tmp_path / "g.json"
    live = wargame("play", "tug-of-wargods", "--no-input", "--seed", "2", "--save", str(save))
    data = json.loads(save.read_text())
    shown = wargame("replay", str(save), "--no-input").stdout
    pulls = [e for e in data["log"] if e["t"] == "event" and e["kind"] in ("pull", "tie")]
    assert len(pulls) == data["turns"] > 3
    for out in (live.stdout, shown):
        assert out.count("Chance to win: Greentoe ") == len(pulls)
        assert "Greentoe 100% · Clearsky 0%" in out or "Greentoe 0% · Clearsky 100%" in out


def test_replay_odds_by_turn_for_a_skirmish(wargame, tmp_path):
    save = tmp_path / "g.json"
    game = play_json(wargame, "seeds-of-wars", "--no-input", "--seed", "5", "--save", str(save))
    done = wargame("replay", str(save), "--odds", "3", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["odds"]
    assert [r["turn"] for r in rows] == list(range(game["turns"] + 1))
    for row in rows[:-1]:
        assert row["method"] == "bots" and row["games"] == 3
        assert row["A"] + row["B"] + row["draw"] == pytest.approx(1.0)
        assert all(3 * row[k] == pytest.approx(round(3 * row[k])) for k in ("A", "B", "draw"))
    assert rows[-1]["method"] == "result" and rows[-1][game["winner"]] == 1.0
    assert odds_by_turn(save, 3, 1) == rows  # the same seed: the same odds
    shown = wargame("replay", str(save), "--no-input", "--odds", "3").stdout
    assert shown.count("Chances at the end of") == len(rows)
    assert "(3 bot games)" in shown and "(result)" in shown
    one = json.loads(wargame("replay", str(save), "--turn", "2", "--odds", "3", "--json").stdout)
    assert one["odds"] == rows[2]  # the same games as for every turn
    default = wargame("replay", str(save), "--turn", "2", "--odds")  # N left out: 6 games
    assert default.returncode == 0 and "(6 bot games)" in default.stdout
    assert "at least once" in one_error_line(wargame("replay", str(save), "--odds", "0"))


def test_odds_by_turn_for_tug_are_exact(tmp_path, wargame):
    save = tmp_path / "g.json"
    play_json(wargame, "tug-of-wargods", "--no-input", "--seed", "2", "--save", str(save))
    rows = odds_by_turn(save, games=5, seed=1)
    assert {r["method"] for r in rows[:-1]} == {"exact"}
    exact = json.loads(wargame("simulate", "tug-of-wargods", "--exact", "--json").stdout)
    assert rows[0]["A"] == pytest.approx(exact["exact"]["A"])
