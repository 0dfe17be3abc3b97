"""Mobs and Morale for the GM (issue 22, items 4-8), through the real `wargame` command:
scenario files with deployment areas and powers, the premade Thornford scenario, the GM's
initiative tracker, per-creature survival rolls, hidden simultaneous deployment, mob moves
that reach and the text fixes."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import one_error_line
from tests.cli_helpers import play_json as play_json_of

MM = "mobs-and-morale"
FORD = (
    "--option",
    "table=ford",
    "--team-a",
    "The Caravan Guard",
    "--team-b",
    "The Thornwood Ambush",
)


def play(wargame, *args):
    return play_json_of(wargame, MM, *args)


def table_file(tmp_path, body: str, name: str = "t.toml"):
    path = tmp_path / name
    path.write_text('name = "T"\nwidth = 24\nheight = 24\n' + body)
    return str(path)


def area(side: str, name: str, x: float, y: float, w: float, h: float) -> str:
    return f'[[areas]]\nside = "{side}"\nname = "{name}"\nx = {x}\ny = {y}\nw = {w}\nh = {h}\n'


# -- item 4: scenario files -------------------------------------------------------------------
THREE_AREAS = (
    area("A", "the centre", 9, 9, 6, 6)
    + area("B", "north-west", 0, 18, 8, 6)
    + area("B", "south-east", 16, 0, 8, 6)
)


def test_a_table_file_names_several_areas_per_side_and_everyone_deploys_in_them(wargame, tmp_path):
    path = table_file(tmp_path, THREE_AREAS)
    save = tmp_path / "g.json"
    result = play(
        wargame,
        "--no-input",
        "--seed",
        "5",
        "--option",
        f"table={path}",
        "--turns",
        "1",
        "--save",
        str(save),
        "--team-b",
        "Ugrak=Chieftain, Red=4 Tribal Warrior under Ugrak",
    )
    assert [a["name"] for a in result["state"]["areas"]["B"]] == ["north-west", "south-east"]
    data = json.loads(save.read_text())
    side_of = {}
    for side in "AB":
        team = data["setup"]["teams"][side]
        side_of |= {c["name"]: side for c in team["characters"]}
        side_of |= {m["name"]: side for m in team["mobs"]}
    areas = data["options"]["table"]["areas"]
    deployed = [e for e in data["log"] if e["t"] == "event" and e.get("kind") == "deploy"]
    assert len(deployed) == 6
    for entry in deployed:
        mine = [a for a in areas if a["side"] == side_of[entry["data"]["unit"]]]
        for fid, (x, y) in entry["data"]["at"].items():
            assert any(
                a["x"] + 0.5 - 1e-6 <= x <= a["x"] + a["w"] - 0.5 + 1e-6
                and a["y"] + 0.5 - 1e-6 <= y <= a["y"] + a["h"] - 0.5 + 1e-6
                for a in mine
            ), (fid, x, y)
    assert wargame("replay", str(save), "--verify").returncode == 0
    menu = next(e for e in data["log"] if e["t"] == "choice" and e["side"] == "B")
    assert menu["label"].endswith("of north-west (4,21)")


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (area("A", "far", 20, 20, 8, 8), "lies partly off"),
        (area("A", "a", 0, 0, 10, 10) + area("B", "b", 5, 5, 10, 10), "overlap"),
        ('[[areas]]\nside = "C"\nx = 0\ny = 0\nw = 5\nh = 5\n', "side must be A or B"),
        ('[[areas]]\nside = "A"\nx = 0\ny = 0\nw = 0\nh = 5\n', "above 0"),
        ('[[areas]]\nside = "A"\nx = 0\ny = "z"\nw = 4\nh = 5\n', "needs numbers"),
        ("areas = 3\n", "list of rectangles"),
    ],
)
def test_a_bad_area_is_one_line_and_exit_2(wargame, tmp_path, body, said):
    path = table_file(tmp_path, body)
    done = wargame(
        "play", MM, "--no-input", "--seed", "1", "--option", f"table={path}", "--no-save"
    )
    assert said in one_error_line(done)


def test_an_area_with_no_room_stops_before_the_game_starts(wargame, tmp_path):
    wall = '[[terrain]]\nname = "wall"\nkind = "blocking"\nx = 0\ny = 0\nw = 4\nh = 4\n'
    path = table_file(tmp_path, wall + area("A", "the pit", 0, 0, 4, 4))
    save = tmp_path / "never.json"
    done = wargame(
        "play", MM, "--no-input", "--seed", "1", "--option", f"table={path}", "--save", str(save)
    )
    assert "no room in the pit for Brakka" in one_error_line(done)
    assert not save.exists()


def test_the_issues_blocked_table_is_one_line_and_exit_2(wargame, tmp_path):
    path = tmp_path / "blocked.toml"
    path.write_text(
        'name="B"\nwidth=12\nheight=12\n[[terrain]]\nname="wall"\nkind="blocking"\n'
        "x=0\ny=0\nw=12\nh=5.5\n"
    )
    done = wargame(
        "play", MM, "--no-input", "--seed", "1", "--option", f"table={path}", "--no-save"
    )
    assert "no room in" in one_error_line(done)


@pytest.mark.parametrize(
    ("team", "said"),
    [
        (
            'characters = [{ name = "A", profile = "Mystic", actions = ["Zap"] }]\n',
            "no action 'Zap'",
        ),
        (
            'characters = [{ name = "A", profile = "Mystic", actions = ["Zap"] }]\n'
            'actions = [{ name = "Zap", range = 3, effect = "explode 2" }]\n',
            "effect must be",
        ),
        ('characters = [{ name = "A", profile = "Mystic", reach = 30 }]\n', "reach must be"),
        (
            'characters = [{ name = "A", profile = "Ranger", ranged = { name = "Bow" } }]\n',
            "range must be",
        ),
        (
            'characters = [{ name = "A", profile = "Mystic", actions = ["Zap"] }]\n'
            'actions = [{ name = "Zap", range = 3, dice = 11, effect = "heal 1" }]\n',
            "dice must be",
        ),
    ],
)
def test_a_bad_power_in_a_team_file_is_one_line_and_exit_2(wargame, tmp_path, team, said):
    path = tmp_path / "team.toml"
    path.write_text('name = "Bad"\n' + team)
    done = wargame("play", MM, "--no-input", "--seed", "1", "--team-a", str(path), "--no-save")
    assert said in one_error_line(done)


def test_the_premade_ford_uses_its_areas_powers_and_actions(wargame, tmp_path):
    listed = wargame("rules", MM).stdout
    assert "table=ford" in listed and "The Caravan Guard" in listed
    save = tmp_path / "ford.json"
    result = play(wargame, "--no-input", "--seed", "3", *FORD, "--save", str(save))
    state = result["state"]
    assert state["table"]["name"] == "Thornford"
    assert [a["name"] for a in state["areas"]["B"]] == ["the west thicket", "the east rise"]
    c = {x["id"]: x for x in state["creatures"]}
    assert c["Ysolde"]["ranged"] == "Longbow" and c["Ysolde"]["attack_range"] == 12
    assert c["Tarn"]["attack_range"] == 2.5
    assert [a["name"] for a in c["Mother Wren"]["actions"]] == ["Mend", "Blessed light"]
    assert c["Slingers 1"]["ranged"] == "Sling"
    assert wargame("replay", str(save), "--verify").returncode == 0


def test_a_creatures_own_action_rolls_and_applies_its_effect(wargame, tmp_path):
    """Grey Mother's Hex (2 dice, damage 1 within 8") on Tarn, chosen by the script: the
    effect is logged with its edit (damage 1) and applied with the rules' own damage."""
    save = tmp_path / "hex.json"
    team_b = tmp_path / "b.toml"
    team_b.write_text(
        'name = "Coven"\n'
        'characters = [{ name = "Grey Mother", profile = "Shaman", actions = ["Hex"], '
        "move = 0 }]\n"
        'actions = [{ name = "Hex", range = 30, dice = 2, effect = "damage 1" }]\n'
    )
    open_field = table_file(tmp_path, "", "open.toml")
    done = wargame(
        "play",
        MM,
        "--json",
        "--seed",
        "1",
        "--team-a",
        "Tarn=Spearwarden",
        "--team-b",
        str(team_b),
        "--option",
        f"table={open_field}",
        "--no-input",
        "--turns",
        "1",
        "--rolls",
        "1,1,9,9,9,9,9",
        "--choices",
        "12,3;12,21;other;power:Hex;Tarn",
        "--save",
        str(save),
    )
    assert done.returncode == 0, done.stderr
    log = json.loads(save.read_text())["log"]
    power = next(e for e in log if e.get("kind") == "power" and e["t"] == "event")
    assert power["data"]["works"] and power["data"]["edit"] == {
        "action": "damage",
        "creature": "Tarn",
        "amount": 1,
    }
    state = json.loads(done.stdout)["state"]
    tarn = next(x for x in state["creatures"] if x["id"] == "Tarn")
    assert tarn["health"] == tarn["max_health"] - 1
