"""Visitors a real `wargame host` must survive (for tests/test_remote_door.py): a raw TLS
client that says whatever hello a test gives it, at whatever pace; and, run as a script,
`python tests/remote_visitor.py PING DEAD STALE -- ARGS...`: `wargame ARGS` with a quicker
heartbeat (`wire.PING`, `wire.DEAD`, `gate.STALE` in seconds), so a half-open connection is
noticed within a test's time."""

from __future__ import annotations

import json
import socket
import ssl
import sys
import threading
import time
from typing import Any

from wargame_cli import registry
from wargame_cli.remote import codes, tls
from wargame_cli.remote.gate import PROTOCOL, split_address


def versions() -> dict[str, str]:
    return {info.id: registry.get(info.id).version for info in registry.all_infos()}


def framed(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def nested(depth: int) -> str:
    """JSON nested `depth` deep (a list in a list in ...)."""
    return "[" * depth + "]" * depth


def connect(address: str, rcvbuf: int | None = None) -> tuple[ssl.SSLSocket, str]:
    """A TLS connection to the host (`rcvbuf`: a small receive buffer, for a visitor that
    stops reading), and the host's fingerprint."""
    host, port = split_address(address, 0)
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    raw.settimeout(20)
    raw.connect((host, port))
    sock = tls.client_context().wrap_socket(raw)
    return sock, tls.peer_fingerprint(sock)


def hello_body(code: str | None, fingerprint: str, extra: str = "") -> bytes:
    """A hello as `gate.knock` says it (no proof when `code` is None), with `extra` JSON
    text added to it (`, "roll": …`), and its number."""
    told: dict[str, Any] = {"t": "hello", "protocol": PROTOCOL, "rulesets": versions()}
    if code is not None:
        told["proof"] = codes.proof(code, fingerprint, "join")
    text = json.dumps(told)
    return (text[:-1] + extra + ', "n": 0}').encode()


def say(address: str, body: bytes) -> bytes:
    """Connect, send `body` as one message, and return what the host answers (b"": it
    closed the connection)."""
    sock, _ = connect(address)
    try:
        sock.sendall(framed(body))
        return _read_some(sock)
    finally:
        sock.close()


def _read_some(sock: ssl.SSLSocket) -> bytes:
    try:
        return sock.recv(65536)
    except (OSError, ssl.SSLError):
        return b""


class Trickle:
    """A slow visitor: it connects (TLS) and sends a hello one byte every `every` seconds,
    until stopped or `limit` seconds pass."""

    def __init__(self, address: str, code: str, every: float, limit: float = 90) -> None:
        self.sock, fingerprint = connect(address)
        self.blob = framed(hello_body(code, fingerprint))
        self.every, self.limit = every, limit
        self.stop = threading.Event()
        self.cut = False  # the host ended the connection
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        end = time.monotonic() + self.limit
        for byte in self.blob[:-1]:  # never the last: a hello that never ends
            if self.stop.wait(self.every) or time.monotonic() > end:
                return
            try:
                self.sock.sendall(bytes([byte]))
            except (OSError, ssl.SSLError):
                self.cut = True
                return

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=self.every + 5)
        self.sock.close()


def idle(address: str, count: int) -> list[socket.socket]:
    """`count` TCP connections that never say anything (not even TLS)."""
    host, port = split_address(address, 0)
    return [socket.create_connection((host, port), timeout=20) for _ in range(count)]


def nest_reveal(record: str) -> None:
    """This host's first reveal goes out nested past any stack instead (its veto of a roll
    by crashing the joiner), framed and numbered as the wire does; `record` is written once
    it is sent."""
    import contextlib
    from pathlib import Path

    from wargame_cli.remote import wire

    honest = wire.Link.post
    done: list[bool] = []

    def post(self: wire.Link, *messages: dict[str, Any]) -> None:
        if done or not any(m.get("t") == "reveal" for m in messages):
            honest(self, *messages)
            return
        done.append(True)
        blob = bytearray()
        for number, message in enumerate(messages, self.sent):
            text = json.dumps({**message, "n": number})
            if message.get("t") == "reveal":
                text = f'{{"t": "reveal", "value": {nested(100_000)}, "n": {number}}}'
            blob += framed(text.encode())
        with getattr(self, "_lock", None) or contextlib.nullcontext():
            self.sock.settimeout(30)
            self.sock.sendall(blob)
        self.sent += len(messages)
        Path(record).write_text("sent")

    wire.Link.post = post  # type: ignore[method-assign]


def undo_often(after: int, times: int) -> None:
    """This machine's bot asks to take back every other decision once it has made `after`,
    `times` times in all (each take-back sends every spectator the whole game again); its
    decisions count as a script's, which a take-back may take."""
    from wargame_cli.engine.bots import BotController
    from wargame_cli.engine.requests import TAKE_BACK

    asked = [0, 0]  # questions answered, take-backs asked

    def choose(self: BotController, choice: Any, game: Any) -> str:
        asked[0] += 1
        if asked[0] > after and asked[1] < times and asked[0] % 2 == 0:
            asked[1] += 1
            return TAKE_BACK
        return str(choice.default)

    BotController.by = "script"  # type: ignore[misc]
    BotController.choose = choose  # type: ignore[method-assign]


if __name__ == "__main__":
    from wargame_cli.remote import gate, wire

    wire.PING, wire.DEAD, gate.STALE = (float(x) for x in sys.argv[1:4])
    assert sys.argv[4] == "--"
    rest = sys.argv[5:]
    if rest[:1] == ["--nest-reveal"]:
        nest_reveal(rest[1])
        rest = rest[2:]
    if rest[:1] == ["--undo-often"]:
        undo_often(int(rest[1]), int(rest[2]))
        rest = rest[3:]
    sys.argv = ["wargame", *rest]
    from wargame_cli.cli.app import main

    main()
