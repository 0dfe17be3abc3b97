"""Reading, checking and atomically writing save files; listing the saves folder."""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from wargame_cli import __version__
from wargame_cli.errors import SaveError
from wargame_cli.saves import untrusted

FORMAT = "wargame-save"
VERSION = 2  # 2: compact, and every log entry sealed by a hash chain
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


MAX_SAVE_BYTES = 16 * 2**20  # a long skirmish saves under 1 MB
STALE_TMP_SECONDS = 60.0


def dumps(data: dict[str, Any]) -> str:
    """Compact JSON (the C encoder), refusing NaN and infinity: a save is strict JSON."""
    try:
        return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except ValueError as exc:
        raise SaveError(f"the game cannot be saved: {exc}") from None


def target(path: Path) -> tuple[Path, int | None]:
    """Where writing `path` really goes (through symlinks) and the mode to keep; refuses
    anything that is neither a regular file nor a new path."""
    real = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        info = os.stat(real)
    except FileNotFoundError:
        return real, None
    except OSError as exc:
        raise SaveError(f"cannot write {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise SaveError(f"cannot write {path}: it is {what}")
    return real, stat.S_IMODE(info.st_mode)


def _new_file_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _tmp_prefix(name: str) -> str:
    return f".{name[:180]}."


def remove_stale_tmps(folder: Path) -> None:
    """Temporary files a killed writer left behind (`.NAME.json.*.tmp`), once no game holds
    that save and the file has not been touched for a minute."""
    try:
        entries = list(folder.glob(".*.tmp"))
    except OSError:
        return
    cutoff = time.time() - STALE_TMP_SECONDS
    for tmp in entries:
        try:
            if tmp.is_symlink() or not tmp.is_file() or tmp.stat().st_mtime > cutoff:
                continue
            tmp.unlink()
        except OSError:
            continue


def write_atomic(path: Path, data: dict[str, Any]) -> None:
    """Temporary file, fsync, rename: a crash leaves the old save or the new one, never half.
    A symlink is written through to its target, whose file mode is kept."""
    text = dumps(data) + "\n"
    real, mode = target(path)
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_tmps(real.parent)
        fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(real.name), suffix=".tmp", dir=real.parent)
    except OSError as exc:
        raise SaveError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), mode if mode is not None else _new_file_mode())
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, real)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise SaveError(
                f"cannot write {path}: {exc.strerror or exc} (the previous save, if any, is intact)"
            ) from None
        raise
    try:
        dir_fd = os.open(real.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def lock_path(path: Path) -> Path:
    real, _ = target(path)
    name = real.name
    if len(name) > 200:  # the lock's name must fit where the save's name just fits
        import hashlib

        name = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return real.parent / f".{name}.lock"


@contextmanager
def locked(path: Path, new: bool = True) -> Iterator[None]:
    """Hold the save for one game at a time: a second `wargame` on it stops at once.

    `new`: the save may not exist yet (its folder is made). The lock file (`.NAME.json.lock`,
    beside the save) is removed on release; a run that
    locked a file just removed sees that the path now names another file, and starts over."""
    import fcntl

    where = lock_path(path)
    if not new and not path.exists():
        raise SaveError(f"save {path} not found")
    while True:
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(where, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as exc:
            raise SaveError(f"cannot lock {path}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise SaveError(
                f"save {path} is in use by another wargame; wait for that game to end"
            ) from None
        try:
            same = os.stat(where).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        yield
    finally:
        with suppress(OSError):
            where.unlink(missing_ok=True)
        os.close(fd)


def read_raw(path: Path) -> dict[str, Any]:
    """The JSON of a save, with the format and version checked before anything else."""
    try:
        raw = untrusted.read_bytes(path, MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise SaveError(f"save {path} not found") from None
    except OSError as exc:
        raise SaveError(f"save {path} cannot be read: {exc.strerror or exc}") from None
    except untrusted.Untrusted as exc:
        raise SaveError(f"save {path} cannot be read: {exc}") from None
    try:
        data = untrusted.parse_json(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SaveError(f"save {path} is not UTF-8 text (byte {exc.start})") from None
    except untrusted.Untrusted as exc:
        raise SaveError(f"save {path} is corrupt or truncated ({exc})") from None
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
    if version < 1:
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


def check_names(path: Path, data: dict[str, Any]) -> None:
    """Names read from a save obey the rules for names typed in: no markup, no escapes."""
    from wargame_cli.text import name_problem

    for side, name in (data.get("setup") or {}).get("names", {}).items():
        if problem := name_problem(name):
            raise SaveError(f"save {path}: side {side}'s name: {problem}")


def check_seal(path: Path, data: dict[str, Any]) -> None:
    """Version 2 saves carry a hash chain; a break means the file was edited by hand."""
    from wargame_cli.saves import seal

    if data["version"] < 2:
        return  # version 1 saves predate the chain: read, but vouched for by replay alone
    problem = seal.first_break(data)
    if problem is not None:
        raise SaveError(f"save {path}: the record was edited ({problem})")


def load(path: Path) -> dict[str, Any]:
    data = read_raw(path)
    validate(path, data)
    check_names(path, data)
    return data


def _header(data: dict[str, Any]) -> dict[str, Any]:
    """The listing's columns, each checked for its type: a bad file must not pass as good."""
    from wargame_cli.text import clean

    ruleset, setup = data.get("ruleset"), data.get("setup")
    if not isinstance(ruleset, dict) or not isinstance(ruleset.get("id"), str):
        raise SaveError('"ruleset" is not an object with an id')
    if not isinstance(setup, dict) or not isinstance(setup.get("names"), dict):
        raise SaveError('"setup" is not an object with names')
    names = setup["names"]
    if not all(isinstance(v, str) for v in names.values()):
        raise SaveError("a side's name is not text")
    turns, status = data.get("turns"), data.get("status")
    if not isinstance(turns, int) or isinstance(turns, bool):
        raise SaveError('"turns" is not a whole number')
    if status not in ("in_progress", "finished"):
        raise SaveError('"status" is neither in_progress nor finished')
    result = data.get("result")
    winner = result.get("winner") if isinstance(result, dict) else None
    updated = data.get("updated")
    return {
        "ruleset": clean(ruleset["id"]),
        "sides": {clean(k): clean(v) for k, v in names.items()},
        "turns": turns,
        "status": status,
        "winner": clean(winner) if isinstance(winner, str) else None,
        "updated": clean(updated) if isinstance(updated, str) else "",
    }


def listing(folder: Path) -> list[dict[str, Any]]:
    """Headers of every save in `folder`, newest first; unreadable files are listed as such,
    with their reason, and temporary files of a save being written are skipped."""
    rows: list[dict[str, Any]] = []
    if not folder.is_dir():
        return rows
    for path in sorted(folder.glob("*.json")):
        try:
            row = {"path": str(path), **_header(read_raw(path))}
        except SaveError as exc:
            reason = str(exc)
            row = {
                "path": str(path),
                "ruleset": None,
                "sides": {},
                "turns": None,
                "status": "unreadable",
                "winner": None,
                "updated": "",
                "error": reason if str(path) in reason else f"{path}: {reason}",
            }
        rows.append(row)
    rows.sort(key=lambda r: r["updated"] or "", reverse=True)
    return rows
