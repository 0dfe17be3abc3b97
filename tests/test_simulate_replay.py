"""A `--csv` row's game plays again: its seed (63 bits, `stream_seed`) is one `wargame play
--seed` takes, and its `replay` column is the command, carrying the run's options, unit
changes, teams (each seat's, after `--swap`) and bot levels; played, it gives the row's
winner and length."""

from __future__ import annotations

import csv
import json
import shlex

import pytest

from wargame_cli.limits import MAX_INT

CASES = [
    (
        "tug-of-wargods", "--games", "4", "--swap", "--team-a", "2 Sebeki, To-Tanem",
        "--unit", "Sebeki.die=8", "--option", "start=3",
    ),
    (
        "battle-of-ixu", "--games", "2", "--bot-level", "A=random,B=default",
        "--unit", "regular.health=12",
    ),
    ("squad-alpha", "--games", "2", "--sweep", "regular.dice=2,4", "--option", "max_turns=6"),
]  # fmt: skip


@pytest.mark.parametrize("args", CASES, ids=[case[0] for case in CASES])
def test_a_csv_rows_game_plays_again(wargame, tmp_path, args):
    table = tmp_path / "games.csv"
    done = wargame("simulate", *args, "--seed", "3", "--workers", "1", "--csv", str(table))
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert rows
    for row in rows:
        assert 0 < int(row["seed"]) <= MAX_INT
        words = shlex.split(row["replay"])
        assert words[:3] == ["wargame", "play", args[0]] and str(row["seed"]) in words
        again = wargame(*words[1:], "--json", "--no-save")
        assert again.returncode == 0, again.stderr
        game = json.loads(again.stdout)
        assert (game["winner"] or "draw", game["turns"]) == (row["winner"], int(row["length"]))


def test_play_takes_a_63_bit_seed_and_old_ones(wargame):
    for seed in (str(2**63 - 1), "8503800198327042464", "12"):
        done = wargame(
            "play", "tug-of-wargods", "--no-input", "--no-save", "--seed", seed, "--json"
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["seed"] == int(seed)
