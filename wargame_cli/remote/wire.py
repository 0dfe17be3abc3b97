"""The wire format: each message is one JSON object, sent as 4 bytes of length (big-endian)
and that many bytes of UTF-8. Messages are numbered by their sender (`n`, from 0), so one that
arrives out of order or twice is refused. Size and rate are bounded; a message that starts
must finish within `MID_MESSAGE`, so a drop mid-message is told, never waited on forever."""

from __future__ import annotations

import contextlib
import json
import select
import socket
import ssl
import time
from typing import Any

from wargame_cli.errors import BadInput

MAX_MESSAGE = 256 * 1024  # bytes: a decision, a die exchange or a team is far smaller
MAX_GAME = 16 * 1024 * 1024  # the one big message: a whole save, sent by the host to a joiner
RATE = 1000  # messages a second, on average, from the other side (a bot game's peak is far less)
BURST = 2000
MID_MESSAGE = 10.0  # seconds a started message may take to arrive whole


class RemoteError(BadInput):
    """The other side or the network went wrong: one clear line, exit 2."""


class Dropped(RemoteError):
    """The connection closed or broke."""


class Refused(RemoteError):
    """The other side sent something it must not: malformed, oversized, out of order, too
    fast, or not what the game asks for now."""


class Link:
    """One connection (TLS underneath), both ways."""

    def __init__(self, sock: socket.socket, limit: int = MAX_MESSAGE, peer: str = "the other side"):
        self.sock = sock
        self.limit = limit
        self.peer = peer
        self.sent = 0
        self.received = 0
        self.rate, self.burst = RATE, BURST
        self._tokens = float(BURST)
        self._clock = time.monotonic()

    def post(self, *messages: dict[str, Any]) -> None:
        """Send `messages` in order, in one write (one wake-up of the other side)."""
        blob = bytearray()
        for number, message in enumerate(messages, self.sent):
            body = json.dumps({**message, "n": number}, ensure_ascii=False).encode()
            blob += len(body).to_bytes(4, "big") + body
        try:
            self.sock.sendall(blob)
        except OSError as exc:
            raise Dropped(_broke(self.peer, exc)) from None
        self.sent += len(messages)

    def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message; `timeout` bounds the wait for it to begin (None: no bound)."""
        head = self._read(4, timeout, first=True)
        size = int.from_bytes(head, "big")
        if size > self.limit:
            raise Refused(f"{self.peer} sent a message of {size} bytes (at most {self.limit})")
        body = self._read(size, MID_MESSAGE)
        self._spend()
        try:
            message = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise Refused(f"{self.peer} sent a malformed message (not JSON)") from None
        if not isinstance(message, dict) or not isinstance(message.get("t"), str):
            raise Refused(f"{self.peer} sent a malformed message (no type)")
        number = message.get("n")
        if number != self.received:
            what = (
                "replayed" if isinstance(number, int) and number < self.received else "out of order"
            )
            raise Refused(
                f"{self.peer} sent a message {what} (number {number!r}, expected {self.received})"
            )
        self.received += 1
        return message

    def ready(self) -> bool:
        """Has a message (or part of one) already come, so that a read would not wait?"""
        if isinstance(self.sock, ssl.SSLSocket) and self.sock.pending():
            return True
        try:
            return bool(select.select([self.sock], [], [], 0)[0])
        except (OSError, ValueError):
            return True  # closed: the read says so at once

    def _spend(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._clock) * self.rate)
        self._clock = now
        if self._tokens < 1:
            raise Refused(f"{self.peer} sent messages too fast (over {self.rate} a second)")
        self._tokens -= 1

    def _read(self, size: int, timeout: float | None, first: bool = False) -> bytes:
        out = bytearray()
        self.sock.settimeout(timeout)
        try:
            while len(out) < size:
                try:
                    chunk = self.sock.recv(size - len(out))
                except TimeoutError:
                    if first and not out:
                        raise
                    raise Dropped(f"{self.peer} stopped in the middle of a message") from None
                if not chunk:
                    if first and not out:
                        raise Dropped(f"{self.peer} closed the connection")
                    raise Dropped(
                        f"the connection to {self.peer} dropped in the middle of a message"
                    )
                out += chunk
                if first and len(out) < size:
                    self.sock.settimeout(MID_MESSAGE)
        except OSError as exc:
            if isinstance(exc, TimeoutError):
                raise
            raise Dropped(_broke(self.peer, exc)) from None
        finally:
            with contextlib.suppress(OSError):
                self.sock.settimeout(None)
        return bytes(out)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def _broke(peer: str, exc: OSError) -> str:
    if isinstance(exc, ssl.SSLEOFError | ConnectionResetError | BrokenPipeError):
        return f"the connection to {peer} was cut"
    return f"the connection to {peer} broke ({exc.strerror or type(exc).__name__})"
