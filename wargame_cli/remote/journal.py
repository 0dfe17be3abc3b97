"""The host's journal (`SAVE.journal`): what the host has settled with the joiner, appended the
moment it happens, so that a host process that dies (`kill -9`, a crash) comes back to all of
it with `host --resume`, never to a save from before it.

The save is written when a machine waits or reads its question; between two saves the host may
have revealed rolls and sent decisions the joiner holds. Each of these is one line appended to
the journal (one `write`, no flush to disk: it outlives the process, which is what dies here),
before anything about it leaves the machine:

- every log entry, as the rules log it (`{"at": i, "e": entry}`), and a decision that came from
  the joiner before the rules act on it (the reveal of a roll it calls for comes after:
  `peer.SharedDice`);
- the joiner's value for a roll, before the host reveals its own (`{"pledge": …}`): the roll
  settled, though its entry is logged only after the reveal leaves; and so the faces the host's
  player typed (typed dice, agreed at setup), before they are sent (`{"typed": …}`);
- a take-back's cut (`{"cut": i}`): the log is that long again; and the dice it kept, which
  come out again for the next rolls (`{"tape": …}`, `remote/kept.py`).

`host --resume` replays the save, then the journal through the same rules (`restore`): the game
comes back to the very roll it was at, and each pledged roll is settled with the values it had,
so a host cannot roll again what it rolled. (A host that removes its journal comes back behind
what the joiner saw settled, and the joiner refuses it: `remote_join._settled`.) The journal
also keeps the joiner's values (`pledges`): a joiner that sends another value for a roll the
host revealed is refused after a restart too."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli.engine import judged
from wargame_cli.engine.requests import Event, Roll, TurnStart
from wargame_cli.errors import ReplayDivergence, SaveError
from wargame_cli.remote import fair

FORMAT = "wargame-journal-1"


def beside(save: Path) -> Path:
    """Where a hosted game's journal lives: `SAVE.journal`."""
    return save.with_name(save.name + ".journal")


@dataclass(frozen=True)
class Pledge:
    """A roll the host revealed: its place, dice, commitment and the joiner's value, and the
    two machines' signatures of them (`remote/signing.py`; none in a game begun unsigned)."""

    at: int
    dice: tuple[int, ...]
    commit: str
    join: bytes
    sigs: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Typed:
    """A roll the host's player typed and sent: its place, dice, faces and source."""

    at: int
    dice: tuple[int, ...]
    faces: tuple[int, ...]
    source: str
    sig: str | None = None  # the typing machine's signature (`remote/signing.py`)


@dataclass
class Read:
    """A journal read back: the log as it stood (`entries` by index, the log `length`), and
    the rolls pledged past its end."""

    entries: dict[int, dict[str, Any]] = field(default_factory=dict)
    length: int | None = None  # None: the journal says nothing of the log
    pledges: dict[int, Pledge | Typed] = field(default_factory=dict)
    game: dict[str, Any] = field(default_factory=dict)  # which game it is of (its first line)
    tape: tuple[int, Any] | None = None  # the latest take-back's kept dice, and where

    def take(self, record: Any) -> None:
        if not isinstance(record, dict):
            return
        if isinstance(record.get("journal"), dict):
            self.game = record["journal"]
        elif isinstance(record.get("at"), int) and isinstance(record.get("e"), dict):
            self._cut(record["at"])
            self.entries[record["at"]] = record["e"]
            self.length = record["at"] + 1
        elif isinstance(record.get("tape"), dict) and isinstance(record.get("at"), int):
            self.tape = (record["at"], record["tape"])
        elif isinstance(record.get("cut"), int):
            self._cut(record["cut"])
            self.length = record["cut"]
        elif (pledged := _pledge(record.get("pledge"))) is not None:
            self.pledges[pledged.at] = pledged
        elif (typed := _typed(record.get("typed"))) is not None:
            self.pledges[typed.at] = typed

    def _cut(self, at: int) -> None:
        """Everything from `at` on is gone (written again, or taken back)."""
        self.entries = {i: e for i, e in self.entries.items() if i < at}
        self.pledges = {i: p for i, p in self.pledges.items() if i < at}

    def log(self, saved: Sequence[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """The log as the journal leaves it over the `saved` one, or None when the journal
        does not continue it (a gap: it belongs to another save)."""
        if self.length is None:
            return list(saved)
        out: list[dict[str, Any]] = []
        for i in range(self.length):
            if i in self.entries:
                out.append(self.entries[i])
            elif i < len(saved):
                out.append(saved[i])
            else:
                return None
        return out


def _pledge(told: Any) -> Pledge | None:
    if not isinstance(told, dict):
        return None
    join, commit, at = fair.hex_value(told.get("join")), told.get("commit"), told.get("at")
    dice = told.get("dice")
    if join is None or fair.hex_value(commit) is None or not isinstance(at, int):
        return None
    if not isinstance(dice, list) or not all(isinstance(d, int) and d > 0 for d in dice):
        return None
    sigs = told.get("sigs")
    kept = (
        {str(k): v for k, v in sigs.items() if isinstance(v, str)} if isinstance(sigs, dict) else {}
    )
    return Pledge(at, tuple(dice), str(commit), join, kept)


def _typed(told: Any) -> Typed | None:
    if not isinstance(told, dict):
        return None
    at, dice, faces, source = (told.get(k) for k in ("at", "dice", "faces", "source"))
    if not isinstance(dice, list) or not isinstance(faces, list):
        return None
    if not isinstance(at, int) or not isinstance(source, str):
        return None
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in [*dice, *faces]):
        return None
    sig = told.get("sig")
    return Typed(at, tuple(dice), tuple(faces), source, sig if isinstance(sig, str) else None)


def read(path: Path) -> Read:
    """The journal at `path` (none: an empty one). A line cut short by the death of the
    process that wrote it is the last one, and is left out."""
    found = Read()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return found
    for line in text.splitlines():
        try:
            found.take(json.loads(line))
        except ValueError:
            continue
    return found


class Journal:
    """The journal being written: one line a record, appended with one `write` each."""

    def __init__(self, path: Path, game: dict[str, Any]) -> None:
        """A fresh journal of `game` (its seed and when it was created: a journal of another
        game is never taken for this one's), over whatever was there: call it once the save
        holds everything the old one had."""
        self.path = path
        part = path.with_name(path.name + ".part")
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, _line({"journal": game}))
        finally:
            os.close(fd)
        os.replace(part, path)
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND)

    def _write(self, record: dict[str, Any]) -> None:
        if self.fd < 0:
            return
        try:
            os.write(self.fd, _line(record))
        except OSError as exc:  # a full disk: the game stops here, its save as it last was
            from wargame_cli.text import shown

            raise SaveError(f"cannot write {shown(self.path)}: {exc.strerror or exc}") from None

    def logged(self, at: int, entry: Mapping[str, Any]) -> None:
        """Entry `at` of the log, as logged (or a decision come from the joiner, as sent)."""
        self._write({"at": at, "e": entry})

    def cut(self, at: int) -> None:
        self._write({"cut": at})

    def pledge(
        self, at: Any, dice: Any, commit: str, join: bytes, sigs: Mapping[str, str] | None = None
    ) -> None:
        """The joiner's value for the roll at `at` (as the joiner placed it: read back, a
        pledge that is not a roll's is left out), and the roll's signatures: written before
        the host's reveal leaves."""
        dice = list(dice) if isinstance(dice, list | tuple) else dice
        told = {"at": at, "dice": dice, "commit": commit, "join": join.hex()}
        self._write({"pledge": told | ({"sigs": dict(sigs)} if sigs else {})})

    def tape(self, at: int, told: dict[str, Any]) -> None:
        """The dice a take-back kept (as `kept.words` gives them) when the log was `at` long."""
        self._write({"at": at, "tape": told})

    def typed(
        self,
        at: int,
        dice: Sequence[int],
        faces: Sequence[int],
        source: str,
        sig: str | None = None,
    ) -> None:
        """Faces this host's player typed for the roll at `at`, and its machine's signature
        of them: written before they are sent."""
        told = {"at": at, "dice": list(dice), "faces": list(faces), "source": source}
        self._write({"typed": told | ({"sig": sig} if sig is not None else {})})

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, separators=(",", ":")) + "\n").encode("utf-8")


def game_of(seed: int, created: str) -> dict[str, Any]:
    return {"format": FORMAT, "seed": seed, "created": created}


def restore(
    runner: Any,
    found: Read,
    value_for: Callable[[str], bytes | None],
) -> int:
    """Bring `runner` (the save replayed) to where the journal leaves the game: the entries it
    logged after the save, through the rules, then each roll it pledged, settled with the
    values it was revealed with. How many entries were added (a cut counts as none)."""
    from wargame_cli.engine.runner import roll_entry

    log = found.log(runner.log)
    if log is None:
        return 0
    before = len(runner.log)
    kept = judged.agreed(runner.log, log)
    if kept < len(runner.log):  # a take-back after the save: back to where it cut
        runner.cut(kept)
    try:
        runner.replay(log[kept:])
    except ReplayDivergence:  # a decision the rules refused (and the game stopped at)
        return len(runner.log) - before
    pledges = dict(found.pledges)
    while pledges and runner.pending is not None:
        req, at = runner.pending, len(runner.log)
        if isinstance(req, Event | TurnStart):  # what the rules say before the pledged roll
            runner.step()
            continue
        told = pledges.pop(at, None)
        if not isinstance(req, Roll) or told is None or told.dice != tuple(req.dice):
            break
        if isinstance(told, Typed):
            entry = roll_entry(req, told.faces, told.source, sig=told.sig)
        else:
            host = value_for(told.commit)
            if host is None:
                break
            faces = fair.derive(host, told.join, req.dice)
            proof = fair.proof(told.commit, host, told.join) | told.sigs
            entry = roll_entry(req, faces, fair.SHARED, proof)
        try:
            runner.replay([entry])
        except ReplayDivergence:  # faces its dice cannot show: the journal was edited
            break
    _take_tape(runner, found)
    return len(runner.log) - before


def _take_tape(runner: Any, found: Read) -> None:
    """The dice the latest take-back kept, less those the rolls since have taken."""
    from wargame_cli.remote import kept

    if found.tape is None:
        return
    at, told = found.tape
    tape = kept.from_words(told)
    if tape is not None and at <= len(runner.log):
        runner.tape = kept.after(tape, runner.log[at:])
