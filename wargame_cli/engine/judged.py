"""What a replay judges in a log entry: what the rules decide, never how they word it.

A save outlives the wording of the build that wrote it: event texts, roll reasons, prompts,
labels, an ending's reason and rule citations are presentation, and a newer build may say
them otherwise. Replay and `replay --verify` compare only the fields below; any other
difference is a rewording (told as a note, never a refusal). An event is judged by its `kind`
and `data`, the one vocabulary of `engine/events.py` (an older save's other spelling is
brought to today's by the ruleset's `migrate_entry` first). The hash chain still covers
every byte of the file (`saves/seal.py`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

JUDGED: dict[str, tuple[str, ...]] = {
    "turn": ("n",),
    "roll": ("side", "dice", "faces", "source", "sources"),
    "choice": ("side", "key", "by"),
    "event": ("kind", "data"),
    "end": ("winner", "data"),
    "edit": ("action", "args", "by", "why", "data"),
}


def normal(value: Any) -> Any:
    """As it reads back from JSON (tuples are lists, keys are text)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def same(saved: Any, ours: Any) -> bool:
    """Equal as JSON: `ours` may hold tuples where the file has lists."""
    return saved == ours or saved == normal(ours)


WORDED_DATA = ("reason",)  # an ending's reason copied into data: presentation, as its own `reason`


def _decided(value: Any) -> Any:
    """Data as the rules decide it: without the words a ruleset copies into it."""
    if isinstance(value, Mapping) and any(k in value for k in WORDED_DATA):
        return {k: v for k, v in value.items() if k not in WORDED_DATA}
    return value


def first_difference(
    saved: Mapping[str, Any], ours: Mapping[str, Any], older: bool = False
) -> str | None:
    """The first judged field where a saved entry and the replayed one differ, or None.
    `older`: the save was played under an older version of the rules, whose data may lack
    what a later build adds to it (a datum worked out from the others, such as a die's face
    beside its total): what it wrote is judged, what it never wrote is not."""
    if saved.get("t") != ours.get("t"):
        return "t"
    for key in JUDGED.get(ours.get("t", ""), ()):
        mine, theirs = saved.get(key), ours.get(key)
        if key == "data":
            mine, theirs = _decided(mine), _decided(theirs)
            if older and isinstance(mine, Mapping) and isinstance(theirs, Mapping):
                theirs = {k: v for k, v in theirs.items() if k in mine}
        if not same(mine, theirs):
            return key
    return None


def agreed(a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]]) -> int:
    """How many entries two logs of one game share from the start, judged as replay judges
    them (a log written again, or another machine's, may word them otherwise)."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if first_difference(x, y) is not None:
            break
        n += 1
    return n


def reworded(saved: Mapping[str, Any], ours: Mapping[str, Any]) -> bool:
    """Whether an entry the rules judge equal reads otherwise (`h`, the chain, aside)."""
    if saved == ours or ("h" in saved and saved == {**ours, "h": saved["h"]}):
        return False
    rest = {k: v for k, v in saved.items() if k != "h"}
    return rest != normal(ours)
