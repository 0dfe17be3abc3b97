"""Two rule points: Tug's "other Greeks" (a7) take a Greek the player names, at d6, as
`wargame rules tug-of-wargods` documents; a GM edit that gives a character more minions than
2 x Presence (Mobs and Morale e15) is refused in the words team building refuses it in."""

from __future__ import annotations

import json

from tests.cli_helpers import one_error_line


def test_a_free_named_greek_plays_at_d6(wargame, tmp_path):
    save = tmp_path / "g.json"
    done = wargame("play", "tug-of-wargods", "--no-input", "--seed", "3", "--team-a",
                   "Greek:Myrmidon, Sebeki, Asar", "--save", str(save))  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(save.read_text())
    assert data["setup"]["teams"]["A"]["models"] == ["Myrmidon (other Greek)", "Sebeki", "Asar"]
    first = next(e for e in data["log"] if e["t"] == "roll" and e["side"] == "A")
    assert first["dice"] == [6, 10, 6]  # the Greek adds a d6 (a7), front of the column
    assert wargame("replay", str(save), "--verify").returncode == 0
    assert wargame("replay", str(save), "--report", "-").returncode == 0
    # a listed Greek stays itself; the d6 tier's limit counts a named Greek too
    listed = wargame("play", "tug-of-wargods", "--no-input", "--no-save", "--turns", "1",
                     "--team-a", "Greek:Spartan, Sebeki, Asar", "--json")  # fmt: skip
    assert "Spartan" in json.dumps(json.loads(listed.stdout)["state"]["sides"]["A"]["models"][0])
    four = "Greek:Myrmidon, Greek:Hoplite, Asar, Amazon"
    line = one_error_line(wargame("play", "tug-of-wargods", "--no-input", "--no-save",
                                  "--team-a", four))  # fmt: skip
    assert "(a1)" in line or "(a7)" in line
    line = one_error_line(wargame("play", "tug-of-wargods", "--no-input", "--no-save",
                                  "--team-a", "Greek:Asar, Sebeki, Asar"))  # fmt: skip
    assert "Asar is not a Greek" in line


def test_the_rules_say_how_to_name_another_greek(wargame):
    said = " ".join(wargame("rules", "tug-of-wargods").stdout.split())
    assert "Greek:NAME" in said and "Greek:Myrmidon" in said


def test_a_gm_edit_past_twice_presence_is_refused_like_team_building(wargame, tmp_path):
    save = tmp_path / "m.json"
    team = ("Ugrak=Chieftain, Zog=Shaman, Red Spears=4 Tribal Warrior under Ugrak, "
            "Grey Spears=4 Tribal Warrior under Ugrak, Wolves=3 Wolf under Zog")  # fmt: skip
    done = wargame("play", "mobs-and-morale", "--no-input", "--seed", "1", "--turns", "1",
                   "--team-b", team, "--save", str(save))  # fmt: skip
    assert done.returncode == 0, done.stderr
    before = save.read_bytes()
    line = one_error_line(wargame("edit", str(save), "status", "Wolves", "controller", "Ugrak",
                                  "--why", "the GM's call"))  # fmt: skip
    assert "Ugrak controls 11 minions but may control at most 8 (2 x Presence 4) (e15)" in line
    assert save.read_bytes() == before
    greedy = team.replace("under Zog", "under Ugrak")
    built = one_error_line(wargame("play", "mobs-and-morale", "--no-input", "--no-save",
                                   "--team-b", greedy))  # fmt: skip
    assert "Ugrak controls 11 minions but may control at most 8 (2 x Presence 4) (e15)" in built
    ok = wargame("edit", str(save), "status", "Wolves", "controller", "none", "--why", "ok")
    assert ok.returncode == 0, ok.stderr
    assert wargame("replay", str(save), "--verify").returncode == 0
