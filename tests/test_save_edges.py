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
    assert data["unsealed"] is True and data["version"] == 2 and "seal" in data
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
