"""A `wargame host` that misbehaves at its first shared roll once the joiner's value is in
(for tests/test_remote_pledge.py): `python tests/remote_cheat.py MODE RECORD host ARGS...`.

MODE `drop`: it cuts the connection instead of revealing, then plays on honestly; `veto`:
it cuts it, then ignores the roll the rejoined joiner names and rolls that die again under a
new commitment (the veto the rule refuses); `die`: the process ends there, as `kill -9` would;
`revealed`: it reveals its value, then the process ends before the roll is in its log (nor in
its save); `early`: so, at a roll revealed early (with the joiner's decision before it, which
its rules have not taken yet); `deaf`: the process ends as the joiner's first decision comes,
before its rules or its journal hold it; `agree-cut`: it cuts the connection as soon as it has
agreed to the joiner's take-back (and waits for the rejoin). For `join`, MODE `undo`: its bot's
decisions count as a script's, and it asks to take back once, at its first question after
the deployment. `MODE@N`: at the Nth shared roll (decision) instead.
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
    if mode in ("revealed", "early"):
        _die_once_revealed(seen, int(nth or 1), record, early_only=mode == "early")
        return
    SharedDice._value = value  # type: ignore[method-assign]
    if mode == "veto":
        committed = SharedDice._commit

        def commit(self: SharedDice, roll: Any) -> Any:
            self.peer.claim = None  # as if no roll were in progress
            return committed(self, roll)

        SharedDice._commit = commit  # type: ignore[method-assign]


def _die_once_revealed(seen: list[bool], nth: int, record: Path, early_only: bool) -> None:
    """The Nth roll's reveal sent, the process ends (its roll not logged yet)."""
    honest_commit, honest_early = SharedDice._commit, SharedDice._early

    def told(self: SharedDice, commit: str, join: bytes, at: Any, dice: Any) -> None:
        seen.append(True)
        if len(seen) == nth:
            told = {"commit": commit, "join": join.hex(), "at": at, "dice": list(dice)}
            record.write_text(json.dumps(told))
            os._exit(9)

    def commit(self: SharedDice, roll: Any) -> Any:
        at, counted = self.peer.at[0], self.early is not None  # revealed early: counted there
        thrown = honest_commit(self, roll)
        if thrown.proof is not None and not counted and not early_only:
            told(self, thrown.proof["commit"], bytes.fromhex(thrown.proof["join"]), at, roll.dice)
        return thrown

    def early(self: SharedDice) -> None:
        honest_early(self)
        if self.early is not None:
            answer, mine, theirs = self.early
            from wargame_cli.remote import fair

            told(self, fair.commitment(mine), theirs, answer["at"], answer["dice"])

    SharedDice._commit = commit  # type: ignore[method-assign]
    SharedDice._early = early  # type: ignore[method-assign]


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
