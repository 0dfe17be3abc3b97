"""Scripts supply one side's physical dice: `--dice A=manual,B=auto --rolls ...` in a
`--no-input` run takes side A's faces from `--rolls`, side B's from the seeded generator; a
roll past the last given face is refused on one line, the game so far kept."""

from __future__ import annotations

import json

from tests.cli_helpers import one_error_line


def _rolls(save) -> list[tuple[str, list[int], str]]:
    log = json.loads(save.read_text())["log"]
    return [(e["side"], e["faces"], e["source"]) for e in log if e["t"] == "roll"]


def test_no_input_takes_the_typed_sides_faces_from_rolls(wargame, tmp_path):
    save = tmp_path / "g.json"
    done = wargame("play", "tug-of-wargods", "--no-input", "--seed", "4", "--dice",
                   "A=manual,B=auto", "--rolls", "1,2,3,4,4,4", "--turns", "2",
                   "--save", str(save))  # fmt: skip
    assert done.returncode == 0, done.stderr
    rolls = _rolls(save)
    assert [(s, f) for s, f, _ in rolls if s == "A"] == [("A", [1, 2, 3]), ("A", [4, 4, 4])]
    assert all(source == "rng" for side, _, source in rolls if side == "B")
    assert json.loads(save.read_text())["setup"]["dice"] == "A=manual,B=auto"
    assert wargame("replay", str(save), "--verify").returncode == 0


def test_running_out_of_given_faces_is_one_line_and_keeps_the_game(wargame, tmp_path):
    save = tmp_path / "g.json"
    done = wargame("play", "tug-of-wargods", "--no-input", "--seed", "4", "--dice",
                   "B=manual", "--rolls", "4,4,4", "--save", str(save))  # fmt: skip
    line = one_error_line(done)
    assert "--rolls ran out" in line and "Clearsky's pull" in line, line
    data = json.loads(save.read_text())
    assert data["status"] == "in_progress"
    assert [f for s, f, _ in _rolls(save) if s == "B"] == [[4, 4, 4]]


def test_real_dice_without_rolls_still_need_a_person(wargame):
    line = one_error_line(wargame("play", "tug-of-wargods", "--no-input", "--no-save",
                                  "--dice", "A=manual"))  # fmt: skip
    assert "--no-input" in line and "--rolls" in line
