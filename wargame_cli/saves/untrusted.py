"""Reading files nobody vouches for (saves, team files): only regular files, never more than
a cap, no NaN or infinity, and no nesting deep enough to exhaust the stack."""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

from wargame_cli.limits import MAX_INT

MAX_DEPTH = 64  # a real save nests about 8 deep


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
    without recursion, so any parsed document can be checked. One tight pass: only
    containers go on the stack, and the types JSON gives are tested by identity (a save's
    check costs under half of parsing it)."""
    if type(data) is not dict and type(data) is not list:
        _check_scalar(data)
        return
    stack: list[tuple[Any, int]] = [(data, 1)]
    push = stack.append
    while stack:
        item, depth = stack.pop()
        if depth >= MAX_DEPTH and item:  # its values stand one level deeper
            raise Untrusted(f"it nests deeper than {MAX_DEPTH} levels")
        for value in item.values() if type(item) is dict else item:
            kind = type(value)
            if kind is str or value is None:
                continue
            if kind is dict or kind is list:
                push((value, depth + 1))
            elif kind is int:
                if value > MAX_INT or value < -MAX_INT:
                    _check_scalar(value)
            elif kind is float:
                if value - value != 0.0:  # inf - inf and NaN - NaN are NaN
                    _check_scalar(value)
            elif kind is not bool:
                _check_other(value, depth + 1, push)


def _check_other(value: Any, depth: int, push: Any) -> None:
    """A value of a type JSON never gives (a subclass, TOML's dates): judged by isinstance."""
    if isinstance(value, dict | list):
        push((value if type(value) in (dict, list) else _plain(value), depth))
    else:
        _check_scalar(value)


def _plain(value: dict[Any, Any] | list[Any]) -> dict[Any, Any] | list[Any]:
    return dict(value) if isinstance(value, dict) else list(value)


def _check_scalar(item: Any) -> None:
    if isinstance(item, bool):
        return
    if isinstance(item, int):
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
