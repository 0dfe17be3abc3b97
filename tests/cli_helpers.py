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
