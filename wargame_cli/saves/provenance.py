"""Where a game's dice came from and who made its decisions, counted once from the replayed
log for every output (verify, `replay`, the reports, `--json`): a save whose faces did not all
come from its seed must never read as if they had, and one without a hash chain says so."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wargame_cli.engine.edits import edit_words

SIDES = ("A", "B")
# A roll's `source` (per die: `sources`), in the order the words list them.
DICE_WORDS = {
    "script": "given by --rolls",
    "manual": "typed in at the table (--dice manual, or for a side)",
    "rng": "from the generator (seed {seed})",
    "corrected": "corrected by hand to the face really thrown (wargame edit die)",
    "shared": "shared by commit and reveal between the two players' machines",
    "typed-A": "typed in by side A's player at their own machine (remote, agreed at setup)",
    "typed-B": "typed in by side B's player at their own machine (remote, agreed at setup)",
}
# A decision's `by`.
DECISION_WORDS = {"human": "by a person", "bot": "by the computer", "script": "by a script"}
UNSEALED = "unsealed: a version 1 save has no hash chain to show it was not edited"
INHERITED = (
    "unsealed: written from a save with no hash chain (version 1, or its chain stripped), "
    "so nothing shows that its record up to then was not edited"
)
# The save's field saying so: every save written from an unsealed one carries it, under its
# seal (removing it breaks the chain), so resuming, forking or editing never launders a record.
MARK = "unsealed"


def chained(data: dict[str, Any]) -> bool:
    """Does the file carry the hash chain (a `seal`, or `h` on any log entry)? A file that
    does is judged by the chain whatever its `version` says: no number turns it off."""
    if "seal" in data:
        return True
    log = data.get("log")
    return isinstance(log, list) and any(isinstance(e, dict) and "h" in e for e in log)


def vouched(data: dict[str, Any]) -> bool:
    """Does the chain vouch for the whole record: the file carries it, and was never
    written from a save without one (`MARK`)?"""
    return chained(data) and data.get(MARK) is not True


@dataclass(frozen=True)
class Provenance:
    """Counts over a log: die faces by where they came from, decisions by side and maker."""

    seed: int
    sealed: bool
    rolls: int = 0
    faces: dict[str, int] = field(default_factory=dict)  # source -> faces
    decisions: dict[str, dict[str, int]] = field(default_factory=dict)  # side -> by -> n
    edits: tuple[str, ...] = ()  # each table edit, in words, in the order made
    inherited: bool = False  # unsealed though chained: written from an unsealed save

    @property
    def dice_total(self) -> int:
        return sum(self.faces.values())

    @property
    def by(self) -> dict[str, int]:
        """Decisions by maker, both sides together."""
        out: dict[str, int] = {}
        for counts in self.decisions.values():
            for who, n in counts.items():
                out[who] = out.get(who, 0) + n
        return out

    def dice_words(self) -> str:
        """ "6 given by --rolls, 12 from the generator (seed 7)", or "none rolled"."""
        parts = [
            f"{self.faces[source]} {words.format(seed=self.seed)}"
            for source, words in DICE_WORDS.items()
            if self.faces.get(source)
        ]
        return ", ".join(parts) if parts else "none rolled"

    def decision_words(self, side: str | None = None) -> str:
        """ "3 by a person, 20 by the computer", or "none" (one side's with `side`)."""
        counts = self.by if side is None else self.decisions.get(side, {})
        parts = [
            f"{counts[who]} {words}" for who, words in DECISION_WORDS.items() if counts.get(who)
        ]
        return ", ".join(parts) if parts else "none"

    def lines(self, decisions: bool = True) -> list[str]:
        """What every summary states: the dice, the decisions (unless told side by side),
        and an unsealed record."""
        out = [f"dice: {self.dice_words()}"]
        if decisions:
            out.append(f"decisions: {self.decision_words()}")
        if self.edits:
            n = len(self.edits)
            out.append(f"table edits: {n} ({'; '.join(self.edits)})")
        if self.sealed:
            return out
        return [*out, INHERITED if self.inherited else UNSEALED]

    def as_json(self) -> dict[str, Any]:
        return {
            "sealed": self.sealed,
            "unsealed_origin": self.inherited,
            "seed": self.seed,
            "rolls": self.rolls,
            "edits": list(self.edits),
            "dice": {source: self.faces.get(source, 0) for source in DICE_WORDS},
            "decisions": {who: self.by.get(who, 0) for who in DECISION_WORDS},
            "decisions_by_side": {
                side: {who: self.decisions.get(side, {}).get(who, 0) for who in DECISION_WORDS}
                for side in SIDES
            },
        }


def count(
    log: list[dict[str, Any]], seed: int, sealed: bool, inherited: bool = False
) -> Provenance:
    """The counts of a (replayed) log: a roll's faces by its `sources`, else its `source`."""
    faces: dict[str, int] = {}
    decisions: dict[str, dict[str, int]] = {side: {} for side in SIDES}
    rolls = 0
    told: list[str] = []
    for entry in log:
        kind = entry.get("t")
        if kind == "edit":
            told.append(edit_words(entry))
            data = entry.get("data") or {}
            if entry.get("action") == "die" and data.get("source") in faces:
                source = str(data["source"])  # the roll was counted: now it is a corrected face
                faces[source] -= 1
                faces["corrected"] = faces.get("corrected", 0) + 1
        if kind == "roll":
            rolls += 1
            n = len(entry.get("faces") or [])
            sources = entry.get("sources") or [entry.get("source", "rng")] * n
            for source in sources[:n]:
                faces[str(source)] = faces.get(str(source), 0) + 1
        elif kind == "choice":
            side = decisions.setdefault(str(entry.get("side")), {})
            by = str(entry.get("by", "human"))
            side[by] = side.get(by, 0) + 1
    return Provenance(seed, sealed, rolls, faces, decisions, tuple(told), inherited)


def of_save(save: dict[str, Any], sealed: bool | None = None) -> Provenance:
    """The counts of save data (its log as it stands); `sealed` defaults to whether the
    chain vouches for that data (`vouched`)."""
    seal = vouched(save) if sealed is None else sealed
    return count(save.get("log") or [], int(save.get("seed") or 0), seal, _inherited(save))


def of_session(session: Any) -> Provenance:
    """The counts of a replayed session; sealed as the file it was read from is (a game
    begun here is sealed unless it goes on from an unsealed save)."""
    saved = session.meta.get("saved")
    sealed = vouched(saved) if saved is not None else not session.meta.get(MARK)
    inherited = _inherited(saved) if saved is not None else bool(session.meta.get(MARK))
    return count(session.runner.log, session.seed, sealed, inherited)


def _inherited(data: dict[str, Any]) -> bool:
    return chained(data) and data.get(MARK) is True
