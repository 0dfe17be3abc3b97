"""Reading, checking and atomically writing save files; listing the saves folder."""

from __future__ import annotations

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
from wargame_cli.saves import seal, untrusted
from wargame_cli.text import shown

FORMAT = "wargame-save"
# 2: compact, and every log entry sealed by a hash chain; 3: turn entries may keep the game's
# position (`engine/position.py`)
VERSION = 3
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


_compact = seal.encoder(sort_keys=False, allow_nan=False)


def dumps(data: dict[str, Any]) -> str:
    """Compact JSON (the C encoder), refusing NaN and infinity: a save is strict JSON."""
    try:
        return _compact(data)
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
        raise SaveError(f"cannot write {shown(path)}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise SaveError(f"cannot write {shown(path)}: it is {what}")
    return real, stat.S_IMODE(info.st_mode)


def _new_file_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _tmp_prefix(name: str) -> str:
    return f".{name[:180]}."


def _try_flock(fd: int) -> bool:
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holds_name(path: Path, fd: int) -> bool:
    """Whether `path` still names the file open as `fd` (a sweep may have removed it)."""
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def remove_leftovers(folder: Path) -> None:
    """What killed runs left in `folder`: temporary files (`.NAME.*.tmp`) and lock files
    (`.NAME.json.lock`) that no running `wargame` holds. A writer holds a lock on its
    temporary file, and a game on its lock file, for as long as it runs: one that can be
    locked here belongs to no one, whatever its age."""
    try:
        entries = [*folder.glob(".*.tmp"), *folder.glob(".*.lock")]
    except OSError:
        return
    for leftover in entries:
        try:
            fd = os.open(leftover, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode) and _try_flock(fd):
                leftover.unlink()
        except OSError:
            pass
        finally:
            os.close(fd)


def _fsync_folder(folder: Path) -> None:
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def _temporary(real: Path, blob: bytes, mode: int | None, durable: bool) -> tuple[int, Path]:
    """A temporary file beside `real` holding `blob` whole (`mode`, else as the umask says),
    locked against `remove_leftovers` while it is written; the caller puts it in place."""
    while True:
        fd, name = tempfile.mkstemp(prefix=_tmp_prefix(real.name), suffix=".tmp", dir=real.parent)
        tmp = Path(name)
        if _try_flock(fd) and _holds_name(tmp, fd):
            break
        os.close(fd)  # swept away before it was locked: take another name
    try:
        os.fchmod(fd, mode if mode is not None else _new_file_mode())
        view = memoryview(blob)
        while view:
            view = view[os.write(fd, view) :]
        if durable:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    return fd, tmp


def _place(tmp: Path, real: Path, replace: bool) -> None:
    """The written file takes its name: over what is there, or only where nothing is (a
    hard link fails if the name is taken; without hard links, an exclusive empty file
    holds the name until the rename)."""
    import errno

    if replace:
        os.replace(tmp, real)
        return
    try:
        os.link(tmp, real)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
            raise
        os.close(os.open(real, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.replace(tmp, real)


class WriteFailed(SaveError):
    """A write that failed whole: the file written before, if any, is as it was."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(
            f"cannot write {shown(path)}: {reason} (the previous save, if any, is intact)"
        )
        self.reason = reason


def write_file(
    path: Path, blob: bytes, replace: bool = True, durable: bool = True, keep_open: bool = False
) -> tuple[Path, int | None]:
    """Write `path` whole or not at all: a temporary file in the target's folder, flushed to
    disk (`durable`), then renamed over it (`replace`) or linked in only where nothing is
    (else FileExistsError). A symlink is written through to its target, whose mode is kept;
    a new file is made as the umask says. A full disk or any failure leaves no partial file
    and the old one intact (SaveError). Returns the file written and, with `keep_open`, a
    descriptor open on it for writing (else None)."""
    real, mode = target(path)
    fd: int | None = None
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _temporary(real, blob, mode, durable)
        try:
            _place(tmp, real, replace)
        finally:
            tmp.unlink(missing_ok=True)
    except FileExistsError:
        if fd is not None:
            os.close(fd)
        raise
    except OSError as exc:
        if fd is not None:
            os.close(fd)
        raise WriteFailed(path, exc.strerror or str(exc)) from None
    if durable:
        _fsync_folder(real.parent)
    if keep_open:
        return real, fd
    os.close(fd)
    return real, None


def write_atomic(path: Path, data: dict[str, Any]) -> None:
    """A whole save file at once (a fork, a test): see `write_file`."""
    real, _ = target(path)
    real.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(real.parent)
    write_file(path, (dumps(data) + "\n").encode("utf-8"))


def lock_path(path: Path) -> Path:
    real, _ = target(path)
    name = real.name
    if len(name) > 200:  # the lock's name must fit where the save's name just fits
        import hashlib

        name = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return real.parent / f".{name}.lock"


class InUse(SaveError):
    """Another `wargame` holds this save."""


def _acquire(path: Path) -> tuple[Path, int]:
    """The save's lock file and a descriptor holding it; InUse when another run holds it.
    A run that locked a file just removed (by its owner, or a sweep of leftovers) sees that
    the path now names another file, and starts over."""
    where = lock_path(path)
    while True:
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(where, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise SaveError(f"cannot lock {shown(path)}: {exc.strerror or exc}") from None
        if _held_by_another(fd):
            os.close(fd)
            raise InUse(
                f"save {shown(path)} is in use by another wargame; wait for that game to end"
            )
        if _holds_name(where, fd):
            return where, fd
        os.close(fd)


def _held_by_another(fd: int) -> bool:
    """Lock it, or tell that a game holds it: a sweep of leftovers holds a lock file only for
    an instant, so a refusal is tried again for a moment before it counts."""
    for _ in range(5):
        if _try_flock(fd):
            return False
        time.sleep(0.01)
    return True


def _release(where: Path, fd: int) -> None:
    with suppress(OSError):
        where.unlink(missing_ok=True)
    os.close(fd)


@contextmanager
def locked(path: Path, new: bool = True) -> Iterator[Path]:
    """Hold the save for one game at a time: a second `wargame` on it stops at once.

    `new`: the save may not exist yet (its folder is made). The lock file (`.NAME.json.lock`,
    beside the save) is removed on release; one left by a killed run is taken over here,
    and removed by the next save in its folder (`remove_leftovers`)."""
    if not new and not path.exists():
        raise SaveError(f"save {shown(path)} not found")
    where, fd = _acquire(path)
    try:
        yield path
    finally:
        _release(where, fd)


@contextmanager
def locked_new(folder: Path, ruleset_id: str, names: dict[str, str]) -> Iterator[Path]:
    """A new save's name in `folder`, held for its game (as `locked`): two games started in
    the same millisecond get different names, the later one numbered (`…-2.json`)."""
    base = file_name(ruleset_id, names)
    for number in range(1, 10_000):
        path = folder / (base if number == 1 else f"{base[:-5]}-{number}.json")
        try:
            where, fd = _acquire(path)
        except InUse:
            continue
        if path.exists() or path.is_symlink():
            _release(where, fd)
            continue
        try:
            yield path
        finally:
            _release(where, fd)
        return
    raise SaveError(f"no free save name in {shown(folder)} for {base}")  # pragma: no cover


def read_raw(path: Path) -> dict[str, Any]:
    """The JSON of a save, with the format and version checked before anything else."""
    try:
        raw = untrusted.read_bytes(path, MAX_SAVE_BYTES)
    except FileNotFoundError:
        raise SaveError(f"save {shown(path)} not found") from None
    except OSError as exc:
        raise SaveError(f"save {shown(path)} cannot be read: {exc.strerror or exc}") from None
    except untrusted.Untrusted as exc:
        raise SaveError(f"save {shown(path)} cannot be read: {exc}") from None
    try:
        data = untrusted.parse_json(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SaveError(f"save {shown(path)} is not UTF-8 text (byte {exc.start})") from None
    except untrusted.Untrusted as exc:
        raise SaveError(f"save {shown(path)} is corrupt or truncated ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f'{shown(path)} is not a wargame save (no "format": "{FORMAT}")')
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(f"save {shown(path)} has no valid version number")
    if version > VERSION:
        raise SaveError(
            f"save {shown(path)} is format version {version}, newer than this wargame "
            f"{__version__} reads (up to {VERSION}); upgrade wargame_cli to open it"
        )
    if version < 1:
        raise SaveError(f"save {shown(path)} is format version {version}, which no release wrote")
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
        raise SaveError(f"save {shown(path)} is invalid at {where}: {first['msg']}") from None


def check_names(path: Path, data: dict[str, Any]) -> None:
    """Names read from a save obey the rules for names typed in: no markup, no escapes."""
    from wargame_cli.text import name_problem

    for side, name in (data.get("setup") or {}).get("names", {}).items():
        if problem := name_problem(name):
            raise SaveError(f"save {shown(path)}: side {side}'s name: {problem}")


def check_seal(path: Path, data: dict[str, Any]) -> None:
    """Version 2 saves carry a hash chain; a break means the file was edited by hand. A file
    with chain fields is judged by them whatever its version says (no downgrade)."""
    from wargame_cli.saves import seal
    from wargame_cli.saves.provenance import chained

    if data["version"] < 2 and not chained(data):
        return  # version 1 saves predate the chain: read, but vouched for by replay alone
    problem = seal.first_break(data)
    if problem is not None:
        raise SaveError(f"save {shown(path)}: the record was edited ({problem})")


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
                "error": reason if shown(path) in reason else f"{shown(path)}: {reason}",
            }
        rows.append(row)
    rows.sort(key=lambda r: r["updated"] or "", reverse=True)
    return rows
