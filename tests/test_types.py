"""mypy over `wargame_cli` and `rulesets` reports no error: the types are checked with the
tests, under the config in pyproject.toml (`[tool.mypy]`). Its cache (`.mypy_cache`, git
ignores it) makes a second run take a fraction of the first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_errors() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy"],  # files, flags and cache dir: pyproject.toml
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if "No module named mypy" in done.stderr:
        raise AssertionError("mypy is not installed: pip install -e '.[test]'")
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 0 and not errors, (
        f"mypy found {len(errors)} error(s) (exit {done.returncode}):\n"
        + "\n".join(errors or [done.stdout, done.stderr])
    )
    assert "Success: no issues found" in done.stdout, done.stdout
