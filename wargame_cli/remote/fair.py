"""Fair dice with no trusted party: commit and reveal.

For every roll the host draws a random value and sends its commitment (SHA-256 of the value);
the joiner answers with its own random value; the host then reveals its value, which the
joiner checks against the commitment. The faces come from both values (`derive`), so neither
side chooses a face or knows one before both values are in. (The host sends the commitment
for a roll with the reveal of the roll before: a roll then costs one round trip.) The save
keeps the commitment and both values (`proof`), and a replay derives the faces again
(`problem`).

Pure hashing from the standard library: no layer above the engine is needed to check a save.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import Any

SHARED = "shared"  # a roll's `source` when its faces came from this exchange
DERIVATION = "sha256-v1"
VALUE_BYTES = 32
# What `derive` does, stated once (README and `wargame rules` quote it):
STATED = (
    "each die in turn takes the next 4 bytes, read as a big-endian number u, from the stream "
    "SHA-256('wargame-dice-v1' + host value + joiner value + block number as 4 bytes), "
    "block 0, 1, ...; u is used when u < 2^32 - (2^32 mod sides) (so every face is equally "
    "likely), giving the face u mod sides + 1; otherwise the next 4 bytes are read"
)
_LABEL = b"wargame-dice-v1"
_LIMIT = 2**32


def draw() -> bytes:
    """A fresh random value for one roll."""
    return secrets.token_bytes(VALUE_BYTES)


def commitment(value: bytes) -> str:
    return hashlib.sha256(value).hexdigest()


def _words(host: bytes, join: bytes) -> Any:
    block = 0
    while True:
        digest = hashlib.sha256(_LABEL + host + join + block.to_bytes(4, "big")).digest()
        for i in range(0, len(digest), 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        block += 1


def derive(host: bytes, join: bytes, dice: Sequence[int]) -> tuple[int, ...]:
    """The faces of `dice` (their sizes) from both values, as `STATED` says."""
    words = _words(host, join)
    faces = []
    for sides in dice:
        bound = _LIMIT - _LIMIT % sides
        u = next(words)
        while u >= bound:
            u = next(words)
        faces.append(u % sides + 1)
    return tuple(faces)


def proof(commit: str, host: bytes, join: bytes) -> dict[str, str]:
    """What a shared roll's log entry keeps: enough for anyone to derive its faces again."""
    return {"commit": commit, "host": host.hex(), "join": join.hex(), "derivation": DERIVATION}


def hex_value(text: object) -> bytes | None:
    """A value as sent or saved (hex of `VALUE_BYTES` bytes), or None when it is not one."""
    if not isinstance(text, str) or len(text) != 2 * VALUE_BYTES:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None


def reveal_problem(commit: str, value: bytes | None) -> str | None:
    """Why a revealed value does not open `commit`, or None."""
    if value is None:
        return f"the revealed value is not {VALUE_BYTES} bytes in hex"
    if commitment(value) != commit:
        return "the revealed value does not match its commitment"
    return None


def problem(entry: dict[str, Any]) -> str | None:
    """Why a roll entry marked as shared does not hold, or None: its proof must open its
    commitment and give exactly its faces."""
    shared = entry.get("shared")
    if not isinstance(shared, dict):
        return "a shared roll without its commitment and values"
    if shared.get("derivation") != DERIVATION:
        return f"unknown derivation {shared.get('derivation')!r}"
    host, join = hex_value(shared.get("host")), hex_value(shared.get("join"))
    commit = shared.get("commit")
    if not isinstance(commit, str) or join is None:
        return "a shared roll's commitment or joiner's value is malformed"
    why = reveal_problem(commit, host)
    if why is not None:
        return why
    assert host is not None  # else refused above
    dice = entry.get("dice") or []
    faces = list(derive(host, join, dice))
    if faces != entry.get("faces"):
        return f"the faces {entry.get('faces')} are not the {faces} its values give"
    return None


def first_problem(log: Sequence[Any]) -> tuple[int, str] | None:
    """The first shared roll of a log that does not hold (its index and why), or None."""
    for index, entry in enumerate(log):
        if isinstance(entry, dict) and entry.get("t") == "roll" and _is_shared(entry):
            why = problem(entry)
            if why is not None:
                return index, f"shared dice: {why}: the record was edited"
        elif isinstance(entry, dict) and entry.get("t") == "roll" and "shared" in entry:
            return index, "a roll carries shared dice values but is not marked shared"
    return None


def _is_shared(entry: dict[str, Any]) -> bool:
    return entry.get("source") == SHARED or SHARED in (entry.get("sources") or [])
