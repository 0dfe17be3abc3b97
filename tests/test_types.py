"""mypy over `wargame_cli` (with `rulesets/` as `wargame_cli.rulesets`, as it installs) reports
no error: the types are checked with the tests, under the config in pyproject.toml
(`[tool.mypy]`), through `tests/mypy_tree.py`. Its cache makes a second run take a fraction of
the first."""

from __future__ import annotations

from tests import mypy_tree


def test_mypy_finds_no_errors() -> None:
    done = mypy_tree.run()  # files, flags and cache dir: pyproject.toml
    if "No module named mypy" in done.stderr:
        raise AssertionError("mypy is not installed: pip install -e '.[test]'")
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 0 and not errors, (
        f"mypy found {len(errors)} error(s) (exit {done.returncode}):\n"
        + "\n".join(errors or [done.stdout, done.stderr])
    )
    assert "Success: no issues found" in done.stdout, done.stdout
