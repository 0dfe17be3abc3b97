"""`--choices`: decisions given by a script through the same interface as people and bots."""

from __future__ import annotations

import json

from tests.cli_helpers import one_error_line, play_json

IXU = "battle-of-ixu"  # a ruleset with decisions from the first turn


def choices_of(path):
    return [e for e in json.loads(path.read_text())["log"] if e["t"] == "choice"]


def test_scripted_decisions_go_first_then_the_bots(wargame, tmp_path):
    plain = tmp_path / "plain.json"
    play_json(wargame, IXU, "--no-input", "--seed", "4", "--turns", "1", "--save", str(plain))
    bot_keys = [c["key"] for c in choices_of(plain)]
    first = choices_of(plain)[0]
    faces = first["key"].split(",")
    swapped = ",".join(reversed(faces))  # the same dice placed the other way round
    scripted = tmp_path / "scripted.json"
    play_json(
        wargame,
        IXU,
        "--no-input",
        "--seed",
        "4",
        "--turns",
        "1",
        "--save",
        str(scripted),
        "--choices",
        f"{swapped}; {bot_keys[1]}",
    )
    got = choices_of(scripted)
    assert [(c["key"], c["by"]) for c in got[:2]] == [(swapped, "script"), (bot_keys[1], "script")]
    assert all(c["by"] == "bot" for c in got[2:])
    assert wargame("replay", str(scripted), "--verify").returncode == 0


def test_an_illegal_scripted_decision_stops_with_exit_2(wargame, tmp_path):
    save = tmp_path / "g.json"
    line = one_error_line(
        wargame("play", IXU, "--no-input", "--seed", "4", "--choices", "9,9,9", "--save", str(save))
    )
    assert "--choices value #1 ('9,9,9')" in line
    if save.exists():
        assert all(c["key"] != "9,9,9" for c in choices_of(save))
        assert wargame("replay", str(save), "--verify").returncode == 0
