"""Issue 34, item 4: the report tells true what one battle did. A kill made by a table edit is
told as a blow (credited with `credit=NAME`) and listed in the Aftermath; an action's damage
is the doing of the one who used it; the Aftermath names who still stands, with the damage
each carries, in both forms; an edit reads in the world's words in the story and as
bookkeeping in a list of its own. Old saves without a credit still replay and report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.test_mobs_and_morale_gm import played, table_file
from tests.test_report_html import parse

IXU = "battle-of-ixu"


def _ixu(wargame: Any, tmp_path: Path, turns: str = "1") -> Path:
    save = tmp_path / "ixu.json"
    args = ["play", IXU, "--no-input", "--seed", "3", "--turns", turns, "--save", str(save)]
    assert wargame(*args).returncode == 0
    return save


def _edit(wargame: Any, save: Path, *words: str, why: str = "a rock slide") -> None:
    done = wargame("edit", str(save), *words, "--why", why)
    assert done.returncode == 0, done.stderr


def _report(wargame: Any, save: Path, *more: str) -> str:
    done = wargame("replay", str(save), "--report", *more)
    assert done.returncode == 0, done.stderr
    return str(done.stdout)


def _section(report: str, title: str) -> str:
    return report.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def test_a_kill_by_a_table_edit_is_a_credited_blow_and_every_fallen_is_listed(wargame, tmp_path):
    save = _ixu(wargame, tmp_path)
    _edit(wargame, save, "damage", "Kuote", "10", "credit=Tuze", why="a spear from the rocks")
    _edit(wargame, save, "remove", "Tutok", why="the ground gives way")
    _edit(wargame, save, "damage", "Ijoi", "10", "credit=Eyox", why="a second spear")
    assert wargame("resume", str(save), "--no-input").returncode == 0
    log = json.loads(save.read_text())["log"]
    credited = [e for e in log if e["t"] == "edit" and e.get("data")]
    assert [e["data"] for e in credited] == [{"credit": "Tuze"}, {"credit": "Eyox"}]
    assert all("credit=" not in " ".join(e["args"]) for e in credited)  # the rules never see it
    verified = wargame("replay", str(save), "--verify", "--json")
    assert verified.returncode == 0 and json.loads(verified.stdout)["verified"] is True
    report = _report(wargame, save)
    story = report.split("## The sides", 1)[1].split("## Table edits", 1)[0]
    assert "Tuze wounds Kuote (a spear from the rocks)" in story
    assert "**☠ Tutok" in story and "(the ground gives way)" in story
    assert "Table edit" not in story and "by the GM" not in story  # no bookkeeping in the story
    book = _section(report, "Table edits")
    assert "by the GM: Kuote takes 10 damage" in book and "(a spear from the rocks)" in book
    after = _section(report, "Aftermath")
    assert "every model of Axes has fallen" in after
    for name, line in [
        ("Kuote", "Kuote, killed by Tuze (10 wounds); a spear from the rocks"),
        ("Tutok", "Tutok, struck down: the ground gives way"),
        ("Ijoi", "Ijoi, killed by Eyox (10 wounds)"),
    ]:
        assert line in after, (name, after)
    assert "Still standing: Eyox (unhurt), Tuze (unhurt), Keryx (unhurt)." in after


def test_a_credit_word_is_refused_where_it_means_nothing_and_empty(wargame, tmp_path):
    save = _ixu(wargame, tmp_path)
    before = save.read_bytes()
    for words in (["damage", "Kuote", "2", "credit="], ["end", "A", "won", "credit=Tuze"]):
        done = wargame("edit", str(save), *words, "--why", "x")
        assert done.returncode == 2 and "credit=" in done.stderr, done.stderr
    assert save.read_bytes() == before


def test_an_edit_without_credit_is_written_as_before_and_still_reports_its_kill(wargame, tmp_path):
    """An edit naming no one is the entry saves always had (no `data`): it verifies, and its
    kill is listed with its cause."""
    save = _ixu(wargame, tmp_path)
    _edit(wargame, save, "damage", "Kuote", "10")
    edits = [e for e in json.loads(save.read_text())["log"] if e["t"] == "edit"]
    assert set(edits[0]) == {"t", "action", "args", "by", "why", "text", "h"}
    assert wargame("replay", str(save), "--verify").returncode == 0
    after = _section(_report(wargame, save), "Aftermath")
    assert "Kuote, struck down: a rock slide" in after


def test_a_hex_kill_is_credited_to_the_shaman_who_used_it(wargame, tmp_path):
    """Grey Mother's Hex (damage 6) kills Tarn: her doing, not whoever struck last."""
    save = tmp_path / "hex.json"
    team_b = tmp_path / "b.toml"
    team_b.write_text(
        'name = "Coven"\n'
        'characters = [{ name = "Grey Mother", profile = "Shaman", actions = ["Hex"], '
        "move = 0 }]\n"
        'actions = [{ name = "Hex", range = 30, dice = 2, effect = "damage 6" }]\n'
    )
    open_field = table_file(tmp_path, "", "open.toml")
    args = ["--team-a", "Tarn=Spearwarden", "--team-b", str(team_b), "--turns", "1"]
    args += ["--option", f"table={open_field}", "--rolls", "1,1,9,9,9,9,9"]
    played(wargame, save, *args, "--choices", "12,3;12,21;other;power:Hex;Tarn")
    report = _report(wargame, save)
    assert "at Grey Mother's hands (6 wounds)" in report
    assert "Tarn, killed by Grey Mother (6 wounds)" in _section(report, "Aftermath")
    page = tmp_path / "hex.html"
    assert wargame("replay", str(save), "--html", str(page)).returncode == 0
    assert "<title>Grey Mother attacks Tarn: kills</title>" in page.read_text()  # drawn too


def test_the_html_aftermath_names_who_still_stands_with_their_wounds(wargame, tmp_path):
    save = _ixu(wargame, tmp_path, turns="12")
    out = tmp_path / "r.html"
    assert wargame("replay", str(save), "--html", str(out)).returncode == 0
    page = out.read_text()
    parse(page)
    standing = page.split('<p class="standing">', 1)[1].split("</p>", 1)[0]
    state = json.loads(wargame("replay", str(save), "--json").stdout)["state"]
    alive = [m for s in state["sides"].values() for m in s["models"] if m["status"] != "dead"]
    assert alive  # seed 3: the Swords win with models standing
    for model in alive:
        hurt = f"{model['damage']} of {model['health']} damage" if model["damage"] else "unhurt"
        assert f"{model['name']} ({hurt})" in standing
    assert f"Still standing: {standing.split(': ', 1)[1]}" in _report(wargame, save)


# -- words: flanks, steps and runs, repeats ---------------------------------------------------
def _mobs(wargame: Any, tmp_path: Path, seed: str = "5") -> Path:
    save = tmp_path / f"mm{seed}.json"
    args = ["play", "mobs-and-morale", "--no-input", "--seed", seed, "--save", str(save)]
    assert wargame(*args).returncode == 0
    return save


def test_deployment_flanks_are_judged_from_the_whole_deployment(wargame, tmp_path):
    """Each side's left and right are its own, facing the enemy, across the spread of all
    its deployed figures (not of those placed before it)."""
    import re

    save = _mobs(wargame, tmp_path)
    data = json.loads(save.read_text())
    names = data["setup"]["names"]
    deploys = [e["data"] for e in data["log"] if e["t"] == "event" and e.get("kind") == "deploy"]
    side_of = {}
    for side, team in data["setup"]["teams"].items():
        for piece in team.get("characters", []) + team.get("mobs", []):
            side_of[piece["name"]] = side
    xs: dict[str, list[float]] = {"A": [], "B": []}
    for d in deploys:
        xs[side_of[d["unit"]]] += [float(p[0]) for p in d["at"].values()]
    story = _report(wargame, save).split("## Round 1", 1)[0]
    told = 0
    for d in deploys:
        side = side_of[d["unit"]]
        lo, hi = min(xs[side]), max(xs[side])
        t = (float(next(iter(d["at"].values()))[0]) - lo) / (hi - lo)
        t = t if side == "A" else 1 - t
        want = "left flank" if t < 0.3 else "right flank" if t > 0.7 else "centre"
        owner = names[side].removeprefix("The ")
        found = re.search(
            rf"{re.escape(d['unit'])} (?:deploys?|takes? the field) (?:on|in) the "
            rf"{re.escape(owner)}'s (left flank|right flank|centre)",
            story,
        )
        if found:
            told += 1
            assert found.group(1) == want, (d["unit"], found.group(0), want)
    assert told >= 4


def test_a_step_is_not_a_run_and_a_short_charge_is_not_a_rush(wargame, tmp_path):
    from wargame_cli import registry
    from wargame_cli.report import voice as v

    save = json.loads(_ixu(wargame, tmp_path).read_text())
    teller = registry.get(IXU).teller(save, v.Voice(0))
    assert teller is not None
    teller.tell("attribute", {"model": "Kuote", "side": "A", "movement": 6}, "")
    step = {"model": "Kuote", "side": "A", "from": [12, 10], "to": [12, 10.25], "inches": 0.25}
    said = teller.tell("move", step, "")
    assert said and said.split(" ")[1] in ("edges", "takes", "inches"), said
    full = {**step, "to": [12, 16], "inches": 6}
    assert teller.tell("move", full, "").split(" ")[1] in ("runs", "dashes", "hurries")
    charge = {**step, "charged": ["Tuze"]}
    for _ in range(4):  # every phrase of the pool
        said = teller.tell("charge", charge, "") or ""
        assert not any(w in said for w in ("charges", "rushes", "storms", "runs")), said


def test_no_sentence_is_told_twice_in_the_same_words(wargame, tmp_path):
    save = tmp_path / "sa.json"
    assert (
        wargame("play", "squad-alpha", "--no-input", "--seed", "5", "--save", str(save)).returncode
        == 0
    )
    report = _report(wargame, save)
    story = report.split("## The sides", 1)[1].split("## Aftermath", 1)[0]
    said = [
        s.strip(" *")
        for line in story.splitlines()
        if line.startswith("- ")
        for s in line[2:].split(". ")
        if s.strip(" *.")
    ]
    repeated = {s for s in said if said.count(s) > 1}
    assert not repeated, repeated
    assert "Again, " in story  # the game repeats itself: the story says so


# -- pictures ---------------------------------------------------------------------------------
def test_pictures_draw_bases_that_read_straight_blows_and_mob_moves(wargame, tmp_path):
    import re

    save = _mobs(wargame, tmp_path)
    out = tmp_path / "mm.html"
    assert wargame("replay", str(save), "--html", str(out)).returncode == 0
    page = out.read_text()
    radii = [float(r) for r in re.findall(r'<circle cx="[^"]*" cy="[^"]*" r="([\d.]+)"', page)]
    assert radii and min(radii) >= 12  # a base at least 24 px across
    labels = re.findall(r'font-size="(\d+)" fill="#fff" text-anchor="middle"', page)
    assert labels and min(int(s) for s in labels) >= 11
    strikes = re.findall(r'<g class="strike[^"]*">(.*?)</g>', page)
    assert strikes and all("<line " in g and " Q" not in g and "Q" not in g for g in strikes)
    mobs = {
        m["name"]
        for t in json.loads(save.read_text())["setup"]["teams"].values()
        for m in t.get("mobs", [])
    }
    moved = re.findall(r'<g class="move"><title>([^<]*) moves</title>', page)
    assert any(any(name.startswith(f"{mob} ") for mob in mobs) for name in moved), moved


def test_a_credit_typed_at_the_table_goes_to_the_edits_data():
    """ "Table…" during play: the words typed go in a token; the credit word is taken out of
    the words the rules see, and kept."""
    from wargame_cli.engine.edits import Edit, check_words, from_token, token

    typed = Edit("damage", ("Kuote", "4", "credit=Tuze"), "A", "a spear")
    check_words(typed, "damage MODEL N")  # not a word too many
    made = from_token(token(typed))
    assert made.args == ("Kuote", "4") and made.credit == "Tuze"
    assert made.entry("Kuote takes 4 damage")["data"] == {"credit": "Tuze"}


def test_mobs_and_morale_edits_tell_a_credited_kill_a_flight_and_wounds(wargame, tmp_path):
    save = tmp_path / "me.json"
    args = ["play", "mobs-and-morale", "--no-input", "--seed", "1", "--turns", "1"]
    assert wargame(*args, "--save", str(save)).returncode == 0
    _edit(wargame, save, "damage", "Red Spears 1", "1", "credit=Brakka", why="an arrow")
    _edit(wargame, save, "remove", "Ysolde", "fled", why="she panics")
    _edit(wargame, save, "damage", "Chief Ugrak", "2", why="an old wound opens")
    _edit(wargame, save, "heal", "Chief Ugrak", "1", why="a draught")
    report = _report(wargame, save)
    story = report.split("## Round 1", 1)[1].split("## Table edits", 1)[0]
    assert "**☠ Brakka wounds Red Spears 1 (an arrow): 1 wound." in story
    assert "**⚑ Ysolde flees the field (she panics).**" in story
    assert "dead pool" not in story and "Table edit" not in story
    after = _section(report, "Aftermath")
    assert "Red Spears 1, killed by Brakka (1 wound); an arrow" in after
    assert "Ysolde, left the field: she panics" in after
    assert "Chief Ugrak (1 of 8 damage)" in after


def test_an_edits_damage_is_what_it_took_and_its_credit_names_the_figure(wargame, tmp_path):
    """Seeds of Wars: `damage A1 9` takes the 3 Ht A1 Knights had; `credit=B1` is B1 Guard."""
    save = tmp_path / "se.json"
    args = ["play", "seeds-of-wars", "--no-input", "--seed", "1", "--turns", "1"]
    assert wargame(*args, "--save", str(save)).returncode == 0
    _edit(wargame, save, "damage", "A1", "9", "credit=B1", why="a cavalry charge")
    _edit(wargame, save, "remove", "B2", "captured", why="surrounded")
    report = _report(wargame, save)
    assert "**☠ B1 Guard wounds A1 Knights (a cavalry charge): 3 hits." in report
    assert "**⚑ B2 Spearmen is taken captive (surrounded).**" in report
    after = _section(report, "Aftermath")
    assert "A1 Knights, killed by B1 Guard (3 hits); a cavalry charge" in after
    assert "B2 Spearmen, left the field: surrounded" in after
