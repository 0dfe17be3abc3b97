"""The `wargame` command line: thin Typer commands delegating to plain functions.

`python -m wargame_cli` names itself only once its `__main__` runs: the start is guarded
again here (see `wargame_cli.guard_start`)."""

from __future__ import annotations

from wargame_cli import guard_start

guard_start()
