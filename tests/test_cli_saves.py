"""`wargame saves` numbers its rows and prints every path whole at any width; `wargame resume N`
takes a row number and `wargame resume --last` the newest game in progress."""

from __future__ import annotations

import json
import re

import pytest

TUG = "tug-of-wargods"


def _paths(stdout: str) -> list[str]:
    """The path lines of `wargame saves` (indented under their numbered row)."""
    return [line.strip() for line in stdout.splitlines() if line.strip().endswith(".json")]


def _start(wargame, *extra: str, seed: str = "1") -> str:
    done = wargame("play", TUG, "--no-input", "--seed", seed, "--turns", "1", "--json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["save"]


@pytest.mark.parametrize("columns", ["80", "120", "200"])
def test_saves_prints_whole_paths_and_numbers_the_rows(wargame, tmp_path, columns):
    deep = tmp_path / ("a-rather-long-folder-name-for-saved-games-" * 3) / "saves"
    first = _start(wargame, "--saves-dir", str(deep))
    second = _start(wargame, "--saves-dir", str(deep), "--name-a", "Newer", seed="2")
    assert len(str(deep / "x.json")) > 150  # longer than the narrow terminals
    shown = wargame("saves", "--saves-dir", str(deep), env={"COLUMNS": columns})
    assert shown.returncode == 0, shown.stderr
    assert _paths(shown.stdout) == [second, first]  # newest first, each whole on one line
    numbered = re.findall(r"^(\d+)\. tug-of-wargods, (.*?) vs", shown.stdout, re.M)
    assert numbered == [("1", "Newer"), ("2", "Greentoe")]
    assert "…" not in shown.stdout


def test_a_path_printed_at_80_columns_is_accepted_by_resume(wargame):
    _start(wargame)
    shown = wargame("saves", env={"COLUMNS": "80"})
    (path,) = _paths(shown.stdout)
    assert all(len(line) <= 80 for line in shown.stdout.splitlines() if line.strip() != path)
    resumed = wargame("resume", path, "--no-input", "--turns", "1", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["state"]["turn"] >= 2


def test_resume_takes_a_row_number_from_saves(wargame):
    older = _start(wargame)
    newer = _start(wargame, "--name-a", "Newer", seed="2")
    shown = wargame("saves")
    assert _paths(shown.stdout) == [newer, older]
    resumed = wargame("resume", "2", "--no-input", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["save"] == older
    rows = json.loads(wargame("saves", "--json").stdout)
    assert [r["number"] for r in rows] == [1, 2]
    by_path = {r["path"]: r for r in rows}
    assert by_path[older]["status"] == "finished" and by_path[newer]["status"] == "in_progress"


def test_resume_last_continues_the_newest_game_in_progress(wargame):
    in_progress = _start(wargame)
    finished = wargame("play", TUG, "--no-input", "--seed", "3", "--json")  # newer, but over
    assert json.loads(finished.stdout)["status"] == "finished"
    resumed = wargame("resume", "--last", "--no-input", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["save"] == in_progress
    again = wargame("resume", "--last", "--no-input")
    assert again.returncode == 2
    assert again.stderr.count("\n") == 1 and "no game in progress" in again.stderr


@pytest.mark.parametrize(
    "args, words",
    [
        (("99",), "no save numbered 99"),
        ((), "which save?"),
        (("1", "--last"), "not both"),
    ],
)
def test_resume_refuses_what_it_cannot_find_in_one_line(wargame, args, words):
    _start(wargame)
    result = wargame("resume", *args, "--no-input")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_the_end_of_a_game_prints_its_save_path_whole_at_80_columns(wargame, tmp_path):
    """The path `play` names at its end is the one `resume` needs: never broken across lines."""
    deep = tmp_path / ("a-rather-long-folder-name-for-saved-games-" * 2) / "saves"
    done = wargame(
        "play", TUG, "--no-input", "--seed", "1", "--turns", "1", "--saves-dir", str(deep),
        env={"COLUMNS": "80"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [saved] = [line for line in done.stdout.splitlines() if line.startswith("Saved to ")]
    path = saved.removeprefix("Saved to ")
    assert len(path) > 80 and path.endswith(".json")
    hint = [line for line in done.stdout.splitlines() if line.startswith("Resume it with: ")]
    assert hint and hint[0].endswith(f" resume {path}")  # `wargame`, as it was run
    assert wargame("resume", path, "--no-input", "--turns", "1").returncode == 0
