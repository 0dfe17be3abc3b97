"""The kinds of log entry the runner writes, as the types the program reads them by.

A save's log is a JSON list of objects, each tagged by `"t"`; these TypedDicts are those same
dicts (so the JSON on disk is unchanged), one per tag, so that reading `entry["key"]` is
checked once `entry["t"] == "choice"` says which kind it is. A log read from a file is not
of these types until it is replayed: the runner checks each entry against what the rules ask
and writes its own.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class RollEntry(TypedDict):
    """Dice thrown for a `Roll`: one face per die; `sources` only when they differ."""

    t: Literal["roll"]
    side: str | None
    reason: str
    dice: list[int]
    faces: list[int]
    source: str  # "rng", "manual", "script"... or "mixed" (then `sources`, one a die)
    rules: list[str]
    sources: NotRequired[list[str]]
    labels: NotRequired[list[str]]
    shared: NotRequired[dict[str, str]]  # dice shared by commit and reveal: the proof
    sig: NotRequired[str]  # faces typed at one machine in remote play: its signature


class ChoiceEntry(TypedDict):
    """A decision: the key answered, the menu's label for it, and who made it."""

    t: Literal["choice"]
    side: str
    kind: str
    prompt: str
    key: str
    label: str
    by: str  # "human", "bot" or "script"
    rules: list[str]
    sig: NotRequired[str]  # remote play: its side's machine's signature (`remote/signing.py`)


class EventEntry(TypedDict):
    """A fact the rules established (`Event`)."""

    t: Literal["event"]
    kind: str
    text: str
    rules: list[str]
    data: NotRequired[dict[str, Any]]


class TurnEntry(TypedDict):
    """The start of game turn `n` (`TurnStart`)."""

    t: Literal["turn"]
    n: int
    rules: list[str]
    position: NotRequired[dict[str, Any]]  # the game's position then (`engine/position.py`)


class EndEntry(TypedDict):
    """How the game ended (`Outcome`); `winner` is None for a draw."""

    t: Literal["end"]
    winner: str | None
    reason: str
    rules: list[str]
    data: NotRequired[dict[str, Any]]


class EditEntry(TypedDict):
    """A table edit (`engine/edits.py`): `action` with its words, who made it ("GM", "A"
    or "B") and why; `text` says what changed; `data` holds a die correction's facts."""

    t: Literal["edit"]
    action: str
    args: list[str]
    by: str
    why: str
    text: str
    data: NotRequired[dict[str, Any]]


LogEntry = RollEntry | ChoiceEntry | EventEntry | TurnEntry | EndEntry | EditEntry


class NoteEntry(TypedDict):
    """Told to the screen, never logged: something about the play that is not a rule's."""

    t: Literal["note"]
    text: str


class Taken(TypedDict):
    """The decision a take-back took back, as its choice entry had it."""

    key: str
    label: str
    prompt: str
    by: str


class Remade(TypedDict):
    """The decision made again in its place."""

    key: str
    label: str
    by: str


class TakeBackRecord(TypedDict):
    """A save's `takebacks` item (kept beside the log, not in it): at log index `at`, in game
    turn `turn`, `side`'s decision `taken` was taken back; `new` is the one made again, None
    until it is made."""

    side: str
    turn: int
    at: int
    taken: Taken
    new: Remade | None
    # remote play: both machines' signatures of it (`remote/signing.py`)
    signed: NotRequired[dict[str, Any]]


class TakeBackNote(TypedDict):
    """Told to the screen, never logged: the `text` of a take-back, with its record's fields
    when it was made just now (`live`)."""

    t: Literal["takeback"]
    text: str
    live: NotRequired[bool]
    side: NotRequired[str]
    turn: NotRequired[int]
    at: NotRequired[int]
    taken: NotRequired[Taken]
    new: NotRequired[Remade | None]
    signed: NotRequired[dict[str, Any]]


# What an observer of a runner is shown: every log entry as it is written, and notes.
Shown = LogEntry | NoteEntry | TakeBackNote
