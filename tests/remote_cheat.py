"""A `wargame host` that misbehaves at its first shared roll once the joiner's value is in
(for tests/test_remote_pledge.py): `python tests/remote_cheat.py MODE RECORD host ARGS...`.

MODE `drop`: it cuts the connection instead of revealing, then plays on honestly; `veto`:
it cuts it, then ignores the roll the rejoined joiner names and rolls that die again under a
new commitment (the veto the rule refuses); `die`: the process ends there, as `kill -9` would;
`revealed`: it reveals its value, then the process ends before the roll is in its log (nor in
its save); `early`: so, at a roll whose value came with the joiner's decision (read with it,
revealed once the rules reached the roll); `deaf`: the process ends as the joiner's first
decision comes, before its rules or its journal hold it; `agree-cut`: it cuts the connection
as soon as it has agreed to the joiner's take-back (and waits for the rejoin). For `join`, MODE
`undo`: its bot's decisions count as a script's, and it asks to take back once, at its first
question after the deployment. `stall`: once the joiner's value is in, it neither reveals nor
cuts the connection, and waits until the joiner is gone (the test kills it), then plays on
honestly with the joiner that comes back; `stall-veto`: so, then it rolls that die again
under a new commitment, as `veto` does; `nest-veto`: so, but in place of the reveal it sends
a message nested deeper than a JSON decoder goes (to crash the joiner). `typed-anyway`: it
types its own side's dice (all 1s, by its bot) although the joiner declined typed dice.
`MODE@N`: at the Nth shared roll (decision) instead.
RECORD gets that roll's commitment, the joiner's value, and the roll's place and dice."""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

from wargame_cli.remote.peer import SharedDice
from wargame_cli.remote.wire import Dropped


def cheat(how: str, record: Path) -> None:
    mode, _, nth = how.partition("@")  # MODE@N: at the Nth shared roll (default the first)
    honest = SharedDice._value
    seen: list[bool] = []

    def value(self: SharedDice, answer: dict[str, Any], commit: str, reason: str) -> bytes:
        theirs = honest(self, answer, commit, reason)
        seen.append(True)
        if len(seen) != int(nth or 1):
            return theirs
        told = {"commit": commit, "join": theirs.hex(), "at": answer["at"], "dice": answer["dice"]}
        record.write_text(json.dumps(told))
        if mode == "die":
            os._exit(9)
        if mode.startswith(("stall", "nest")):
            if mode.startswith("nest"):  # in place of the reveal: the joiner cannot read it
                body = b'{"t": "reveal", "value": ' + b"[" * NESTED + b"]" * NESTED + b"}"
                self.peer.link.sock.sendall(len(body).to_bytes(4, "big") + body)
            _until_gone(self.peer.link)
            raise Dropped("the joiner is gone before our reveal")
        self.peer.link.sock.shutdown(socket.SHUT_RDWR)
        raise Dropped("cut by the test before its reveal")

    if mode == "agree-cut":
        _cut_once_agreed()
        return
    if mode == "undo":
        _undo_once()
        return
    if mode == "deaf":
        _die_once_told(int(nth or 1))
        return
    if mode == "typed-anyway":
        _type_although_declined()
        return
    if mode in ("revealed", "early"):
        _die_once_revealed(seen, int(nth or 1), record, early_only=mode == "early")
        return
    SharedDice._value = value  # type: ignore[method-assign]
    if mode in ("veto", "stall-veto", "nest-veto"):
        committed = SharedDice._commit

        def commit(self: SharedDice, roll: Any) -> Any:
            self.peer.claim = None  # as if no roll were in progress
            return committed(self, roll)

        SharedDice._commit = commit  # type: ignore[method-assign]


NESTED = 50_000  # levels of a JSON array in a message: more than a decoder's recursion takes


def _until_gone(link: Any) -> None:
    """Wait, reading whatever comes, until the other side is gone (the test kills it)."""
    try:
        while True:
            link.recv()
    except Dropped:
        return


def _type_although_declined() -> None:
    """Its own side's dice typed (all 1s, by its bot), though the joiner declined."""
    from wargame_cli.remote import typed

    typed.check_own = lambda typed_sides, side, human: None
    typed.answer_of = lambda message: True
    typed.asker = lambda prompter: lambda roll: [1] * len(roll.dice)


def _die_once_revealed(seen: list[bool], nth: int, record: Path, early_only: bool) -> None:
    """The Nth roll's reveal sent, the process ends (its roll not logged yet). `early_only`:
    only rolls whose value came with the joiner's decision (read ahead with it) count."""
    honest_commit = SharedDice._commit

    def commit(self: SharedDice, roll: Any) -> Any:
        at, ahead = self.peer.at[0], self.peer.ahead[:1]
        thrown = honest_commit(self, roll)
        if thrown.proof is None or (early_only and not (ahead and ahead[0]["t"] == "value")):
            return thrown
        seen.append(True)
        if len(seen) == nth:
            proof = thrown.proof
            told = {"commit": proof["commit"], "join": proof["join"], "at": at}
            record.write_text(json.dumps({**told, "dice": list(roll.dice)}))
            os._exit(9)
        return thrown

    SharedDice._commit = commit  # type: ignore[method-assign]


def _cut_once_agreed() -> None:
    from wargame_cli.engine.requests import TAKE_BACK
    from wargame_cli.remote.peer import RemoteController

    honest = RemoteController.choose
    done: list[bool] = []

    def choose(self: RemoteController, choice: Any, game: Any) -> str:
        key = honest(self, choice, game)
        if key == TAKE_BACK and not done:
            done.append(True)
            self.peer.link.sock.shutdown(socket.SHUT_RDWR)  # the agreement has left
        return key

    RemoteController.choose = choose  # type: ignore[method-assign]


def _undo_once() -> None:
    from wargame_cli.engine.bots import BotController
    from wargame_cli.engine.requests import TAKE_BACK

    done: list[bool] = []

    def choose(self: BotController, choice: Any, game: Any) -> str:
        if not done and choice.kind != "deploy" and "deploy" not in str(choice.prompt):
            done.append(True)
            return TAKE_BACK
        return str(choice.default)

    BotController.by = "script"  # type: ignore[misc]
    BotController.choose = choose  # type: ignore[method-assign]


def _die_once_told(nth: int) -> None:
    from wargame_cli.remote.peer import RemoteController

    honest = RemoteController._decided
    seen: list[bool] = []

    def decided(self: RemoteController, choice: Any, message: dict[str, Any]) -> str:
        seen.append(True)
        if len(seen) == nth:
            os._exit(9)
        return honest(self, choice, message)

    RemoteController._decided = decided  # type: ignore[method-assign]


if __name__ == "__main__":
    cheat(sys.argv[1], Path(sys.argv[2]))
    sys.argv = ["wargame", *sys.argv[3:]]
    from wargame_cli.cli.app import main

    main()
