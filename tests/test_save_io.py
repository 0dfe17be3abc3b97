"""Writing saves and reports (issue 20 items 6-9): reports written as saves are, one escaper
for every path printed, saving at the same cost each turn and whole at every moment, no
leftover lock or temporary files, no two new games on one file name."""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import one_error_line
from wargame_cli.ruleset import resolve_options
from wargame_cli.saves import games, seal, store


def shown(path: object) -> str:
    from wargame_cli.text import shown  # looked up when called: each test stands alone

    return shown(path)


LONG = 6000  # turns of the long game killed at random moments: longer than the kills' 0.3 s
ONES = ",".join(["1"] * 6 * LONG)  # Tug of WarGods: every pull a tie, the game never ends


def _save(wargame, path: Path, *extra: str) -> Path:
    done = wargame(
        "play", "tug-of-wargods", "--no-input", "--seed", "3", "--save", str(path), *extra
    )
    assert done.returncode == 0, done.stderr
    return path


def _whole(path: Path) -> dict:
    """The save loads, with its hash chain holding: what a kill must always leave."""
    data = store.load(path)
    store.check_seal(path, data)
    return data


# -- 6. reports written like saves ----------------------------------------------------------


@pytest.mark.parametrize("option", ["--report", "--html"])
def test_a_report_never_replaces_a_fifo_even_through_a_symlink(wargame, tmp_path, option):
    save = _save(wargame, tmp_path / "g.json")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link.md"
    link.symlink_to(fifo)
    for target in (fifo, link):
        line = one_error_line(wargame("replay", str(save), option, str(target), "--force"))
        assert "not a regular file" in line and shown(target) in line
        assert stat.S_ISFIFO(os.stat(target).st_mode)  # through the link too
    assert link.is_symlink()


def test_a_report_never_replaces_a_device_node(wargame, tmp_path):
    """/dev/null's own kind: a character device (made here, as root; skipped otherwise)."""
    save = _save(wargame, tmp_path / "g.json")
    node = tmp_path / "null"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")
    for option in ("--report", "--html"):
        line = one_error_line(wargame("replay", str(save), option, str(node), "--force"))
        assert "not a regular file" in line
        assert stat.S_ISCHR(os.stat(node).st_mode)


def test_a_forced_report_goes_through_a_symlink_and_keeps_the_mode(wargame, tmp_path):
    save = _save(wargame, tmp_path / "g.json")
    real = tmp_path / "real.html"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "r.html"
    link.symlink_to(real)
    done = wargame("replay", str(save), "--html", str(link), "--force")
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and real.read_text().startswith("<!DOCTYPE html>")
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "r.html", "real.html"]


def test_a_new_report_is_made_as_the_umask_says(wargame, tmp_path):
    save = _save(wargame, tmp_path / "g.json")
    old = os.umask(0o027)
    try:
        done = wargame("replay", str(save), "--report", str(tmp_path / "r.md"))
    finally:
        os.umask(old)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE((tmp_path / "r.md").stat().st_mode) == 0o640


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KB tmpfs (root only; skipped where mounting is not permitted)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs: {done.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def _fill(disk: Path, leave: int) -> None:
    """Fill the disk to `leave` bytes or fewer free."""
    with (disk / "filler").open("wb") as fh:
        while os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize > leave:
            try:
                fh.write(b"x" * 4096)
                fh.flush()
            except OSError:
                break


def test_a_full_disk_leaves_no_partial_report_and_the_old_one_intact(wargame, tmp_path, small_disk):
    save = _save(wargame, tmp_path / "g.json", "--turns", "40", "--rolls", ONES)
    kept = small_disk / "kept.html"
    kept.write_text("old report")
    _fill(small_disk, leave=4096)
    for args in (("--html", str(small_disk / "new.html")), ("--html", str(kept), "--force")):
        line = one_error_line(wargame("replay", str(save), *args))
        assert "cannot write it" in line and "No space left" in line
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "kept.html"]
    assert kept.read_text() == "old report"


# -- 7. one escaper for every path printed ---------------------------------------------------

HOSTILE = "\x1b]0;pwned\a\x1b[2Jx.json"


def test_the_escaper_gives_a_shell_word_naming_exactly_the_file():
    for name in (
        "plain/a-b_1.json",
        "my game.json",
        "it's.json",
        "~/x",
        HOSTILE,
        "a\u200bb\x9b.json",
    ):
        word = shown(name)
        assert "\x1b" not in word and "\a" not in word and "\u200b" not in word
        back = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True)
        assert back.stdout.decode("utf-8") == name
    assert shown(HOSTILE) == "$'\\e]0;pwned\\a\\e[2Jx.json'"
    assert shown("saves/g.json") == "saves/g.json"


def _no_terminal_codes(done) -> None:
    for stream in (done.stdout, done.stderr):
        assert "\x1b" not in stream and "\a" not in stream, stream


def test_a_hostile_file_name_is_printed_escaped_by_every_command(wargame, tmp_path):
    folder = tmp_path / "saves"
    folder.mkdir()
    hostile = folder / HOSTILE
    word = shown(hostile)
    done = wargame("play", "tug-of-wargods", "--no-input", "--seed", "1", "--turns", "1",
                   "--save", str(hostile))  # fmt: skip
    assert done.returncode == 0, done.stderr
    _no_terminal_codes(done)
    assert f"Saved to {word}" in done.stdout and f" resume {word}\n" in done.stdout
    done = wargame("resume", "--last", "--no-input", "--turns", "1", "--saves-dir", str(folder))
    assert done.returncode == 0, done.stderr
    _no_terminal_codes(done)
    assert f"Saved to {word}" in done.stdout
    done = wargame("saves", "--saves-dir", str(folder))
    _no_terminal_codes(done)
    assert word in done.stdout
    done = wargame("replay", str(hostile), "--no-input")
    _no_terminal_codes(done)
    assert shown(HOSTILE) in done.stdout
    report = tmp_path / ("r" + HOSTILE + ".md")
    done = wargame("replay", str(hostile), "--report", str(report))
    _no_terminal_codes(done)
    assert f"Battle report written to {shown(report)}" in done.stderr
    done = wargame("replay", str(hostile), "--report", str(report))  # exists: refused
    _no_terminal_codes(done)
    assert shown(report) in one_error_line(done)
    done = wargame("fork", str(hostile), "--turn", "1", "--saves-dir", str(folder))
    assert done.returncode == 0, done.stderr
    _no_terminal_codes(done)
    assert "Forked " + shown(HOSTILE) in done.stdout
    hostile.write_text("{")  # broken: the error line names it escaped
    done = wargame("replay", str(hostile))
    _no_terminal_codes(done)
    assert f"save {word} is corrupt" in one_error_line(done)
    done = wargame("saves", "--saves-dir", str(folder))
    _no_terminal_codes(done)
    assert f"unreadable: save {word} is corrupt" in done.stdout


# -- 8. saving costs the same each turn ------------------------------------------------------


def _long_game(turns: int, path: Path, read: bool = False) -> tuple[Any, list[dict]]:
    """A `turns`-turn game saved after every turn; with `read`, as `wargame play` saves it
    between turns, and the file as it stood after each write."""
    from wargame_cli import registry
    from wargame_cli.engine.dice import RngDice, ScriptDice, parse_rolls
    from wargame_cli.engine.session import start
    from wargame_cli.ruleset import Setup

    ruleset = registry.get("tug-of-wargods")
    options = resolve_options(ruleset.options, {})
    teams = {s: ruleset.default_team(s, options)[0] for s in "AB"}
    setup = Setup(names={"A": "Ann", "B": "Bob"}, teams=teams)
    dice = ScriptDice(parse_rolls(ONES), RngDice(1))
    session = start(ruleset, setup, options, 1, dice)
    states = []
    for _ in range(turns):
        session.runner.run(stop_after_turn=session.runner.turn + 1)
        if read:
            games.save(session, path, settle=False)
            states.append(json.loads(path.read_text()))
        else:
            games.save(session, path)
    games.save(session, path)
    return session, states


def test_each_turn_hashes_only_its_new_entries(tmp_path, monkeypatch):
    """Before: every turn re-sealed the whole log (the hashing grew with the square of the
    game). Now a 400-turn game hashes each entry once, and one seal a turn."""
    calls = []
    real = seal.digest
    monkeypatch.setattr(seal, "digest", lambda value: calls.append(1) or real(value))
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # each save here ends its game
    path = tmp_path / "long.json"
    session, _ = _long_game(400, path)
    entries = len(session.runner.log)
    assert entries >= 1600
    assert len(calls) <= entries + 2 * 401 + 2
    data = _whole(path)
    assert data == {**games.to_save(session), "updated": data["updated"]}


def test_the_file_is_one_whole_save_after_every_write(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    monkeypatch.setattr("wargame_cli.saves.appender.REWRITE_LAG", 0.0)  # every turn on disk
    session, states = _long_game(150, path, read=True)
    for turn, data in enumerate(states, start=1):
        assert data["turns"] == turn
        assert seal.first_break(data) is None
    assert path.read_bytes().endswith(b"\n") and path.stat().st_size % 4096 == 0
    games.verify(path)


def test_a_take_back_rewrites_the_save_from_the_changed_log(wargame, tmp_path):
    path = tmp_path / "t.json"
    done = wargame(
        "play", "squad-alpha", "--no-input", "--seed", "3", "--choices", "B2;undo;B1",
        "--turns", "2", "--save", str(path), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = _whole(path)
    assert data["takebacks"]
    verified = wargame("replay", str(path), "--verify", "--json")
    assert verified.returncode == 0 and json.loads(verified.stdout)["verified"] is True


def _play_long(path: Path) -> int:
    """`wargame play` of a long game saving to `path`, in an interpreter of its own (not a
    fork of this one: a fork of a process with threads, as a test worker has, can inherit a
    lock held mid-use and stall): its pid."""
    args = ["play", "tug-of-wargods", "--no-input", "--json", "--rolls", ONES]
    args += ["--turns", str(LONG), "--save", str(path), "--force"]
    code = "import sys; from wargame_cli.cli.app import main; sys.argv[1:] = " + repr(args)
    child = subprocess.Popen(
        [sys.executable, "-c", code + "; main()"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _children.append(child)
    return child.pid


_children: list[subprocess.Popen[bytes]] = []  # reaped by `_reap`


def _reap(pid: int) -> None:
    for child in [c for c in _children if c.pid == pid]:
        child.wait()
        _children.remove(child)


def _started(path: Path, pid: int) -> None:
    """Wait for the first save of the game `pid` plays (a loaded machine starts slowly)."""
    deadline = time.monotonic() + 60
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    assert path.exists(), f"game {pid} never saved"


def test_a_kill_at_any_moment_leaves_the_last_save_whole(wargame, tmp_path):
    """Ten kills at random moments of a long game's saving, after its first save (each
    in-place write, rewrite and rename is somewhere in there)."""
    rng = random.Random(20)
    assert wargame("play", "tug-of-wargods", "--no-input", "--no-save").returncode == 0  # imports
    seen = set()
    for trial in range(10):
        path = tmp_path / f"k{trial}.json"
        pid = _play_long(path)
        _started(path, pid)
        time.sleep(rng.uniform(0.0, 0.3))
        os.kill(pid, signal.SIGKILL)
        _reap(pid)
        data = _whole(path)
        seen.add(data["turns"])
        assert data["status"] == "in_progress" and len(data["log"]) >= data["turns"]
    assert len(seen) >= 5  # killed at many different moments of the game
    games.verify(path)


# -- 9. no leftovers, no false "in use" ------------------------------------------------------


def test_a_lock_left_by_a_killed_game_goes_at_the_next_save_in_its_folder(wargame, tmp_path):
    folder = tmp_path / "saves"
    path = folder / "killed.json"
    pid = _play_long(path)
    _started(path, pid)
    os.kill(pid, signal.SIGKILL)
    _reap(pid)
    assert store.lock_path(path).exists()  # kill -9: nothing ran to remove it
    done = wargame(
        "play", "tug-of-wargods", "--no-input", "--turns", "1", "--saves-dir", str(folder)
    )
    assert done.returncode == 0, done.stderr
    assert not list(folder.glob(".*.lock")) and not list(folder.glob(".*.tmp"))
    _whole(path)


def test_a_lock_a_running_game_holds_is_never_swept(tmp_path):
    folder = tmp_path / "saves"
    held = folder / "held.json"
    with store.locked(held):
        store.remove_leftovers(folder)
        assert store.lock_path(held).exists()
    assert not store.lock_path(held).exists()


def test_two_games_started_in_the_same_millisecond_get_different_files(
    wargame, tmp_path, monkeypatch
):
    folder = tmp_path / "saves"
    same = "tug-of-wargods_a-vs-b_20261201-120000-000.json"
    monkeypatch.setattr(store, "file_name", lambda *args, **kwargs: same)
    with store.locked_new(folder, "tug-of-wargods", {"A": "a", "B": "b"}) as first:
        assert first.name == same  # a game holds it, its first turn not yet saved
        done = wargame(
            "play", "tug-of-wargods", "--no-input", "--turns", "1", "--saves-dir", str(folder)
        )
        assert done.returncode == 0, done.stderr
    second = folder / same.replace(".json", "-2.json")
    assert second.exists() and not first.exists()
    assert shown(second) in done.stdout


def test_parallel_games_into_one_folder_never_collide(tmp_path):
    folder = tmp_path / "saves"
    env = {**os.environ, "NO_COLOR": "1", "WARGAME_SAVES_DIR": str(folder)}
    command = [sys.executable, "-m", "wargame_cli", "play", "tug-of-wargods", "--no-input"]
    runs = [
        subprocess.Popen(
            [*command, "--turns", "1"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(4)
    ]
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
    assert len(list(folder.glob("*.json"))) == 4
    assert not list(folder.glob(".*"))
