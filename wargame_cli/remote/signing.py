"""Signed statements: each machine in remote play makes an Ed25519 key for the game, tells the
other its public key in the hello, and signs what it says: every commitment, every value and
reveal of a shared roll, every decision. The save keeps both public keys (`BLOCK`) and, in the
log, the signatures that settle each entry: a shared roll's `shared` holds the joiner's
signature of its value (`JOIN_SIG`) and the host's of its reveal (`HOST_SIG`); a decision's
entry holds its side's signature (`SIG`). `replay --verify` checks them with the save alone
(`saves/signed.py`): the hash chain shows that a file was edited; these show which machine
said what, and a forger without the other machine's key cannot write them.

What each signature says is a statement built here, alike by the sender, the receiver and the
verifier, from what both machines and the save hold (never from the wire's own framing):

- a decision: its place in the log and the chain's tip there (so it vouches for every entry
  before it), its side, key and maker (`decision`);
- the host's commitment (`commitment`), the joiner's value for a roll (`pledge`) and the host's
  reveal (`reveal`), each with the game's root (the hash of its header): a shared roll taken
  again from a take-back's kept dice keeps its signatures, wherever it comes out again.

`cryptography` is imported only when a key is made or a signature checked: a save without
signatures never needs it."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from wargame_cli.errors import BadInput

LABEL = (
    b"wargame-signed-v1\n"  # every signed message begins with it: never a signature of other data
)
BLOCK = "signing"  # the save's field: {"host": side, "keys": {side: public key hex}}
SIG = "sig"  # a decision's entry, and a signed message, carry its signature here
HOST_SIG, JOIN_SIG = "host_sig", "join_sig"  # in a shared roll's proof
KEY_BYTES, SIG_BYTES = 32, 64
NEEDS = "signed remote play needs the 'cryptography' package: pip install 'wargame-cli[remote]'"


_LOADED: list[Any] = []  # the ed25519 module and its InvalidSignature, imported once


def _ed25519() -> Any:
    if not _LOADED:
        try:
            from cryptography.exceptions import InvalidSignature
            from cryptography.hazmat.primitives.asymmetric import ed25519
        except ImportError:
            raise BadInput(NEEDS) from None
        _LOADED[:] = [ed25519, InvalidSignature]
    return _LOADED[0]


@functools.lru_cache(maxsize=8)
def _public(raw: bytes) -> Any:
    return _ed25519().Ed25519PublicKey.from_public_bytes(raw)


def _message(statement: dict[str, Any]) -> bytes:
    return LABEL + json.dumps(statement, sort_keys=True, separators=(",", ":")).encode()


class Key:
    """This machine's private key for one game."""

    def __init__(self, private: Any) -> None:
        self._private = private
        raw = private.public_key().public_bytes_raw()
        self.public = raw.hex()

    @classmethod
    def new(cls) -> Key:
        return cls(_ed25519().Ed25519PrivateKey.generate())

    @classmethod
    def from_hex(cls, text: object) -> Key | None:
        """A key as `hex` wrote it, or None when it is not one."""
        raw = _bytes(text, KEY_BYTES)
        return None if raw is None else cls(_ed25519().Ed25519PrivateKey.from_private_bytes(raw))

    @property
    def hex(self) -> str:
        return str(self._private.private_bytes_raw().hex())

    def sign(self, statement: dict[str, Any]) -> str:
        return str(self._private.sign(_message(statement)).hex())


def public_key(text: object) -> str | None:
    """A public key as told (64 hex digits), or None when it is not one."""
    return text if isinstance(text, str) and _bytes(text, KEY_BYTES) is not None else None


def valid(public: str, statement: dict[str, Any], sig: object) -> bool:
    """Does `sig` sign `statement` under the public key `public`?"""
    raw, signature = _bytes(public, KEY_BYTES), _bytes(sig, SIG_BYTES)
    if raw is None or signature is None:
        return False
    try:
        _public(raw).verify(signature, _message(statement))
    except (_LOADED[1], ValueError):
        return False
    return True


def fingerprint(public: str) -> str:
    """A public key, short enough to read aloud and compare: 16 hex digits of its hash."""
    digest = hashlib.sha256(bytes.fromhex(public)).hexdigest()[:16]
    return " ".join(digest[i : i + 4] for i in range(0, 16, 4))


def _bytes(text: object, size: int) -> bytes | None:
    if not isinstance(text, str) or len(text) != 2 * size:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None


# -- what each signature says -----------------------------------------------------------------
def decision(at: object, tip: object, side: object, key: object, by: object) -> dict[str, Any]:
    return {"t": "decide", "at": at, "tip": tip, "side": side, "key": key, "by": by}


def commitment(game: str, commit: object) -> dict[str, Any]:
    return {"t": "commit", "game": game, "commit": commit}


def pledge(game: str, dice: Sequence[int], commit: object, join: object) -> dict[str, Any]:
    """The joiner's value for a roll of `dice` under the host's commitment `commit`."""
    return {"t": "value", "game": game, "dice": list(dice), "commit": commit, "join": join}


def reveal(game: str, commit: object, host: object) -> dict[str, Any]:
    """The host's value that opens `commit`: with the joiner's `pledge` of its value for
    that commitment, it settles the roll (and the host signs it ahead, in a pause)."""
    return {"t": "reveal", "game": game, "commit": commit, "host": host}


def takeback(
    game: str, at: object, tip: object, side: object, key: object, by: object
) -> dict[str, Any]:
    """A request to take back `side`'s decision `key` (made by `by`) at log entry `at` (the
    chain's tip there `tip`): signed by the asking side's machine."""
    return {"t": "takeback", "game": game, "at": at, "tip": tip, "side": side, "key": key, "by": by}


def agreed(
    game: str, at: object, tip: object, side: object, key: object, by: object
) -> dict[str, Any]:
    """The other machine's agreement to that take-back (`takeback`'s fields)."""
    return {**takeback(game, at, tip, side, key, by), "t": "agree"}


def typed(
    game: str, at: object, tip: object, side: object, dice: object, faces: object
) -> dict[str, Any]:
    """Faces `side`'s player typed for a roll of `dice` at log entry `at` (the chain's tip
    there `tip`): signed by that side's machine."""
    return {
        "t": "typed",
        "game": game,
        "at": at,
        "tip": tip,
        "side": side,
        "dice": dice,
        "faces": faces,
    }


TAKEBACK = "signed"  # a save's take-back record: its place, tip and both machines' signatures
ASK, AGREE = "ask", "agree"


@dataclass(frozen=True)
class Pair:
    """One game's keys on one machine: its own, and the other machine's public key; and
    signatures made ahead (`ahead`), taken when their statement is said."""

    mine: Key
    theirs: str
    made: dict[bytes, str] = field(default_factory=dict)

    def sign(self, statement: dict[str, Any]) -> str:
        made = self.made.pop(_message(statement), None)
        return made if made is not None else self.mine.sign(statement)

    def ahead(self, statements: Sequence[dict[str, Any]]) -> None:
        """Sign `statements` now (in a pause), for when they are said."""
        for statement in statements:
            told = _message(statement)
            if told not in self.made:
                self.made[told] = self.mine.sign(statement)

    def signed(self, message: dict[str, Any], statement: dict[str, Any]) -> dict[str, Any]:
        """`message` with this machine's signature of `statement`."""
        return {**message, SIG: self.sign(statement)}

    def holds(self, sig: object, statement: dict[str, Any]) -> bool:
        """Does the other machine's key sign `statement` with `sig`?"""
        return valid(self.theirs, statement, sig)


def carries(entry: object) -> bool:
    """Is `entry` one a machine signs in a signed game (a shared roll, a decision sent)?"""
    if not isinstance(entry, dict):
        return False
    return SIG in entry or (entry.get("t") == "roll" and isinstance(entry.get("shared"), dict))


def any_signed(log: Sequence[Any]) -> bool:
    return any(carries(e) for e in log)


SIGNS = ("typed", "takebacks")  # what the machines sign besides rolls and decisions


def block(host: str, keys: dict[str, str]) -> dict[str, Any]:
    """The save's record of the game's two keys, which side the host played, and what else
    its machines sign (a save of an earlier build, without it, is held to what it signed)."""
    return {"host": host, "keys": dict(sorted(keys.items())), "signs": list(SIGNS)}
