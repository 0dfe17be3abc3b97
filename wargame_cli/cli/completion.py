"""Shell completion (`wargame --install-completion`, bash, zsh and fish): ruleset ids, `--option`
keys and their choices, preset team names, and save paths. Imported only while the shell asks
for completions, so `wargame --help` pays nothing for it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def ruleset_ids(incomplete: str) -> list[str]:
    from wargame_cli import registry

    return [i.id for i in registry.all_infos() if i.id.startswith(incomplete)]


def known(params: dict[str, Any], args: list[str]) -> dict[str, Any]:
    """The parameters parsed so far; the ruleset id from the words typed when the parser
    gave up (an option still waiting for its value)."""
    if isinstance(params.get("ruleset_id"), str):
        return params
    if not args:  # typer passes none: the words are in the shell's variables
        line = os.environ.get("_TYPER_COMPLETE_ARGS") or os.environ.get("COMP_WORDS") or ""
        args = line.split()
    ids = set(ruleset_ids(""))
    found = next((a for a in args if a in ids), None)
    return {**params, "ruleset_id": found} if found is not None else params


def _ruleset(params: dict[str, Any]) -> Any:
    from wargame_cli import registry

    ruleset_id = params.get("ruleset_id")
    if not isinstance(ruleset_id, str):
        return None
    try:
        return registry.get(ruleset_id)
    except Exception:  # an unknown or half-typed id: nothing to offer
        return None


def options(params: dict[str, Any], incomplete: str) -> list[str]:
    """`KEY=` for every option of the ruleset named on the line; after `KEY=`, its choices
    (true/false for a yes-no option)."""
    ruleset = _ruleset(params)
    if ruleset is None:
        return []
    key, sep, _ = incomplete.partition("=")
    if not sep:
        return [f"{o.name}=" for o in ruleset.options if o.name.startswith(key)]
    spec = next((o for o in ruleset.options if o.name == key), None)
    if spec is None:
        return []
    if spec.choices is not None:
        values = [str(c) for c in spec.choices]
    elif isinstance(spec.default, bool):
        values = ["true", "false"]
    else:
        values = [str(spec.default)] if not isinstance(spec.default, dict) else ["default"]
    return [f"{key}={v}" for v in values if f"{key}={v}".startswith(incomplete)]


def teams(params: dict[str, Any], incomplete: str) -> list[str]:
    """The ruleset's preset team names, then team files (.toml/.json) and folders."""
    from wargame_cli.ruleset import resolve_options

    out: list[str] = []
    ruleset = _ruleset(params)
    if ruleset is not None:
        presets = ruleset.preset_teams(resolve_options(ruleset.options, None))
        out = [n for n in presets if n.lower().startswith(incomplete.lower())]
    return out + paths(incomplete, (".toml", ".json"))


def saves(params: dict[str, Any], incomplete: str) -> list[str]:
    """Save files: under the path typed so far, or in the saves folder."""
    from wargame_cli.saves import store

    found = paths(incomplete, (".json",))
    folder = store.saves_dir(params.get("saves_dir"))
    if not incomplete and folder.is_dir():
        found += [str(p) for p in sorted(folder.glob("*.json"))]
    return found


def paths(incomplete: str, suffixes: tuple[str, ...]) -> list[str]:
    """Folders (ending in /) and files with these suffixes that start with `incomplete`."""
    head, _, tail = incomplete.rpartition(os.sep)
    folder = Path(head or ".") if head or not incomplete.startswith(os.sep) else Path(os.sep)
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    out = []
    for entry in entries:
        if not entry.name.startswith(tail) or (entry.name.startswith(".") and not tail):
            continue
        shown = f"{head}{os.sep}{entry.name}" if head else entry.name
        if entry.is_dir():
            out.append(shown + os.sep)
        elif entry.suffix.lower() in suffixes:
            out.append(shown)
    return out[:200]


SHELLS = ("bash", "zsh", "fish")
NAMED_SHELL_FLAGS = ("--show-completion", "--install-completion")
PROG, COMPLETE_VAR = "wargame", "_WARGAME_COMPLETE"


def for_named_shell(flag: str, shell: str) -> int:
    """`--show-completion zsh` / `--install-completion fish`: the shell named, not the one
    typer guesses from the processes above (typer's own flags take no shell name)."""
    from typer import _completion_shared as shared

    from wargame_cli.errors import BadInput

    if shell not in SHELLS:
        raise BadInput(f"{flag}: no completion for shell {shell!r} (known: {', '.join(SHELLS)})")
    if flag == "--show-completion":
        print(shared.get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=shell))
        return 0
    _, where = shared.install(shell=shell, prog_name=PROG, complete_var=COMPLETE_VAR)
    print(f"{shell} completion installed in {where}; it works in shells started from now on.")
    return 0
