"""README.md is the front door: every scripted example in it runs as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTED = ("--no-input", "--json", "--exact", "--matrix", "--games")


def examples() -> list[str]:
    text = (ROOT / "README.md").read_text()
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            command = line.split("  #")[0].strip()
            if not command.startswith("wargame "):
                continue
            words = shlex.split(command)
            needs_file = any(w.endswith((".json", ".toml", ".md")) for w in words)
            read_only = words[1] in ("rules", "rulesets", "saves")
            if (read_only or any(flag in words for flag in SCRIPTED)) and not needs_file:
                lines.append(command)
    return lines


def test_the_readme_has_scripted_examples():
    assert len(examples()) >= 8


@pytest.mark.parametrize("command", examples())
def test_readme_example_runs(command, wargame):
    words = shlex.split(command)[1:]
    if "--games" in words:  # the figure is illustrative: a smaller run checks the command
        i = words.index("--games")
        words[i + 1] = str(min(int(words[i + 1]), 500))
    done = wargame(*words)
    assert done.returncode == 0, (command, done.stderr)
