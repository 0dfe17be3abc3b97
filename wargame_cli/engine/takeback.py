"""Taking back a decision: which entry goes, the dice tape it leaves, and the record a save keeps.

Dice are a fixed tape: the faces rolled after a taken-back decision come out again, in order,
for the next dice the rules ask for, so a take-back can never fish for new dice.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from wargame_cli.engine.dice import (
    RNG,
    SCRIPT,
    DiceSource,
    Thrown,
    collapse,
    per_die,
    rest_of,
    rng_of,
    script_of,
)
from wargame_cli.engine.entries import ChoiceEntry, LogEntry, TakeBackRecord
from wargame_cli.engine.requests import Choice, Request, Roll

TAKERS = ("human", "script")  # whose decisions can be taken back (never a bot's alone)
NOTHING = "nothing to take back: no decision by a person or a script yet"
NOTHING_OWN = "nothing to take back: you have made no decision yet"


def latest_taken(log: Sequence[LogEntry], side: str | None = None) -> int | None:
    """Index of the latest decision a person or a script made, or of the latest table edit
    (not a die correction, which stands with its roll), or None. With `side` (remote play,
    where each player takes back only their own): that side's latest decision alone."""
    for index in range(len(log) - 1, -1, -1):
        entry = log[index]
        if entry.get("t") == "choice" and entry.get("by") in TAKERS:
            if side is None or entry.get("side") == side:
                return index
        elif side is None and entry.get("t") == "edit" and entry.get("action") != "die":
            return index
    return None


def named(entry: Mapping[str, Any]) -> str:
    """A decision in a player's words: its option's label, and where that label is only the
    answer typed (a spot such as '13.5,4.2'), the question it answered with it."""
    label, key = str(entry.get("label") or ""), str(entry.get("key") or "")
    prompt = str(entry.get("prompt") or "").strip()
    if label and label != key:
        return label
    return f"{prompt} {key}".strip() if prompt else key


def faces_of(entries: Sequence[LogEntry]) -> list[tuple[int, int, str]]:
    """Every die rolled in `entries`, in order: (die size, face, source)."""
    out: list[tuple[int, int, str]] = []
    for entry in entries:
        if entry["t"] != "roll":
            continue
        source = entry.get("source", RNG)
        sources = entry.get("sources") or [source] * len(entry["faces"])
        out += zip(entry["dice"], entry["faces"], sources, strict=False)
    return out


def proofs_of(entries: Sequence[LogEntry]) -> list[tuple[tuple[int, ...], dict[str, str]]]:
    """Every roll in `entries` shared by two machines: its faces and what proves them."""
    return [(tuple(e["faces"]), e["shared"]) for e in entries if e["t"] == "roll" and "shared" in e]


def record(entry: ChoiceEntry, at: int, turn: int) -> TakeBackRecord:
    """A save's `takebacks` item; `new` is filled in when the decision is made again."""
    return {
        "side": entry["side"],
        "turn": turn,
        "at": at,
        "taken": {
            "key": entry["key"],
            "label": entry["label"],
            "prompt": entry["prompt"],
            "by": entry["by"],
        },
        "new": None,
    }


def describe(
    takeback: Mapping[str, Any],
    names: dict[str, str] | None = None,
    word: str = "turn",
    open_question: bool = False,
) -> str:
    """One line for the screen, replays and reports; `open_question`: it is being asked
    again now (live play, or where a save stopped)."""
    side = takeback.get("side", "?")
    who = (names or {}).get(side, f"Side {side}")
    taken = takeback.get("taken") or {}
    new = takeback.get("new")
    if new:
        then = f"; chose {new.get('label')} instead"
    else:
        then = ": asked again" if open_question else "; then took back further"
    turn = takeback.get("turn")
    when = f"{word} {turn}" if turn else "setting up"
    return f"{who} took back {named(taken)} ({when}){then}"


@dataclass
class Tape:
    """Faces kept from taken-back play, reused in order before the live dice roll anything."""

    kept: deque[tuple[int, int, str]] = field(default_factory=deque)
    # the kept shared rolls (remote play): a roll that takes one again whole carries its proof
    proofs: deque[tuple[tuple[int, ...], dict[str, str]]] = field(default_factory=deque)

    def __bool__(self) -> bool:
        return bool(self.kept)

    def rewind(
        self,
        dice: DiceSource,
        removed: list[tuple[int, int, str]],
        proofs: Sequence[tuple[tuple[int, ...], dict[str, str]]] = (),
    ) -> None:
        """Put `removed` back in front of the tape; rewind a script and the seeded stream."""
        self.proofs.extendleft(reversed(proofs))
        script = script_of(dice)
        if script is not None:
            scripted = sum(1 for _, _, source in removed if source == SCRIPT)
            script.used = max(0, script.used - scripted)
        rng = rng_of(dice)
        if rng is not None:
            rng.rewind()  # the replay of the kept log skips what it drew
        self.kept.extendleft(reversed(removed))

    def serves(self, roll: Roll) -> bool:
        """Whether the kept faces cover every die of `roll`, each of the size asked."""
        kept = list(self.kept)[: len(roll.dice)]
        return len(kept) == len(roll.dice) and all(
            size == die for (size, _, _), die in zip(kept, roll.dice, strict=True)
        )

    def throw(self, roll: Roll, dice: DiceSource, note: Callable[[str], None]) -> Thrown:
        if not self.kept:
            return dice.throw(roll)
        faces: list[int] = []
        sources: list[str] = []
        for die in roll.dice:
            if not self.kept:
                break
            kept_die, face, source = self.kept[0]
            if kept_die != die:
                note(
                    f"The rules now ask for a d{die} where the kept dice had a d{kept_die}: "
                    f"new dice for {roll.reason} and every roll after it."
                )
                self.kept.clear()
                self.proofs.clear()
                break
            self.kept.popleft()
            _advance(dice, die, source)
            faces.append(face)
            sources.append(source)
        if SHARED in sources:
            return self._shared(roll, dice, faces, sources, note)
        if len(faces) < len(roll.dice):
            rest = rest_of(roll, len(faces))
            thrown = dice.throw(rest)
            faces += thrown.faces
            sources += per_die(thrown, len(rest.dice))
        return Thrown(tuple(faces), collapse(sources))

    def _shared(
        self,
        roll: Roll,
        dice: DiceSource,
        faces: list[int],
        sources: list[str],
        note: Callable[[str], None],
    ) -> Thrown:
        """Kept faces of dice shared by two machines come out again only as the whole roll
        they were (its proof holds for it alone); otherwise the rest are rolled anew."""
        if self.proofs and self.proofs[0][0] == tuple(faces) and len(faces) == len(roll.dice):
            return Thrown(tuple(faces), collapse(sources), self.proofs.popleft()[1])
        note(f"The kept dice do not fit {roll.reason} as they were rolled: new dice from here.")
        self.kept.clear()
        self.proofs.clear()
        return dice.throw(roll)


SHARED = "shared"  # a face settled by two machines (`wargame_cli.remote.fair`)


def _advance(dice: DiceSource, die: int, source: str) -> None:
    """Keep the live source in step with a reused face (the rewound stream draws it again)."""
    script = script_of(dice)
    if source == SCRIPT and script is not None and script.used < len(script.faces):
        script.used += 1
    elif source == RNG and (rng := rng_of(dice)) is not None:
        rng.face(die)


def lines(save: dict[str, Any], word: str = "turn") -> list[str]:
    """One line per take-back a save lists, in order (for battle reports)."""
    names = (save.get("setup") or {}).get("names") or {}
    return [describe(t, names, word) for t in save.get("takebacks") or []]


def places(takebacks: list[dict[str, Any]]) -> dict[int, int]:
    """Where each take-back is judged: the index of the last one at each place (`at`). An
    earlier one at the same place was taken back further (its `at` moved down to the later
    one's), so only the last there says what the log holds."""
    return {done["at"]: i for i, done in enumerate(takebacks)}


def order_problem(takebacks: list[dict[str, Any]], length: int) -> tuple[int, str] | None:
    """(take-back number, why) for a list no play could leave: each take-back moves the
    earlier ones down to its place, so the places never go back; none lies past the log; one
    taken back further was asked in the turn of the one that did it or later."""
    heads = places(takebacks)
    last_at = 0
    for i, done in enumerate(takebacks):
        at = done["at"]
        if at > length:
            return i, f"it stands at entry {at}, past the end of the log ({length} entries)"
        if at < last_at:
            return i, f"it stands at entry {at}, before the take-back listed above it"
        if i != heads[at] and done["turn"] < takebacks[heads[at]]["turn"]:
            return i, "it was taken back further, by a decision of a later turn"
        last_at = at
    return None


def judged(done: dict[str, Any], asked: Request | None) -> str | None:
    """Why the decision `done` took back is not a legal answer to `asked`, judged while that
    question is the one pending (its judge reads the game as it is then)."""
    return asked.legal(done["taken"]["key"]) if isinstance(asked, Choice) else None


def problem(
    done: dict[str, Any],
    asked: Request | None,
    entry: dict[str, Any] | None,
    turn: int,
    refused: str | None,
) -> str | None:
    """Why the take-back `done` cannot be true, or None: the rules must have asked its side a
    question at its place (`asked`, in turn `turn`) to which the decision taken back was a
    legal answer, and the log's entry there (`entry`; None past the end) must be the new
    decision; with none, the question must still be open where the log stops. `refused`:
    `judged(done, asked)`, worked out when `asked` was pending."""
    if not isinstance(asked, Choice):
        return "the rules ask for no decision there"
    if asked.side != done["side"]:
        return f"the rules ask side {asked.side} there, not side {done['side']}"
    if turn != done["turn"]:
        return f"that decision is asked in turn {turn}, not in turn {done['turn']}"
    if refused is not None:
        taken = done["taken"]["key"]
        return f"the decision taken back ({taken!r}) was never a legal answer there: {refused}"
    new = done.get("new")
    if new is None:
        return "it has no new decision, but play went on" if entry is not None else None
    if entry is None:
        return f"its new decision {new['key']!r} is not in the log"
    if entry.get("t") != "choice" or (entry.get("key"), entry.get("by")) != (
        new["key"],
        new["by"],
    ):
        return f"its new decision {new['key']!r} (by {new['by']}) is not the log's decision there"
    return None
