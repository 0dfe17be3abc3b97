"""Reading, checking and atomically writing save files; listing the saves folder."""

from __future__ import annotations

import json
import os
import re
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from wargame_cli import __version__
from wargame_cli.errors import SaveError

FORMAT = "wargame-save"
VERSION = 1
ENV_DIR = "WARGAME_SAVES_DIR"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def saves_dir(flag: str | Path | None = None) -> Path:
    return Path(flag or os.environ.get(ENV_DIR) or "saves")


def _slug(text: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return slug[:24] or "side"


def file_name(ruleset_id: str, names: dict[str, str], when: datetime | None = None) -> str:
    when = when or datetime.now(UTC)
    stamp = when.strftime("%Y%m%d-%H%M%S-%f")[:-3]
    return f"{ruleset_id}_{_slug(names['A'])}-vs-{_slug(names['B'])}_{stamp}.json"


def write_atomic(path: Path, data: dict[str, Any]) -> None:
    """Temporary file, fsync, rename: a crash leaves the old save or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def read_raw(path: Path) -> dict[str, Any]:
    """The JSON of a save, with the format and version checked before anything else."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"save {path} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"save {path} cannot be read: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SaveError(f"save {path} is corrupt or truncated (not valid JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f'{path} is not a wargame save (no "format": "{FORMAT}")')
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(f"save {path} has no valid version number")
    if version > VERSION:
        raise SaveError(
            f"save {path} is format version {version}, newer than this wargame {__version__} "
            f"reads (up to {VERSION}); upgrade wargame_cli to open it"
        )
    if version < VERSION:
        raise SaveError(f"save {path} is format version {version}, which no release wrote")
    return data


def validate(path: Path, data: dict[str, Any]) -> Any:
    """Check the whole structure against the save model; one line naming the first problem."""
    from pydantic import ValidationError

    from wargame_cli.saves.model import SaveFile

    try:
        return SaveFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise SaveError(f"save {path} is invalid at {where}: {first['msg']}") from None


def load(path: Path) -> dict[str, Any]:
    data = read_raw(path)
    validate(path, data)
    return data


def listing(folder: Path) -> list[dict[str, Any]]:
    """Headers of every save in `folder`, newest first; unreadable files are listed as such."""
    rows: list[dict[str, Any]] = []
    if not folder.is_dir():
        return rows
    for path in folder.glob("*.json"):
        try:
            data = read_raw(path)
            rows.append(
                {
                    "path": str(path),
                    "ruleset": data.get("ruleset", {}).get("id"),
                    "sides": data.get("setup", {}).get("names", {}),
                    "turns": data.get("turns"),
                    "status": data.get("status"),
                    "winner": (data.get("result") or {}).get("winner"),
                    "updated": data.get("updated"),
                }
            )
        except SaveError as exc:
            rows.append(
                {
                    "path": str(path),
                    "ruleset": None,
                    "sides": {},
                    "turns": None,
                    "status": "unreadable",
                    "winner": None,
                    "updated": "",
                    "error": str(exc),
                }
            )
    rows.sort(key=lambda r: r["updated"] or "", reverse=True)
    return rows
