"""Reading files nobody vouches for (saves, team files): only regular files, never more than
a cap, no NaN or infinity, and no nesting deep enough to exhaust the stack."""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

MAX_DEPTH = 64  # a real save nests about 8 deep
MAX_INT = 10**18  # seeds, faces, counts: nothing a game stores comes near


class Untrusted(ValueError):
    """Why a file's content cannot be read; the caller names the file."""


def read_bytes(path: Path, cap: int) -> bytes:
    """A regular file's bytes (following symlinks), refusing devices, FIFOs, folders and
    anything over `cap` bytes without reading more than `cap + 1` of it."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Untrusted("it is not a regular file")
        if info.st_size > cap:
            raise Untrusted(f"it is too large ({_size(info.st_size)}; at most {_size(cap)})")
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, min(1 << 20, cap + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > cap:
                raise Untrusted(f"it is too large (over {_size(cap)})")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{n} bytes"


def _no_constant(name: str) -> Any:
    raise Untrusted(f"{name} is not a number JSON allows")


def parse_json(text: str) -> Any:
    """`json.loads` without NaN/Infinity, stack exhaustion, or absurd depth and numbers."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise Untrusted(f"it nests deeper than {MAX_DEPTH} levels") from None
    except Untrusted:
        raise
    except ValueError as exc:  # JSONDecodeError, or an integer over Python's digit limit
        raise Untrusted(f"not valid JSON: {exc}") from None
    check_shape(data)
    return data


def check_shape(data: Any) -> None:
    """Depth at most `MAX_DEPTH`, whole numbers within `MAX_INT`, floats finite: checked
    without recursion, so any parsed document can be checked."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise Untrusted(f"it nests deeper than {MAX_DEPTH} levels")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if abs(item) > MAX_INT:
                raise Untrusted(f"it holds a number too large ({str(item)[:12]}...)")
        elif isinstance(item, float) and not math.isfinite(item):
            raise Untrusted("it holds a number that is not finite (NaN or infinity)")


def read_json(path: Path, cap: int) -> Any:
    try:
        text = read_bytes(path, cap).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Untrusted(f"it is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_json(text)


def read_toml(path: Path, cap: int) -> Any:
    import tomllib

    try:
        text = read_bytes(path, cap).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Untrusted(f"it is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise Untrusted(f"it nests deeper than {MAX_DEPTH} levels") from None
    except tomllib.TOMLDecodeError as exc:
        raise Untrusted(f"not valid TOML: {exc}") from None
    except ValueError as exc:  # an integer over Python's digit limit
        raise Untrusted(f"not valid TOML: {exc}") from None
    check_shape(data)
    return data
