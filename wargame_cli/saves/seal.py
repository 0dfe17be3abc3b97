"""Tamper evidence: every log entry carries `h`, a hash of the entry before it (the first, a
hash of the game's header), and the save's `seal` hashes the last entry with everything else
the file states. The runner's log never sees these: they are added when a save is written and
checked when one is read.

This is evidence, not a signature: anyone who recomputes the hashes can forge a record. It
shows that a save was edited by hand, even where the edit is legal play."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from wargame_cli.cpython import json_encoder

HEADER = ("ruleset", "seed", "options", "setup", "forked_from")  # the seal covers the rest
# Format-2 saves written before 3906ae1 (30 Nov 2026) hashed `created` into the root too; the
# format version did not change, so such a root is still accepted (the seal covers `created`
# either way, so no edit passes under one root that the other would catch).
HEADER_WITH_CREATED = ("ruleset", "seed", "options", "setup", "created", "forked_from")
UNSEALED = {"log", "seal", "updated", "program"}  # the log is chained; the rest is bookkeeping


def encoder(sort_keys: bool = True, allow_nan: bool = True) -> Callable[[Any], str]:
    """`json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))`, built
    once (`wargame_cli.cpython.json_encoder`). `sort_keys=False, allow_nan=False`: the compact
    strict JSON a save is written in."""
    return json_encoder(
        sort_keys=sort_keys, allow_nan=allow_nan, ensure_ascii=False, separators=(",", ":")
    )


_canonical = encoder()


def digest(value: Any) -> str:
    return hashlib.sha256(_canonical(value).encode("utf-8")).hexdigest()[:20]


def _root(data: dict[str, Any], header: tuple[str, ...] = HEADER) -> str:
    return digest({k: data.get(k) for k in header})


def _roots(data: dict[str, Any]) -> tuple[str, ...]:
    """The chain roots a save may begin with: today's, and the first builds' (with
    `created`) for a save that has a `created`."""
    if "created" not in data:
        return (_root(data),)
    return (_root(data), _root(data, HEADER_WITH_CREATED))


def _tip(data: dict[str, Any], last: str) -> str:
    rest = {k: v for k, v in data.items() if k not in UNSEALED}
    return digest({"last": last, "rest": rest})


def sealed(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of save data with the hash chain written in (hashed as it reads back: JSON)."""
    data = json.loads(json.dumps(data, ensure_ascii=False, allow_nan=False))
    prev = _root(data)
    log = []
    for entry in data["log"]:
        chained = {**entry, "h": prev}
        log.append(chained)
        prev = digest(chained)
    out = {k: v for k, v in data.items() if k != "seal"}
    out["log"] = log
    out["seal"] = _tip(out, prev)
    return out


def first_break(data: dict[str, Any]) -> str | None:
    """Where the chain of a sealed save breaks, in words, or None if it holds."""
    log = data.get("log") or []
    roots = _roots(data)
    first = log[0].get("h") if log and isinstance(log[0], dict) else None
    prev = first if first in roots else roots[0]
    for index, entry in enumerate(log):
        if not isinstance(entry, dict) or entry.get("h") != prev:
            where = "the game's header" if index == 0 else f"log entry {index - 1}"
            return f"{where} no longer matches the hash chain"
        prev = digest(entry)
    if data.get("seal") != _tip(data, prev):
        n = len(data.get("log") or [])
        return (
            f"the result, status or turn count, or log entry {n - 1}, no longer matches its seal"
            if n
            else "the save no longer matches its seal"
        )
    return None


def unchained(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k != "h"}


class Chain:
    """The hash chain built one entry at a time, for a save written again after every turn:
    linking the new entries and sealing costs the same whatever the length of the log, and
    gives exactly what `sealed` gives for the whole (values as they read back from JSON)."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.tip = _root(header)  # the hash the next entry carries as its `h`

    def link(self, entry: dict[str, Any]) -> dict[str, Any]:
        chained = {**entry, "h": self.tip}
        self.tip = digest(chained)
        return chained

    def seal(self, data: dict[str, Any]) -> str:
        """The `seal` of a save stating `data` (its log already linked here)."""
        return _tip(data, self.tip)
