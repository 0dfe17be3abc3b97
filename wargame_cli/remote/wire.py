"""The wire format: each message is one JSON object, sent as 4 bytes of length (big-endian)
and that many bytes of UTF-8. Messages are numbered by their sender (`n`, from 0), so one that
arrives out of order or twice is refused. Size, nesting, numbers and rate are bounded; a
message that starts must finish within `MID_MESSAGE` (the whole message, not each read), so a
drop or a trickle mid-message is told, never waited on forever. Anything a message holds that
cannot be read is a `Refused`: one line, never a traceback.

A player's link has a heartbeat (`Link.beat`): a thread of its own reads what comes (so a
message can wait for the game while the other side's pings keep coming) and says "ping" when
this side has said nothing for `PING` seconds; a side that says nothing at all for `DEAD`
seconds is gone (a half-open connection: its machine or its network died), and the link is
`Dropped`. Only one thread at a time touches the TLS socket (OpenSSL's rule): each read and
write holds the link's lock, and waiting for input happens outside it."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import socket
import ssl
import threading
import time
from typing import Any

from wargame_cli.errors import BadInput
from wargame_cli.saves import untrusted

MAX_MESSAGE = 256 * 1024  # bytes: a decision, a die exchange or a team is far smaller
MAX_GAME = 16 * 1024 * 1024  # the one big message: a whole save, sent by the host to a joiner
RATE = 1000  # messages a second, on average, from the other side (a bot game's peak is far less)
BURST = 2000
MID_MESSAGE = 10.0  # seconds a started message may take to arrive whole
PING = 5.0  # seconds of this side's silence after which a beating link says "ping"
DEAD = 30.0  # seconds without a word from the other side (a message or a ping): it is gone
SEND_WAIT = 30.0  # seconds a write may wait for the other side to take anything in
PING_KIND = "ping"


class RemoteError(BadInput):
    """The other side or the network went wrong: one clear line, exit 2."""


class Dropped(RemoteError):
    """The connection closed or broke."""


class Refused(RemoteError):
    """The other side sent something it must not: malformed, oversized, out of order, too
    fast, or not what the game asks for now."""


def decode(body: bytes, peer: str) -> dict[str, Any]:
    """One message's bytes as a message (a JSON object with a type), or `Refused` saying why
    not: never another exception, whatever the bytes (bad UTF-8, nesting past
    `untrusted.MAX_DEPTH`, numbers past `untrusted.MAX_INT`, NaN or infinity)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(f"{peer} sent a malformed message (not UTF-8)") from None
    try:
        message = json.loads(text, parse_constant=_no_constant)
        untrusted.check_shape(message)
    except untrusted.Untrusted as exc:
        raise Refused(f"{peer} sent a malformed message ({exc})") from None
    except RecursionError:
        raise Refused(
            f"{peer} sent a malformed message (it nests deeper than {untrusted.MAX_DEPTH} levels)"
        ) from None
    except ValueError:  # not JSON, or an integer over Python's digit limit
        raise Refused(f"{peer} sent a malformed message (not JSON)") from None
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise Refused(f"{peer} sent a malformed message (no type)")
    return message


def _no_constant(name: str) -> Any:
    raise untrusted.Untrusted(f"{name} is not a number JSON allows")


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
        self._lock = threading.Lock()  # one TLS read or write at a time
        self.heard = self.said = time.monotonic()  # when the other side, and this, last spoke
        # the heartbeat's (`beat`): messages read, the error that ended reading, and a pipe
        # with one byte a message (and one for the end), which a screen can wait on
        self._inbox: queue.Queue[dict[str, Any]] | None = None
        self._landing = threading.Lock()  # held while one write's messages go into the inbox
        self._broken: RemoteError | None = None
        self._bell: tuple[int, int] | None = None
        self._pump: threading.Thread | None = None
        self._closed = False

    def post(self, *messages: dict[str, Any]) -> None:
        """Send `messages` in order, in one write (one wake-up of the other side)."""
        self.post_encoded(*(json.dumps(m, ensure_ascii=False) for m in messages))

    def post_encoded(self, *texts: str) -> None:
        """`post` of messages encoded already (JSON objects, each with its type, without
        their number): one encoding sent on many links (`watchers`)."""
        failed: Dropped | None = None
        with self._lock:
            blob = bytearray()
            for number, text in enumerate(texts, self.sent):
                if not text.startswith("{") or not text.endswith("}") or text == "{}":
                    raise ValueError("a message is a JSON object with its type")
                body = f'{text[:-1]}, "n": {number}}}'.encode()
                blob += len(body).to_bytes(4, "big") + body
            try:
                self.sock.settimeout(SEND_WAIT)
                self.sock.sendall(blob)
                self.sent += len(texts)
                self.said = time.monotonic()
            except TimeoutError:
                failed = Dropped(f"{self.peer} stopped taking in what we send")
            except (OSError, ValueError) as exc:
                failed = Dropped(_broke(self.peer, exc))
        if failed is not None:
            raise self._ended(failed)

    def _ended(self, failed: Dropped) -> RemoteError:
        """Why the link ended, a write having failed: what the reader found first, when it
        finds it soon (a message cut in the middle, say), else the write's own reason."""
        pump = self._pump
        if pump is not None and pump is not threading.current_thread():
            self.cut()
            pump.join(timeout=1.0)
        return self._broken or failed

    def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message (pings are taken in passing); `timeout` bounds the wait for it to
        begin (None: no bound; TimeoutError when it passes)."""
        if self._inbox is None:
            end = None if timeout is None else time.monotonic() + timeout
            while True:
                left = None if end is None else max(0.0, end - time.monotonic())
                message = self._frame(left)
                if message["t"] != PING_KIND:
                    return message
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._broken is not None and self._inbox.empty():
                raise self._broken
            wait = 0.25 if end is None else min(0.25, end - time.monotonic())
            if wait <= 0:
                raise TimeoutError
            try:
                message = self._inbox.get(timeout=wait)  # short waits: Ctrl-C is heard
            except queue.Empty:
                continue
            assert self._bell is not None
            os.read(self._bell[0], 1)  # its byte (written just after it was put)
            return message

    def ready(self) -> bool:
        """Has a message (or part of one) already come, so that a read would not wait?"""
        if self._inbox is not None:
            with self._landing:  # what came in one write is all in, or none of it
                return not self._inbox.empty() or self._broken is not None
        if isinstance(self.sock, ssl.SSLSocket) and self.sock.pending():
            return True
        try:
            return bool(select.select([self.sock], [], [], 0)[0])
        except (OSError, ValueError):
            return True  # closed: the read says so at once

    def fileno(self) -> int:
        """A file that has input when `ready` is true (for a screen to wait on)."""
        return self._bell[0] if self._bell is not None else self.sock.fileno()

    def beat(self) -> None:
        """From now on a thread of its own reads this link and keeps it alive: "ping" after
        `PING` seconds of our silence; `Dropped` after `DEAD` seconds of the other side's."""
        if self._pump is not None:
            return
        pulse, dead = PING, DEAD
        self._inbox = queue.Queue()
        self._bell = os.pipe()
        self.heard = time.monotonic()
        self._pump = threading.Thread(target=self._beating, args=(pulse, dead), daemon=True)
        self._pump.start()

    def _beating(self, pulse: float, dead: float) -> None:
        assert self._inbox is not None and self._bell is not None
        try:
            while not self._closed:
                now = time.monotonic()
                if now - self.heard > dead:
                    raise Dropped(
                        f"no word from {self.peer} in {dead:g} seconds: the connection is gone"
                    )
                if now - self.said >= pulse:
                    self.post({"t": PING_KIND})
                wait = min(self.said + pulse, self.heard + dead) - time.monotonic()
                try:
                    batch = [self._frame(max(0.01, wait))]
                except TimeoutError:
                    continue
                try:
                    while self._more_now():  # the rest of the same write
                        batch.append(self._frame(MID_MESSAGE))
                finally:  # what came is landed before any end found after it
                    self._land(batch)
        except RemoteError as exc:
            self._broken = exc
        except Exception as exc:  # a thread's end: told to the game, never a traceback
            self._broken = Dropped(_broke(self.peer, exc))
        with contextlib.suppress(OSError):
            os.write(self._bell[1], b"!")  # the end: readable from now on

    def _land(self, batch: list[dict[str, Any]]) -> None:
        assert self._inbox is not None and self._bell is not None
        with self._landing:
            for message in batch:
                if message["t"] != PING_KIND:
                    self._inbox.put(message)
                    os.write(self._bell[1], b".")

    def _more_now(self) -> bool:
        """Are more bytes here already (sent with what was just read, in one write)? The
        reader lands them together, so `ready` after the first of them sees the rest."""
        with self._lock:
            if isinstance(self.sock, ssl.SSLSocket) and self.sock.pending():
                return True
        try:
            return bool(select.select([self.sock], [], [], 0)[0])
        except (OSError, ValueError):
            return False

    @property
    def gone(self) -> bool:
        """Has its reader found the connection ended (the other process died, say)?"""
        return self._broken is not None

    def cut(self) -> None:
        """End the connection now (a reader waiting on it, here or there, hears it end)."""
        with contextlib.suppress(OSError):
            socket.socket.shutdown(self.sock, socket.SHUT_RDWR)

    def close(self) -> None:
        self._closed = True
        self.cut()
        pump = self._pump
        if pump is not None and pump is not threading.current_thread():
            pump.join(timeout=1.0)
        with self._lock, contextlib.suppress(OSError):
            self.sock.close()
        if self._bell is not None and (pump is None or not pump.is_alive()):
            for fd in self._bell:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._bell = None

    def _frame(self, timeout: float | None) -> dict[str, Any]:
        """One whole message: its first bytes within `timeout` (TimeoutError: none came),
        then all of it within `MID_MESSAGE`."""
        first = self._chunk(4, None if timeout is None else time.monotonic() + timeout)
        if not first:
            raise Dropped(f"{self.peer} closed the connection")
        deadline = time.monotonic() + MID_MESSAGE
        head = first + self._exactly(4 - len(first), deadline)
        size = int.from_bytes(head, "big")
        if size > self.limit:
            raise Refused(f"{self.peer} sent a message of {size} bytes (at most {self.limit})")
        body = self._exactly(size, deadline)
        self.heard = time.monotonic()
        self._spend()
        message = decode(body, self.peer)
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

    def _exactly(self, size: int, deadline: float) -> bytes:
        out = bytearray()
        while len(out) < size:
            try:
                chunk = self._chunk(size - len(out), deadline)
            except TimeoutError:
                raise Dropped(f"{self.peer} stopped in the middle of a message") from None
            except Dropped:  # cut (a reset, not a close): the same to the reader
                chunk = b""
            if not chunk:
                raise Dropped(f"the connection to {self.peer} dropped in the middle of a message")
            out += chunk
        return bytes(out)

    def _chunk(self, size: int, deadline: float | None) -> bytes:
        """Up to `size` bytes as soon as any come (b"": the connection closed), waiting no
        later than `deadline` (TimeoutError). The read holds the lock; the wait does not."""
        while True:
            with self._lock:
                try:
                    self.sock.setblocking(False)
                    return self.sock.recv(size)
                except (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError):
                    pass
                except (ssl.SSLEOFError, ssl.SSLZeroReturnError):
                    return b""  # closed, with or without TLS's goodbye
                except (OSError, ValueError) as exc:
                    raise Dropped(_broke(self.peer, exc)) from None
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                raise TimeoutError
            try:
                select.select([self.sock], [], [], wait)
            except (OSError, ValueError) as exc:
                raise Dropped(_broke(self.peer, exc)) from None

    def _spend(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._clock) * self.rate)
        self._clock = now
        if self._tokens < 1:
            raise Refused(f"{self.peer} sent messages too fast (over {self.rate} a second)")
        self._tokens -= 1


def _broke(peer: str, exc: BaseException) -> str:
    if isinstance(exc, ssl.SSLEOFError | ConnectionResetError | BrokenPipeError):
        return f"the connection to {peer} was cut"
    if isinstance(exc, OSError):
        return f"the connection to {peer} broke ({exc.strerror or type(exc).__name__})"
    return f"the connection to {peer} broke ({type(exc).__name__})"
