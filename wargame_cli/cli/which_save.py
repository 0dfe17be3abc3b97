"""THE way a command names a save (`resume`, `replay`, `fork`, `edit`, `host --resume`,
`simulate --from`): a path; a row number of `wargame saves` (`replay 5`); or `--last`, the
newest save the command can take. One resolver, so every command reads them alike."""

from __future__ import annotations

from pathlib import Path

from wargame_cli.errors import BadInput
from wargame_cli.invoked import command
from wargame_cli.text import shown

LAST = "--last"  # also as an option's value: `--from --last`, `--resume --last`


def in_folder(saves_dir: Path | None) -> str:
    """The `--saves-dir` words a printed command needs to look where this one looked."""
    return f" --saves-dir {shown(saves_dir)}" if saves_dir is not None else ""


def pick(
    spec: str | Path | None, last: bool, saves_dir: Path | None, in_progress: bool = False
) -> Path:
    """The save named by SPEC (a path, or a number from `wargame saves`) or by `--last`: the
    newest save in the saves folder (with `in_progress`, the newest game still in progress,
    for the commands that play on)."""
    from wargame_cli.saves import store

    if spec is not None and str(spec) == LAST:
        spec, last = None, True
    listed = command("saves" + in_folder(saves_dir))
    if last and spec is not None:
        raise BadInput(f"give a save (a path or a number from {listed}) or --last, not both")
    if spec is None and not last:
        raise BadInput(f"which save? give a path, a number from {listed}, or --last")
    folder = store.saves_dir(saves_dir)
    if last:
        wanted = ("in_progress",) if in_progress else ("in_progress", "finished")
        rows = [r for r in store.listing(folder) if r["status"] in wanted]
        if not rows:
            what = "game in progress" if in_progress else "save"
            raise BadInput(f"no {what} in {shown(folder)} ({listed} lists them)")
        return Path(rows[0]["path"])
    assert spec is not None
    text = str(spec)
    if text.isdigit() and not Path(text).exists():
        rows = store.listing(folder)
        number = int(text)
        if not 1 <= number <= len(rows):
            numbers = f"1 to {len(rows)}" if rows else "none"
            raise BadInput(
                f"no save numbered {number} in {shown(folder)} (numbers: {numbers}; see {listed})"
            )
        return Path(rows[number - 1]["path"])
    return Path(spec)
