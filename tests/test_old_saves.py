"""Saves made by older builds of this project (tests/fixtures/old_saves/, see its README):
every one replays, verifies, reports, forks and, when in progress, resumes through the CLI,
under the version of the rules it was played with."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from wargame_cli import registry

CORPUS = Path(__file__).parent / "fixtures" / "old_saves"
SAVES = sorted(CORPUS.glob("*/*.json"))


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _copy(path: Path, folder: Path) -> Path:
    copy = folder / path.name
    shutil.copyfile(path, copy)
    return copy


def test_the_corpus_covers_every_ruleset_at_every_commit():
    commits = {p.name for p in CORPUS.iterdir() if p.is_dir()}
    assert {"d33b151", "d76a3a0", "4b2c1aa", "e8d031f", "7ee4e03", "472ab9a"} <= commits
    for commit in commits:
        made = {json.loads(p.read_text())["ruleset"]["id"] for p in CORPUS.glob(f"{commit}/*")}
        assert made >= {i.id for i in registry.all_infos() if i.builtin}, commit  # ours


@pytest.mark.parametrize("path", SAVES, ids=_id)
def test_an_old_save_replays_verifies_and_reports(path, wargame, tmp_path):
    save = _copy(path, tmp_path)
    data = json.loads(save.read_text())
    shown = wargame("replay", str(save), "--no-input")
    assert shown.returncode == 0, shown.stderr
    verified = wargame("replay", str(save), "--verify", "--json")
    assert verified.returncode == 0, verified.stderr
    summary = json.loads(verified.stdout)
    assert summary["verified"] is True
    assert (summary["status"], summary["turns"]) == (data["status"], data["turns"])
    report = tmp_path / "report.md"
    made = wargame("replay", str(save), "--report", str(report))
    assert made.returncode == 0, made.stderr
    assert report.stat().st_size > 0
    assert save.read_bytes() == path.read_bytes()  # reading never rewrites a save


@pytest.mark.parametrize("path", SAVES, ids=_id)
def test_an_old_save_forks_and_the_fork_verifies(path, wargame, tmp_path):
    save = _copy(path, tmp_path)
    fork = tmp_path / "fork.json"
    done = wargame("fork", str(save), "--turn", "1", "--save", str(fork))
    assert done.returncode == 0, done.stderr
    made_with = json.loads(path.read_text())["ruleset"]
    assert json.loads(fork.read_text())["ruleset"] == made_with  # played on under its rules
    verified = wargame("replay", str(fork), "--verify")
    assert verified.returncode == 0, verified.stderr


IN_PROGRESS = [p for p in SAVES if json.loads(p.read_text())["status"] == "in_progress"]


@pytest.mark.parametrize("path", IN_PROGRESS, ids=_id)
def test_an_old_game_in_progress_resumes_under_its_own_rules(path, wargame, tmp_path):
    save = _copy(path, tmp_path)
    made_with = json.loads(path.read_text())["ruleset"]
    done = wargame("resume", str(save), "--no-input", "--json")
    assert done.returncode == 0, done.stderr
    after = json.loads(save.read_text())
    assert after["status"] == "finished"
    assert after["ruleset"] == made_with  # the version it was played with, kept
    verified = wargame("replay", str(save), "--verify")
    assert verified.returncode == 0, verified.stderr


# -- the format-2 chain root of the first builds ------------------------------------------------

FIRST_ROOT = sorted(CORPUS.glob("d76a3a0/*.json")) + sorted(CORPUS.glob("4b2c1aa/*.json"))


def test_a_first_format_2_save_hashes_created_into_its_root():
    """The saves the fix is for: their chain starts from a root over `created` too."""
    from wargame_cli.saves import seal

    for path in FIRST_ROOT:
        data = json.loads(path.read_text())
        assert data["version"] == 2
        assert data["log"][0]["h"] == seal._root(data, seal.HEADER_WITH_CREATED)
        assert seal.first_break(data) is None


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(created="2020-01-01T00:00:00.000+00:00"),
        lambda d: d.update(seed=d["seed"] + 1),
        lambda d: d["setup"]["names"].update(A="Someone else"),
        lambda d: d["log"][0].update(rules=["x1"]),
    ],
)
def test_an_edit_of_a_first_format_2_save_is_still_refused(wargame, tmp_path, change):
    save = _copy(CORPUS / "d76a3a0" / "tug-of-wargods-finished.json", tmp_path)
    data = json.loads(save.read_text())
    change(data)
    save.write_text(json.dumps(data))
    for command in (("replay", str(save), "--verify"), ("replay", str(save), "--no-input")):
        done = wargame(*command)
        assert done.returncode == 2 and "the record was edited" in done.stderr, done.stderr


# -- wording is not judged; what is shown is this build's ---------------------------------------


def test_an_old_wording_verifies_with_a_note_and_is_shown_as_this_build_words_it(wargame, tmp_path):
    save = _copy(CORPUS / "d76a3a0" / "squad-alpha-finished.json", tmp_path)
    assert "Kid is killed by Moss's shot" in save.read_text()  # as the old build worded it
    verified = wargame("replay", str(save), "--verify")
    assert verified.returncode == 0, verified.stderr
    assert "lines are worded differently by this build" in verified.stdout
    shown = wargame("replay", str(save), "--no-input")
    report = wargame("replay", str(save), "--report", "--with-rules")
    for done in (shown, report):
        assert "Kid is killed by Moss' shot" in done.stdout
        assert "Moss's" not in done.stdout
    summary = json.loads(wargame("replay", str(save), "--verify", "--json").stdout)
    assert summary["reworded"] > 0


def test_a_save_in_this_builds_words_has_nothing_reworded(wargame, tmp_path):
    """A save this build writes (a corpus save from an older build may be worded otherwise:
    menus that now state their odds, say)."""
    save = tmp_path / "now.json"
    made = wargame("play", "squad-alpha", "--no-input", "--seed", "12", "--save", str(save))
    assert made.returncode == 0, made.stderr
    verified = wargame("replay", str(save), "--verify", "--json")
    assert json.loads(verified.stdout)["reworded"] == 0
    old = _copy(CORPUS / "472ab9a" / "squad-alpha-finished.json", tmp_path)
    assert json.loads(wargame("replay", str(old), "--verify", "--json").stdout)["verified"]


# -- older versions of the rules stay playable --------------------------------------------------


def _resumed_log(wargame, tmp_path, fixture: str) -> list[dict]:
    save = _copy(CORPUS / fixture, tmp_path)
    before = len(json.loads(save.read_text())["log"])
    done = wargame("resume", str(save), "--no-input")
    assert done.returncode == 0, done.stderr
    return json.loads(save.read_text())["log"][before:]


def test_mobs_and_morale_version_1_plays_on_without_the_later_rules(wargame, tmp_path):
    """Version 1: no round-limit announcements, and no owner's pick of a mob's casualty."""
    log = _resumed_log(wargame, tmp_path, "e8d031f/mobs-and-morale-rolls.json")
    assert not [e for e in log if e.get("kind") in ("round_limit", "casualty")]
    assert [e for e in log if e["t"] == "turn"]  # it did play on


def test_mobs_and_morale_version_2_has_the_owners_pick_and_the_limit(wargame, tmp_path):
    save = _copy(CORPUS / "472ab9a" / "mobs-and-morale-finished.json", tmp_path)
    kinds = {e.get("kind") for e in json.loads(save.read_text())["log"]}
    assert {"round_limit", "casualty"} <= kinds  # what version 1 lacks, in this build's game


def test_seeds_of_wars_version_2_plays_on_without_the_between_rounds_question(wargame, tmp_path):
    log = _resumed_log(wargame, tmp_path, "d76a3a0/seeds-of-wars-turn1.json")
    assert [e for e in log if e["t"] == "turn"]
    assert not [e for e in log if e["t"] == "choice" and e["kind"] == "round_end"]
    (tmp_path / "now").mkdir()
    now = _resumed_log(wargame, tmp_path / "now", "472ab9a/seeds-of-wars-turn1.json")
    assert [e for e in now if e["t"] == "choice" and e["kind"] == "round_end"]


@pytest.mark.parametrize("version", ["0", "5", "99", "x", "2.0", ""])
def test_a_rules_version_this_build_never_had_is_refused_naming_it(wargame, tmp_path, version):
    from wargame_cli.saves import seal

    save = _copy(CORPUS / "472ab9a" / "squad-alpha-turn1.json", tmp_path)
    data = json.loads(save.read_text())
    data["ruleset"]["version"] = version
    save.write_text(json.dumps(seal.sealed(data)))
    for command in (("replay", str(save), "--verify"), ("resume", str(save), "--no-input")):
        done = wargame(*command)
        assert done.returncode == 2
        assert f"made with version {version!r} of these rules" in done.stderr, done.stderr


def _edited(path: Path, folder: Path, index: int, **changes: object) -> Path:
    """A copy of an old (format 1, unsealed) save with one log entry changed."""
    data = json.loads(path.read_text())
    data["log"][index].update(changes)
    out = folder / path.name
    out.write_text(json.dumps(data))
    return out


def test_a_migration_renames_only_what_the_old_version_wrote(wargame, tmp_path):
    """Ixu version 1 logged a stand as a move of 0": migrated, it verifies; a real move
    relabelled as a stand is still refused, and so is a stand in a version-2 save."""
    old = CORPUS / "d33b151" / "battle-of-ixu-finished.json"
    log = json.loads(old.read_text())["log"]
    move = next(
        i
        for i, e in enumerate(log)
        if e["t"] == "event" and e["kind"] == "move" and e["data"]["inches"] > 0
    )
    forged = _edited(old, tmp_path, move, kind="stand")
    done = wargame("replay", str(forged), "--verify")
    assert done.returncode == 2
    assert f"log entry {move}" in done.stderr and "stand" in done.stderr
    later = CORPUS / "e8d031f" / "battle-of-ixu-finished.json"
    later_log = json.loads(later.read_text())["log"]
    stand = next(i for i, e in enumerate(later_log) if e["t"] == "event" and e["kind"] == "stand")
    relabelled = _edited(later, tmp_path, stand, kind="move")  # version 2 never wrote that
    done = wargame("replay", str(relabelled), "--verify")
    assert done.returncode == 2 and f"log entry {stand}" in done.stderr


def test_a_first_build_game_is_replayed_and_played_on_under_its_first_behaviour(wargame, tmp_path):
    """Mobs and Morale version 1 as first built asked 'and then?' after a move and an
    attack: its saves replay under behaviour 0, resume under it, and stay version 1 (a save
    that replays under the version's own behaviour too, as its first turn does, is read so)."""
    from wargame_cli import versions
    from wargame_cli.saves import games

    path = _copy(CORPUS / "d33b151" / "mobs-and-morale-rolls.json", tmp_path)
    session = games.open_save(path)
    assert (session.ruleset.version, versions.number(session.ruleset)) == ("1", 0)
    later = games.open_save(_copy(CORPUS / "e8d031f" / "mobs-and-morale-turn1.json", tmp_path))
    assert versions.number(later.ruleset) == 1
    done = wargame("resume", str(path), "--no-input")
    assert done.returncode == 0, done.stderr
    assert json.loads(path.read_text())["ruleset"] == {"id": "mobs-and-morale", "version": "1"}
    assert games.open_save(path).ruleset.behaviour == 0


def test_an_older_save_is_judged_on_what_it_wrote(wargame, tmp_path):
    """A datum a later build adds (the face beside a total) is not asked of an older save;
    every datum the save did write must still be what its rules give."""
    old = CORPUS / "d33b151" / "seeds-of-wars-finished.json"
    log = json.loads(old.read_text())["log"]
    hit = next(i for i, e in enumerate(log) if e["t"] == "event" and e["kind"] == "hit")
    assert "face" not in log[hit]["data"]  # version 1 gave the total alone
    assert wargame("replay", str(_copy(old, tmp_path)), "--verify").returncode == 0
    total = dict(log[hit]["data"], total=log[hit]["data"]["total"] + 1)
    forged = _edited(old, tmp_path, hit, data=total)
    done = wargame("replay", str(forged), "--verify")
    assert done.returncode == 2 and f"log entry {hit}" in done.stderr
