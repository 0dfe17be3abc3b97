"""Squad Alpha through the real `wargame` command: JSON state, squads, options (a table file
kept in the save), scripted rolls, saves, resume and replay --verify."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from wargame_cli.rulesets.squad_alpha.ruleset import RULESET

from tests.cli_helpers import one_error_line, stopped_and_resumed
from tests.cli_helpers import play_json as play_json_of

SQUAD = "squad-alpha"
YARD = """
name = "Yard"
width = 12
height = 12

[[terrain]]
name = "Shed"
kind = "blocking"
x = 2
y = 5
w = 8
h = 2

[[terrain]]
name = "Wall"
kind = "hard"
x = 4
y = 2
w = 4
h = 1
"""


def play(wargame, *args):
    return play_json_of(wargame, SQUAD, *args)


def test_listed_and_its_rules_shown(wargame):
    rows = json.loads(wargame("rulesets", "--json").stdout)
    assert SQUAD in [r["id"] for r in rows]
    data = json.loads(wargame("rules", SQUAD, "--json").stdout)
    assert [p["id"] for p in data["rules"]] == [f"b{i}" for i in range(1, 26)]
    defaults = {o["name"]: o["default"] for o in data["options"]}
    assert defaults["max_turns"] == 30 and defaults["melee_miss"] == "shooter"
    assert defaults["table"]["width"] == 24 and defaults["table"]["terrain"]
    assert any("deploy_fallback" in note for note in data["notes"])


def test_json_state_has_each_sides_miniatures(wargame, tmp_path):
    result = play(wargame, "--no-input", "--seed", "7", "--save", str(tmp_path / "g.json"))
    assert result["status"] == "finished" and result["winner"] in ("A", "B")
    sides = result["state"]["sides"]
    assert sides["A"]["name"] == "Alpha Squad" and sides["B"]["name"] == "Bravo Squad"
    rook = sides["A"]["miniatures"][0]
    assert {"name", "training", "command", "position", "status"} <= set(rook)
    assert (rook["name"], rook["training"], rook["command"]) == ("Sgt Rook", "elite", 4)
    for side in sides.values():
        down = sum(m["status"] == "casualty" for m in side["miniatures"])
        leader = next(m for m in side["miniatures"] if m["leader"])
        assert side["leader_rating"] == leader["command"] - down  # b23
    loser = "B" if result["winner"] == "A" else "A"
    assert all(m["status"] == "casualty" for m in sides[loser]["miniatures"])


def test_inline_squads_a_squad_file_and_a_table_file(wargame, tmp_path):
    squad = tmp_path / "raiders.toml"
    squad.write_text(
        'name = "Raiders"\nminiatures = ["Boss elite 3", "Ace r 1", "Bo c 0", "Cy c 0", "Di c 0"]\n'
    )
    table = tmp_path / "yard.toml"
    table.write_text(YARD)
    save = tmp_path / "g.json"
    result = play(
        wargame,
        "--no-input",
        "--seed",
        "3",
        "--team-a",
        "Rook elite 4, Hawk e 2, 3x Trooper regular 1",
        "--team-b",
        str(squad),
        "--option",
        f"table={table}",
        "--option",
        "max_turns=3",
        "--save",
        str(save),
    )
    a, b = result["state"]["sides"]["A"], result["state"]["sides"]["B"]
    assert [m["name"] for m in a["miniatures"]][2:] == ["Trooper 1", "Trooper 2", "Trooper 3"]
    assert b["name"] == "Raiders" and b["miniatures"][0]["name"] == "Boss"
    assert result["state"]["table"] == {"name": "Yard", "width": 12.0, "height": 12.0}
    assert result["turns"] <= 3
    stored = json.loads(save.read_text())["options"]["table"]
    assert stored["name"] == "Yard" and len(stored["terrain"]) == 2
    table.unlink()  # the save carries its table
    verified = wargame("replay", str(save), "--verify", "--json")
    assert verified.returncode == 0, verified.stderr


def test_bad_squads_and_options_are_one_line_errors(wargame, tmp_path):
    line = one_error_line(
        wargame(
            "play", SQUAD, "--no-input", "--team-a", "Rook e 4, Hawk e 4, Al r 1, Bo c 0, Cy c 0"
        )
    )
    assert "Rook and Hawk share the highest command rating 4" in line and "(b3)" in line
    line = one_error_line(wargame("play", SQUAD, "--no-input", "--team-b", "Rook e 4, Hawk e 2"))
    assert "at least 5" in line
    line = one_error_line(wargame("play", SQUAD, "--no-input", "--option", "melee_miss=nobody"))
    assert "melee_miss" in line
    missing = tmp_path / "nowhere.toml"
    line = one_error_line(wargame("play", SQUAD, "--no-input", "--option", f"table={missing}"))
    assert "not found" in line


def test_scripted_rolls_come_first(wargame, tmp_path):
    save = tmp_path / "g.json"
    result = play(wargame, "--no-input", "--seed", "1", "--rolls", "2,2,1,6", "--save", str(save))
    assert result["state"]["deploys_first"] == "B"  # b4: the tie 2-2 rolled again, 1 to 6
    log = json.loads(save.read_text())["log"]
    rolloffs = [e for e in log if e["t"] == "roll"][:2]
    assert [r["faces"] for r in rolloffs] == [[2, 2], [1, 6]]
    assert {r["source"] for r in rolloffs} == {"script"}


def test_save_resume_and_verify_round_trip(wargame, tmp_path):
    first = stopped_and_resumed(wargame, SQUAD, tmp_path)
    assert all(m["position"] for m in first["state"]["sides"]["A"]["miniatures"])


def test_tampered_save_fails_verification(wargame, tmp_path):
    save = tmp_path / "g.json"
    play(wargame, "--no-input", "--seed", "4", "--save", str(save))
    data = json.loads(save.read_text())
    move = next(e for e in data["log"] if e["t"] == "choice" and e["kind"] == "move")
    move["key"] = "0,0"  # off the table edge: not a legal move
    save.write_text(json.dumps(data))
    line = one_error_line(wargame("replay", str(save), "--verify"))
    assert "log entry" in line and "illegal decision" in line


def test_replay_shows_the_map_and_rosters(wargame, tmp_path):
    save = tmp_path / "g.json"
    play(wargame, "--no-input", "--seed", "2", "--save", str(save))
    done = wargame("replay", str(save), "--no-input")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Alpha Squad" in out and "leader Sgt Rook" in out
    assert "cover from fire (hard)" in out and "training" in out
    assert "Step 1:" in out or "Step 2:" in out


def test_options_are_declared_in_options_toml():
    declared = tomllib.loads((Path(RULESET.folder) / "options.toml").read_text(encoding="utf-8"))
    assert [o.name for o in RULESET.options] == list(declared)
    for spec in RULESET.options:
        assert spec.doc == declared[spec.name]["doc"] and spec.rule == declared[spec.name]["rule"]
    table = next(o for o in RULESET.options if o.name == "table")
    assert table.default["name"] == "Farmstead" and len(table.default["terrain"]) == 13
