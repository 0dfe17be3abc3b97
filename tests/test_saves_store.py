"""Save files: atomic writes and the listing."""

from __future__ import annotations

import json
import os

import pytest

from wargame_cli.errors import SaveError
from wargame_cli.saves import store


def test_atomic_write_keeps_the_old_save_when_the_rename_fails(tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    store.write_atomic(path, {"turn": 1})

    def broken(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(SaveError, match="disk full.*intact"):
        store.write_atomic(path, {"turn": 2})
    assert json.loads(path.read_text()) == {"turn": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary left behind


def test_atomic_write_creates_the_folder(tmp_path):
    path = tmp_path / "deep" / "er" / "g.json"
    store.write_atomic(path, {"ok": True})
    assert json.loads(path.read_text()) == {"ok": True}


def test_listing_marks_unreadable_files(tmp_path):
    (tmp_path / "junk.json").write_text("{")
    rows = store.listing(tmp_path)
    assert rows[0]["status"] == "unreadable" and "corrupt" in rows[0]["error"]


def test_older_version_is_refused_not_misread(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"format": "wargame-save", "version": 0}))
    with pytest.raises(SaveError, match="version 0"):
        store.load(path)


def test_file_names_say_ruleset_sides_and_time():
    name = store.file_name("squad-alpha", {"A": "Red Team!", "B": "[b]x[/b]"})
    assert name.startswith("squad-alpha_red-team-vs-b-x-b_") and name.endswith(".json")


def test_an_unwritable_folder_is_one_clear_error_and_the_old_save_stays(tmp_path, monkeypatch):
    """Root ignores folder permissions, so the refusal the kernel would give is simulated."""
    import tempfile

    path = tmp_path / "game.json"
    store.write_atomic(path, {"turn": 1})

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    with pytest.raises(SaveError, match="cannot write .*game.json: Permission denied"):
        store.write_atomic(path, {"turn": 2})
    assert json.loads(path.read_text()) == {"turn": 1}


def test_a_lock_file_left_by_a_killed_run_does_not_block(tmp_path):
    path = tmp_path / "game.json"
    store.write_atomic(path, {"turn": 1})
    store.lock_path(path).write_text("")  # no process holds it
    with store.locked(path, new=False):
        pass
    assert not store.lock_path(path).exists()
