"""Where a report may be written: never over a save (the one replayed, or any wargame save),
and over another existing file only when asked (`--force`)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from wargame_cli.errors import BadInput
from wargame_cli.saves import store

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


def check(target: Path, save: Path, force: bool, option: str) -> None:
    """Refuse a target that is the save, a save, a folder, or (without force) any file."""
    if _same(target, save) or (target.exists() and is_save(target)):
        raise ReportRefused(
            f"{option} {target}: that is a wargame save; a report never replaces one"
        )
    if target.is_dir():
        raise ReportRefused(f"{option} {target}: that is a folder; give a file name")
    if (target.exists() or target.is_symlink()) and not force:
        raise ReportRefused(f"{option} {target}: the file exists; add --force to replace it")


def write(target: Path, text: str, save: Path, force: bool, option: str) -> None:
    """Write `text` to `target` after `check`: a new file is created exclusively (nothing
    appearing meanwhile is lost); a forced replacement goes through a temporary file."""
    check(target, save, force, option)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if not (target.exists() or target.is_symlink()):
            with target.open("x", encoding="utf-8") as fh:
                fh.write(text)
            return
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, target)
        finally:
            Path(tmp).unlink(missing_ok=True)
    except FileExistsError:
        raise ReportRefused(
            f"{option} {target}: the file exists; add --force to replace it"
        ) from None
    except OSError as exc:
        raise ReportRefused(f"{option} {target}: cannot write it ({exc.strerror})") from None
