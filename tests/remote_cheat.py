"""A `wargame host` that misbehaves at its first shared roll once the joiner's value is in
(for tests/test_remote_pledge.py): `python tests/remote_cheat.py MODE RECORD host ARGS...`.

MODE `drop`: it cuts the connection instead of revealing, then plays on honestly; `veto`:
it cuts it, then ignores the roll the rejoined joiner names and rolls that die again under a
new commitment (the veto the rule refuses); `die`: the process ends there, as `kill -9` would.
`MODE@N`: at the Nth shared roll instead. RECORD gets that roll's commitment, the joiner's
value, and the roll's place and dice."""

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

    SharedDice._value = value  # type: ignore[method-assign]
    if mode == "veto":
        committed = SharedDice._commit

        def commit(self: SharedDice, roll: Any) -> Any:
            self.peer.claim = None  # as if no roll were in progress
            return committed(self, roll)

        SharedDice._commit = commit  # type: ignore[method-assign]


if __name__ == "__main__":
    cheat(sys.argv[1], Path(sys.argv[2]))
    sys.argv = ["wargame", *sys.argv[3:]]
    from wargame_cli.cli.app import main

    main()
