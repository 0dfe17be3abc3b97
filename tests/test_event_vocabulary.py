"""One vocabulary of events (`wargame_cli/engine/events.py`): every ruleset, the plugin too,
writes only its kinds and data keys; mypy refuses others; the report, the pictures and the
sampled odds read who did what to whom the same way; an old save of the plugin, written
before it used the vocabulary, still verifies."""

from __future__ import annotations

import json
import textwrap
from functools import cache

import pytest

from wargame_cli import registry, versions
from wargame_cli.engine import events
from wargame_cli.engine.session import bot_game
from wargame_cli.report import reading
from wargame_cli.saves import games, seal
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.picture import Base, marks
from wargame_cli.testing.random_play import ruleset_ids

IDS = ruleset_ids()
DECLARED_KEYS = frozenset(events.EventData.__annotations__)


@cache
def logged(ruleset_id: str) -> list[dict]:
    ruleset = registry.get(ruleset_id)
    return [e for seed in (1, 2) for e in bot_game(ruleset, seed).runner.log if e["t"] == "event"]


@pytest.mark.parametrize("ruleset_id", IDS)
def test_every_event_a_ruleset_writes_is_in_the_vocabulary(ruleset_id):
    seen = logged(ruleset_id)
    assert seen
    kinds = {e.get("kind", "info") for e in seen}
    assert kinds <= events.KINDS, sorted(kinds - events.KINDS)
    keys = {k for e in seen for k in (e.get("data") or {})}
    assert keys <= DECLARED_KEYS, sorted(keys - DECLARED_KEYS)


def test_the_plugin_tells_its_hits_in_the_vocabulary_and_only_there():
    if "pit-fight" not in IDS:
        pytest.skip("tests/plugin_pit is not installed")
    hits = [e for e in logged("pit-fight") if " hits " in e["text"]]
    assert hits and all(e["kind"] == "wound" for e in hits)
    # one way of naming who: attacker and target, never model/by beside them
    assert all(set(e["data"]) == {"attacker", "target", "damage"} for e in hits)
    assert all(events.target(e["data"]) in "AB" for e in hits)
    # and a fall names who fell (model) and by whom, as the report and the lab read it
    deaths = [e for e in logged("pit-fight") if e["kind"] == "death"]
    assert deaths and all(set(e["data"]) == {"model", "by"} for e in deaths)


def test_mypy_refuses_a_kind_or_a_key_the_vocabulary_lacks(tmp_path):
    api = pytest.importorskip("mypy.api")
    module = tmp_path / "writer.py"
    module.write_text(
        textwrap.dedent("""
            from wargame_cli.engine.requests import Event

            fine = Event("A hits B", kind="wound", data={"attacker": "A", "target": "B"})
            odd_kind = Event("A hurts B", kind="wounded")
            odd_key = Event("A hits B", kind="hit", data={"victim": "B"})
        """)
    )
    cache_dir = tmp_path / "cache"
    out, _, status = api.run(
        [str(module), "--cache-dir", str(cache_dir), "--follow-imports", "silent"]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1 and len(errors) == 2, out
    assert "writer.py:5:" in errors[0] and '"kind"' in errors[0]
    assert "writer.py:6:" in errors[1] and '"data"' in errors[1]


JOINT = [  # a joint attack, its wound and the death, as a mob ruleset writes them
    {"kind": "attack", "data": {"attackers": ["Orc 1", "Orc 2"], "target": "Elf"}},
    {"kind": "damage", "data": {"creature": "Elf", "damage": 2}},
    {"kind": "death", "data": {"creature": "Elf", "by": "Orc 1"}},
]


def test_the_picture_and_the_report_read_who_did_what_to_whom_alike():
    where = {
        name: Base(name[:2], name, Point(x, 5), 0.5, side)
        for name, x, side in (("Orc 1", 2, "A"), ("Orc 2", 4, "A"), ("Elf", 6, "B"))
    }
    drawn = marks(JOINT, where, {n: b.side for n, b in where.items()})
    assert [(s.who, s.target, s.hit, s.kill) for s in drawn.strikes] == [
        ("Orc 1", "Elf", False, False),
        ("Orc 2", "Elf", True, True),  # the hit and the kill go to the latest strike
    ]
    attack, damage, death = (e["data"] for e in JOINT)
    assert events.strikers(attack) == ["Orc 1", "Orc 2"] and events.target(attack) == "Elf"
    assert reading._actor(attack) == "Orc 1" and reading._names(attack) >= {"Elf", "Orc 2"}
    assert events.target(damage) == events.subject(death) == "Elf"
    assert events.is_loss("death", death) and reading._lost(death) == {"Elf"}
    assert not events.is_loss("flee", {"unit": "U", "to": [1, 2]})  # a flee that moves


def test_an_old_plugin_save_written_before_the_vocabulary_verifies(tmp_path):
    """The plugin's 0.1 (its version 1) wrote its hits as `info` events, with no damage and
    no death event: its `migrate_entry` reads them as today's `wound`, and version 1's rules
    replay the rest, so the save verifies; without the migration, verify refuses."""
    if "pit-fight" not in IDS:
        pytest.skip("tests/plugin_pit is not installed")
    ruleset = registry.get("pit-fight")
    path = tmp_path / "old.json"
    games.save(bot_game(versions.at_version(ruleset, "1"), 4), path)
    data = json.loads(path.read_text())
    assert data["ruleset"]["version"] == "1"
    data["log"] = [seal.unchained(e) for e in data["log"]]
    old = 0
    for entry in data["log"]:
        assert entry.get("kind") != "death" and "damage" not in (entry.get("data") or {})
        if entry["t"] == "event" and entry.get("kind") == "wound":
            entry["kind"], old = "info", old + 1
    assert old
    path.write_text(json.dumps(seal.sealed(data)))  # as 0.1 wrote it, sealed
    assert games.verify(path).status == "finished"
    plain = type(ruleset).__mro__[1].migrate_entry  # the contract's default: no migration
    try:
        type(ruleset).migrate_entry = plain  # type: ignore[method-assign]
        with pytest.raises(Exception, match="(?i)edited|differ|wound|kind"):
            games.verify(path)
    finally:
        del type(ruleset).migrate_entry


def test_the_plugin_has_figures_per_fighter_from_the_vocabulary(wargame):
    """A ruleset from outside gets `simulate`'s figures per unit type from a watcher of a
    few lines on `events.Blows`: every game one fighter falls, felled by the other."""
    if "pit-fight" not in IDS:
        pytest.skip("tests/plugin_pit is not installed")
    done = wargame("simulate", "pit-fight", "--games", "40", "--seed", "2", "--json")
    assert done.returncode == 0, done.stderr
    units = json.loads(done.stdout)["units"]
    assert set(units) == {"Brawler", "Duelist"}
    deaths = sum(u["deaths"] for u in units.values())
    kills = sum(u["kills"] * u["fielded"] for u in units.values())
    draws = json.loads(done.stdout)["wins"].get("draw", 0)
    assert deaths == kills == 40 - draws > 0
    assert all(u["damage"] > 1 for u in units.values())  # wounds of up to 3 each


def test_the_lab_counts_blows_and_kills_from_the_vocabulary():
    """`events.Blows` (the per-unit figures of Seeds of Wars, Squad Alpha and the Battle of
    Ixu): a hit credits its attacker, or the lone striker before it; a death is a kill for
    its `by`, else for a strike at the one who died that did not miss (killed outright),
    else for its last hitter; one never hit has no killer."""
    blows = events.Blows()
    for kind, data in [
        ("wound", {"attacker": "Ana", "target": "Bo", "damage": 2}),
        ("shot", {"id": "Cy", "target": "Bo"}),
        ("hit", {"id": "Bo"}),  # no attacker: the shot's lone striker (Cy)
        ("death", {"model": "Bo", "by": "Cy"}),
        ("destroyed", {"unit": "Dee"}),  # never hit: nobody's kill
        ("hit", {"attacker": "Bo", "target": "Ana"}),  # no damage stated: 1
        ("melee", {"id": "Eve", "target": "Fay"}),
        ("kill", {"id": "Fay"}),  # killed outright by the melee: no hit told
        ("attack", {"attacker": "Gus", "target": "Ana", "hits": 0}),  # a stated miss
        ("death", {"model": "Ana"}),  # at a later check: the last who hit her (Bo)
    ]:
        blows.event(kind, data)
    assert dict(blows.dealt) == {"Ana": 2, "Cy": 1, "Bo": 1}
    assert dict(blows.kills) == {"Cy": 1, "Eve": 1, "Bo": 1}
