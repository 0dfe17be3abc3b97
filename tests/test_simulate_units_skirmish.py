"""`--unit` and `--sweep UNIT.STAT` in the two skirmish games whose unit types are ratings of
named models: Squad Alpha's trainings (b2, their action dice b12) and the Battle of Ixu's
experience ratings (c1, their dice c2, and health, gap 2). The flag and a team file's row
make the same team; per-unit figures keep changed models apart from stock ones."""

from __future__ import annotations

import json

from tests.cli_helpers import one_error_line
from tests.test_simulate_runs import run_json

SQUAD, IXU = "squad-alpha", "battle-of-ixu"
FEW = ("--games", "4", "--seed", "3", "--workers", "1")


def test_squad_alpha_changes_a_trainings_dice(wargame):
    out = run_json(wargame, SQUAD, *FEW, "--unit", "elite.dice=4")
    assert out["unit_changes"] == {"elite": {"dice": 4}}
    assert out["run"]["settings"]["unit changes"] == {"elite": {"dice": 4}}
    for side in "AB":
        for row in out["teams"][side]["team"]["miniatures"]:
            assert row.get("dice") == (4 if row["training"] == "elite" else None)
    assert "elite (dice=4)" in out["units"] and "elite" not in out["units"]
    assert {"regular", "conscript"} <= set(out["units"])


def test_squad_alpha_squad_file_states_the_same_change(wargame, tmp_path):
    squad = tmp_path / "squad.toml"
    rows = [("Rook", "elite", 4), ("Hawk", "elite", 2), ("Dusty", "regular", 1)]
    rows += [(f"Kid {i}", "conscript", 0) for i in range(1, 4)]
    squad.write_text(
        "miniatures = ["
        + ", ".join(
            f'{{name = "{n}", training = "{t}", rating = {r}'
            + (", dice = 4}" if t == "elite" else "}")
            for n, t, r in rows
        )
        + "]"
    )
    inline = ", ".join(f"{n} {t} {r}" for n, t, r in rows)
    by_file = run_json(wargame, SQUAD, *FEW, "--team-a", str(squad))
    by_flag = run_json(wargame, SQUAD, *FEW, "--team-a", inline, "--unit", "elite.dice=4")
    assert by_file["teams"]["A"]["team"] == by_flag["teams"]["A"]["team"]
    assert "elite (dice=4)" in by_file["units"]
    squad.write_text('miniatures = [{name = "Rook", training = "elite", rating = 4, dice = 0}]')
    line = one_error_line(wargame("simulate", SQUAD, *FEW, "--team-a", str(squad)))
    assert "elite.dice: 0 is outside its range, 1 to 10" in line


def test_squad_alpha_sweeps_a_trainings_dice(wargame):
    out = run_json(wargame, SQUAD, *FEW, "--sweep", "regular.dice=2..4")
    assert out["key"] == "regular.dice"
    assert [row["label"] for row in out["settings"]] == [f"regular.dice={n}" for n in (2, 3, 4)]


def test_ixu_changes_a_ratings_dice_and_health(wargame):
    out = run_json(wargame, IXU, *FEW, "--unit", "elite.dice=6", "--unit", "regular.health=12")
    assert out["unit_changes"] == {"elite": {"dice": 6}, "regular": {"health": 12}}
    models = out["teams"]["A"]["team"]["models"]  # Axes: Tutok 4, Kuote 5, Ijoi 3
    assert [(m.get("dice"), m.get("health")) for m in models] == [
        (None, 12),
        (6, None),
        (None, None),
    ]
    assert set(out["units"]) == {
        "experience 3",
        "experience 4 (health=12)",
        "experience 5 (dice=6)",
    }
    # the stock values are no change: nothing is relabelled
    stock = run_json(wargame, IXU, *FEW, "--unit", "elite.dice=5", "--unit", "regular.health=10")
    assert set(stock["units"]) == {"experience 3", "experience 4", "experience 5"}


def test_ixu_team_file_states_the_same_change_and_it_is_played(wargame, tmp_path):
    band = tmp_path / "band.toml"
    band.write_text(
        'models = [{name = "Kuote", experience = "elite", dice = 6}, '
        '{name = "Tutok", experience = 4, health = 12}]'
    )
    by_file = run_json(wargame, IXU, *FEW, "--team-a", str(band))
    by_flag = run_json(
        wargame, IXU, *FEW, "--team-a", "Kuote:elite, Tutok:regular",
        "--unit", "elite.dice=6", "--unit", "regular.health=12",
    )  # fmt: skip
    assert by_file["teams"]["A"]["team"] == by_flag["teams"]["A"]["team"]
    done = wargame("play", IXU, "--no-input", "--json", "--seed", "2", "--team-a", str(band))
    assert done.returncode == 0, done.stderr
    kuote = json.loads(done.stdout)["state"]["sides"]["A"]["models"][0]
    assert kuote["name"] == "Kuote" and len(kuote["rolled"]) == 6  # six dice a turn
    band.write_text('models = [{name = "Kuote", experience = "elite", dice = 11}]')
    line = one_error_line(wargame("simulate", IXU, *FEW, "--team-a", str(band)))
    assert "elite.dice: 11 is outside its range, 3 to 10" in line


def test_ixu_sweeps_health(wargame):
    out = run_json(wargame, IXU, *FEW, "--sweep", "regular.health=8,12")
    rows = out["settings"]
    assert [row["label"] for row in rows] == ["regular.health=8", "regular.health=12"]
    assert "experience 4 (health=8)" in rows[0]["units"]
