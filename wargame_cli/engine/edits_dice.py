"""Die corrections: the dice of a log numbered from 1 in the order they were rolled, where
each one stands, and the entry that records a correction (old and new face, and where the die
first came from, so a replay still draws the generator's face it replaced).

A correction is never a re-roll: the new face is the one really thrown, typed by a person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from wargame_cli.engine.dice import RNG, face_problem
from wargame_cli.engine.edits import Edit, EditRefused
from wargame_cli.engine.entries import LogEntry
from wargame_cli.limits import MAX_INT
from wargame_cli.wording import plural


@dataclass(frozen=True)
class Die:
    """Die `number` (from 1) of a log: in the roll at log index `at`, its `pos`th face."""

    number: int
    at: int
    pos: int
    size: int
    face: int
    source: str
    reason: str
    side: str | None
    turn: int
    was: int | None  # the face first thrown, where it was corrected


def dice_of(log: Sequence[Any]) -> list[Die]:
    """Every die a log rolled, in order, with the corrections the log records."""
    corrected = _corrections(log)
    out: list[Die] = []
    turn = 0
    for index, entry in enumerate(log):
        kind = entry.get("t")
        if kind == "turn":
            turn = int(entry.get("n", turn))
        if kind == "roll":
            for pos in range(_count(entry)):
                out.append(_die(entry, len(out) + 1, index, pos, turn, corrected))
    return out


def die_numbered(log: Sequence[Any], number: int) -> tuple[Die | None, int]:
    """Die `number` of a log (None past the last) and how many dice the log rolled: counted
    without making every die, so a correction late in a long game stays cheap."""
    seen, turn, found = 0, 0, None
    for index, entry in enumerate(log):
        kind = entry.get("t")
        if kind == "turn":
            turn = int(entry.get("n", turn))
        elif kind == "roll":
            count = _count(entry)
            if found is None and seen < number <= seen + count:
                pos = number - seen - 1
                found = _die(entry, number, index, pos, turn, _corrections(log))
            seen += count
    return found, seen


def _count(roll: Any) -> int:
    return min(len(roll.get("dice") or []), len(roll.get("faces") or []))


def _corrections(log: Sequence[Any]) -> dict[tuple[int, int], int]:
    """(roll index, die position) -> the face first thrown, for every corrected die."""
    corrected: dict[tuple[int, int], int] = {}
    for entry in log:
        if entry.get("t") == "edit" and entry.get("action") == "die":
            data = entry.get("data") or {}
            corrected[(int(data.get("at", -1)), int(data.get("pos", -1)))] = int(data.get("was", 0))
    return corrected


def _die(
    entry: Any, number: int, index: int, pos: int, turn: int, corrected: dict[tuple[int, int], int]
) -> Die:
    faces = entry.get("faces") or []
    sources = entry.get("sources") or [entry.get("source", RNG)] * len(faces)
    return Die(
        number=number,
        at=index,
        pos=pos,
        size=int(entry["dice"][pos]),
        face=int(faces[pos]),
        source=str(sources[pos]),
        reason=str(entry.get("reason", "")),
        side=entry.get("side"),
        turn=turn,
        was=corrected.get((index, pos)),
    )


def pick(log: Sequence[LogEntry], edit: Edit) -> tuple[Die, int]:
    """The die an edit `die N FACE` names and its new face, or a refusal: a die not rolled,
    a face that die cannot show, or the face it already shows."""
    number = edit.number(0, "the die number")
    face = edit.number(1, "the face", low=-MAX_INT)
    die, rolled = die_numbered(log, number)
    if die is None:
        told = f"only {plural(rolled, 'die', 'dice')} {'was' if rolled == 1 else 'were'} rolled"
        raise EditRefused(
            f"edit die: there is no die {number}: {told if rolled else 'no die was rolled yet'}"
        )
    problem = face_problem(face, die.size)
    if problem:
        raise EditRefused(f"edit die {number}: {problem}")
    if face == die.face:
        raise EditRefused(f"edit die {number}: it already shows {face}")
    return die, face


def corrected(roll: dict[str, Any], die: Die, face: int) -> dict[str, Any]:
    """The roll entry with the die showing its new face."""
    faces = list(roll["faces"])
    faces[die.pos] = face
    return {**roll, "faces": faces}


def data(die: Die, face: int) -> dict[str, Any]:
    """The facts a correction's entry keeps: which die, where, the face first thrown (an
    earlier correction's `was` stays the first face), the new one, where it first came from."""
    return {
        "die": die.number,
        "at": die.at,
        "pos": die.pos,
        "was": die.was if die.was is not None else die.face,
        "face": face,
        "source": die.source,
    }


def text(die: Die, face: int) -> str:
    was = die.was if die.was is not None else die.face
    return f"die {die.number} ({die.reason}, d{die.size}) corrected from {was} to {face}"


def problem(entry: dict[str, Any], log: Sequence[Any]) -> str | None:
    """Why a correction's entry does not fit the log just before it, or None: it follows its
    roll (after the roll's other corrections), names that die, and the roll shows its face."""
    data = entry.get("data") or {}
    at, pos = data.get("at"), data.get("pos")
    back = len(log) - 1
    while back >= 0 and log[back].get("t") == "edit" and log[back].get("action") == "die":
        back -= 1
    if back < 0 or back != at or log[back].get("t") != "roll":
        return "a die correction must follow the roll it corrects"
    roll = log[back]
    faces = roll.get("faces") or []
    if not isinstance(pos, int) or not 0 <= pos < len(faces):
        return f"the roll before it has no die {pos}"
    if faces[pos] != data.get("face"):
        return f"the roll shows {faces[pos]}, the correction says {data.get('face')}"
    number = sum(_count(e) for e in log[:at] if e.get("t") == "roll") + pos + 1
    if number != data.get("die"):
        return f"it names die {data.get('die')}, which is not that roll's die {pos + 1}"
    was = data.get("was")
    if not isinstance(was, int) or was == data.get("face"):
        return "it corrects nothing (the same face)"
    size = (roll.get("dice") or [0] * len(faces))[pos]
    if face_problem(was, size) is not None:
        return f"the face first thrown ({was}) cannot show on a d{size}"
    return None
