"""Every command as the installed program runs it: a process of its own (most CLI tests call
the same entry function in the test's process, see `tests/conftest.py`)."""

from __future__ import annotations

import json

from tests.cli_helpers import one_error_line


def test_every_command_works_as_a_process_of_its_own(wargame_process, tmp_path):
    run = wargame_process
    assert "Usage" in run("--help").stdout
    ids = [r["id"] for r in json.loads(run("rulesets", "--json").stdout)]
    assert "tug-of-wargods" in ids and "squad-alpha" in ids
    assert "a19" in run("rules", "tug-of-wargods").stdout
    save = tmp_path / "g.json"
    args = ("--no-input", "--seed", "3", "--turns", "1", "--json", "--save", str(save))
    done = run("play", "tug-of-wargods", *args)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "in_progress"
    done = run("resume", str(save), "--no-input", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["status"] == "finished", done.stderr
    done = run("replay", str(save), "--verify", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["verified"] is True, done.stderr
    fork = tmp_path / "f.json"
    done = run("fork", str(save), "--turn", "1", "--save", str(fork))
    assert done.returncode == 0 and fork.exists(), done.stderr
    listed = json.loads(run("saves", "--json", "--saves-dir", str(tmp_path)).stdout)
    assert {"g.json", "f.json"} <= {r["path"].rsplit("/", 1)[-1] for r in listed}
    done = run("simulate", "tug-of-wargods", "--games", "8", "--seed", "1", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["games"] == 8, done.stderr
    assert "unknown ruleset" in one_error_line(run("play", "chess", "--no-input"))
