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

HEADER = ("ruleset", "seed", "options", "setup", "forked_from")  # the seal covers the rest
UNSEALED = {"log", "seal", "updated", "program"}  # the log is chained; the rest is bookkeeping


def _canonical_encoder() -> Callable[[Any], str]:
    """`json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))`, built
    once: `dumps` with these options makes a new encoder per call, which costs as much as
    encoding a log entry (the C encoder is used when this Python has it)."""
    options: dict[str, Any] = {"sort_keys": True, "ensure_ascii": False, "separators": (",", ":")}
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return json.JSONEncoder(**options).encode
    plain = json.JSONEncoder(**options)
    encode = make(
        None,  # no circular check: a save's values come from JSON
        plain.default,
        json.encoder.encode_basestring,
        None,
        plain.key_separator,
        plain.item_separator,
        plain.sort_keys,
        plain.skipkeys,
        plain.allow_nan,
    )
    return lambda value: "".join(encode(value, 0))


_canonical = _canonical_encoder()


def digest(value: Any) -> str:
    return hashlib.sha256(_canonical(value).encode("utf-8")).hexdigest()[:20]


def _root(data: dict[str, Any]) -> str:
    return digest({k: data.get(k) for k in HEADER})


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
    prev = _root(data)
    for index, entry in enumerate(data.get("log") or []):
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
