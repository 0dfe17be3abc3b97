"""Bad input from the network: a hostile client against a real `wargame host`, and a hostile
host against the joiner's dice. Each gets one clear line on each side, never a traceback or
a hang, and the host's save keeps every decision (it verifies)."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest

from tests.remote_helpers import Host, played_out, same_saves, verify
from wargame_cli import registry
from wargame_cli.engine.requests import Choice
from wargame_cli.remote import fair, signing
from wargame_cli.remote.gate import knock
from wargame_cli.remote.peer import JOIN, Peer, RemoteController, SharedDice, Tips
from wargame_cli.remote.wire import Link, Refused, RemoteError
from wargame_cli.saves import games, seal

RULESET = "squad-alpha"


def _versions() -> dict[str, str]:
    return {info.id: registry.get(info.id).version for info in registry.all_infos()}


def _seated(host: Host) -> tuple[Link, dict[str, Any], signing.Pair]:
    """A client let in with the right code, its team sent: the link, the game's save, and
    its keys for signing (its own, told in its hello, and the host's)."""
    key = signing.Key.new()
    link, welcome, _ = knock(host.address, host.code, _versions(), 0, key=key.public)
    ruleset = registry.get(RULESET)
    side = welcome["seat"]
    from wargame_cli.ruleset import resolve_options

    team, _ = ruleset.default_team(side, resolve_options(ruleset.options, []))
    link.post({"t": "team", "team": team, "name": "Mallory", "player": "bot"})
    game = link.recv(timeout=30)
    assert game["t"] == "game"
    return link, game["save"], signing.Pair(key, welcome["sign"])


def _host(tmp_path) -> Host:
    return Host(tmp_path, RULESET, "--seat", "A", "--port", "0", "--bot", "--save", "h.json")


def _ends_with_one_line(host: Host, expected: str) -> None:
    assert host.wait() == 2, host.text()
    text = host.text()
    assert "Traceback" not in text
    last = [line for line in text.splitlines() if line.startswith("wargame: ")]
    assert len(last) == 1 and expected in last[0], text


def _error_told(link: Link) -> str:
    """What the host told us before it stopped (skipping what it sent before)."""
    while True:
        message = link.recv(timeout=30)
        if message["t"] == "error":
            return str(message["why"])


def _raw(link: Link, blob: bytes) -> None:
    link.sock.sendall(blob)


def _framed(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


@pytest.mark.parametrize(
    ("blob", "told"),
    [
        ((50_000_000).to_bytes(4, "big"), "a message of 50000000 bytes"),
        (_framed(b"{not json"), "malformed message (not JSON)"),
        (_framed(b'["t", 1]'), "malformed message (no type)"),
        (_framed(json.dumps({"t": "value", "n": 9}).encode()), "out of order"),
        (_framed(json.dumps({"t": "value", "n": 0}).encode()), "replayed"),
        # what no message holds: nesting past any stack, or past the bound; numbers too
        # large for the game (1e999 is infinity); bytes that are not UTF-8
        (_framed(b'{"t": "value", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}"), "nests deeper"),
        (_framed(b'{"t": "value", "x": ' + b"[" * 70 + b"]" * 70 + b"}"), "nests deeper"),
        (_framed(b'{"t": "value", "at": 1e999, "n": 1}'), "not finite"),
        (_framed(b'{"t": "value", "at": 10000000000000000000, "n": 1}'), "too large"),
        (_framed(b'{"t": "value\xff", "n": 1}'), "not UTF-8"),
    ],
    ids=[
        *("oversized", "not-json", "no-type", "out-of-order", "replayed"),
        *("nested-past-the-stack", "nested-past-the-bound", "infinite", "huge", "not-utf8"),
    ],
)
def test_a_bad_message_stops_the_host_with_one_line(tmp_path, blob, told):
    host = _host(tmp_path)
    try:
        link, _, _ = _seated(host)
        _raw(link, blob)
        assert told in _error_told(link)
        _ends_with_one_line(host, told)
    finally:
        host.stop()
    data = json.loads((tmp_path / "h.json").read_text())
    assert data["status"] == "in_progress"
    verify(tmp_path, tmp_path / "h.json")


class Hostile:
    """Side B's controller that sends a doctored decision instead of its own."""

    by = "bot"

    def __init__(self, peer: Peer, doctor: Any) -> None:
        self.peer = peer
        self.doctor = doctor

    def choose(self, choice: Choice, game: Any) -> str:
        at, tip = self.peer.at
        honest = {"t": "decide", "side": choice.side, "key": choice.default, "by": "bot"}
        told = self.doctor({**honest, "at": at, "tip": tip})
        sent = [_signed(self.peer, m) for m in (told if isinstance(told, tuple) else (told,))]
        self.peer.link.post(*sent)  # in one write
        raise _Sent

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        raise AssertionError(reason)


def _signed(peer: Peer, m: dict[str, Any]) -> dict[str, Any]:
    """A decision as the modified client sends it: signed, as doctored, with its own key (the
    host refuses it for what it says, never for an unsigned message)."""
    if m.get("t") != "decide":
        return m
    said = signing.decision(m.get("at"), m.get("tip"), m.get("side"), m.get("key"), m.get("by"))
    return peer.signed(m, said)


class _Sent(Exception):
    pass


def _play_hostile(
    tmp_path, link: Link, data: dict[str, Any], keys: signing.Pair, doctor: Any
) -> None:
    """Play side B through its own rules up to its first decision, then doctor it."""
    path = tmp_path / "mallory.json"
    path.write_text(json.dumps(data))
    peer = Peer(link, JOIN, "the host", None, print)  # type: ignore[arg-type]
    peer.signer = keys
    controllers = {"B": Hostile(peer, doctor), "A": RemoteController(peer, lambda _: None)}
    session = games.open_save(path, dice=SharedDice(peer), controllers=controllers)
    peer.runner = session.runner
    peer.tips = Tips({k: data.get(k) for k in seal.HEADER})
    with pytest.raises(_Sent):
        session.runner.run()


@pytest.mark.parametrize(
    ("doctor", "told"),
    [
        (lambda m: {**m, "side": "A"}, "answered side A's question, but the rules ask side B"),
        (lambda m: {**m, "key": "fly-to-the-moon"}, "sent an illegal answer 'fly-to-the-moon'"),
        (lambda m: {**m, "tip": "0" * 20}, "the hash chains differ"),
        (lambda m: {**m, "t": "reveal"}, "sent 'reveal' where 'decide' or 'takeback' was due"),
        # a value riding on the decision, as a joiner sends one when a roll follows it: the
        # host reveals at once, but only against its own commitment
        (lambda m: (m, {"t": "value", "commit": "0" * 64, "value": "1" * 64}), "malformed value"),
    ],
    ids=["other-sides-question", "illegal-key", "other-history", "wrong-kind", "bad-value"],
)
def test_a_doctored_decision_stops_the_host_with_one_line(tmp_path, doctor, told):
    host = _host(tmp_path)
    try:
        link, data, keys = _seated(host)
        _play_hostile(tmp_path, link, data, keys, doctor)
        assert told in _error_told(link)
        _ends_with_one_line(host, told)
    finally:
        host.stop()
    saved = json.loads((tmp_path / "h.json").read_text())
    decided = [e for e in saved["log"] if e["t"] == "choice"]
    assert all(e["side"] == "A" for e in decided)  # every decision up to it, no more
    verify(tmp_path, tmp_path / "h.json")


def test_a_drop_mid_message_is_waited_out_and_the_game_goes_on(tmp_path):
    host = _host(tmp_path)
    try:
        link, _, _ = _seated(host)
        _raw(link, (100).to_bytes(4, "big") + b'{"t": "va')
        link.sock.shutdown(socket.SHUT_RDWR)
        link.close()
        host.wait_for("dropped in the middle of a message")
        host.wait_for("waiting for them to join again")
        played_out(tmp_path, host)
    finally:
        host.stop()
    same_saves(tmp_path / "h.json", tmp_path / "j.json")


def test_a_reveal_that_does_not_open_its_commitment_is_refused():
    """The joiner's side of a roll against a host that reveals another value."""
    from wargame_cli.engine.requests import Roll
    from wargame_cli.engine.session import bot_game

    ours, theirs = socket.socketpair()
    session = bot_game(registry.get(RULESET), 1, max_turns=0)
    peer = Peer(Link(ours), JOIN, "the host", Tips({}), print)
    peer.runner = session.runner
    host = Link(theirs)
    value = fair.draw()
    at = len(session.runner.log)
    host.post({"t": "commit", "commit": fair.commitment(value), "dice": [6, 6], "at": at})
    host.post({"t": "reveal", "value": fair.draw().hex()})  # not the committed value
    with pytest.raises(Refused, match="does not match its commitment"):
        SharedDice(peer).throw(Roll((6, 6), "a test roll"))
    assert host.recv(timeout=5)["t"] == "value"  # it had sent its own value, no more


def test_the_derivation_is_even_and_fixed():
    host, join_value = bytes(range(32)), bytes(range(32, 64))
    faces = fair.derive(host, join_value, [6] * 6000)
    assert fair.derive(host, join_value, [6] * 6000) == faces
    counts = [faces.count(face) for face in range(1, 7)]
    assert all(900 < n < 1100 for n in counts), counts
    assert set(fair.derive(host, join_value, [20] * 2000)) == set(range(1, 21))


def test_an_unreachable_host_is_one_line(tmp_path, wargame):
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    done = wargame("join", f"127.0.0.1:{port}", "--code", "abcd-efgh-jkmn", "--no-input")
    assert done.returncode == 2
    assert "cannot reach 127.0.0.1" in done.stderr and "Traceback" not in done.stderr
    assert isinstance(RemoteError("x"), Exception)
