"""The Battle of Ixu through the real `wargame` command: JSON state, teams, options, scripted
rolls, saves, resume, replay --verify and the battle report."""

from __future__ import annotations

import json
import re

from tests.cli_helpers import one_error_line, stopped_and_resumed
from tests.cli_helpers import play_json as play_json_of

IXU = "battle-of-ixu"


def play(wargame, *args):
    return play_json_of(wargame, IXU, *args)


def test_listed_and_its_rules_shown(wargame):
    rows = json.loads(wargame("rulesets", "--json").stdout)
    assert IXU in [r["id"] for r in rows]
    data = json.loads(wargame("rules", IXU, "--json").stdout)
    assert [p["id"] for p in data["rules"]] == [f"c{i}" for i in range(1, 10)]
    defaults = {o["name"]: o["default"] for o in data["options"]}
    assert defaults["health"] == 10 and defaults["die"] == 6
    assert defaults["width"] == defaults["height"] == 24.0 and defaults["max_turns"] == 50
    assert any("strictly greater" in n for n in data["notes"])
    assert "Tutok:4" in data["team_syntax"]


def test_json_state_has_each_sides_models(wargame, tmp_path):
    result = play(wargame, "--no-input", "--seed", "7", "--save", str(tmp_path / "g.json"))
    assert result["status"] == "finished" and result["winner"] in ("A", "B")
    sides = result["state"]["sides"]
    assert sides["A"]["name"] == "Axes" and sides["B"]["name"] == "Swords"
    model = sides["A"]["models"][0]
    assert model["name"] == "Tutok" and model["experience"] == 4
    assert {"name", "experience", "position", "dice", "damage", "status", "health"} <= set(model)
    standing = [m for m in sides[result["winner"]]["models"] if m["status"] == "standing"]
    assert standing and set(standing[0]["dice"]) == {"movement", "combat", "defence"}
    assert all(m["damage"] < m["health"] for m in standing)
    loser = "B" if result["winner"] == "A" else "A"
    assert all(m["status"] == "dead" for m in sides[loser]["models"])


def test_inline_teams_options_and_file(wargame, tmp_path):
    band = tmp_path / "gods.toml"
    band.write_text('name = "Storm"\nmodels = [{ name = "Ra", experience = 5 }]\n')
    result = play(
        wargame,
        "--no-input",
        "--seed",
        "3",
        "--team-a",
        "Tutok:elite:3, Oda:3",
        "--team-b",
        str(band),
        "--option",
        "health=4",
        "--option",
        "order_ties=experience",
        "--no-save",
    )
    a, b = result["state"]["sides"]["A"], result["state"]["sides"]["B"]
    assert [(m["name"], m["experience"], m["health"]) for m in a["models"]] == [
        ("Tutok", 5, 3),
        ("Oda", 3, 4),
    ]
    assert b["name"] == "Storm" and b["models"][0]["health"] == 4


def test_bad_team_and_option_are_one_line_errors(wargame):
    line = one_error_line(wargame("play", IXU, "--no-input", "--team-a", "Tutok:9"))
    assert "c1" in line
    line = one_error_line(wargame("play", IXU, "--no-input", "--option", "die=7"))
    assert "die" in line


def test_scripted_rolls_come_first(wargame, tmp_path):
    save = tmp_path / "g.json"
    play(wargame, "--no-input", "--seed", "1", "--rolls", "1,2,3,4,5,6", "--save", str(save))
    log = json.loads(save.read_text())["log"]
    order = next(e for e in log if e["t"] == "roll")
    assert order["faces"] == [1, 2, 3, 4, 5, 6] and order["source"] == "script"
    event = next(e for e in log if e["t"] == "event" and e["kind"] == "order")
    assert event["data"]["order"] == ["Keryx", "Tuze", "Eyox", "Ijoi", "Kuote", "Tutok"]


def test_save_resume_and_verify_round_trip(wargame, tmp_path):
    first = stopped_and_resumed(wargame, IXU, tmp_path)
    assert first["state"]["sides"]["A"]["models"][0]["position"] != [6.0, 2.0]


def test_tampered_save_fails_verification(wargame, tmp_path):
    save = tmp_path / "g.json"
    play(wargame, "--no-input", "--seed", "4", "--save", str(save))
    data = json.loads(save.read_text())
    attack = next(e for e in data["log"] if e["t"] == "event" and e["kind"] == "attack")
    attack["text"] = attack["text"].replace("attacks", "tickles")
    save.write_text(json.dumps(data))
    line = one_error_line(wargame("replay", str(save), "--verify"))
    # wording is not judged by the rules, but the hash chain covers every byte
    assert f"log entry {data['log'].index(attack)} no longer matches" in line
    assert "the record was edited" in line


def test_replay_report_to_stdout_and_file(wargame, tmp_path):
    save = tmp_path / "g.json"
    play(wargame, "--no-input", "--seed", "2", "--save", str(save))
    done = wargame("replay", str(save), "--report")  # no FILE: to stdout
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# Battle report: Axes against Swords")
    deaths = [
        e["data"]["model"]
        for e in json.loads(save.read_text())["log"]
        if e["t"] == "event" and e["kind"] == "death"
    ]
    told = re.findall(r"\*\*☠ (.+?)\.\*\*", done.stdout)  # each death in bold, in order
    assert len(told) == len(deaths) and all(n in t for n, t in zip(deaths, told, strict=True))
    out = tmp_path / "report.md"
    cited = wargame("replay", str(save), "--report", str(out), "--with-rules")
    assert cited.returncode == 0, cited.stderr
    assert "`[c6]`" in out.read_text()
    workings = out.read_text().count("\n- *Workings:* ")  # a bullet of dice per turn
    assert workings and out.read_text().count("\n- ") - workings == done.stdout.count("\n- ")


def test_replay_shows_the_board(wargame, tmp_path):
    save = tmp_path / "g.json"
    play(wargame, "--no-input", "--seed", "2", "--save", str(save))
    done = wargame("replay", str(save), "--no-input")
    assert done.returncode == 0, done.stderr
    assert "The plains of Ixu, turn 1" in done.stdout
    assert "Order for turn 1" in done.stdout and "move/combat/defence" in done.stdout


def _one_model(tmp_path, file: str, name: str, model: str, at: list[float]) -> str:
    path = tmp_path / file
    path.write_text(
        json.dumps({"name": name, "models": [{"name": model, "experience": 3, "at": at}]})
    )
    return str(path)


def test_c8_every_damaged_model_rolls_and_both_gone_is_a_draw(wargame, tmp_path):
    """c8 (issue 12, item 8): Ann falls at her health check; Bob, damaged too, still rolls
    and falls: both sides gone together is a draw, not a win for the side that rolled last."""
    result = play(
        wargame,
        "--team-a",
        _one_model(tmp_path, "axes.json", "Axes", "Ann", [12, 11.6]),
        "--team-b",
        _one_model(tmp_path, "swords.json", "Swords", "Bob", [12, 11.65]),
        "--no-input",
        "--no-save",
        "--rolls",
        "10,1,1,6,1,1,6,1,6,6,6,6,6,6,6,6,6,6,6,6,1,1",
        "--choices",
        "1,6,1;1,6,1;12,11.6;12,12.35;B1;A1",
    )
    assert result["status"] == "finished" and result["winner"] is None
    assert "draw" in result["result"]["reason"]
    models = [m for side in ("A", "B") for m in result["state"]["sides"][side]["models"]]
    assert [(m["name"], m["status"], m["died_turn"]) for m in models] == [
        ("Ann", "dead", 1),
        ("Bob", "dead", 1),
    ]
