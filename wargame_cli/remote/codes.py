"""Seat codes: random, one seat each, compared in constant time, and refused for good after a
few wrong tries (so a code cannot be guessed by trying)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud or typed, unmistaken
GROUPS, GROUP = 3, 4  # 12 characters: about 59 bits
MAX_TRIES = 3


def new_code() -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(GROUP)) for _ in range(GROUPS))


def normal(code: str) -> str:
    """A code as typed, compared without case, spaces or dashes."""
    return "".join(ch for ch in code.lower() if ch.isalnum())


def proof(code: str, fingerprint: str, who: str) -> str:
    """What proves knowing `code` over a connection to the host whose certificate has
    `fingerprint`, without sending the code: an HMAC bound to that certificate. A
    man-in-the-middle shows its own certificate, so a proof made for it opens no seat at the
    real host; `who` ("join" or "host") keeps the two directions' proofs apart."""
    key = normal(code).encode()
    return hmac.new(key, f"{who}|{fingerprint}".encode(), hashlib.sha256).hexdigest()


@dataclass
class Door:
    """The codes of one hosted game: the seat's and the spectators'. Every wrong code counts
    against both; after `MAX_TRIES` the seat's code is refused even when right."""

    seat: str
    watch: str
    wrong: int = 0
    taken: set[str] = field(default_factory=set)

    @property
    def closed(self) -> bool:
        return self.wrong >= MAX_TRIES

    def failed(self) -> None:
        """A try that named no code at all (a hello that could not be read): counted."""
        self.wrong += 1

    def check(self, given: object, fingerprint: str) -> str | None:
        """ "player" or "watcher" for a right proof (see `proof`), None for a wrong one
        (counted)."""
        if self.closed or not isinstance(given, str):
            self.wrong += 1
            return None
        for role, code in (("player", self.seat), ("watcher", self.watch)):
            if hmac.compare_digest(given.encode(), proof(code, fingerprint, "join").encode()):
                return role
        self.wrong += 1
        return None
