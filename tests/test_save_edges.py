"""Saves, verify and the terminal at their edges (issue 32 items 12-15): what is typed into
`wargame edit` and what an old save holds never reaches the terminal as escapes, every number
is bounded at its flag, a save that was ever unsealed stays labelled so, and bytes that are
not UTF-8, early Ctrl-C, a closed pipe and stray edit words each end in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import one_error_line
from wargame_cli.limits import MAX_INT
from wargame_cli.saves.model import VERSION


def _played(wargame, path: Path, ruleset: str = "mobs-and-morale", *extra: str) -> Path:
    done = wargame(
        "play", ruleset, "--no-input", "--seed", "1", "--turns", "1", "--save", str(path), *extra
    )
    assert done.returncode == 0, done.stderr
    return path


def _words(text: str) -> str:
    """Printed text as one line of words (wrapped lines joined)."""
    return " ".join(text.split())


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


# -- item 14: a save that was ever unsealed stays labelled so --------------------------------


def _laundered(path: Path) -> None:
    """As a forger would: the seal and every `h` stripped, `"version": 1`, and side A's
    decisions relabelled as a person's."""
    data = json.loads(path.read_text())
    data.pop("seal")
    data["version"] = 1
    data["setup"]["players"]["A"] = "human"
    for entry in data["log"]:
        entry.pop("h", None)
        if entry["t"] == "choice" and entry["side"] == "A":
            entry["by"] = "human"
    path.write_text(json.dumps(data))


def _unsealed_since(wargame, path: Path) -> dict:
    """`replay --verify` of a save written from an unsealed one: it verifies, but says the
    record is unsealed and why, in words and in JSON; the file keeps the mark under its
    seal (taking the mark out is an edited record)."""
    done = wargame("replay", str(path), "--verify")
    assert done.returncode == 0, done.stderr
    told = _words(done.stdout)
    assert "the record is unsealed" in told and "as written" not in told
    assert "written from a save with no hash chain" in told
    summary = json.loads(wargame("replay", str(path), "--verify", "--json").stdout)
    assert summary["provenance"]["sealed"] is False
    assert summary["provenance"]["unsealed_origin"] is True
    data = json.loads(path.read_text())
    assert data["unsealed"] is True and data["version"] == VERSION and "seal" in data
    unmarked = path.with_name("unmarked.json")
    unmarked.write_text(json.dumps({k: v for k, v in data.items() if k != "unsealed"}))
    assert "the record was edited" in one_error_line(wargame("replay", str(unmarked), "--verify"))
    listed = json.loads(wargame("saves", "--json", "--saves-dir", str(path.parent)).stdout)
    row = next(r for r in listed if Path(r["path"]).name == path.name)
    assert row["sealed"] is False
    return data


def test_resume_fork_and_edit_never_seal_a_laundered_save(wargame, tmp_path):
    for name in ("resume", "fork", "edit"):
        (tmp_path / name).mkdir()
        path = _played(wargame, tmp_path / name / "g.json")
        _laundered(path)
        done = wargame("replay", str(path), "--verify")
        assert done.returncode == 0 and "the record is unsealed" in _words(done.stdout)
    done = wargame("resume", str(tmp_path / "resume" / "g.json"), "--no-input", "--turns", "1")
    assert done.returncode == 0, done.stderr
    data = _unsealed_since(wargame, tmp_path / "resume" / "g.json")
    assert data["turns"] == 2
    fork = tmp_path / "fork" / "f.json"
    done = wargame("fork", str(tmp_path / "fork" / "g.json"), "--turn", "1", "--save", str(fork))
    assert done.returncode == 0, done.stderr
    _unsealed_since(wargame, fork)
    again = wargame("resume", str(fork), "--no-input", "--turns", "1")  # and on from there
    assert again.returncode == 0, again.stderr
    _unsealed_since(wargame, fork)
    edited = tmp_path / "edit" / "g.json"
    done = wargame("edit", str(edited), "damage", "Brakka", "1", "--why", "a house rule")
    assert done.returncode == 0, done.stderr
    _unsealed_since(wargame, edited)


def test_a_sealed_save_resumed_forked_or_edited_stays_sealed(wargame, tmp_path):
    path = _played(wargame, tmp_path / "g.json")
    fork = tmp_path / "f.json"
    assert wargame("fork", str(path), "--turn", "1", "--save", str(fork)).returncode == 0
    assert wargame("edit", str(path), "damage", "Brakka", "1", "--why", "x").returncode == 0
    assert wargame("resume", str(path), "--no-input", "--turns", "1").returncode == 0
    for written in (path, fork):
        assert "unsealed" not in json.loads(written.read_text())
        done = wargame("replay", str(written), "--verify")
        assert done.returncode == 0 and "the record is as written" in _words(done.stdout)


def test_host_resume_of_a_laundered_save_keeps_both_machines_saves_unsealed(tmp_path):
    from tests import remote_helpers

    path = tmp_path / "h.json"
    done = subprocess.run(
        [sys.executable, "-m", "wargame_cli", "play", "squad-alpha", "--no-input"]
        + ["--seed", "4", "--turns", "1", "--save", str(path)],
        capture_output=True,
        text=True,
        env=remote_helpers.env(tmp_path),
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    _laundered(path)
    host = remote_helpers.Host(tmp_path, "--resume", str(path), "--bot")
    remote_helpers.played_out(tmp_path, host)
    for written in (path, tmp_path / "j.json"):
        told = " ".join(remote_helpers.verify(tmp_path, written).split())
        assert "the record is unsealed" in told and "written from a save with no hash" in told
        assert json.loads(written.read_text())["unsealed"] is True


# -- item 12: no terminal escape typed into an edit, none printed from an old save ----------

ESCAPES = "\x1b]0;PWNED\x07\x1b[2J"  # sets a window title, clears the screen


@pytest.mark.parametrize(
    "words",
    [
        ["damage", "Brakka", "1", "--why", "a" + ESCAPES],
        ["damage", "Brakka", "1", "--why", "first line\nsecond line"],
        ["damage", "Brakka" + ESCAPES, "1", "--why", "x"],
        ["end", "A", "won" + ESCAPES, "--why", "x"],
        ["end", "A", "won\rthere", "--why", "x"],
        ["damage\x1b[2J", "Brakka", "1", "--why", "x"],
        ["damage", "Brakka", "1", "--by", "GM\x07", "--why", "x"],
        ["damage", "Brakka", "1", "--why", "hidden\u202etext"],
    ],
)
def test_an_edit_with_escapes_or_newlines_is_refused_and_the_save_kept(wargame, tmp_path, words):
    path = _played(wargame, tmp_path / "g.json")
    before = path.read_bytes()
    line = one_error_line(wargame("edit", str(path), *words))
    assert "control characters" in line and "\x1b" not in line and "\x07" not in line
    assert path.read_bytes() == before


def _old_save_with_escapes(wargame, path: Path) -> Path:
    """A save as the builds before this check wrote it: an edit's reason and an `end`'s
    reason holding escapes and a newline, under a good seal."""
    from wargame_cli.saves import seal

    _played(wargame, path)
    assert wargame("edit", str(path), "damage", "Brakka", "1", "--why", "x").returncode == 0
    assert wargame("edit", str(path), "end", "A", "declared", "--why", "x").returncode == 0
    data = json.loads(path.read_text())
    for entry in data["log"]:
        if entry["t"] == "edit":
            entry["why"] = "evil" + ESCAPES + "\nVerified: a line of its own"
            if entry["action"] == "end":
                entry["args"][1] = "won" + ESCAPES
                entry["text"] = entry["text"].replace("declared", entry["args"][1])
    data["result"]["reason"] = data["result"]["reason"].replace("declared", "won" + ESCAPES)
    path.write_text(json.dumps(seal.sealed({k: v for k, v in data.items() if k != "seal"})))
    return path


def test_an_old_save_holding_escapes_replays_and_verifies_without_them(wargame, tmp_path):
    path = _old_save_with_escapes(wargame, tmp_path / "old.json")
    for args in (["--verify"], ["--no-input"]):
        done = subprocess.run(
            [sys.executable, "-m", "wargame_cli", "replay", str(path), *args],
            capture_output=True,
            env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"},
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        out = done.stdout
        assert all(b >= 0x20 or b == 0x0A for b in out if b < 0x80), args  # no C0 control
        assert b"\xc2\x9b" not in out and b"\x1b" not in out and b"\x07" not in out
        assert b"\\e]0;PWNED\\a" in out  # shown, as an escape, never acted on
        assert not any(line.startswith(b"Verified: a line") for line in out.splitlines())


# -- item 15: bytes that are not UTF-8, early Ctrl-C, a closed pipe, stray edit words --------

NOT_UTF8 = "\udcff"  # the byte 0xff in an argument, as Python reads it from the command line


def test_arguments_that_are_not_utf8_are_one_line_and_exit_2(wargame, tmp_path):
    path = _played(wargame, tmp_path / "g.json")
    before = path.read_bytes()
    commands = [
        ["replay", f"caf{NOT_UTF8}.json"],
        ["resume", f"caf{NOT_UTF8}.json", "--no-input"],
        ["play", "tug-of-wargods", "--no-input", "--name-a", f"Ann{NOT_UTF8}"],
        ["play", "tug-of-wargods", "--no-input", "--save", str(tmp_path / f"s{NOT_UTF8}.json")],
        ["edit", str(path), "damage", "Brakka", "1", "--why", f"a{NOT_UTF8}"],
        ["edit", str(path), "damage", f"Bra{NOT_UTF8}", "1", "--why", "x"],
        ["replay", str(path), "--report", str(tmp_path / f"r{NOT_UTF8}.md")],
        ["fork", str(path), "--turn", "1", "--save", str(tmp_path / f"f{NOT_UTF8}.json")],
    ]
    for args in commands:
        line = one_error_line(wargame(*args))
        assert "not UTF-8" in line and "\\xff" in line, args
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["g.json"]


def test_bytes_that_are_not_utf8_from_a_real_command_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "wargame_cli", "replay", b"caf\xe9.json"],
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert (
        done.stderr
        == b"wargame: $'caf\\xe9.json': not UTF-8 text (file names and words must be UTF-8)\n"
    )


@pytest.mark.parametrize(
    "words, named",
    [
        (["damage", "Brakka", "1", "2"], "'2'"),
        (["damage", "Tutok", "1", "2"], "'2'"),
        (["add", "B", "Wolf", "30,20", "bogus=1"], "'bogus=1'"),
        (["add", "B", "Wolf", "30,20", "health=1_0"], "'1_0'"),
        (["damage", "Brakka", "1_000"], "'1_000'"),
        (["damage", "Brakka", "\u0662"], "'\u0662'"),  # ARABIC-INDIC DIGIT TWO
        (["move", "Ysolde", "3\u0660,3"], "'3\u0660,3'"),
        (["move", "Ysolde", "1_0,3"], "'1_0,3'"),
        (["remove", "Brakka", "fled", "now"], "'now'"),
        (["status", "Red Spears", "controller", "none", "extra"], "'extra'"),
        (["die", "1", "\u0662"], "'\u0662'"),
    ],
)
def test_stray_or_loosely_written_edit_words_are_refused_naming_the_word(
    wargame, tmp_path, words, named
):
    path = _played(wargame, tmp_path / "g.json")
    before = path.read_bytes()
    line = one_error_line(wargame("edit", str(path), *words, "--why", "x"))
    assert named in line, line
    assert path.read_bytes() == before


def test_the_words_an_edit_takes_still_work(wargame, tmp_path):
    path = _played(wargame, tmp_path / "g.json")
    for words in (
        ["add", "B", "Wolf", "30,20", "health=5", "move=7.5", "minion=no"],
        ["remove", "Brakka", "fled"],
        ["move", "Ysolde", "30,3.5"],
        ["end", "A", "the", "defenders", "yield"],
    ):
        done = wargame("edit", str(path), *words, "--why", "x")
        assert done.returncode == 0, (words, done.stderr)
    assert wargame("replay", str(path), "--verify").returncode == 0


def _closed_pipe_run(*args: str) -> subprocess.CompletedProcess[bytes]:
    """`wargame ARGS` writing to a pipe whose reader has already gone."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "wargame_cli", *args],
            stdout=write,
            stderr=subprocess.PIPE,
            timeout=120,
            env={**os.environ, "NO_COLOR": "1"},
        )
    finally:
        os.close(write)


def test_a_closed_pipe_ends_quietly_with_0(wargame, tmp_path):
    path = _played(wargame, tmp_path / "g.json")
    for args in (
        ["replay", str(path), "--no-input"],
        ["replay", str(path), "--report", "-"],
        ["replay", str(path), "--json"],
        ["--help"],
    ):
        done = _closed_pipe_run(*args)
        assert done.returncode == 0 and done.stderr == b"", (args, done.stderr)
    for _ in range(3):  # as a shell pipeline: the first command's status
        done = subprocess.run(
            [
                "bash",
                "-c",
                '"$0" -m wargame_cli replay "$1" --no-input | head -1; exit "${PIPESTATUS[0]}"',
                sys.executable,
                str(path),
            ],
            capture_output=True,
            timeout=120,
        )
        assert done.returncode == 0 and done.stderr == b"", done.stderr
        assert done.stdout.count(b"\n") == 1


def _entry_point() -> str:
    """The installed `wargame` beside this interpreter (its console script)."""
    found = Path(sys.executable).with_name("wargame")
    if not found.exists():
        pytest.skip("no installed wargame script beside this interpreter")
    return str(found)


def _before_the_program(err: bytes) -> bool:
    """A KeyboardInterrupt that came before the package's first line ran: in Python's own
    start-up (`site`), or in the console script's import of the package. No frame of the
    package is in it: nothing the program can catch, and the shell still reads it as
    interrupted. The package's own code never lets one out."""
    package = str(Path(__file__).resolve().parent.parent / "wargame_cli").encode()
    return err.rstrip().endswith(b"KeyboardInterrupt") and package not in err


@pytest.mark.parametrize(
    "args",
    [["replay", "{save}", "--no-input"], ["rules", "mobs-and-morale"], ["saves"], ["--help"]],
)
def test_ctrl_c_in_the_first_moments_of_a_command_is_one_line_and_130(tmp_path, args):
    import signal
    import time

    save = tmp_path / "g.json"
    subprocess.run(
        [sys.executable, "-m", "wargame_cli", "play", "squad-alpha", "--no-input", "--seed"]
        + ["1", "--save", str(save)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    command = [_entry_point(), *(a.format(save=save) for a in args)]
    met = 0
    delays = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0)
    for delay in delays:
        proc = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env={**os.environ, "NO_COLOR": "1"},
            # as from a terminal: a process started in the background inherits SIGINT ignored
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        try:
            time.sleep(delay)
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if _before_the_program(err):
            continue
        assert b"Traceback" not in err and b"KeyboardInterrupt" not in err, (delay, err)
        if proc.returncode == -signal.SIGINT:  # ended by the signal itself, as the shell
            assert err == b"", (delay, err)  # tells it (130): before Python ran, or after
        elif proc.returncode != 0:  # 0: it was done before the interrupt came
            assert proc.returncode == 130, (delay, proc.returncode, err)
            assert err == b"wargame: interrupted\n", (delay, err)
        met += 1
    assert met  # some interrupts met the program itself, not only Python's start-up


def test_ctrl_c_as_the_program_ends_is_one_line_and_130(tmp_path):
    """The interrupt comes once the command is done, while the interpreter shuts down."""
    code = (
        "import atexit, os, signal, sys\n"
        "sys.argv = ['wargame', 'rulesets']\n"
        "from wargame_cli.cli.app import main\n"
        "atexit.register(os.kill, os.getpid(), signal.SIGINT)\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 130 and done.stderr == "wargame: interrupted\n", done.stderr


def test_a_ctrl_c_a_library_turns_into_its_own_error_is_still_one_line_and_130():
    """typer coerces parameters with pydantic, whose schema builder reports a Ctrl-C that
    lands inside it as a SchemaError: still the person's Ctrl-C, so one line and 130, never
    a traceback. Here a command does the same to the interrupt it is sent."""
    script = """
import os, signal, sys, time
import wargame_cli
import typer
from wargame_cli.cli import boundary
signal.signal(signal.SIGINT, wargame_cli._interrupted_while_starting)  # as `wargame` starts
app = typer.Typer()
@app.command()
def work() -> None:
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    except KeyboardInterrupt:
        raise RuntimeError("Error building serializer: KeyboardInterrupt") from None
@app.command()
def fail() -> None:
    raise RuntimeError("a real fault")
sys.exit(boundary.run(app, sys.argv[1:]))
"""
    done = subprocess.run([sys.executable, "-c", script, "work"], capture_output=True, timeout=60)
    assert (done.returncode, done.stderr) == (130, b"wargame: interrupted\n")
    fault = subprocess.run([sys.executable, "-c", script, "fail"], capture_output=True, timeout=60)
    assert fault.returncode == 1 and b"RuntimeError: a real fault" in fault.stderr
