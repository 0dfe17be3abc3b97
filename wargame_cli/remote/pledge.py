"""A roll in progress across a drop: the host may not roll a die again once the joiner's value
is in. The host keeps the value of every commitment it sends (the latest few, stored beside
its save before the commitment leaves: `Promises`), and the joiner keeps, for the roll it sent
its value for and saw no reveal of, that commitment and its own value (`Pending`), on disk
before its value leaves (`Record`), so that a host that crashes the joiner or cuts the link
then gains nothing. On rejoining, the joiner names that commitment and sends the same value
again; the host must reveal a value that opens it, or the game stops (`BROKEN`)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wargame_cli.remote import fair
from wargame_cli.wording import plural

BROKEN = "the host did not reveal the roll in progress after the drop"
KEEP = 4  # commitments kept: the one outstanding and those just before it
BATCH = 16  # values drawn and stored at once


@dataclass(frozen=True)
class Pending:
    """The joiner's roll in progress: the commitment it answered, its value, and the roll's
    place (log entry, chain tip there) and dice. The host must come back to it and reveal it
    under that commitment. The host gets it from the hello (`claimed`)."""

    commit: str
    value: bytes
    at: int
    tip: str
    dice: tuple[int, ...]

    def told(self) -> dict[str, Any]:
        """As the joiner's hello names it."""
        place = {"at": self.at, "tip": self.tip, "dice": list(self.dice)}
        return {"commit": self.commit, "value": self.value.hex(), **place}

    def here(self, at: int, tip: str, dice: tuple[int, ...]) -> bool:
        """Is a roll of `dice` at `at` (chain tip `tip`) this one? Both sides ask it."""
        return (at, tip, tuple(dice)) == (self.at, self.tip, self.dice)

    def same_roll(self, at: int, tip: str, dice: tuple[int, ...]) -> str | None:
        """Why a roll at `at` is not this one, or None."""
        if self.here(at, tip, dice):
            return None
        return (
            f"the game came back to dice {list(dice)} at log entry {at}, not the roll of "
            f"{list(self.dice)} at {self.at} it was at"
        )

    def logged(self, log: list[Any], tip: str) -> str | None:
        """Why the host's log, which holds this roll (entry `at`, reached with chain tip
        `tip`), does not hold it as committed and answered, or None."""
        entry = log[self.at]
        shared = entry.get("shared") if isinstance(entry, dict) else None
        if tip != self.tip or not isinstance(shared, dict):
            return f"its game has another entry {self.at} in place of the roll"
        if shared.get("commit") != self.commit:
            return "it rolled that die again under another commitment"
        if shared.get("join") != self.value.hex():
            return "it rolled that die with another value of ours"
        return None


def beside(save: Path) -> Path:
    """Where the joiner keeps its roll in progress when it stops: `SAVE.roll`."""
    return save.with_name(save.name + ".roll")


class Record:
    """The joiner's latest roll, kept beside its save (`SAVE.roll`, readable by its owner only)
    from before its value leaves until the save holds it: a joiner that dies (a crash the host
    provokes, `kill -9`) and joins again names it, and the host must reveal it as committed.
    One write in place per roll (no flush to disk: it outlives the process, which is what dies
    here); `put(None)` once the save holds every roll; `end` when the game is over."""

    SIZE = 1024  # bytes: a record is padded to it, so each write covers the one before

    def __init__(self, save: Path) -> None:
        self.where = beside(save)
        self._fd: int | None = None
        self._size = self.SIZE

    def put(self, pending: Pending | None) -> None:
        body = json.dumps(pending.told() if pending is not None else None).encode()
        fresh = self._fd is None
        if self._fd is None:
            self._fd = os.open(self.where, os.O_RDWR | os.O_CREAT, 0o600)
        self._size = max(self._size, len(body))
        os.pwrite(self._fd, body.ljust(self._size), 0)
        if fresh:  # what an older record held beyond it goes (after: never an empty file)
            os.ftruncate(self._fd, self._size)

    def end(self) -> None:
        """The game is over: nothing is in progress, the record goes."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self.where.unlink(missing_ok=True)


def kept(save: Path) -> Pending | None:
    """The roll `Record` kept beside `save`, or None."""
    try:
        told = json.loads(beside(save).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return from_told(told)


def write_private(where: Path, data: Any) -> None:
    """`data` as JSON in `where`, whole or not at all (a new file renamed over the old),
    readable by its owner only."""
    part = where.with_name(where.name + ".part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out)
    os.replace(part, where)


def claimed(hello: dict[str, Any]) -> Pending | None:
    """The roll in progress a rejoining joiner's hello names, or None."""
    return from_told(hello.get("roll"))


def from_told(told: object) -> Pending | None:
    """A roll in progress as `Pending.told` gives it, or None when it is not one."""
    if not isinstance(told, dict):
        return None
    try:
        value = fair.hex_value(told["value"])
        dice = tuple(int(sides) for sides in told["dice"])
        commit, at, tip = told["commit"], told["at"], told["tip"]
    except (KeyError, TypeError, ValueError, OverflowError):  # 1e999: no number of sides
        return None
    if value is None or fair.hex_value(commit) is None or not isinstance(at, int):
        return None
    return Pending(str(commit), value, at, str(tip), dice)


class Promises:
    """The host's values for the commitments it sends, each kept by `store` before its
    commitment leaves: drawn `BATCH` at a time and stored together (one write every `BATCH`
    rolls, not one a roll), with the latest `KEEP` sent before them; and the joiner's value
    for each once it comes (stored with the next batch: a restarted host refuses another
    value for a roll only once that is written)."""

    def __init__(
        self,
        kept: object = None,
        store: Callable[[dict[str, dict[str, str]]], None] | None = None,
    ) -> None:
        self.values: dict[str, dict[str, str]] = {}
        if isinstance(kept, dict):
            for commit, pair in kept.items():
                if isinstance(pair, dict) and fair.hex_value(pair.get("host")) is not None:
                    self.values[str(commit)] = {k: str(v) for k, v in pair.items()}
        self.store = store or (lambda values: None)
        self.unsent: list[bytes] = []  # drawn and stored, their commitments not sent yet
        # read back (`host --resume`): which of them were sent is not known; all are kept
        # through the next batch
        self._all = bool(self.values)

    def promise(self) -> bytes:
        """A value whose commitment may be sent now: it is stored already."""
        if not self.unsent:
            sent = list(self.values)
            for commit in sent[: 0 if self._all else max(0, len(sent) - KEEP)]:
                del self.values[commit]
            self._all = False
            self.unsent = [fair.draw() for _ in range(BATCH)]
            for value in self.unsent:
                self.values[fair.commitment(value)] = {"host": value.hex()}
            self.store(dict(self.values))
        return self.unsent.pop(0)

    def value_for(self, commit: str) -> bytes | None:
        pair = self.values.get(commit)
        return fair.hex_value(pair.get("host")) if pair is not None else None

    def answered(self, commit: str, join: bytes) -> str | None:
        """The joiner's value for `commit`, kept: why not, when it sent another value for it
        before a drop, else None."""
        pair = self.values.get(commit)
        if pair is None:
            return None
        before = pair.get("join")
        if before is not None and before != join.hex():
            return "the other player sent another value for the roll in progress after the drop"
        pair["join"] = join.hex()
        return None


BEHIND = (
    "the host came back without {lost} it had settled with the joiner ({count} log entries "
    "from entry {at} on): a roll once made is never made again, so the game stops here; the "
    "joiner's save keeps the game as it was"
)


def lost(entries: list[Any], side: str) -> str | None:
    """What `entries` (of the joiner's game, which the host's lacks) hold that the host had
    settled with the joiner: a roll, or a decision of the host's side (not `side`), in words;
    None when they hold only the joiner's own decisions (and what the rules said of them)."""
    rolls = sum(1 for e in entries if isinstance(e, dict) and e.get("t") == "roll")
    theirs = sum(
        1
        for e in entries
        if isinstance(e, dict) and e.get("t") == "choice" and e.get("side") != side
    )
    said = [_count(rolls, "roll", "rolls"), _count(theirs, *OWN)]
    words = [w for w in said if w]
    return " and ".join(words) if words else None


OWN = ("decision of its own", "decisions of its own")


def _count(n: int, one: str, many: str) -> str:
    """`a roll`, `2 rolls`; nothing for none."""
    return "" if n == 0 else f"a {one}" if n == 1 else plural(n, one, many)


def redone(entries: list[Any], side: str, start: int) -> list[tuple[int, str, str]]:
    """`side`'s decisions among `entries` (the joiner's, which the host lacks; they begin at
    log entry `start`): made again as they were, at their places (`peer.Announcing`)."""
    return [
        (start + i, str(e.get("key")), str(e.get("by", "human")))
        for i, e in enumerate(entries)
        if isinstance(e, dict) and e.get("t") == "choice" and e.get("side") == side
    ]


def used(log: list[Any], commit: str) -> bool:
    """Has a roll of `log` been settled under `commit` already (its reveal lost in a drop)?"""
    return any(
        isinstance(entry, dict)
        and isinstance(entry.get("shared"), dict)
        and entry["shared"].get("commit") == commit
        for entry in log
    )
