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


def played(wargame, save, *args: str) -> dict:
    """`wargame play mobs-and-morale ... --save SAVE`, which must succeed: the save's data."""
    done = wargame("play", MM, "--no-input", "--save", str(save), *args)
    assert done.returncode == 0, done.stderr
    return json.loads(save.read_text())


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
    first = next(e for e in json.loads(save.read_text())["log"] if e["t"] == "choice")
    assert first["label"] == "Centre of the caravan (18,6)"  # its one area, by name
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
    args = ["--team-a", "Tarn=Spearwarden", "--team-b", str(team_b), "--turns", "1"]
    args += ["--option", f"table={open_field}", "--rolls", "1,1,9,9,9,9,9"]
    data = played(wargame, save, *args, "--choices", "12,3;12,21;other;power:Hex;Tarn")
    log = data["log"]
    power = next(e for e in log if e.get("kind") == "power" and e["t"] == "event")
    assert power["data"]["works"] and power["data"]["edit"] == {
        "action": "damage",
        "creature": "Tarn",
        "amount": 1,
    }
    hurt = next(e for e in log if e.get("kind") == "damage" and e["t"] == "event")
    assert hurt["data"] == {"creature": "Tarn", "damage": 1, "health": 5, "lost": 0}


# -- item 7: mob moves that reach -------------------------------------------------------------
OPEN_AREAS = area("A", "south", 0, 0, 24, 12) + area("B", "north", 0, 12.5, 24, 11.5)
PUP = ["--team-a", "Duo=2 War Hound", "--team-b", "Pup=Chieftain, Wolves=2 Wolf under Pup"]


def test_close_on_walks_the_second_wolf_round_into_reach_after_a_figure_by_figure_move(
    wargame, tmp_path
):
    """The issue's Pup and Duo: the wolves are moved figure by figure (typed spots), then
    "Close on Duo" brings both into reach by the pathfinder, where a straight approach left
    the second wolf out (version 2: 1 of 2)."""
    path = table_file(tmp_path, OPEN_AREAS)
    save = tmp_path / "pup.json"
    script = "10,10;12,21;10,14;end;move;figures;11.8,9.6;12.8,10.1;end;end;fight;fight;"
    rolls = ["--rolls", "9,9,9,9,1,9,9,9,9,1", "--turns", "2", "--option", f"table={path}"]
    log = played(
        wargame, save, "--seed", "2", *PUP, *rolls, "--choices", script + "end;move;close:mob:Duo"
    )["log"]
    moved = [e for e in log if e["t"] == "event" and e.get("kind") == "move"]
    assert [e["text"] for e in moved[:2]] == [
        "Wolves 1 moves from 10,14 to 11.8,9.6",
        "Wolves 2 moves from 8.8,14 to 12.8,10.1",
    ]
    assert moved[2]["text"] == "Wolves: Close on Duo (2 of 2 then in reach); 1 figure moved"
    figures = [e for e in log if e["t"] == "choice" and e.get("kind") == "move"]
    assert figures[0]["key"] == "figures" and "figure by figure" in figures[0]["label"]
    assert wargame("replay", str(save), "--verify").returncode == 0


def test_a_typed_figure_spot_out_of_its_move_is_refused_in_one_line(wargame, tmp_path):
    path = table_file(tmp_path, OPEN_AREAS)
    rolls = ["--rolls", "9,9,9,9,1", "--option", f"table={path}", "--no-save"]
    script = "10,10;12,21;10,14;end;move;figures;1,1"
    done = wargame("play", MM, "--no-input", "--seed", "2", *PUP, *rolls, "--choices", script)
    assert "1,1" in one_error_line(done)


# -- item 8: the text ------------------------------------------------------------------------
def test_the_side_is_named_once_and_a_mob_number_stays_apart_from_its_score(wargame, tmp_path):
    save = tmp_path / "g.json"
    play(
        wargame,
        "--no-input",
        "--seed",
        "3",
        "--team-b",
        "Ugrak=Chieftain, 3 Wolf, 3 Wolf",
        "--option",
        "npc_survival=true",
        "--save",
        str(save),
    )
    shown = wargame("replay", str(save), "--no-input").stdout
    assert "The Lantern Company: The Lantern Company" not in shown
    log = json.loads(save.read_text())["log"]
    first = next(e["text"] for e in log if e.get("kind") == "initiative")
    assert "Wolf mob 2 (" in first and "success" in first
    survival = [e for e in log if e["t"] == "roll" and "e30" in e["rules"]]
    assert survival and all(e["reason"] == "a d10 for each casualty, 5+ lives" for e in survival)


# -- item 5: the GM's initiative tracker, survival picks and the end ------------------------
DEPLOY = "18,3;10.8,3;25.2,3;3.6,3;18,21;10.8,21;25.2,21"  # the default game's defaults
ROUND_1 = ["--seed", "1", "--turns", "1", "--choices"]
SMALL = area("A", "s", 0, 0, 12, 6) + area("B", "n", 0, 6.2, 12, 6)  # areas side by side


def _turns(log):
    return [
        e["prompt"].split(":")[0]
        for e in log
        if e["t"] == "choice" and e["kind"] == "turn" and e["prompt"].endswith("move or act")
    ]


def test_the_gm_delays_a_turn_to_later_in_the_round(wargame, tmp_path):
    """Seed 1, round 1: Mother Wren, Chief Ugrak with his mobs, Brakka, ... The GM delays
    Mother Wren's turn to after Chief Ugrak's slot: Ugrak and his mobs act, then she does."""
    save = tmp_path / "g.json"
    log = played(wargame, save, *ROUND_1, f"{DEPLOY};tracker;now;after:0")["log"]
    moved = next(e for e in log if e["t"] == "event" and e["kind"] == "tracker")
    assert moved["text"].startswith("GM's tracker: Mother Wren now acts after Chief Ugrak")
    asked = [e for e in log if e["t"] == "choice" and e["kind"] == "tracker"]
    assert {e["side"] for e in asked} == {"B"}  # the GM's side keeps the tracker
    turns = _turns(log)
    assert turns[:5] == ["Mother Wren", "Chief Ugrak", "Red Spears", "Bone Shields", "Mother Wren"]
    assert turns.count("Mother Wren") == 2 and len(set(turns)) == 7  # one turn each, plus ask
    assert moved["data"]["order"][:4] == [
        "Chief Ugrak",
        "mob:Red Spears",
        "mob:Bone Shields",
        "Mother Wren",
    ]
    assert wargame("replay", str(save), "--verify").returncode == 0


def test_the_gm_moves_a_later_turn_up_the_order(wargame, tmp_path):
    save = tmp_path / "g.json"
    log = played(wargame, save, *ROUND_1, f"{DEPLOY};tracker;slot:1;next;end")["log"]
    moved = next(e for e in log if e["t"] == "event" and e["kind"] == "tracker")
    who = moved["data"]["moved"][0]
    # her turn goes on (asked again), then the moved one acts, ahead of Chief Ugrak
    assert _turns(log)[:3] == ["Mother Wren", "Mother Wren", who] and who != "Chief Ugrak"
    assert _turns(log)[3] == "Chief Ugrak"


def test_the_gm_picks_survival_rolls_and_ends_the_battle(wargame, tmp_path):
    """Brakka kills Red 1 in round 1; the GM ends the battle (the tribe is decimated), picks
    Red 1's survival roll alone; the party, with no casualties, is one line."""
    path = table_file(tmp_path, SMALL)
    save = tmp_path / "end.json"
    teams = ["--team-a", "Brakka=Warrior", "--team-b", "Red=2 Tribal Warrior"]
    rolls = ["--option", f"table={path}", "--rolls", "9,9,1,9,9,9,9,1,1,1,1,9,7"]
    script = "6,5.5;6,7;attack:mob:Red;Red 1;end;end;fight;end:decimated:B;mark:Red 1;done"
    data = played(wargame, save, "--seed", "1", *teams, *rolls, "--choices", script)
    assert data["result"] == {
        "winner": "A",
        "reason": "Side B is decimated (the GM ends the battle)",
    }
    after = data["log"][-1]["data"]["after_battle"]
    assert after["A"] == [] and [(r["creature"], r["roll"], r["fate"]) for r in after["B"]] == [
        ("Red 1", 7, "wounded")
    ]
    shown = wargame("replay", str(save), "--no-input").stdout
    assert "Side A: no casualties" in shown and "After the battle: Side A" not in shown
    verified = wargame("replay", str(save), "--verify")
    assert verified.returncode == 0, verified.stderr


def test_enter_next_round_keeps_a_new_combatant_out_of_this_rounds_order():
    """The function the table edits call when a figure is added mid-battle."""
    from wargame_cli.rulesets.mobs_and_morale import initiative, teams, tracker
    from wargame_cli.rulesets.mobs_and_morale.rules import _add, new_battle
    from wargame_cli.rulesets.mobs_and_morale.ruleset import RULESET

    from wargame_cli.ruleset import resolve_options
    from wargame_cli.tabletop.geometry import Point

    o = resolve_options(RULESET.options, None)
    sides = {
        s: teams.parse_inline(t, o) for s, t in (("A", "Brakka=Warrior"), ("B", "Ugrak=Chieftain"))
    }
    b = new_battle({"A": "A", "B": "B"}, sides, o)
    b.creatures["Brakka"].pos, b.creatures["Ugrak"].pos = Point(5, 5), Point(20, 20)
    b.slots, b.at = [["Brakka"], ["Ugrak"]], 0
    stats = teams.creature({"profile": "Ranger"}, o, "new")
    _add(b, "A", "Ysolde", stats, None, "Ys")
    b.creatures["Ysolde"].pos = Point(8, 5)
    told = tracker.enter_next_round(b, "Ysolde")
    assert told.data == {"creature": "Ysolde", "unit": "Ysolde", "next_round": True}
    assert all("Ysolde" not in s for s in b.slots)
    assert "Ysolde" in [c.key for c in initiative.contenders(b)]  # it rolls next round


def test_the_move_option_names_the_straggler_it_will_lose(wargame, tmp_path):
    """Wren's own action pushes Red 2 5" out of its mob; Red's Move option then says the move
    loses it (e17), and the start of the move does."""
    path = table_file(tmp_path, SMALL)
    team_a = tmp_path / "a.toml"
    team_a.write_text(
        'name = "Wren"\ncharacters = [{ name = "Wren", profile = "Mystic", actions = ["Push"] }]\n'
        'actions = [{ name = "Push", range = 3, effect = "move 5" }]\n'
    )
    save = tmp_path / "push.json"
    teams = ["--team-a", str(team_a), "--team-b", "Red=3 Tribal Warrior", "--turns", "1"]
    rolls = ["--option", f"table={path}", "--rolls", "9,9,9,9,1"]
    script = "6,5.5;6,7;other;power:Push;Red 2;end;move;stay"
    log = played(wargame, save, "--seed", "1", *teams, *rolls, "--choices", script)["log"]
    move = next(e for e in log if e["t"] == "choice" and e["kind"] == "turn" and e["key"] == "move")
    assert move["label"] == 'Move (up to 6") the mob - loses Red 2, out of 3" of the mob (e17)'
    lost = next(e for e in log if e["t"] == "event" and e["kind"] == "removed")
    assert lost["data"] == {"creature": "Red 2", "mob": "Red", "how": "straggler", "when": "start"}


def test_the_ford_plays_its_own_teams_when_none_is_given(wargame, tmp_path):
    """A premade scenario names its teams (`[teams]` in the table file): `--option table=ford`
    alone plays The Caravan Guard against The Thornwood Ambush, a team given still wins, and
    a table's bad [teams] is one line and exit 2."""
    result = play(wargame, "--no-input", "--seed", "2", "--option", "table=ford", "--no-save")
    ids = {x["id"] for x in result["state"]["creatures"]}
    assert {"Ysolde", "Tarn", "Grey Mother", "Slingers 1"} <= ids
    given = play(wargame, "--no-input", "--seed", "2", "--option", "table=ford", "--no-save",
                 "--team-b", "The Grey Hill Tribe")  # fmt: skip
    assert "Chief Ugrak" in {x["id"] for x in given["state"]["creatures"]}
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "T"\nwidth = 24\nheight = 24\n[teams]\nA = 3\n', encoding="utf-8")
    done = wargame("play", MM, "--no-input", "--no-save", "--option", f"table={bad}")
    assert done.returncode == 2 and "[teams]" in one_error_line(done)
