"""Typed physical dice in remote play, by agreement at setup: the host proposes that a side's
player throws real dice and types their faces (`wargame host --dice B=manual`), the joiner
accepts or declines, and then that side's rolls are typed on its player's own machine and
cross the wire as faces (no commit and reveal: the players agreed to trust that player's
dice). Each such roll is labelled in the log with the side whose player typed it
(`source` "typed-A" or "typed-B"); the other rolls stay shared. A typed answer left empty
hands that roll to the shared dice."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from wargame_cli.engine.dice import TYPED, check_faces, parse_dice
from wargame_cli.engine.requests import Roll
from wargame_cli.errors import BadInput
from wargame_cli.kit.sides import SIDES
from wargame_cli.remote.wire import Refused

SHARED_WORD = "shared"
ACCEPT, DECLINE = "accept", "decline"


def source_of(side: str) -> str:
    """A typed roll's `source`: the side whose player typed it on their machine."""
    return f"typed-{side}"


def proposed(text: str | None) -> frozenset[str]:
    """The sides `--dice` (as `play` takes it) proposes to type: empty for auto/None."""
    if text is None:
        return frozenset()
    return frozenset(side for side, kind in parse_dice(text).items() if kind == TYPED)


def words(typed: Iterable[str]) -> str:
    """The save's `setup.dice` of a remote game: "shared", with the typed sides after it
    ("shared,B=manual")."""
    return ",".join([SHARED_WORD, *(f"{side}={TYPED}" for side in sorted(typed))])


def from_words(text: object) -> frozenset[str]:
    """The typed sides a save's `setup.dice` names (see `words`)."""
    if not isinstance(text, str) or not text.startswith(SHARED_WORD):
        return frozenset()
    parts = text.split(",")[1:]
    return frozenset(p.split("=")[0] for p in parts if p.endswith(f"={TYPED}"))


def offered(offer: object) -> frozenset[str]:
    """The sides a host's setup proposes to type (`setup.dice` of its welcome)."""
    if not isinstance(offer, list):
        return frozenset()
    return frozenset(side for side in offer if side in SIDES)


def told(typed: frozenset[str]) -> str:
    """Typed dice in words: "typed dice for side B", "no typed dice"."""
    if not typed:
        return "no typed dice"
    return f"typed dice for side {' and '.join(sorted(typed))}"


def check_own(typed: frozenset[str], side: str, human: bool) -> None:
    """Typed dice for this machine's own side need a person here to throw them."""
    if side in typed and not human:
        raise BadInput(
            f"--dice: side {side}'s dice would be typed, but the computer plays it here: "
            "real dice need a person at this machine"
        )


def offer_words(typed: frozenset[str], names: dict[str, str], seat: str) -> str:
    """The question the joiner is asked about the host's proposal."""
    whose = [
        "yours (you throw real dice and type their faces here)"
        if side == seat
        else f"{names.get(side, 'the host')}'s (they type theirs on their machine)"
        for side in sorted(typed)
    ]
    return (
        f"The host proposes typed physical dice for side {' and '.join(sorted(typed))}: "
        f"{'; '.join(whose)}. The other rolls stay shared by commit and reveal."
    )


def answer_of(message: dict[str, Any]) -> bool:
    """Did the joiner's team message accept the proposal?"""
    return message.get("dice") == ACCEPT


def received(peer_name: str, roll: Roll, message: dict[str, Any], at: int) -> tuple[int, ...]:
    """The faces the other machine's player typed for `roll`, checked here: the same roll at
    the same log entry, faces a die of that size can show (empty: shared dice instead)."""
    if message.get("dice") != list(roll.dice) or message.get("at") != at:
        raise Refused(
            f"{peer_name} typed dice {message.get('dice')!r} at log entry "
            f"{message.get('at')!r}; the rules here ask for {list(roll.dice)} at {at} "
            f"({roll.reason}): the games went apart"
        )
    faces = message.get("faces")
    if not isinstance(faces, list) or any(isinstance(f, bool) for f in faces):
        raise Refused(f"{peer_name} sent no faces for {roll.reason}")
    if not faces:
        return ()
    problem = check_faces(roll, faces)
    if problem is not None:
        raise Refused(f"{peer_name} typed impossible faces for {roll.reason}: {problem}")
    return tuple(faces)


def typed_message(roll: Roll, faces: tuple[int, ...], at: int) -> dict[str, Any]:
    return {"t": "typed", "faces": list(faces), "dice": list(roll.dice), "at": at}


Ask = Callable[[Roll], list[int]]


def asker(prompter: Any) -> Ask:
    """This machine's player types a roll's faces (the same question as at one terminal);
    with no person here, nothing (the roll is shared)."""
    if prompter is None:
        return lambda roll: []
    return lambda roll: list(prompter.faces(roll))
