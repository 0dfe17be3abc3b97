"""Help texts are the program's, not a ruleset's: no command's `--help` names one of the
registered rulesets (a plugin may be the only one installed beside ours, or ours may go)."""

from __future__ import annotations

import re

import pytest

from wargame_cli import registry

NAMES = "rulesets rules play resume replay fork edit saves simulate host join watch"
COMMANDS = [[], *([name] for name in NAMES.split())]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0] if c else "wargame")
def test_no_help_text_names_a_ruleset(command, wargame):
    done = wargame(*command, "--help")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    for info in registry.all_infos():
        for name in (info.name, info.id):
            assert not re.search(rf"\b{re.escape(name)}\b", text, re.I), (name, command)
