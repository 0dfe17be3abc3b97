"""How the player started this program, so that every command line it prints for them
(`Resume it with: …`, the `wargame join` line, `see wargame rules`) runs as printed from where
they stand: `wargame` when that name on their PATH is this very program, the path they typed
otherwise (`.venv/bin/wargame` after the README's install line, which puts nothing on PATH),
or `python -m wargame_cli` as they ran it. Standard library only: `--help` stays fast."""

from __future__ import annotations

import os
import shutil
import sys

from wargame_cli.text import shown

NAME = "wargame"
MODULE = "wargame_cli"


def program() -> str:
    """The words that start this program again, as a shell reads them."""
    first = sys.argv[0] if sys.argv else ""
    if os.path.basename(first) == "__main__.py":  # python -m wargame_cli
        python = sys.orig_argv[0] if sys.orig_argv else sys.executable
        return f"{shown(python)} -m {MODULE}"
    if os.sep not in first:  # a name (the shell found it on PATH), or `python -c`: the name
        return first if first and not first.startswith("-") else NAME
    found = shutil.which(os.path.basename(first))
    if found and os.path.abspath(found) == os.path.abspath(first):
        return os.path.basename(first)  # on PATH: the shell handed us the path it found
    return shown(first)


def command(rest: str) -> str:
    """THE way a command line for the player is printed: `command("resume " + shown(path))`."""
    return f"{program()} {rest}"
