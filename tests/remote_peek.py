"""A `wargame join` that tries what remote play promises it cannot do (for
tests/test_remote_fairness.py): `python tests/remote_peek.py MODE RECORD join ARGS...`.

MODE `peek`: with its first decision (which miniature to deploy: its next question is its own
again) it sends a value for a roll further on (the test a later choice of its own would call
for), then waits for the host's reveal before it decides again, as a joiner that would choose
by the dice; `twice`: with the first decision a roll follows, it sends two values for that
roll in one write, then waits for the reveal; `edit-end` / `edit-die`: its first decision goes
to the host as a table edit (the game ended with itself the winner; the first die rolled set
to another face) in place of an answer, and it waits for the host's answer; `edit-die-on`
goes on without reading, once the host has closed (the host's refusal crosses its next
message). RECORD gets what came while it waited: the kind of message, and whether it held a
value of the host's. `hold` (an honest joiner, held up): at its first deployment question it
writes RECORD and waits until RECORD.go exists, so a test can read what has crossed the wire
before this side places anything."""

from __future__ import annotations

import faulthandler
import json
import sys
import time
from pathlib import Path
from typing import Any

from wargame_cli.engine import edits
from wargame_cli.engine.requests import TAKE_BACK, Choice
from wargame_cli.remote import fair, signing
from wargame_cli.remote.peer import Announcing, Peer

WAIT = 10.0  # seconds it waits for the reveal (the host answers in milliseconds)


def cheat(mode: str, record: Path) -> None:
    if mode == "peek":
        _peek_before_deciding(record)
    elif mode == "twice":
        _two_values(record)
    elif mode.startswith("edit-"):
        action, _, on = mode.removeprefix("edit-").partition("-")
        _edit_as_decision(action, record, wait=on != "on")
    elif mode == "hold":
        _hold_before_placing(record)
    else:
        raise SystemExit(f"unknown mode {mode!r}")


def _wait_for_reveal(peer: Peer, record: Path, at: int) -> None:
    """What the host sends next, within `WAIT` seconds, written to `record` (with `at`, the
    place of the roll the value was sent for) and left for the game to read as it would
    have."""
    end = time.monotonic() + WAIT
    while not peer.link.ready() and time.monotonic() < end:
        time.sleep(0.01)
    message = peer.link.recv() if peer.link.ready() else None
    told: dict[str, Any] = {"at": at, "kind": None if message is None else message["t"]}
    if message is not None:
        told["opened"] = fair.hex_value(message.get("value")) is not None
        peer.ahead.append(message)
    record.write_text(json.dumps(told))


def _peek_before_deciding(record: Path) -> None:
    honest = Announcing.choose
    done: list[bool] = []

    def choose(self: Announcing, choice: Choice, game: Any) -> str:
        key = honest(self, choice, game)
        if done or key == TAKE_BACK or not isinstance(self.peer.next, str):
            return key
        done.append(True)
        at, _ = self.peer.at
        later = {"dice": [6, 6, 6], "at": at + 2}  # a roll after its next decision
        value = {"t": "value", "commit": self.peer.next, "value": fair.draw().hex()}
        self.peer.post({**value, **later})  # with the decision held: one write
        _wait_for_reveal(self.peer, record, at + 2)
        return key

    Announcing.choose = choose  # type: ignore[method-assign]


def _two_values(record: Path) -> None:
    honest = Peer.post
    done: list[bool] = []

    def post(self: Peer, message: dict[str, Any]) -> None:
        riding = any(held.get("t") == "decide" for held in self.held)
        if done or message.get("t") != "value" or not riding:
            honest(self, message)
            return
        done.append(True)
        held, self.held = self.held, []
        self.link.post(*held, message, {**message, "value": fair.draw().hex()})
        _wait_for_reveal(self, record, message["at"])

    Peer.post = post  # type: ignore[method-assign]


def _edit_as_decision(action: str, record: Path, wait: bool) -> None:
    honest = Announcing.choose
    done: list[bool] = []

    def choose(self: Announcing, choice: Choice, game: Any) -> str:
        if done:
            return honest(self, choice, game)
        done.append(True)
        self.peer.exchange(self.peer.flush)
        log = self.peer.runner.log
        if action == "end":
            words: tuple[str, ...] = (choice.side, "the", "other", "side", "gave", "up")
        else:
            first = next(e for e in log if e.get("t") == "roll")
            words = ("1", str(1 if first["faces"][0] != 1 else 2))
        key = edits.token(edits.Edit(action, words, by=choice.side, why="because"))
        at, tip = self.peer.at
        told = {"t": "decide", "side": choice.side, "key": key, "by": "human"}
        said = signing.decision(at, tip, choice.side, key, "human")
        self.peer.post(self.peer.signed({**told, "at": at, "tip": tip}, said))  # signed, as sent
        if wait:  # the host's answer, before it goes on here
            _wait_for_reveal(self.peer, record, at)
        else:  # unread, until the host has closed the connection: its refusal crosses ours
            end = time.monotonic() + 60
            while self.peer.link._broken is None and time.monotonic() < end:
                time.sleep(0.01)
        return key

    Announcing.choose = choose  # type: ignore[method-assign]


def _hold_before_placing(record: Path) -> None:
    honest = Announcing.choose
    go = record.with_name(record.name + ".go")

    def choose(self: Announcing, choice: Choice, game: Any) -> str:
        if choice.kind == "deploy" and not record.exists():
            record.write_text(json.dumps({"at": self.peer.at[0]}))
            end = time.monotonic() + 120
            while not go.exists() and time.monotonic() < end:
                time.sleep(0.02)
        return honest(self, choice, game)

    Announcing.choose = choose  # type: ignore[method-assign]


if __name__ == "__main__":
    faulthandler.dump_traceback_later(90)  # a joiner that waits on says where, in time
    cheat(sys.argv[1], Path(sys.argv[2]))
    sys.argv = ["wargame", *sys.argv[3:]]
    from wargame_cli.cli.app import main

    main()
