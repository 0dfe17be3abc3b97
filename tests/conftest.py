from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def wargame(tmp_path):
    """Run the real `wargame` entry point (no terminal on stdin), saves under tmp_path."""

    def run(*args: str, input: str | None = None, env: dict | None = None):
        full_env = {
            **os.environ,
            "WARGAME_SAVES_DIR": str(tmp_path / "saves"),
            "NO_COLOR": "1",
            "COLUMNS": "120",
        }
        full_env.update(env or {})
        return subprocess.run(
            [sys.executable, "-m", "wargame_cli", *args],
            capture_output=True,
            text=True,
            input=input if input is not None else "",
            env=full_env,
            timeout=120,
            cwd=tmp_path,
        )

    return run
