"""Tug of WarGods tells identical models apart: a team with two Asar names them A2 Asar and
A3 Asar (their places in the column) in play, in the log and in reports; a unit the team
has once keeps its plain name."""

from __future__ import annotations

import json
import re


def test_two_of_a_unit_are_named_by_their_place(wargame, tmp_path):
    save = tmp_path / "g.json"
    done = wargame("play", "tug-of-wargods", "--no-input", "--seed", "3", "--team-a",
                   "Sebeki, Asar, Asar", "--team-b", "Heru, Asar, Asar",
                   "--save", str(save))  # fmt: skip
    assert done.returncode == 0, done.stderr
    played = " ".join(done.stdout.split())
    texts = [e.get("text", "") for e in json.loads(save.read_text())["log"]]
    crossed = [t for t in texts if "pulled across the centre line" in t]
    asar = [t for t in crossed if "Asar" in t]
    assert asar and all(re.search(r"'s [AB][23] Asar is pulled", t) for t in asar), crossed
    alone = [t for t in crossed if "Asar" not in t]
    assert all(re.search(r"'s (Sebeki|Heru) is pulled", t) for t in alone), crossed
    assert asar[0] in played
    report = " ".join(wargame("replay", str(save), "--report", "-").stdout.split())
    assert re.search(r"'s [AB][23] Asar", report) and not re.search(r"'s Asar\b", report)
