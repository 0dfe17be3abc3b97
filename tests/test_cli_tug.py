"""The `wargame` command through its real entry point, with Tug of WarGods."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_helpers import one_error_line
from tests.cli_helpers import play_json as play_json_of

TUG = "tug-of-wargods"


def play_json(wargame, *args):
    return play_json_of(wargame, TUG, *args)


def test_rulesets_json_lists_ids_and_names(wargame):
    done = wargame("rulesets", "--json")
    rows = json.loads(done.stdout)
    assert {"id": TUG, "name": "Tug of WarGods v0.75"}.items() <= rows[0].items()
    assert all({"id", "name", "seed_file", "summary"} <= set(r) for r in rows)


def test_rules_shows_points_options_and_syntax(wargame):
    done = wargame("rules", TUG)
    assert done.returncode == 0
    for needle in ("a1", "a19", "Heru", "rounding", "tie_penalty_stacks", "Sebeki,Asar,Asar"):
        assert needle in done.stdout
    data = json.loads(wargame("rules", TUG, "--json").stdout)
    assert [p["id"] for p in data["rules"]] == [f"a{i}" for i in range(1, 20)]


def test_json_play_has_the_contract_shape(wargame):
    result = play_json(wargame, "--no-input", "--seed", "7")
    assert set(result) >= {"ruleset", "status", "winner", "turns", "seed", "save", "state"}
    assert result["status"] == "finished" and result["winner"] in ("A", "B")
    assert result["seed"] == 7
    models = result["state"]["sides"]["A"]["models"]
    assert [m["unit"] for m in models] == ["Sebeki", "Asar", "Asar"]
    assert {"unit", "die", "distance", "crossings"} <= set(models[0])
    a = result["state"]["sides"]["A"]["models"][0]["distance"]
    b = result["state"]["sides"]["B"]["models"][0]["distance"]
    assert a + b == 8.0  # a14


def test_rolls_replay_the_play_example(wargame, tmp_path):
    result = play_json(
        wargame,
        "--no-input",
        "--rolls",
        "4,3,6,4,4,3",
        "--turns",
        "1",
        "--team-a",
        "Sebeki,Asar,Asar",
        "--team-b",
        "Heru,Asar,Basti",
    )
    assert result["status"] == "in_progress"
    assert result["state"]["sides"]["B"]["models"][0]["distance"] == 3.0
    save = json.loads(Path(result["save"]).read_text())
    rolls = [e for e in save["log"] if e["t"] == "roll"]
    assert [r["faces"] for r in rolls] == [[4, 3, 6], [4, 4, 3]]
    assert {r["source"] for r in rolls} == {"script"}
    assert all(r["rules"] for r in save["log"])  # every entry says which rules it applied


def test_rolls_run_out_then_the_generator_takes_over(wargame):
    result = play_json(wargame, "--no-input", "--rolls", "4,3,6,4", "--turns", "1")
    save = json.loads(Path(result["save"]).read_text())
    second = [e for e in save["log"] if e["t"] == "roll"][1]
    assert second["faces"][0] == 4
    assert second["source"] == "mixed" and second["sources"] == ["script", "rng", "rng"]


def test_impossible_face_names_both_and_saves_nothing_invalid(wargame, tmp_path):
    save = tmp_path / "bad.json"
    done = wargame("play", TUG, "--no-input", "--rolls", "4,3,7", "--save", str(save))
    line = one_error_line(done)
    assert "7" in line and "d6" in line
    if save.exists():
        assert all(7 not in e.get("faces", []) for e in json.loads(save.read_text())["log"])


@pytest.mark.parametrize(
    "team,needle",
    [
        ("Sebeki,Asar", "exactly 3"),
        ("Heru,Typhon,Asar", "Heru may not"),
        ("Sebeki,Sebeki,Sebeki", "at most 2 d10"),
        ("Dragon,Asar,Asar", "unknown unit"),
    ],
)
def test_bad_teams_exit_2_with_one_line(wargame, team, needle):
    line = one_error_line(wargame("play", TUG, "--no-input", "--team-a", team))
    assert needle in line


def test_bad_flags_and_options_exit_2(wargame):
    assert "No such option" in one_error_line(wargame("play", TUG, "--frobnicate"))
    assert "unknown option" in one_error_line(wargame("play", TUG, "--no-input", "--option", "x=1"))
    assert "rounding" in one_error_line(
        wargame("play", TUG, "--no-input", "--option", "rounding=up")
    )
    assert "unknown ruleset" in one_error_line(wargame("play", "chess", "--no-input"))
    assert "side is A or B" in one_error_line(wargame("play", TUG, "--bot", "C"))


@pytest.mark.parametrize("name", ["[bold red]Evil[/]", "Bad\x1b[2JName"])
def test_names_with_markup_or_escapes_are_refused(wargame, name):
    line = one_error_line(wargame("play", TUG, "--no-input", "--name-a", name))
    assert "\x1b" not in line


def test_no_terminal_names_the_flags(wargame):
    line = one_error_line(wargame("play", TUG))
    assert "terminal" in line and "--no-input" in line
    assert "terminal" in one_error_line(wargame("play"))


def test_team_files_toml_and_json(wargame, tmp_path):
    toml = tmp_path / "greens.toml"
    toml.write_text('name = "Greens"\nmodels = ["Wendigo", "Frost Maiden", "Frost Maiden"]\n')
    js = tmp_path / "blues.json"
    js.write_text(json.dumps({"name": "Blues", "models": ["Amazon", "Satyr", "Satyr"]}))
    result = play_json(wargame, "--no-input", "--team-a", str(toml), "--team-b", str(js))
    assert result["state"]["sides"]["A"]["name"] == "Greens"
    assert [m["die"] for m in result["state"]["sides"]["B"]["models"]] == [6, 4, 4]
    bad = tmp_path / "bad.toml"
    bad.write_text("models = [")
    assert "cannot be read" in one_error_line(
        wargame("play", TUG, "--no-input", "--team-a", str(bad))
    )


def _finished_save(wargame, tmp_path):
    path = tmp_path / "game.json"
    play_json(wargame, "--no-input", "--seed", "3", "--save", str(path))
    return path


def test_replay_verify_accepts_an_honest_save(wargame, tmp_path):
    path = _finished_save(wargame, tmp_path)
    done = wargame("replay", str(path), "--verify")
    assert done.returncode == 0 and "Verified" in done.stdout


@pytest.mark.parametrize(
    "tamper,needle",
    [
        (lambda d: d["log"][1]["faces"].__setitem__(0, 11), "does not fit a d10"),
        (
            lambda d: d["log"][1]["faces"].__setitem__(0, 1 + d["log"][1]["faces"][0] % 10),
            "log entry",
        ),
        (
            lambda d: d.__setitem__(
                "result", {"winner": "B" if d["result"]["winner"] == "A" else "A", "reason": "x"}
            ),
            "winner",
        ),
        (lambda d: d["log"].__delitem__(slice(-4, None)), "save says finished"),
    ],
)
def test_replay_verify_names_the_first_divergent_entry(wargame, tmp_path, tamper, needle):
    path = _finished_save(wargame, tmp_path)
    data = json.loads(path.read_text())
    tamper(data)
    path.write_text(json.dumps(data))
    line = one_error_line(wargame("replay", str(path), "--verify"))
    assert needle in line


@pytest.mark.parametrize(
    "content,needle",
    [
        ("{", "corrupt or truncated"),
        ('{"format": "wargame-save", "version": 99}', "newer"),
        ('{"hello": 1}', "not a wargame save"),
        ('{"format": "wargame-save", "version": 1, "log": []}', "invalid"),
    ],
)
def test_bad_saves_exit_2(wargame, tmp_path, content, needle):
    path = tmp_path / "s.json"
    path.write_text(content)
    for command in (
        ("replay", str(path), "--verify"),
        ("resume", str(path), "--no-input"),
        ("replay", str(path), "--no-input"),
    ):
        line = one_error_line(wargame(*command))
        assert needle in line
    assert path.read_text() == content  # nothing the player had is touched


def test_truncated_real_save(wargame, tmp_path):
    path = _finished_save(wargame, tmp_path)
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    assert "truncated" in one_error_line(wargame("replay", str(path), "--verify"))


def test_missing_save(wargame, tmp_path):
    assert "not found" in one_error_line(wargame("resume", str(tmp_path / "nope.json")))


def test_resume_finished_game_is_refused(wargame, tmp_path):
    path = _finished_save(wargame, tmp_path)
    assert "finished" in one_error_line(wargame("resume", str(path), "--no-input"))


def test_replay_no_input_prints_every_turn_like_live_play(wargame, tmp_path):
    path = tmp_path / "g.json"
    live = wargame("play", TUG, "--no-input", "--seed", "3", "--save", str(path))
    shown = wargame("replay", str(path), "--no-input")
    assert shown.returncode == 0
    turns = json.loads(path.read_text())["turns"]
    for n in range(1, turns + 1):
        assert f"Turn {n}" in shown.stdout
    # a header (the sides, their teams, the result), then the game as live play showed it
    head, rule, body = shown.stdout.partition("─")
    assert "Greentoe" in head and "Sebeki (d10)" in head and "won in turn" in head
    assert (rule + body).strip() in live.stdout


def test_saves_lists_newest_first(wargame, tmp_path):
    play_json(wargame, "--no-input", "--seed", "1", "--turns", "1")
    play_json(wargame, "--no-input", "--seed", "2", "--name-a", "Newer")
    rows = json.loads(wargame("saves", "--json").stdout)
    assert len(rows) == 2
    assert rows[0]["sides"]["A"] == "Newer"
    assert rows[0]["status"] == "finished" and rows[1]["status"] == "in_progress"
    assert {"ruleset", "sides", "turns", "status", "winner", "updated"} <= set(rows[0])
    assert "tug-of-wargods" in wargame("saves").stdout


def test_saves_dir_flag_and_file_names(wargame, tmp_path):
    folder = tmp_path / "elsewhere"
    done = wargame("play", TUG, "--no-input", "--saves-dir", str(folder), "--json")
    save = json.loads(done.stdout)["save"]
    assert save.startswith(str(folder)) and "tug-of-wargods_greentoe-vs-clearsky_" in save


def test_no_save(wargame, tmp_path):
    result = play_json(wargame, "--no-input", "--no-save")
    assert result["save"] is None
    assert not (tmp_path / "saves").exists()


def test_json_stdout_is_only_the_object(wargame):
    done = wargame("play", TUG, "--no-input", "--json")
    json.loads(done.stdout)
    assert done.stdout.count("\n") == 1


def test_resume_with_rolls_continues(wargame, tmp_path):
    path = tmp_path / "g.json"
    play_json(wargame, "--no-input", "--turns", "1", "--save", str(path), "--rolls", "4,3,6,4,4,3")
    done = wargame("resume", str(path), "--no-input", "--rolls", "10,6,6,1,1,1", "--json")
    result = json.loads(done.stdout)
    assert result["status"] == "finished" and result["winner"] == "A"
    assert wargame("replay", str(path), "--verify").returncode == 0


def test_python_dash_m_entry_point(wargame):
    assert wargame("--help").returncode == 0


def test_rules_explains_single_points(wargame):
    done = wargame("rules", TUG, "a13", "a16")
    assert done.returncode == 0
    assert "half the difference" in done.stdout and "-1 on its next roll" in done.stdout
    assert "a1 " not in done.stdout
    assert "no rule point" in one_error_line(wargame("rules", TUG, "z9"))


def test_replay_with_rules_cites_them(wargame, tmp_path):
    path = _finished_save(wargame, tmp_path)
    shown = wargame("replay", str(path), "--no-input", "--with-rules")
    assert "why: a12, a13, a14" in shown.stdout


def test_replay_report_bare_goes_to_stdout_and_file_form_writes(wargame, tmp_path):
    path = _finished_save(wargame, tmp_path)
    bare = wargame("replay", str(path), "--report")
    assert bare.returncode == 0, bare.stderr
    assert bare.stdout.startswith("# Battle report")
    cited = wargame("replay", str(path), "--report", "--with-rules")
    assert "a13" in cited.stdout
    out = tmp_path / "r.md"
    assert wargame("replay", str(path), "--report", str(out)).returncode == 0
    assert out.read_text() == bare.stdout


def test_names_from_a_save_obey_the_rules_for_typed_names(wargame, tmp_path):
    """A save from someone else cannot restyle or hijack the terminal: names with markup or
    control characters are refused as they are when typed (one clean line, exit 2), and the
    listing shows the file with those characters dropped."""
    path = _finished_save(wargame, tmp_path)
    text = path.read_text()  # rename the sides everywhere, log texts included
    for old, new in (("Greentoe", "[bold red]Evil[/]"), ("Clearsky", "Bad\x1b[2J\x07Name")):
        text = text.replace(old, json.dumps(new)[1:-1])
    path.write_text(text)
    env = {"NO_COLOR": "", "TERM": "xterm", "WARGAME_SAVES_DIR": str(tmp_path)}
    for command in (
        ("replay", str(path), "--no-input"),
        ("replay", str(path), "--verify"),
        ("replay", str(path), "--report"),
        ("resume", str(path), "--no-input"),
    ):
        line = one_error_line(wargame(*command, env=env))
        assert "name" in line and "\x1b" not in line and "\x07" not in line
    listed = wargame("saves", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "\x1b[2J" not in listed.stdout and "\x07" not in listed.stdout
    assert "BadName" in listed.stdout


def test_divergence_from_other_rules_version_says_so(wargame, tmp_path):
    path = _finished_save(wargame, tmp_path)
    data = json.loads(path.read_text())
    data["ruleset"]["version"] = "1"
    data["log"][1]["faces"][0] = 1 + data["log"][1]["faces"][0] % 10
    path.write_text(json.dumps(data))
    line = one_error_line(wargame("replay", str(path), "--verify"))
    assert "replayed under version 1 of these rules, which made the save" in line
    data["ruleset"]["version"] = "0"  # a version no build had
    path.write_text(json.dumps(data))
    line = one_error_line(wargame("replay", str(path), "--verify"))
    assert "made with version '0' of these rules, which this wargame" in line


def test_wargame_alone_shows_the_help(wargame):
    done = wargame()
    assert done.returncode == 0 and "play" in done.stdout and done.stderr == ""


def test_the_roll_table_tells_identical_models_apart(wargame):
    """Two Sebeki on one side are B1 Sebeki and B2 Sebeki in the roll's table, as in the
    line-up and the log (a lone unit keeps its plain name)."""
    done = wargame(
        "play", TUG, "--no-input", "--no-save", "--seed", "3", "--turns", "1",
        "--team-b", "2 Sebeki, To-Tanem",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = done.stdout.split("the roll", 1)[1]
    assert "B1 Sebeki" in table and "B2 Sebeki" in table
    assert "B3 To-Tanem" not in table and "To-Tanem" in table
