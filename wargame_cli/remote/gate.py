"""Who may come in: the host's listening socket, the TLS handshake, the hello (its code's
proof, its rulesets' versions) and the welcome; the joiner's side of the same. A visitor
with a wrong code or another version of the rules is refused with one line on both sides.

Each visitor is met on a thread of its own, and has `HELLO_WAIT` seconds in all (handshake,
hello, welcome) and `HELLO_LIMIT` bytes to say hello, so no visitor, however slow, keeps
another out. A hello that cannot be read (malformed, nested, huge numbers: anything) counts
as a wrong try, as a wrong code does; it never ends the door."""

from __future__ import annotations

import contextlib
import queue
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wargame_cli.remote import codes, pledge, signing, tls
from wargame_cli.remote.wire import (
    MAX_GAME,
    MAX_MESSAGE,
    PING,
    Dropped,
    Link,
    Refused,
    RemoteError,
)

HELLO_WAIT = 10.0  # seconds a visitor has to finish the handshake and say hello, in all
HELLO_LIMIT = 64 * 1024  # bytes a hello may have: a proof, a few versions, a roll
MAX_VISITORS = 32  # visitors met at once; more are turned away at the door
STALE = 3 * PING  # seconds a seated player may go unheard before the seat counts as dead
CONNECT_WAIT = 10.0
PROTOCOL = 2  # 2: heartbeats ("ping") on a player's link


@dataclass(frozen=True)
class Visitor:
    link: Link
    role: str  # "player" or "watcher"
    address: str
    claim: pledge.Pending | None = None  # a rejoining player's roll in progress
    key: str | None = None  # a player's public key for signing (`signing`), as its hello told


class BadHello(Refused):
    """A visitor's hello could not be read or is not a hello: a wrong try."""


class DoorClosed(RemoteError):
    """Too many wrong tries: this game's codes are refused from now on."""


class Gate:
    """The host's door: listens, and lets in a visitor with a right code and the same rules.
    It keeps listening through the game (a thread of its own, and one for each visitor), so
    spectators come in at any time, a second player is told the seat is taken, and a joiner
    who dropped can come back (to a seat whose player went silent: `STALE`)."""

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
        self.seat: Link | None = None  # the seated player's link: another is refused
        self.on_watcher: Callable[[Link], None] | None = None
        self._players: queue.Queue[Visitor | RemoteError] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()  # the door's count, the seat, the visitors met
        self._visiting = 0
        self._told_closed = False
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

    def admit(self, gone: Link | None = None) -> Visitor:
        """The next player let in (spectators go to `on_watcher`); `gone`: the link of the
        player who held the seat and dropped (the seat is free again)."""
        with self._lock:
            if gone is not None and self.seat is gone:
                self.seat = None
        while True:
            try:
                got = self._players.get(timeout=0.25)  # short waits: Ctrl-C is heard
            except queue.Empty:
                continue
            if isinstance(got, RemoteError):
                raise got
            with self._lock:
                current = got.link is self.seat
            if current:
                return got
            got.link.close()  # replaced meanwhile by a later one with the code

    def _listen(self, welcome: Callable[[str], dict[str, Any]]) -> None:
        while True:
            try:
                raw, address = self.sock.accept()
            except OSError:
                return  # closed: the game is over
            with self._lock:
                turned = self.door.closed or self._visiting >= MAX_VISITORS
                self._visiting += 0 if turned else 1
            if turned:
                raw.close()
                continue
            meet = threading.Thread(target=self._visit, args=(raw, address, welcome), daemon=True)
            meet.start()

    def _visit(
        self, raw: socket.socket, address: Any, welcome: Callable[[str], dict[str, Any]]
    ) -> None:
        """One visitor, on its own thread: let in, or refused (and counted when its hello
        was wrong); never longer than `HELLO_WAIT` in all."""
        where = f"{address[0]}:{address[1]}"
        visit = _Visit(raw)
        timer = threading.Timer(HELLO_WAIT, visit.time_up)
        timer.daemon = True
        timer.start()
        try:
            visitor = self._meet(visit, where, welcome)
        except Exception as exc:  # whatever a visitor's bytes did: refused, the door stays
            self._turned_away(visit.sock, where, exc)
            return
        finally:
            timer.cancel()
            with self._lock:
                self._visiting -= 1
        if visitor.role == "watcher" and self.on_watcher is not None:
            self.tell(f"a spectator joined from {where}")
            self.on_watcher(visitor.link)
        elif visitor.role == "player":
            self._players.put(visitor)

    def _turned_away(self, raw: socket.socket, where: str, exc: Exception) -> None:
        if isinstance(exc, BadHello) or not isinstance(exc, RemoteError):
            with self._lock:
                self.door.failed()
            why = exc if isinstance(exc, RemoteError) else "its hello could not be read"
            told = f"{why} ({self.door.wrong} of {codes.MAX_TRIES} tries)"
        else:
            told = str(exc)
        self.tell(f"refused a visitor from {where}: {told}")
        with contextlib.suppress(OSError):
            raw.close()
        with self._lock:
            shut = self.door.closed and not self._told_closed
            self._told_closed = self._told_closed or shut
        if shut:
            self._players.put(DoorClosed(f"{codes.MAX_TRIES} wrong codes"))

    def _meet(self, visit: _Visit, where: str, welcome: Callable[[str], dict[str, Any]]) -> Visitor:
        raw = visit.sock
        raw.settimeout(HELLO_WAIT)
        quick(raw)
        try:
            sock = visit.sock = self.context.wrap_socket(raw, server_side=True)
        except (OSError, ssl.SSLError) as exc:
            raise Dropped(f"no TLS handshake ({exc.__class__.__name__})") from None
        link = Link(sock, limit=HELLO_LIMIT, peer="the visitor")
        try:
            hello = link.recv(timeout=HELLO_WAIT)
        except TimeoutError:
            raise Dropped(f"no hello within {HELLO_WAIT:g} seconds") from None
        except Refused as exc:
            raise BadHello(str(exc)) from None
        if hello["t"] != "hello":
            raise BadHello(f"it sent {str(hello['t'])[:20]!r} before its hello")
        with self._lock:  # one visitor at a time from its code to its seat
            role = self._let_in(link, hello)
            told = welcome(role)
            if told.get("t") == "refused":
                link.post(told)
                raise Refused(str(told.get("why")))
            code = self.door.seat if role == "player" else self.door.watch
            link.post({**told, "proof": codes.proof(code, self.fingerprint, "host")})
            visit.met.set()
            if role == "player":
                self.seat = link
        link.limit = MAX_GAME if role == "watcher" else MAX_MESSAGE
        link.peer = "the other player" if role == "player" else "a spectator"
        if role == "player":
            link.beat()
        key = signing.public_key(hello.get("sign"))
        return Visitor(link, role, where, pledge.claimed(hello), key)

    def _let_in(self, link: Link, hello: dict[str, Any]) -> str:
        """The role a hello's code opens (its rules and protocol the same as ours, and the
        seat free or dead), or refused (told to the visitor too). Holds the lock."""
        role = self.door.check(hello.get("proof"), self.fingerprint)
        if role is None:
            link.post({"t": "refused", "why": "wrong code"})
            raise Refused(f"wrong code ({self.door.wrong} of {codes.MAX_TRIES} tries)")
        if hello.get("protocol") != PROTOCOL:
            why = (
                f"this host speaks protocol {PROTOCOL}, the visitor's wargame "
                f"{_text(hello.get('protocol'))}: both sides need the same wargame version"
            )
            link.post({"t": "refused", "why": why})
            raise Refused(why)
        ruleset_id, version = self.ruleset
        theirs = (hello.get("rulesets") or {}) if isinstance(hello.get("rulesets"), dict) else {}
        if theirs.get(ruleset_id) != version:
            why = (
                f"this game plays {ruleset_id} version {version}; the joiner's wargame has "
                f"{_version_words(theirs.get(ruleset_id))}: both sides need the same version"
            )
            link.post({"t": "refused", "why": why})
            raise Refused(why)
        seat = self.seat
        if role == "player" and seat is not None:
            silent = time.monotonic() - seat.heard
            if silent < STALE and not seat.gone:
                link.post({"t": "refused", "why": "the seat is taken: its player is connected"})
                raise Refused("the seat is taken")
            if seat.gone:
                self.tell(
                    "the seated player's connection ended: the one who came with the "
                    "seat's code takes the seat"
                )
            else:
                self.tell(
                    f"the seated player was not heard from in {silent:.0f} seconds: the one "
                    "who came with the seat's code takes the seat"
                )
            seat.cut()  # the game hears it drop, and admits the new one
        return role

    def close(self) -> None:
        self.sock.close()


class _Visit:
    """A visitor being met: its socket (TLS once the handshake is done), and whether it was
    let in."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.met = threading.Event()

    def time_up(self) -> None:
        """`HELLO_WAIT` is over: unless let in, its connection ends (whatever it waits in)."""
        if not self.met.is_set():
            with contextlib.suppress(OSError):
                socket.socket.shutdown(self.sock, socket.SHUT_RDWR)


def _text(value: object) -> str:
    return f"speaks protocol {value}" if isinstance(value, int) else "names no protocol"


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
