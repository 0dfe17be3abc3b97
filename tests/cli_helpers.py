"""Checks shared by the CLI tests of every ruleset."""

from __future__ import annotations

import json
from typing import Any


def one_error_line(done: Any) -> str:
    """Bad input: exit code 2 and exactly one line on stderr, never a traceback."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def play_json(wargame: Any, ruleset_id: str, *args: str) -> dict[str, Any]:
    """`wargame play ID --json ...`, which must succeed; its one JSON object."""
    done = wargame("play", ruleset_id, "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def stopped_and_resumed(
    wargame: Any, ruleset_id: str, folder: Any, seed: str = "8", turns: str = "2"
) -> dict[str, Any]:
    """Play a game straight through, and again stopped after `turns` turns and resumed: both
    logs must be the same and verify. Returns the stopped game's JSON for further checks."""
    straight, split = folder / "straight.json", folder / "split.json"
    play_json(wargame, ruleset_id, "--no-input", "--seed", seed, "--save", str(straight))
    first = play_json(
        wargame, ruleset_id, "--no-input", "--seed", seed, "--turns", turns, "--save", str(split)
    )
    assert first["status"] == "in_progress" and first["turns"] == int(turns)
    done = wargame("resume", str(split), "--no-input", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(straight.read_text())["log"] == json.loads(split.read_text())["log"]
    verified = wargame("replay", str(split), "--verify", "--json")
    assert verified.returncode == 0 and json.loads(verified.stdout)["verified"] is True
    return first
