"""Results that travel, through the real command: every report says what it measured (program
and rules versions, every setting, both teams with every stat and power, the bots, the seed
and the games); one row per game (`--csv`), a saved run (`--out`) and two saved runs compared
(`--diff`, paired over shared seeds); and runs that nest (game i is the same game whatever
the count, the workers or the study)."""

from __future__ import annotations

import csv
import json

import pytest

from tests.cli_helpers import one_error_line
from tests.test_simulate_runs import run_json
from wargame_cli import __version__, registry

TUG, MOBS, SEEDS = "tug-of-wargods", "mobs-and-morale", "seeds-of-wars"


def _rows(path):
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_every_report_states_what_it_measured(wargame, tmp_path):
    args = (SEEDS, "--games", "3", "--seed", "4", "--workers", "1", "--option", "columns=4")
    out = run_json(wargame, *args)
    run = out["run"]
    assert run["program"] == f"wargame_cli {__version__}"
    ruleset = registry.get(SEEDS)
    assert run["ruleset"] == {"id": SEEDS, "name": ruleset.name, "version": str(ruleset.version)}
    assert run["seed"] == 4 and run["games"] == 3
    assert run["settings"]["columns"] == 4 and run["settings"] == out["options"]
    assert run["bots"] == {"A": "default", "B": "default"}
    knights = run["teams"]["A"]["roster"][1]
    assert knights.startswith("Knights: Mv 2") and "De 13" in knights and "Mounted" in knights
    shown = wargame("simulate", *args, "--bot-level", "A=random")
    assert shown.returncode == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    for needle in (
        f"wargame_cli {__version__}",
        f"rules version {run['ruleset']['version']}",
        "seed 4, 3 games",
        "Bots: random level (A), default level (B)",
        "columns = 4",
        "Knights: Mv 2",
    ):
        assert needle in text, needle


def test_teams_that_differ_only_in_powers_print_different_rosters(wargame, tmp_path):
    team = run_json(wargame, MOBS, "--games", "1", "--seed", "1", "--workers", "1")["teams"]["A"]
    plain, reach = tmp_path / "plain.json", tmp_path / "reach.json"
    plain.write_text(json.dumps(team["team"]), encoding="utf-8")
    team["team"]["characters"][0]["reach"] = 3
    reach.write_text(json.dumps(team["team"]), encoding="utf-8")
    rosters = []
    for path in (plain, reach):
        done = wargame("simulate", MOBS, "--team-a", str(path), "--games", "1", "--workers", "1")
        assert done.returncode == 0, done.stderr
        rosters.append(" ".join(done.stdout.split()))
        assert "Brakka: profile Warrior, presence 2, fierce 4" in rosters[-1]
    assert "reach 3" in rosters[1] and "reach 3" not in rosters[0]


def test_csv_has_a_row_per_game(wargame, tmp_path):
    table = tmp_path / "games.csv"
    args = (SEEDS, "--games", "5", "--seed", "9", "--workers", "2", "--csv", str(table))
    out = run_json(wargame, *args)
    rows = _rows(table)
    assert [r["game"] for r in rows] == ["0", "1", "2", "3", "4"]
    assert sum(r["winner"] == "A" for r in rows) == out["wins"]["A"]
    assert sum(int(r["length"]) for r in rows) == pytest.approx(5 * out["turns"]["mean"])
    assert {"Knights.A.kills", "Knights.A.deaths", "Guard.B.fielded"} <= set(rows[0])
    assert len({r["seed"] for r in rows}) == 5  # each game on its own stream
    again = wargame("simulate", *args)
    assert again.returncode == 2 and "--force" in again.stderr  # never over a file unasked


@pytest.mark.parametrize("workers", ["1", "2"])
def test_runs_nest_game_by_game(wargame, tmp_path, workers):
    small, large = tmp_path / "400.csv", tmp_path / "401.csv"
    base = (TUG, "--seed", "3", "--workers", workers)
    run_json(wargame, *base, "--games", "400", "--csv", str(small))
    run_json(wargame, *base, "--games", "401", "--csv", str(large))
    first, then = _rows(small), _rows(large)
    assert len(then) == 401 and then[:400] == first


def test_a_cluster_run_nests_too(wargame, tmp_path):
    pytest.importorskip("distributed")
    here, there = tmp_path / "here.csv", tmp_path / "there.csv"
    base = (TUG, "--seed", "7")
    run_json(wargame, *base, "--games", "40", "--workers", "1", "--csv", str(here))
    run_json(
        wargame, *base, "--games", "41", "--cluster", "local", "--workers", "2", "--csv", str(there)
    )
    assert _rows(there)[:40] == _rows(here)


def test_a_compare_baseline_is_the_plain_run(wargame):
    base = (TUG, "--games", "300", "--seed", "12", "--workers", "2")
    plain = run_json(wargame, *base)
    compared = run_json(wargame, *base, "--compare", "start=4", "--compare", "start=3")
    first = compared["settings"][0]
    for key in ("wins", "turns", "lengths", "endings", "ci95"):
        assert first[key] == plain[key], key


def test_a_saved_run_and_the_difference_of_two(wargame, tmp_path):
    a, b, c = (tmp_path / f"{n}.json" for n in "abc")
    base = (TUG, "--games", "300", "--workers", "1")
    run_json(wargame, *base, "--seed", "5", "--out", str(a))
    run_json(wargame, *base, "--seed", "5", "--option", "start=3", "--out", str(b))
    run_json(wargame, *base, "--seed", "6", "--option", "start=3", "--out", str(c))
    saved = json.loads(a.read_text())
    assert saved["format"] == "wargame-simulate-run" and saved["version"] == 1
    assert len(saved["games"]) == 300 and saved["result"]["run"]["seed"] == 5
    paired = wargame("simulate", "--diff", str(a), str(b), "--json")
    assert paired.returncode == 0, paired.stderr
    found = json.loads(paired.stdout)
    assert found["paired"] is True and found["shared_games"] == 300
    assert "start: 4 -> 3" in found["changes"]
    d = found["length_difference"]
    assert d["hi"] < 0  # nearer the line, shorter games: told by the same dice
    unpaired = json.loads(wargame("simulate", "--diff", str(a), str(c), "--json").stdout)
    assert unpaired["paired"] is False
    width = unpaired["length_difference"]["hi"] - unpaired["length_difference"]["lo"]
    assert width > d["hi"] - d["lo"]  # the same seeds tell a difference more sharply
    shown = wargame("simulate", "--diff", str(a), str(c))
    assert shown.returncode == 0 and "Unpaired: the runs share no seeds" in shown.stdout
    same = json.loads(wargame("simulate", "--diff", str(a), str(a), "--json").stdout)
    assert same["win_rate_a_difference"] == {"estimate": 0.0, "lo": 0.0, "hi": 0.0}


def test_diff_refuses_what_is_not_a_saved_run(wargame, tmp_path):
    a = tmp_path / "a.json"
    run_json(wargame, TUG, "--games", "4", "--seed", "1", "--out", str(a))
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({**json.loads(a.read_text()), "version": 99}))
    other = tmp_path / "other.json"
    other.write_text("{}")
    cases = [
        (("--diff", str(a), str(newer)), "format version 99"),
        (("--diff", str(a), str(other)), "not a run saved by"),
        (("--diff", str(a), str(tmp_path / "gone.json")), "no such file"),
        ((), "which ruleset?"),
        ((TUG, "--out", str(tmp_path / "x.json")), "how many games"),
    ]
    for args, needle in cases:
        assert needle in one_error_line(wargame("simulate", *args)), args


def test_a_runs_other_settings_are_stated_with_its_options():
    """Changed units' stats (`--unit`) are settings too: listed with the options."""
    from types import SimpleNamespace

    from wargame_cli.cli.simulate import run_about, setup_for
    from wargame_cli.ruleset import resolve_options
    from wargame_cli.simulate.about import settings_lines

    ruleset = registry.get(TUG)
    options = resolve_options(ruleset.options, None)
    setup = setup_for(ruleset, options, None, None)
    args = SimpleNamespace(
        games=10, bots={"A": "default", "B": "default"}, changes={"Sebeki": {"die": 8}}
    )
    run = run_about(ruleset, options, setup, args, 1)
    assert "unit changes.Sebeki.die = 8" in settings_lines(run["settings"])
    assert "start = 4" in settings_lines(run["settings"])


@pytest.mark.parametrize(("ruleset_id", "games"), [(TUG, 300), (SEEDS, 4)])
def test_game_i_is_its_own_streams_game(ruleset_id, games):
    """A chunk reseeds one source of faces for each game (and a ruleset's own game loop is
    handed it once): each game is the one a fresh `face_source(stream_seed(seed, i))` plays."""
    from wargame_cli.cli.simulate import setup_for
    from wargame_cli.engine.fast import face_source, play_fast, stream_seed
    from wargame_cli.ruleset import resolve_options
    from wargame_cli.simulate import batch

    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    setup = setup_for(ruleset, options, None, None)
    job = batch.Job(ruleset_id, setup, options, 11, games, record=True)
    rows = batch.run(job, ruleset, 1).rows
    for i, row in enumerate(rows):
        below = face_source(stream_seed(11, i))
        fast = ruleset.fast_games(setup, options, below)
        if fast is not None:
            outcome, turns = next(iter(fast))
        else:
            outcome, turns = play_fast(ruleset.new_game(setup, options), below)
        assert (row["seed"], row["winner"], row["length"]) == (
            stream_seed(11, i),
            outcome.winner or "draw",
            turns,
        ), i
