"""Saves that cannot be lost or forged: locks, --force, symlinks, filesystem errors, untrusted
files, numbers, names from saves, tamper evidence, leftovers (issue 14; issue 12 items 1-3)."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli_helpers import one_error_line
from wargame_cli.saves import seal, store

RULESETS = ("tug-of-wargods", "squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale")


def _save(wargame, path: Path, ruleset: str = "tug-of-wargods", *extra: str) -> Path:
    done = wargame("play", ruleset, "--no-input", "--seed", "1", "--save", str(path), *extra)
    assert done.returncode == 0, done.stderr
    return path


def _edit(path: Path, change, reseal: bool = False) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(seal.sealed(data) if reseal else data))


# -- 1. one game at a time ------------------------------------------------------------------


def test_a_locked_save_is_refused_at_once_naming_it(wargame, tmp_path):
    path = _save(wargame, tmp_path / "s.json", "squad-alpha", "--turns", "1")
    before = path.read_bytes()
    with store.locked(path):
        started = time.monotonic()
        line = one_error_line(wargame("resume", str(path), "--no-input", "--turns", "1"))
        assert time.monotonic() - started < 60  # it did not wait for the lock
    assert "s.json" in line and "in use" in line
    assert path.read_bytes() == before
    assert not list(tmp_path.glob(".*.lock"))  # released and removed


def test_two_resumes_at_once_never_lose_a_turn(tmp_path):
    """Both start together; each one that exits 0 played its turn, and the file keeps every
    turn played (the other one, if they overlapped, was refused with exit 2)."""
    path = tmp_path / "s.json"
    env = {**os.environ, "NO_COLOR": "1"}
    cmd = [sys.executable, "-m", "wargame_cli"]
    subprocess.run(
        [*cmd, "play", "squad-alpha", "--no-input", "--seed", "2", "--turns", "1"]
        + ["--save", str(path)],
        check=True,
        capture_output=True,
        env=env,
    )
    runs = [
        subprocess.Popen(
            [*cmd, "resume", str(path), "--no-input", "--turns", "2"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    codes = [(run.wait(timeout=300), run.stderr.read()) for run in runs]
    assert all(code in (0, 2) for code, _ in codes), codes
    assert all("in use" in err for code, err in codes if code == 2), codes
    played = sum(code == 0 for code, _ in codes)
    assert played >= 1
    data = json.loads(path.read_text())
    assert data["turns"] == 1 + 2 * played or data["status"] == "finished"


# -- 2, 3. --save and --force, symlinks, devices, file modes ---------------------------------


def test_save_refuses_an_existing_file_unless_forced(wargame, tmp_path):
    path = _save(wargame, tmp_path / "g.json", "squad-alpha", "--turns", "1")
    before = path.read_bytes()
    line = one_error_line(
        wargame("play", "tug-of-wargods", "--no-input", "--save", str(path), "--json")
    )
    assert "exists" in line and "--force" in line
    assert path.read_bytes() == before
    forced = wargame("play", "tug-of-wargods", "--no-input", "--save", str(path), "--force")
    assert forced.returncode == 0, forced.stderr
    assert json.loads(path.read_text())["ruleset"]["id"] == "tug-of-wargods"


def test_a_symlinked_save_is_written_through_and_keeps_its_mode(wargame, tmp_path):
    real = tmp_path / "real.json"
    link = tmp_path / "link.json"
    _save(wargame, real, "squad-alpha", "--turns", "1")
    real.chmod(0o640)
    link.symlink_to(real)
    done = wargame("resume", str(link), "--no-input", "--turns", "1")
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text())["turns"] == 2
    assert real.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize("target", ["/dev/null", "folder"])
def test_save_refuses_devices_and_folders(wargame, tmp_path, target):
    if target == "folder":
        (tmp_path / "folder").mkdir()
        target = str(tmp_path / "folder")
    line = one_error_line(
        wargame("play", "tug-of-wargods", "--no-input", "--save", target, "--force")
    )
    assert "cannot write" in line
    assert Path("/dev/null").is_char_device()


# -- 4. filesystem errors and broken pipes --------------------------------------------------


def test_a_full_disk_gives_one_line_and_keeps_the_old_save(tmp_path):
    """RLIMIT_FSIZE makes every write past a few bytes fail as a full disk would."""
    path = tmp_path / "s.json"
    env = {**os.environ, "NO_COLOR": "1"}
    cmd = [sys.executable, "-m", "wargame_cli"]
    subprocess.run(
        [*cmd, "play", "squad-alpha", "--no-input", "--seed", "2", "--turns", "1"]
        + ["--save", str(path)],
        check=True,
        capture_output=True,
        env=env,
    )
    before = path.read_bytes()

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))

    done = subprocess.run(
        [*cmd, "resume", str(path), "--no-input", "--turns", "1"],
        capture_output=True,
        text=True,
        env=env,
        preexec_fn=small_files,
    )
    line = one_error_line(done)
    assert "cannot write" in line and "intact" in line
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temporary, no lock


def test_unwritable_places_give_one_line(wargame, tmp_path):
    (tmp_path / "afile").write_text("x")
    for target in (str(tmp_path / "afile" / "g.json"), str(tmp_path / ("n" * 300 + ".json"))):
        line = one_error_line(wargame("play", "tug-of-wargods", "--no-input", "--save", target))
        assert line.startswith("wargame: ")
    save = _save(wargame, tmp_path / "g.json")
    line = one_error_line(wargame("replay", str(save), "--report", str(tmp_path / "afile" / "r")))
    assert "afile" in line


@pytest.mark.parametrize(
    "args",
    [
        ("rules", "tug-of-wargods"),
        ("simulate", "tug-of-wargods", "--matrix"),
        ("replay", "SAVE", "--no-input"),
    ],
)
def test_a_closed_pipe_ends_quietly_with_exit_0(wargame, tmp_path, args):
    save = _save(wargame, tmp_path / "g.json", "squad-alpha")
    args = tuple(str(save) if a == "SAVE" else a for a in args)
    run = subprocess.Popen(
        [sys.executable, "-m", "wargame_cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    )
    run.stdout.close()  # like `| head -0`: the reader is gone before anything is written
    _, err = run.communicate(timeout=300)
    assert run.returncode == 0 and err == b"", err


# -- 5. untrusted files -----------------------------------------------------------------------


def _hostile_files(folder: Path) -> dict[str, Path]:
    folder.mkdir(exist_ok=True)
    files = {
        "deep": folder / "deep.json",
        "fifo": folder / "fifo.json",
        "zero": folder / "zero.json",
        "huge": folder / "huge.json",
        "nan": folder / "nan.json",
    }
    files["deep"].write_text(
        '{"format":"wargame-save","version":2,"x":' + "[" * 2000 + "]" * 2000 + "}"
    )
    os.mkfifo(files["fifo"])
    files["zero"].symlink_to("/dev/zero")
    with files["huge"].open("w") as out:
        out.write('{"format":"wargame-save","version":2,"pad":"')
        out.write("x" * (store.MAX_SAVE_BYTES + 10))
        out.write('"}')
    files["nan"].write_text('{"format":"wargame-save","version":2,"seed":NaN}')
    return files


def test_hostile_files_are_refused_by_every_command(wargame, tmp_path):
    for name, path in _hostile_files(tmp_path / "bad").items():
        for command in (
            ("replay", str(path), "--verify"),
            ("replay", str(path), "--no-input"),
            ("replay", str(path), "--report"),
            ("resume", str(path), "--no-input"),
        ):
            line = one_error_line(wargame(*command))
            assert path.name in line, (name, line)


def test_the_listing_keeps_good_saves_beside_bad_files(wargame, tmp_path):
    folder = tmp_path / "saves"
    _hostile_files(folder)
    good = _save(wargame, folder / "good.json")
    for name, change in (
        ("ruleset.json", lambda d: d.update(ruleset="x")),
        ("setup.json", lambda d: d.update(setup=[1])),
    ):
        (folder / name).write_text(good.read_text())
        _edit(folder / name, change)
    (folder / ".good.json.abc123.tmp").write_text("{")
    listed = wargame("saves", "--json", "--saves-dir", str(folder))
    assert listed.returncode == 0, listed.stderr
    rows = {Path(r["path"]).name: r for r in json.loads(listed.stdout)}
    assert rows["good.json"]["status"] == "finished"
    assert set(rows) == {"good.json", "ruleset.json", "setup.json"} | {
        f"{n}.json" for n in ("deep", "fifo", "zero", "huge", "nan")
    }
    for name, row in rows.items():
        if name != "good.json":
            assert row["status"] == "unreadable" and row["error"], row
    shown = wargame("saves", "--saves-dir", str(folder))
    assert shown.returncode == 0 and "unreadable" in shown.stdout
    assert "not a regular file" in shown.stdout and "nests deeper" in shown.stdout


def test_team_files_are_read_like_saves(wargame, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"name":"x","models":' + "[" * 2000 + "]" * 2000 + "}")
    toml = tmp_path / "deep.toml"
    toml.write_text("a = " + "[" * 2000 + "]" * 2000)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    big = tmp_path / "big.json"
    big.write_text(
        '{"name":"x","models":[{"name":"Ann","experience":3,"at":[1' + "0" * 400 + ",1]}]}"
    )
    for team in (deep, toml, fifo, zero, big):
        for ruleset in RULESETS:
            line = one_error_line(
                wargame("play", ruleset, "--no-input", "--team-a", str(team), "--no-save")
            )
            assert "team file" in line


# -- 6. numbers -------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", str(10**400)])
def test_float_options_refuse_non_finite_and_huge_numbers(wargame, value):
    line = one_error_line(
        wargame("play", "tug-of-wargods", "--no-input", "--option", f"start={value}", "--no-save")
    )
    assert "option start" in line and len(line) < 200


def test_simulate_refuses_nan_before_any_work(wargame):
    line = one_error_line(wargame("simulate", "tug-of-wargods", "--option", "start=nan", "--exact"))
    assert "finite" in line


def test_a_save_holding_nan_or_a_huge_option_is_refused(wargame, tmp_path):
    path = _save(wargame, tmp_path / "g.json")
    text = path.read_text().replace('"start":4.0', '"start":NaN')
    assert "NaN" in text
    path.write_text(text)
    assert "NaN" in one_error_line(wargame("replay", str(path), "--verify"))
    path.write_text(text.replace('"start":NaN', f'"start":{10**400}'))
    assert "too large" in one_error_line(wargame("replay", str(path), "--verify"))


def test_huge_team_counts_are_refused_before_building(wargame):
    for ruleset, team in (
        ("tug-of-wargods", "9" * 5000 + " Asar, Sebeki"),
        ("mobs-and-morale", "Ugrak=Chieftain x5000000"),
    ):
        line = one_error_line(wargame("play", ruleset, "--no-input", "--team-a", team))
        assert "too large" in line and len(line) < 200
    for ruleset in RULESETS:
        line = one_error_line(
            wargame("play", ruleset, "--no-input", "--team-a", "9" * 5000 + " x", "--no-save")
        )
        assert "too large" in line


def test_workers_never_outnumber_games_or_cores():
    from wargame_cli.simulate.batch import worker_count

    assert worker_count(1000, 4) <= min(4, os.cpu_count() or 1)
    assert worker_count(1000, 10**6) <= (os.cpu_count() or 1)
    assert worker_count(1, 10**6) == 1


# -- 7. names from saves ------------------------------------------------------------------------

HOSTILE_NAMES = [
    "[/]",
    "[link=https://evil.example]click[/link]",
    "Bad\x1b]52;c;aGk=\x07",
    "Clear\x1b[2J",
    "Zero\ufeffWidth",
    "Tag\U000e0041",
    "C1\u009b2J",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_names_in_a_save_are_refused_by_every_command(wargame, tmp_path, name):
    path = _save(wargame, tmp_path / "g.json", "mobs-and-morale", "--turns", "1")
    _edit(path, lambda d: d["setup"]["names"].update(A=name), reseal=True)
    for command in (
        ("replay", str(path), "--verify"),
        ("replay", str(path), "--no-input"),
        ("replay", str(path), "--report"),
        ("resume", str(path), "--no-input"),
        ("fork", str(path), "--turn", "1"),
    ):
        done = wargame(*command)
        line = one_error_line(done)
        assert "name" in line
        assert not any(c in done.stderr + done.stdout for c in "\x1b\x07\u009b\ufeff")
    listed = wargame("saves", "--json", "--saves-dir", str(tmp_path))
    assert listed.returncode == 0
    assert not any(c in listed.stdout for c in "\x1b\x07\u009b\ufeff\U000e0041")


def test_saves_json_writes_invisible_characters_as_escapes(wargame, tmp_path):
    path = _save(wargame, tmp_path / "g\u009bx.json")
    listed = wargame("saves", "--json", "--saves-dir", str(tmp_path))
    assert "\u009b" not in listed.stdout and "\\u009b" in listed.stdout
    assert Path(json.loads(listed.stdout)[0]["path"]) == path


# -- 8. verify vouches for what the report shows ------------------------------------------------


def _finished(wargame, tmp_path, ruleset: str = "tug-of-wargods") -> Path:
    return _save(wargame, tmp_path / "g.json", ruleset)


def _first(data, kind):
    return next(e for e in data["log"] if e["t"] == kind)


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda d: _first(d, "event").update(kind="death"), "kind="),
        (lambda d: _first(d, "roll").update(side="B"), "side="),
        (lambda d: _first(d, "event")["data"].update(difference=9), "data="),
        (lambda d: d["ruleset"].update(version="999"), "does not know"),
        (lambda d: d.update(seed=d["seed"] + 1), "generator with seed"),
    ],
)
def test_verify_rederives_every_field_even_when_resealed(wargame, tmp_path, change, needle):
    path = _finished(wargame, tmp_path)
    _edit(path, change, reseal=True)
    line = one_error_line(wargame("replay", str(path), "--verify"))
    assert needle in line
    one_error_line(wargame("replay", str(path), "--report"))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["result"].update(reason="Side B surrendered in disgrace"),
        lambda d: _first(d, "roll").update(reason="a forged reason"),
        lambda d: _first(d, "event").update(text="a forged line"),
    ],
)
def test_a_resealed_rewording_is_a_note_and_reports_keep_the_rules_words(wargame, tmp_path, change):
    """Wording is presentation: a newer build may word a line otherwise, so verify notes it
    and goes on, while the report shows what the rules say, never the file's words."""
    path = _finished(wargame, tmp_path)
    _edit(path, change, reseal=True)
    done = wargame("replay", str(path), "--verify")
    assert done.returncode == 0, done.stderr
    assert "1 line is worded differently by this build" in done.stdout
    report = wargame("replay", str(path), "--report")
    assert report.returncode == 0, report.stderr
    assert "forged" not in report.stdout and "disgrace" not in report.stdout


@pytest.mark.parametrize(
    "change",
    [
        lambda d: _first(d, "choice").update(by="human"),
        lambda d: _first(d, "roll").update(source="manual"),
        lambda d: d.update(created="2020-01-01T00:00:00.000+00:00"),
        lambda d: d["setup"]["players"].update(A="human"),
    ],
)
def test_an_edit_the_rules_accept_still_breaks_the_hash_chain(wargame, tmp_path, change):
    path = _finished(wargame, tmp_path, "squad-alpha")
    _edit(path, change)
    for command in (("replay", str(path), "--verify"), ("replay", str(path), "--no-input")):
        assert "the record was edited" in one_error_line(wargame(*command))


def test_report_and_summary_come_from_the_replayed_log(wargame, tmp_path):
    path = _finished(wargame, tmp_path)
    reason = json.loads(path.read_text())["result"]["reason"]
    report = wargame("replay", str(path), "--report")
    assert report.returncode == 0 and reason in report.stdout
    _edit(path, lambda d: d["result"].update(reason="Side B surrendered in disgrace"))
    line = one_error_line(wargame("replay", str(path), "--report"))
    assert "the record was edited" in line  # the reason is wording: the seal catches the edit


def test_version_1_saves_still_replay(wargame, tmp_path):
    path = _finished(wargame, tmp_path, "seeds-of-wars")
    data = json.loads(path.read_text())
    data["version"] = 1
    data.pop("seal")
    for entry in data["log"]:
        entry.pop("h")
    path.write_text(json.dumps(data, indent=1))
    done = wargame("replay", str(path), "--verify")
    assert done.returncode == 0, done.stderr


def test_saves_are_compact_strict_json(wargame, tmp_path):
    path = _finished(wargame, tmp_path, "squad-alpha")
    text = path.read_text()
    assert text.count("\n") == 1 and '": ' not in text[:200]
    data = json.loads(text, parse_constant=lambda c: pytest.fail(c))
    assert data["version"] == store.VERSION and len(data["seal"]) == 20
    assert all("h" in e for e in data["log"])


# -- 9. leftovers and Ctrl-C while starting ------------------------------------------------------


def test_leftover_temporaries_go_at_the_next_save_and_are_skipped_by_the_listing(wargame, tmp_path):
    """As the README says: removed the next time a game is saved in that folder, however
    young; only one a running writer holds (locked) stays."""
    import fcntl

    folder = tmp_path / "saves"
    folder.mkdir()
    left = folder / ".old.json.x1y2.tmp"
    held = folder / ".other.json.z9.tmp"
    left.write_text("{")
    held.write_text("{")
    with held.open() as writing:
        fcntl.flock(writing, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a write under way
        _save(wargame, folder / "new.json")
    assert not left.exists() and held.exists()
    listed = json.loads(wargame("saves", "--json", "--saves-dir", str(folder)).stdout)
    assert [Path(r["path"]).name for r in listed] == ["new.json"]


def test_ctrl_c_while_starting_exits_130_without_a_traceback():
    """The interrupt arrives while the package is still being imported."""
    code = (
        "import sys, os, signal; sys.argv = ['wargame']; import wargame_cli.cli; "
        "os.kill(os.getpid(), signal.SIGINT); import time; time.sleep(5)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert done.returncode == 130 and done.stderr == "wargame: interrupted\n"


# -- 10. table files named in a save -------------------------------------------------------------


def test_a_save_cannot_open_table_files_outside_its_folder(wargame, tmp_path):
    home_like = tmp_path / "home"
    home_like.mkdir()
    (home_like / ".bashrc").write_text("export X=1\n")
    folder = tmp_path / "saves"
    path = _save(wargame, folder / "g.json", "squad-alpha", "--turns", "1")
    for where in (str(home_like / ".bashrc"), "../home/.bashrc"):
        _edit(path, lambda d, w=where: d["options"].update(table=w), reseal=True)
        line = one_error_line(wargame("replay", str(path), "--verify"))
        assert "not in the save's own folder" in line and "line" not in line


# -- issue 12 items 2 and 3 ------------------------------------------------------------------


def test_a_bad_bot_side_is_refused_even_with_no_input(wargame):
    for extra in ((), ("--no-input",)):
        line = one_error_line(wargame("play", "tug-of-wargods", "--bot", "C", *extra))
        assert "--bot 'C'" in line


def test_with_no_save_the_turn_menu_says_nothing_will_be_saved(tmp_path):
    """Issue 12 item 3: under --no-save "Save and quit" would lie; the menu says Quit."""
    import pexpect

    from tests.pty_helpers import spawn

    saves = tmp_path / "saves"
    child = spawn(
        ["play", "tug-of-wargods", "--seed", "2", "--bot", "B", "--no-save"]
        + ["--team-a", "Sebeki,Asar,Asar", "--name-a", "Mira"],
        str(tmp_path),
        str(saves),
        timeout=60,
    )
    child.expect("Turn 1 is over")
    child.expect("nothing will be saved")
    child.send("\x1b[B\r")  # the second item: Quit
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Save and quit" not in (child.before or "")
    assert not saves.exists() or not list(saves.glob("*.json"))
