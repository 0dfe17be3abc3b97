"""Seeds of Wars through the real `wargame` command: --json state, --rolls, teams, options,
saves, resume and replay --verify."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import one_error_line
from tests.cli_helpers import play_json as play_json_of

SOW = "seeds-of-wars"


def play_json(wargame, *args):
    return play_json_of(wargame, SOW, *args)


def test_listed_and_rules_show_every_point_and_option(wargame):
    assert SOW in wargame("rulesets").stdout
    data = json.loads(wargame("rules", SOW, "--json").stdout)
    assert [p["id"] for p in data["rules"]] == [f"d{i}" for i in range(1, 18)]
    text = wargame("rules", SOW).stdout
    for needle in ("pass_rule", "max_rounds", "stack_limit", "Scout", "order=2, Knights"):
        assert needle in text


def test_json_state_has_every_unit_with_type_space_state_and_fate(wargame):
    result = play_json(wargame, "--no-input", "--seed", "4")
    assert result["status"] == "finished"
    state = result["state"]
    for side in ("A", "B"):
        units = state["sides"][side]["units"]
        assert units and state["sides"][side]["role"] in ("attacker", "defender")
        for unit in units:
            assert {
                "type",
                "space",
                "state",
                "ht_taken",
                "in_reserve",
                "destroyed",
                "captured",
            } <= set(unit)
            assert unit["state"] in ("Steady", "Shaken", "Routed")
    loser = "B" if result["winner"] == "A" else "A"
    if result["winner"]:
        assert all(
            u["destroyed"] or u["captured"] or u["escaped"] for u in state["sides"][loser]["units"]
        )
    assert set(state["result"]["sides"]["A"]) == {
        "destroyed",
        "captured",
        "escaped",
        "held_the_field",
    }


def test_rolls_decide_the_deployment(wargame):
    result = play_json(wargame, "--no-input", "--rolls", "1,20", "--turns", "1")
    with open(result["save"]) as handle:
        save = json.load(handle)
    log = save["log"]
    rolls = [e for e in log if e["t"] == "roll"]
    assert [r["faces"] for r in rolls[:2]] == [[1], [20]]
    assert rolls[0]["source"] == "script" and rolls[0]["rules"] == ["d1"]
    first_choice = next(e for e in log if e["t"] == "choice")
    assert first_choice["side"] == "A"  # A lost the roll, so it deploys first
    assert all(e["rules"] for e in log if e["t"] != "turn")


def test_inline_and_file_armies(wargame, tmp_path):
    army = tmp_path / "raiders.toml"
    army.write_text(
        'name = "Raiders"\norder = 4\n'
        'units = ["Light Horse", {type = "Wolves", Mv = 3, Me = 3, De = 10, Mo = 1, Ht = 2, '
        'tags = ["Scout"]}]\n'
    )
    result = play_json(
        wargame,
        "--no-input",
        "--seed",
        "2",
        "--team-a",
        "order=3, Knights, 2 Spearmen",
        "--team-b",
        str(army),
    )
    sides = result["state"]["sides"]
    assert [u["type"] for u in sides["A"]["units"]] == ["Knights", "Spearmen", "Spearmen"]
    assert sides["A"]["order"] == 3
    assert sides["B"]["name"] == "Raiders" and sides["B"]["order"] == 4
    assert sides["B"]["units"][1]["profile"]["Mv"] == 3
    assert wargame("replay", result["save"], "--verify").returncode == 0


@pytest.mark.parametrize(
    "team,needle",
    [
        ("Dragons", "unknown unit type"),
        ("order=9, Knights", "outside 0-5"),
        ("9 Spearmen", "at most 8"),
    ],
)
def test_bad_armies_exit_2_with_one_line(wargame, team, needle):
    assert needle in one_error_line(wargame("play", SOW, "--no-input", "--team-a", team))


def test_options_change_the_battlefield_and_bad_values_are_refused(wargame):
    result = play_json(
        wargame,
        "--no-input",
        "--seed",
        "3",
        "--option",
        "columns=4",
        "--option",
        "neutral_rows=1",
        "--option",
        "pass_rule=first_pass_ends",
    )
    assert result["state"]["board"]["columns"] == 4
    assert result["state"]["board"]["rows"][2] == "No man's land"
    assert "pass_rule" in one_error_line(
        wargame("play", SOW, "--no-input", "--option", "pass_rule=never")
    )
    assert "columns" in one_error_line(wargame("play", SOW, "--no-input", "--option", "columns=20"))


def test_max_rounds_option_ends_in_a_draw(wargame):
    result = play_json(
        wargame,
        "--no-input",
        "--seed",
        "3",
        "--option",
        "max_rounds=1",
        "--option",
        "neutral_rows=3",
    )
    assert result["status"] == "finished" and result["winner"] is None


def test_stop_resume_and_verify_round_trip(wargame, tmp_path):
    straight = tmp_path / "straight.json"
    split = tmp_path / "split.json"
    play_json(wargame, "--no-input", "--seed", "8", "--save", str(straight))
    first = play_json(wargame, "--no-input", "--seed", "8", "--turns", "2", "--save", str(split))
    assert first["status"] == "in_progress" and first["state"]["turn"] == 2
    done = wargame("resume", str(split), "--no-input", "--json")
    assert json.loads(done.stdout)["status"] == "finished"
    a, b = json.loads(straight.read_text()), json.loads(split.read_text())
    assert a["log"] == b["log"] and a["result"] == b["result"]
    assert wargame("replay", str(split), "--verify").returncode == 0


def test_replay_verify_catches_a_changed_die(wargame, tmp_path):
    path = tmp_path / "g.json"
    play_json(wargame, "--no-input", "--seed", "6", "--save", str(path))
    data = json.loads(path.read_text())
    roll = next(e for e in data["log"] if e["t"] == "roll")
    roll["faces"][0] = 21
    path.write_text(json.dumps(data))
    assert "d20" in one_error_line(wargame("replay", str(path), "--verify"))


def test_replay_shows_rounds_and_the_battlefield(wargame, tmp_path):
    path = tmp_path / "g.json"
    play_json(wargame, "--no-input", "--seed", "6", "--save", str(path))
    shown = wargame("replay", str(path), "--no-input")
    assert shown.returncode == 0
    for needle in ("Round 1", "A Reserve", "B Line 1", "Steady", "Ht", "Mv"):
        assert needle in shown.stdout


def test_options_are_declared_in_options_toml():
    """A player reads and edits the defaults in options.toml; each names the rule it fills."""
    from wargame_cli.rulesets.seeds_of_wars.ruleset import RULESET

    from wargame_cli.ruleset import load_options

    declared = load_options(RULESET.folder / "options.toml")
    assert RULESET.options == declared
    ids = {p.id for p in RULESET.reference().points}
    assert all(o.doc and o.rule in ids for o in declared)


def test_d7_first_pass_ends_counts_only_a_pass_a_side_chooses(wargame):
    """d7, pass_rule=first_pass_ends (issue 12, item 12): the Militia have no ranged unit, so
    side A "passes" the ranged step without choosing to; that must not end the step for side
    B, whose Archers shoot."""
    result = play_json(
        wargame,
        "--team-a",
        "order=0, Militia",
        "--team-b",
        "order=0, Archers",
        "--option",
        "pass_rule=first_pass_ends",
        "--no-input",
        "--no-save",
        "--rolls",
        "10,5, 10,5, 15",
        "--choices",
        "b3;b2; pass",
        "--turns",
        "1",
    )
    militia = result["state"]["sides"]["A"]["units"][0]
    assert militia["ht_taken"] == 1  # the Archers shot and hit (d10)
