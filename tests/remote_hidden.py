"""A `wargame join` that tries what a hidden deployment promises it cannot do (for
tests/test_remote_hidden.py): `python tests/remote_hidden.py MODE RECORD join ARGS...`.

MODE `read`: it plays honestly and writes every message the host sends it to RECORD, one JSON
line each as it reads it, so a test can tell what crossed the wire before the reveal. `lie`:
at the reveal it says its first placement was another spot than the one it committed to (the
same salt, another legal key); RECORD gets the place, the committed key and the one told."""

from __future__ import annotations

import faulthandler
import json
import sys
from pathlib import Path
from typing import Any

from wargame_cli.engine.requests import Choice
from wargame_cli.remote.hidden import Hidden
from wargame_cli.remote.wire import Link


def cheat(mode: str, record: Path) -> None:
    if mode == "read":
        _read_the_wire(record)
    elif mode == "lie":
        _reveal_another_spot(record)
    else:
        raise SystemExit(f"unknown mode {mode!r}")


def _read_the_wire(record: Path) -> None:
    honest = Link.recv

    def recv(self: Link, *args: Any, **kwargs: Any) -> dict[str, Any]:
        message = honest(self, *args, **kwargs)
        with record.open("a", encoding="utf-8") as out:
            out.write(json.dumps(message) + "\n")
        return message

    Link.recv = recv  # type: ignore[method-assign]


def _reveal_another_spot(record: Path) -> None:
    seal, reveal = Hidden.seal, Hidden.reveal
    other: dict[int, str] = {}  # place -> another legal spot than the one sealed there

    def sealing(self: Hidden, choice: Choice, key: str, by: str) -> dict[str, Any]:
        told = seal(self, choice, key, by)
        spots = [o.key for o in choice.options if o.disabled is None and o.key != key]
        other[told["at"]] = next(k for k in spots if choice.legal(k) is None)
        return told

    def revealing(self: Hidden) -> None:
        stretch = self.stretch
        assert stretch is not None
        at = min(stretch.own)
        committed = stretch.own[at].key
        stretch.own[at].key = other[at]  # the salt stays: the hash no longer opens
        record.write_text(json.dumps({"at": at, "committed": committed, "told": other[at]}))
        reveal(self)

    Hidden.seal = sealing  # type: ignore[method-assign]
    Hidden.reveal = revealing  # type: ignore[method-assign]


if __name__ == "__main__":
    faulthandler.dump_traceback_later(90)  # a joiner that waits on says where, in time
    cheat(sys.argv[1], Path(sys.argv[2]))
    sys.argv = ["wargame", *sys.argv[3:]]
    from wargame_cli.cli.app import main

    main()
