"""mypy over the package as it installs: `wargame_cli`, with the top-level `rulesets/` folder as
`wargame_cli.rulesets` (pyproject.toml's `package-dir`). mypy follows no import hooks, so the
editable install's mapping is mirrored here by links: `.mypy_tree/wargame_cli` (git ignores
it) holds a link to each entry of `wargame_cli/` and `rulesets` -> `../rulesets`, and mypy runs
there under the project's `[tool.mypy]` config, its cache kept in `.mypy_tree/.mypy_cache`.

    python -m tests.mypy_tree          # what tests/test_types.py runs
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / ".mypy_tree"


def mirror() -> Path:
    """The mirrored package, its links made afresh (an entry added or removed since is seen)."""
    package = TREE / "wargame_cli"
    package.mkdir(parents=True, exist_ok=True)
    wanted = {entry.name: entry for entry in (ROOT / "wargame_cli").iterdir()}
    wanted["rulesets"] = ROOT / "rulesets"
    for link in package.iterdir():
        if link.name not in wanted or not link.is_symlink():
            link.unlink()
    for name, target in wanted.items():
        link = package / name
        if not link.is_symlink():
            os.symlink(target, link)
    return TREE


def run() -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")],
        cwd=mirror(),
        capture_output=True,
        text=True,
        timeout=600,
    )


if __name__ == "__main__":
    done = run()
    print(done.stdout + done.stderr, end="")
    sys.exit(done.returncode)
