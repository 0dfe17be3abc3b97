"""Where a report may be written: never over a save (the one replayed, or any wargame save),
never over anything but a regular file, and over another existing file only when asked
(`--force`); written whole or not at all, as a save is."""

from __future__ import annotations

import json
import os
from pathlib import Path

from wargame_cli.errors import BadInput, SaveError
from wargame_cli.saves import store
from wargame_cli.text import shown

SNIFF = 4096  # bytes read to tell a save from another file
PARSE_LIMIT = 64 * 1024 * 1024  # a JSON file up to this size is read whole to be sure


class ReportRefused(BadInput):
    """A report target that would lose something: a save, or a file without `--force`."""


def is_save(path: Path) -> bool:
    """A wargame save: its format named near the top, or (a JSON object, its keys in any
    order) its `"format"` key once read whole."""
    if not path.is_file():  # a FIFO or device is no save, and opening one could block
        return False
    try:
        with path.open("rb") as fh:
            head = fh.read(SNIFF)
            if store.FORMAT.encode() in head:
                return True
            if not head.lstrip().startswith(b"{") or path.stat().st_size > PARSE_LIMIT:
                return False
            data = json.loads(head + fh.read())
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("format") == store.FORMAT


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check(target: Path, save: Path | None, force: bool, option: str) -> None:
    """Refuse a target that is the save, a save, anything but a regular file or a new name
    (a folder, a FIFO, a device: also through a symlink, and even with force), or (without
    force) any existing file."""
    where = shown(target)
    if (save is not None and _same(target, save)) or (target.exists() and is_save(target)):
        raise ReportRefused(f"{option} {where}: that is a wargame save; a report never replaces it")
    if target.is_dir():
        raise ReportRefused(f"{option} {where}: that is a folder; give a file name")
    try:
        store.target(target)
    except SaveError:
        raise ReportRefused(
            f"{option} {where}: that is not a regular file; a report is written only to one"
        ) from None
    if (target.exists() or target.is_symlink()) and not force:
        raise _exists(option, where)


def write(target: Path, text: str, save: Path | None, force: bool, option: str) -> None:
    """Write `text` to `target` after `check`, as a save is written (`store.write_file`):
    a temporary file in the target's folder, renamed over it (`--force`) or linked in only
    where nothing is (a file appearing meanwhile is never replaced); a symlink is written
    through to its target, an existing file keeps its mode, a new one is made as the umask
    says, and a full disk leaves no partial file and the old one intact."""
    check(target, save, force, option)
    where = shown(target)
    try:
        store.write_file(target, text.encode("utf-8"), replace=force)
    except FileExistsError:
        raise _exists(option, where) from None
    except store.WriteFailed as exc:
        raise ReportRefused(
            f"{option} {where}: cannot write it ({exc.reason}; the old file, if any, is intact)"
        ) from None


def _exists(option: str, where: str) -> ReportRefused:
    return ReportRefused(f"{option} {where}: the file exists; add --force to replace it")
