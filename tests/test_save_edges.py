"""Saves, verify and the terminal at their edges (issue 32 items 12-15): what is typed into
`wargame edit` and what an old save holds never reaches the terminal as escapes, every number
is bounded at its flag, a save that was ever unsealed stays labelled so, and bytes that are
not UTF-8, early Ctrl-C, a closed pipe and stray edit words each end in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import one_error_line
from wargame_cli.limits import MAX_INT


def _played(wargame, path: Path, ruleset: str = "mobs-and-morale", *extra: str) -> Path:
    done = wargame(
        "play", ruleset, "--no-input", "--seed", "1", "--turns", "1", "--save", str(path), *extra
    )
    assert done.returncode == 0, done.stderr
    return path


# -- item 13: every number bounded at its flag -----------------------------------------------


@pytest.mark.parametrize("seed", [str(MAX_INT + 1), str(-MAX_INT - 1), "1" + "0" * 40])
def test_a_seed_no_save_can_hold_is_refused_at_the_flag_and_nothing_is_written(
    wargame, tmp_path, seed
):
    path = tmp_path / "big.json"
    line = one_error_line(
        wargame("play", "tug-of-wargods", "--no-input", "--seed", seed, "--save", str(path))
    )
    assert "--seed" in line
    assert not path.exists() and not list((tmp_path / "saves").glob("*.json"))
    line = one_error_line(wargame("simulate", "tug-of-wargods", "--games", "2", "--seed", seed))
    assert "--seed" in line


def test_the_largest_seed_allowed_saves_a_game_that_opens_again(wargame, tmp_path):
    path = tmp_path / "edge.json"
    done = wargame(
        "play", "tug-of-wargods", "--no-input", "--seed", str(MAX_INT), "--save", str(path)
    )
    assert done.returncode == 0, done.stderr
    verified = wargame("replay", str(path), "--verify", "--json")
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["provenance"]["seed"] == MAX_INT


def test_turns_and_odds_beyond_their_bounds_are_refused_at_the_flag(wargame, tmp_path):
    path = _played(wargame, tmp_path / "g.json", "squad-alpha")
    before = path.read_bytes()
    line = one_error_line(wargame("resume", str(path), "--no-input", "--turns", str(MAX_INT + 1)))
    assert "--turns" in line
    line = one_error_line(wargame("replay", str(path), "--odds", str(10**12)))
    assert "--odds" in line
    assert path.read_bytes() == before
