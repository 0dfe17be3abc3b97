"""Every command that takes a save takes it the same way (one resolver): a path, a row number
of `wargame saves`, or `--last` (the newest save; for the commands that play on, the newest
game in progress). Through the real entry point; `host --resume` as real processes."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import play_json
from tests.remote_helpers import Host, played_out

TUG = "tug-of-wargods"


@pytest.fixture
def rows(wargame):
    """Two saves: row 2 a game in progress, row 1 (the newest) a finished one."""
    play_json(wargame, TUG, "--no-input", "--seed", "2", "--turns", "1")
    play_json(wargame, TUG, "--no-input", "--seed", "1")
    listed = json.loads(wargame("saves", "--json").stdout)
    assert [r["status"] for r in listed] == ["finished", "in_progress"]
    return [r["path"] for r in listed]


def saved(wargame, *args):
    done = wargame(*args, "--json")
    assert done.returncode == 0, (args, done.stderr)
    return json.loads(done.stdout)


@pytest.mark.parametrize(("spec", "row"), [("1", 0), ("2", 1), ("--last", 0)])
def test_replay_takes_a_number_or_last(wargame, rows, spec, row):
    assert saved(wargame, "replay", spec, "--verify")["save"] == rows[row]
    assert saved(wargame, "replay", spec, "--turn", "0")["save"] == rows[row]


@pytest.mark.parametrize(("spec", "row"), [("1", 0), ("2", 1), ("--last", 0)])
def test_fork_takes_a_number_or_last(wargame, rows, spec, row, tmp_path):
    made = saved(wargame, "fork", spec, "--turn", "1", "--save", str(tmp_path / "f.json"))
    assert made["forked_from"]["save"] == rows[row].rsplit("/", 1)[1]


@pytest.mark.parametrize(("spec", "row"), [("2", 1), ("--last", 1)])
def test_resume_takes_a_number_or_last_in_progress(wargame, rows, spec, row):
    done = saved(wargame, "resume", spec, "--no-input")
    assert done["save"] == rows[row] and done["status"] == "finished"


@pytest.mark.parametrize(("spec", "row"), [("2", 1), ("--last", 1)])
def test_simulate_from_takes_a_number_or_last_in_progress(wargame, rows, spec, row):
    done = saved(wargame, "simulate", TUG, "--from", spec, "--games", "4", "--seed", "1")
    assert done["from"]["save"] == rows[row]


def test_simulate_from_a_finished_games_number_is_refused_as_its_path_is(wargame, rows):
    by_number = wargame("simulate", TUG, "--from", "1", "--games", "4")
    by_path = wargame("simulate", TUG, "--from", rows[0], "--games", "4")
    assert by_number.returncode == by_path.returncode == 2
    assert by_number.stderr == by_path.stderr and "that game is over" in by_path.stderr


def test_edit_takes_a_number(wargame, rows):
    done = saved(wargame, "edit", "2", "end", "A", "conceded", "--why", "out of time")
    assert done["save"] == rows[1] and done["status"] == "finished"


def test_edit_takes_last_before_its_words(wargame, rows):
    done = saved(wargame, "edit", "--last", "die", "1", "6", "--why", "misread", "--force")
    assert done["save"] == rows[0]
    assert done["edit"]["action"] == "die"


def test_a_number_past_the_listing_is_one_line(wargame, rows):
    for args in (("replay", "3"), ("fork", "3", "--turn", "1"), ("edit", "3", "end", "A", "x")):
        done = wargame(*args)
        assert done.returncode == 2
        assert "no save numbered 3" in done.stderr and "numbers: 1 to 2" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_numbers_are_read_in_the_saves_dir_given(wargame, rows, tmp_path):
    other = tmp_path / "other"
    wargame("play", TUG, "--no-input", "--seed", "5", "--saves-dir", str(other))
    [path] = [str(p) for p in other.glob("*.json")]
    assert saved(wargame, "replay", "1", "--saves-dir", str(other))["save"] == path


@pytest.mark.parametrize("spec", ["2", "--last"])
def test_host_resume_takes_a_number_or_last_in_progress(tmp_path, wargame, rows, spec):
    host = Host(tmp_path, "--resume", spec, "--port", "0", "--no-input")
    played_out(tmp_path, host)
    assert saved(wargame, "replay", rows[1], "--verify")["status"] == "finished"
