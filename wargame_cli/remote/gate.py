"""Who may come in: the host's listening socket, the TLS handshake, the hello (its code's
proof, its rulesets' versions) and the welcome; the joiner's side of the same. A visitor
with a wrong code or another version of the rules is refused with one line on both sides."""

from __future__ import annotations

import queue
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wargame_cli.invoked import command
from wargame_cli.remote import codes, pledge, signing, tls
from wargame_cli.remote.wire import MAX_GAME, Dropped, Link, Refused, RemoteError

HELLO_WAIT = 10.0  # seconds a visitor has to finish the handshake and say hello
CONNECT_WAIT = 10.0
PROTOCOL = 1


@dataclass(frozen=True)
class Visitor:
    link: Link
    role: str  # "player" or "watcher"
    address: str
    claim: pledge.Pending | None = None  # a rejoining player's roll in progress
    key: str | None = None  # a player's public key for signing (`signing`), as its hello told


class Gate:
    """The host's door: listens, and lets in a visitor with a right code and the same rules.
    It keeps listening through the game (a thread of its own), so spectators come in at any
    time, a second player is told the seat is taken, and a joiner who dropped can come back."""

    def __init__(
        self,
        listen: str,
        port: int,
        identity: tls.Identity,
        door: codes.Door,
        ruleset: tuple[str, str],
        tell: Callable[[str], None],
    ) -> None:
        self.identity = identity
        self.door = door
        self.ruleset = ruleset
        self.tell = tell
        self.context = tls.server_context(identity)
        self.fingerprint = identity.fingerprint
        self.seated = False  # a player holds the seat: another is refused
        self.on_watcher: Callable[[Link], None] | None = None
        self._players: queue.Queue[Visitor | RemoteError] = queue.Queue()
        self._thread: threading.Thread | None = None
        try:
            self.sock = socket.create_server((listen, port), backlog=8)
        except OSError as exc:
            raise RemoteError(f"cannot listen on {listen}:{port}: {exc.strerror or exc}") from None

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    def open(self, welcome: Callable[[str], dict[str, Any]]) -> None:
        """Start letting visitors in; `welcome(role)` is what each is told it joins."""
        self._thread = threading.Thread(target=self._listen, args=(welcome,), daemon=True)
        self._thread.start()

    def admit(self) -> Visitor:
        """The next player let in (spectators go to `on_watcher`)."""
        self.seated = False
        while True:
            try:
                got = self._players.get(timeout=0.25)  # short waits: Ctrl-C is heard
            except queue.Empty:
                continue
            if isinstance(got, RemoteError):
                raise got
            return got

    def _listen(self, welcome: Callable[[str], dict[str, Any]]) -> None:
        while True:
            try:
                raw, address = self.sock.accept()
            except OSError:
                return  # closed: the game is over
            where = f"{address[0]}:{address[1]}"
            try:
                visitor = self._meet(raw, where, welcome)
            except RemoteError as exc:
                self.tell(f"refused a visitor from {where}: {exc}")
                raw.close()
                if self.door.closed:
                    self._players.put(
                        RemoteError(
                            f"{codes.MAX_TRIES} wrong codes: this game's codes are refused from "
                            f"now on (start again with {command('host --resume SAVE')} "
                            "for new ones)"
                        )
                    )
                    return
                continue
            if visitor.role == "watcher" and self.on_watcher is not None:
                self.tell(f"a spectator joined from {where}")
                self.on_watcher(visitor.link)
            elif visitor.role == "player":
                self.seated = True
                self._players.put(visitor)

    def _meet(
        self, raw: socket.socket, where: str, welcome: Callable[[str], dict[str, Any]]
    ) -> Visitor:
        raw.settimeout(HELLO_WAIT)
        quick(raw)
        try:
            sock = self.context.wrap_socket(raw, server_side=True)
        except (OSError, ssl.SSLError) as exc:
            raise Dropped(f"no TLS handshake ({exc.__class__.__name__})") from None
        link = Link(sock, peer="the visitor")
        try:
            hello = link.recv(timeout=HELLO_WAIT)
        except TimeoutError:
            raise Dropped(f"no hello within {HELLO_WAIT:g} seconds") from None
        if hello["t"] != "hello":
            raise Refused(f"it sent {str(hello['t'])[:20]!r} before its hello")
        role = self.door.check(hello.get("proof"), self.fingerprint)
        if role is None:
            link.post({"t": "refused", "why": "wrong code"})
            raise Refused(f"wrong code ({self.door.wrong} of {codes.MAX_TRIES} tries)")
        ruleset_id, version = self.ruleset
        theirs = (hello.get("rulesets") or {}) if isinstance(hello.get("rulesets"), dict) else {}
        if theirs.get(ruleset_id) != version:
            why = (
                f"this game plays {ruleset_id} version {version}; the joiner's wargame has "
                f"{_version_words(theirs.get(ruleset_id))}: both sides need the same version"
            )
            link.post({"t": "refused", "why": why})
            raise Refused(why)
        code = self.door.seat if role == "player" else self.door.watch
        if role == "player" and self.seated:
            link.post({"t": "refused", "why": "the seat is taken: its player is connected"})
            raise Refused("the seat is taken")
        told = welcome(role)
        if told.get("t") == "refused":
            link.post(told)
            raise Refused(str(told.get("why")))
        link.post({**told, "proof": codes.proof(code, self.fingerprint, "host")})
        sock.settimeout(None)
        link.limit = MAX_GAME if role == "watcher" else link.limit
        link.peer = "the other player" if role == "player" else "a spectator"
        return Visitor(
            link, role, where, pledge.claimed(hello), signing.public_key(hello.get("sign"))
        )

    def close(self) -> None:
        self.sock.close()


def quick(sock: socket.socket) -> None:
    """Each message leaves at once: a roll's commitment right after the last roll's reveal
    would otherwise wait for an acknowledgement the other side delays (Nagle's algorithm
    against delayed ACKs: 40 ms a roll)."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _version_words(version: object) -> str:
    return f"version {version}" if isinstance(version, str) else "no such ruleset"


def split_address(address: str, default_port: int) -> tuple[str, int]:
    """HOST:PORT (or [IPv6]:PORT, or HOST alone for the default port)."""
    text = address.strip()
    host, port = text, default_port
    if text.startswith("["):
        end = text.find("]")
        host, rest = text[1:end], text[end + 1 :]
        if rest.startswith(":"):
            port = _port(rest[1:], address)
    elif text.count(":") == 1:
        host, _, given = text.partition(":")
        port = _port(given, address)
    if not host or end_bad(host):
        raise RemoteError(f"{address!r} is not an address (HOST:PORT)")
    return host, port


def end_bad(host: str) -> bool:
    return any(ch.isspace() for ch in host)


def _port(text: str, address: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise RemoteError(f"{address!r}: the port must be a number from 1 to 65535")
    return int(text)


def knock(
    address: str,
    code: str,
    rulesets: dict[str, str],
    default_port: int,
    roll: dict[str, Any] | None = None,
    key: str | None = None,
) -> tuple[Link, dict[str, Any], str]:
    """Connect to a host, prove the code and say which rules we have (and, rejoining, the
    roll in progress: `pledge`), with our public key for signing (`signing`): the link, the
    host's welcome, and the fingerprint of its certificate."""
    host, port = split_address(address, default_port)
    try:
        raw = socket.create_connection((host, port), timeout=CONNECT_WAIT)
    except OSError as exc:
        raise Dropped(f"cannot reach {host}:{port}: {exc.strerror or exc}") from None
    quick(raw)
    try:
        sock = tls.client_context().wrap_socket(raw)
    except (OSError, ssl.SSLError) as exc:
        raw.close()
        raise Dropped(
            f"{host}:{port} did not answer as a wargame host ({exc.__class__.__name__})"
        ) from None
    fingerprint = tls.peer_fingerprint(sock)
    link = Link(sock, limit=MAX_GAME, peer="the host")
    link.post(
        {
            "t": "hello",
            "protocol": PROTOCOL,
            "proof": codes.proof(code, fingerprint, "join"),
            "rulesets": rulesets,
            **({"roll": roll} if roll is not None else {}),
            **({"sign": key} if key is not None else {}),
        }
    )
    try:
        welcome = link.recv(timeout=HELLO_WAIT * 3)
    except TimeoutError:
        link.close()
        raise Dropped(f"{host}:{port} did not welcome us") from None
    if welcome["t"] == "refused":
        link.close()
        raise Refused(f"the host refused: {str(welcome.get('why'))[:300]}")
    if welcome["t"] != "welcome" or welcome.get("proof") != codes.proof(code, fingerprint, "host"):
        link.close()
        raise Refused(
            "the host did not prove it knows the code: this is not the game the code was "
            "given for, or someone is in between"
        )
    return link, welcome, fingerprint
