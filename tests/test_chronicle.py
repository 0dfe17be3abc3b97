"""Issue 34, item 3: a chronicle tells several battles of one ruleset as one story. Its facts
are checked against the rules' own: each figure's fate against `replay --json`'s end state,
each figure's kills against the log's wounds and deaths, counted here on their own."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.test_report_html import _browser, _pixels, parse
from wargame_cli.report.chronicle import ChronicleBattle, ChronicleRefused, write_chronicle

IXU = "battle-of-ixu"
MM = "mobs-and-morale"


def _play(wargame: Any, folder: Path, ruleset: str, seed: int, *more: str) -> Path:
    save = folder / f"{ruleset}-{seed}.json"
    done = wargame("play", ruleset, "--no-input", "--seed", str(seed), "--save", str(save), *more)
    assert done.returncode == 0, done.stderr
    return save


def _state(wargame: Any, save: Path) -> dict[str, Any]:
    done = wargame("replay", str(save), "--json")
    assert done.returncode == 0, done.stderr
    state: dict[str, Any] = json.loads(done.stdout)["state"]
    return state


def _ixu_kills(save: Path) -> dict[str, int]:
    """Each model's kills from the log: a death is the kill of whoever dealt the dead the
    most damage (the first to wound it among equals)."""
    dealt: dict[str, dict[str, int]] = {}
    kills: dict[str, int] = {}
    for e in json.loads(save.read_text())["log"]:
        if e["t"] != "event":
            continue
        d = e.get("data") or {}
        if e["kind"] == "wound":
            by = dealt.setdefault(d["target"], {})
            by[d["attacker"]] = by.get(d["attacker"], 0) + int(d["damage"])
        elif e["kind"] == "death":
            by = dealt.get(d["model"], {})
            if by:
                most = max(by.values())
                killer = next(who for who, n in by.items() if n == most)
                kills[killer] = kills.get(killer, 0) + 1
    return kills


def _rows(text: str) -> dict[str, list[str]]:
    """The Markdown roster: figure -> its cells."""
    table = text.split("## Roster", 1)[1]
    rows = [line.strip("|").split(" | ") for line in table.splitlines() if line.startswith("| ")]
    return {row[0].strip(): [c.strip() for c in row] for row in rows[1:]}


@pytest.fixture(scope="module")
def ixu_saves(tmp_path_factory: Any) -> list[Path]:
    from tests.conftest import IN_PROCESS, _runner  # the `wargame` fixture's entry point

    folder = tmp_path_factory.mktemp("ixu")
    run = _runner(folder, IN_PROCESS)
    return [_play(run, folder, IXU, seed) for seed in (3, 4, 5)]


def test_three_battles_make_one_story_with_every_fate_and_the_right_kills(wargame, ixu_saves):
    names = ["The Skirmish at Dawn", "The Long Fight", "The Last Stand"]
    places = ["the Salt Flats", "Ixu's Gate", ""]
    battles = [
        ChronicleBattle(s, n, p or None) for s, n, p in zip(ixu_saves, names, places, strict=True)
    ]
    text = write_chronicle(battles, "The Ixu Wars", "markdown")
    assert text.startswith("# The Ixu Wars")
    assert "## 1. The Skirmish at Dawn, at the Salt Flats" in text
    assert "## 2. The Long Fight, at Ixu's Gate" in text and "## 3. The Last Stand\n" in text
    rows = _rows(text)
    assert len(rows) == 6  # the same six gods in every battle: one row each
    kills: dict[str, int] = {}
    for save in ixu_saves:
        for who, n in _ixu_kills(save).items():
            kills[who] = kills.get(who, 0) + n
    last = _state(wargame, ixu_saves[-1])
    for side in last["sides"].values():
        for model in side["models"]:
            row = rows[f"{model['name']} ({side['name']})"]
            assert row[1] == ", ".join(names)  # it fought in every battle
            assert int(row[2]) == kills.get(model["name"], 0), (model["name"], row)
            fate = row[4]
            assert fate.startswith("The Last Stand: ")
            if model["status"] == "dead":
                assert f"fell in turn {model['died_turn']}" in fate
            else:
                hurt = (
                    f"{model['damage']} of {model['health']} damage"
                    if model["damage"]
                    else "unhurt"
                )
                assert f"standing at the end ({hurt})" in fate
    total_dead = 0
    for save in ixu_saves:
        sides = _state(wargame, save)["sides"].values()
        total_dead += sum(m["status"] == "dead" for s in sides for m in s["models"])
    assert sum(int(r[2]) for r in rows.values()) == total_dead  # every death someone's kill
    deeds = text.split("## Deeds and fates", 1)[1].split("## Roster", 1)[0]
    for battle in names:  # each figure's deeds, battle by battle
        assert deeds.count(f"{battle}: ") == 6


def test_a_figure_is_its_sides_name_and_its_own(wargame, tmp_path, ixu_saves):
    """A Tutok of another warband is another figure; a fallback by name alone."""
    other = _play(wargame, tmp_path, IXU, 6, "--name-a", "Hammers")
    text = write_chronicle(
        [ChronicleBattle(ixu_saves[0]), ChronicleBattle(other)], "Two", "markdown"
    )
    rows = _rows(text)
    assert "Tutok (Axes)" in rows and "Tutok (Hammers)" in rows
    assert rows["Tutok (Axes)"][1] == "Battle 1" and rows["Tutok (Hammers)"][1] == "Battle 2"
    assert rows["Eyox (Swords)"][1] == "Battle 1, Battle 2"


def test_a_mobs_and_morale_chronicle_tells_every_creatures_fate(wargame, tmp_path):
    saves = [_play(wargame, tmp_path, MM, seed) for seed in (5, 7)]
    text = write_chronicle([ChronicleBattle(s) for s in saves], "The Grey Hills", "markdown")
    assert "## 1. Battle 1, at Grey Hill clearing" in text
    rows = _rows(text)
    state = _state(wargame, saves[-1])
    names = {side: s["name"] for side, s in state["sides"].items()}
    words = {"dead": "fell in round", "escaped": "left the field", "fled": "left the field"}
    for c in state["creatures"]:
        fate = rows[f"{c['id']} ({names[c['side']]})"][4]
        assert words.get(c["status"], "standing at the end") in fate, (c["id"], c["status"], fate)
    for mob in {c["mob"] for c in state["creatures"] if c["mob"]}:  # a mob, by its figures
        figures = [c for c in state["creatures"] if c["mob"] == mob]
        up = sum(c["status"] == "standing" for c in figures)
        fate = rows[f"{mob} ({names[figures[0]['side']]})"][4]
        want = f"{up} of its {len(figures)} figures standing" if up else "every one of its"
        assert want in fate, (mob, fate)
    after = {r["creature"]: r["fate"] for rows_ in state["after_battle"].values() for r in rows_}
    for who, fate in after.items():  # the casualty pool's survival rolls
        side = next(c["side"] for c in state["creatures"] if c["id"] == who)
        assert f"after the battle: {fate}" in rows[f"{who} ({names[side]})"][4]
    table = text.split("## Roster", 1)[1]
    member = f"| Red Spears 1 ({names['B']}) |"
    told = [line for line in table.splitlines() if line.startswith(member)]
    # numbered afresh each battle: two figures, each of its own battle, never one across both
    assert [line.split(" | ")[1] for line in told] == ["Battle 1", "Battle 2"], told
    assert rows[f"Red Spears ({names['B']})"][1] == "Battle 1, Battle 2"  # the mob: both


def test_battles_of_different_rulesets_are_refused(wargame, tmp_path, ixu_saves):
    other = _play(wargame, tmp_path, "tug-of-wargods", 1)
    with pytest.raises(ChronicleRefused, match="different rulesets"):
        write_chronicle([ChronicleBattle(ixu_saves[0]), ChronicleBattle(other)], "x", "markdown")
    with pytest.raises(ChronicleRefused):
        write_chronicle([], "x", "markdown")


def test_markdown_pictures_are_files_linked_from_the_chronicle(tmp_path, ixu_saves):
    pics = tmp_path / "pics"
    battles = [ChronicleBattle(s) for s in ixu_saves[:2]]
    text = write_chronicle(battles, "x", "markdown", pictures=pics, home=tmp_path)
    for n in (1, 2):
        assert f"](pics/battle-{n}.svg)" in text
        assert (pics / f"battle-{n}.svg").read_text().startswith("<svg")


def test_the_html_chronicle_holds_every_table_and_picture(tmp_path, ixu_saves):
    battles = [ChronicleBattle(s, f"<b>Fight {i}</b>", "Ixu") for i, s in enumerate(ixu_saves, 1)]
    page = write_chronicle(battles, "The Ixu Wars", "html")
    parsed = parse(page)
    assert parsed.problems == [] and parsed.svgs == 3  # a picture per battle
    assert "<b>Fight" not in page and "&lt;b&gt;Fight 1&lt;/b&gt;, at Ixu" in page
    assert page.count('<section class="battle"') == 3
    body = page.split('<table class="roster">', 1)[1].split("</table>", 1)[0]
    assert re.findall(r"<th>([^<]*)</th>", body) == ["Figure", "Battles", "Kills", "Wounds", "Fate"]
    assert body.count("<tr>") == 1 + 6


@pytest.mark.skipif(_browser() is None, reason="no Chromium installed: the page is parsed above")
def test_a_real_browser_renders_the_chronicle(tmp_path, ixu_saves):
    page = write_chronicle([ChronicleBattle(s) for s in ixu_saves], "The Ixu Wars", "html")
    out = tmp_path / "chronicle.html"
    out.write_text(page)
    browser = str(_browser())
    import os
    import shutil
    import subprocess
    import tempfile

    shot = tmp_path / "shot.png"
    profile = tempfile.mkdtemp(prefix="wargame-chromium-")
    try:
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
            + ["--disable-background-networking", "--disable-component-update", "--disable-sync"]
            + [f"--user-data-dir={profile}", "--window-size=900,1400", f"--screenshot={shot}"]
            + [out.as_uri()],
            capture_output=True,
            timeout=180,
            env={**os.environ, "HOME": profile},
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    width, _, rows = _pixels(shot.read_bytes())
    assert width == 900
    colours = {row[i : i + 3] for row in rows[::4] for i in range(0, len(row), 12)}
    assert any(c[0] > 150 and c[2] < 80 for c in colours)  # the Swords standing are drawn


def test_a_seeds_of_wars_chronicle_tells_every_units_fate_and_ht(wargame, tmp_path):
    saves = [_play(wargame, tmp_path, "seeds-of-wars", seed) for seed in (1, 2)]
    rows = _rows(write_chronicle([ChronicleBattle(s) for s in saves], "Seeds", "markdown"))
    state = _state(wargame, saves[-1])
    for side in state["sides"].values():
        for unit in side["units"]:
            row = rows[f"{unit['id']} {unit['type']} ({side['name']})"]
            fate = row[4]
            if unit["fate"] == "destroyed":
                assert "fell in round" in fate, (unit, fate)
            elif unit["fate"] is None:
                taken = unit["ht_taken"]
                hurt = f"{taken} of {unit['ht']} Ht" if taken else "unhurt"
                assert f"standing at the end ({hurt})" in fate, (unit, fate)
            else:
                assert "left the field" in fate, (unit, fate)
