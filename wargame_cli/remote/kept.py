"""A take-back's kept dice (the runner's `Tape`) across a reconnection or a host restart.

At one terminal the dice rolled after a taken-back decision come out again, in order, for the
next rolls. In remote play both machines keep the same tape, each taking a kept roll from its
own without a word on the wire; so after a drop the joiner's new game (opened from the host's
save, which holds no tape) must get the tape the host has. The host sends its tape with the
game (`words`); a joiner whose process lived carries its own tape on, advanced by the rolls the
host's game holds beyond its own (`after`), and the two must be the same, else the game stops
(a host that came back with other kept dice would choose faces); a joiner that started afresh
takes the host's, each kept shared roll checked against its commitment and values (`problem`).
A restarted host gets its tape back from its journal (`remote/journal.py`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from wargame_cli.engine.dice import Thrown
from wargame_cli.engine.requests import Roll
from wargame_cli.engine.takeback import Tape
from wargame_cli.remote import fair


def words(tape: Tape) -> dict[str, Any]:
    """The tape as JSON: its kept dice (size, face, source) and the proofs of its shared rolls."""
    return {
        "kept": [[size, face, source] for size, face, source in tape.kept],
        "proofs": [[list(faces), dict(proof)] for faces, proof in tape.proofs],
    }


def from_words(told: object) -> Tape | None:
    """A tape as `words` gives it, or None when it is not one."""
    if not isinstance(told, dict):
        return None
    kept, proofs = told.get("kept"), told.get("proofs")
    if not isinstance(kept, list) or not isinstance(proofs, list):
        return None
    tape = Tape()
    for item in kept:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[2], str)):
            return None
        size, face = item[0], item[1]
        if not _whole(size) or not _whole(face) or not 1 <= face <= size:
            return None
        tape.kept.append((size, face, item[2]))
    for item in proofs:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict)):
            return None
        faces, proof = item
        if not isinstance(faces, list) or not all(_whole(f) for f in faces):
            return None
        tape.proofs.append((tuple(faces), {str(k): str(v) for k, v in proof.items()}))
    return tape


def _whole(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n > 0


class _Given:
    """A dice source that gives the faces a roll entry shows (what the rest of a roll the tape
    did not cover came out as)."""

    def __init__(self, faces: Sequence[int], source: str) -> None:
        self.faces = tuple(faces)
        self.source = source

    def throw(self, roll: Roll) -> Thrown:
        return Thrown(self.faces[len(self.faces) - len(roll.dice) :], self.source)


def after(tape: Tape, rolls: Sequence[Any]) -> Tape:
    """A copy of `tape` as it stands once the roll entries among `rolls` were taken, each as
    live play takes a roll (`Tape.throw`: kept faces first, while they fit)."""
    out = Tape(deque(tape.kept), deque(tape.proofs))
    for entry in rolls:
        if not out:
            break
        if not isinstance(entry, dict) or entry.get("t") != "roll":
            continue
        roll = Roll(tuple(entry["dice"]), str(entry.get("reason", "")))
        out.throw(roll, _Given(entry["faces"], str(entry.get("source"))), _quiet)
    return out


def untaken(tape: Tape, entries: Sequence[Any]) -> list[Any]:
    """`entries` less the rolls `tape` gave whole, in order (their dice, faces and proofs the
    kept ones): what else they hold was decided or rolled afresh."""
    kept, proofs = deque(tape.kept), deque(tape.proofs)
    out = []
    for entry in entries:
        if isinstance(entry, dict) and entry.get("t") == "roll" and _from(kept, proofs, entry):
            continue
        out.append(entry)
    return out


def _from(kept: deque[Any], proofs: deque[Any], entry: dict[str, Any]) -> bool:
    """Did `entry` come whole off the front of the kept dice? If so they are taken."""
    dice, faces = entry.get("dice") or [], entry.get("faces") or []
    front = list(kept)[: len(dice)]
    if len(front) != len(dice) or [(s, f) for s, f, _ in front] != list(
        zip(dice, faces, strict=False)
    ):
        return False
    shared = entry.get("shared")
    if shared is not None:
        if not proofs or proofs[0] != (tuple(faces), shared):
            return False
        proofs.popleft()
    for _ in dice:
        kept.popleft()
    return True


def _quiet(text: str) -> None:
    return None


def same(a: Tape, b: Tape) -> bool:
    return words(a) == words(b)


def problem(tape: Tape) -> str | None:
    """Why the kept shared rolls of `tape` do not hold, or None: each proof, in order, stands
    for the next run of kept shared dice, which must show its faces, and it must open its
    commitment and give those faces for those dice."""
    kept, at = list(tape.kept), 0
    for faces, proof in tape.proofs:
        while at < len(kept) and kept[at][2] != fair.SHARED:
            at += 1
        run = kept[at : at + len(faces)]
        at += len(faces)
        if [face for _, face, _ in run] != list(faces):
            return f"a kept shared roll {list(faces)} is not among the kept dice"
        entry = {"dice": [size for size, _, _ in run], "faces": list(faces), "shared": proof}
        why = fair.problem(entry)
        if why is not None:
            return f"a kept roll {list(faces)}: {why}"
    return None
