"""Earlier versions of a ruleset, kept playable: a save is replayed, verified, reported,
forked and resumed under the version of the rules it was played with.

A ruleset's `version` goes up when its behaviour changes (see each `ruleset.py` for what
changed at each). Where the log cannot be migrated, the older behaviour stays reachable:
`at_version` gives the ruleset as it stood at an earlier version, and its `new_game` builds
a game that follows that version's rules (each ruleset branches on `rules_version` where an
old rule differed). A save written from such a game keeps its version, so a game begun under
version 1 is still a version-1 game when it is resumed, forked or saved again.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # a name for annotations: this module sits below the ruleset's layer
    from wargame_cli.ruleset import Ruleset

R = TypeVar("R", bound="Ruleset")


def at_version(ruleset: R, version: str, behaviour: int | None = None) -> R:
    """`ruleset` as it played at `version` (this build's own when they are the same), with
    `behaviour` where that version's number covered several (`Ruleset.variants`)."""
    if version == ruleset.version and behaviour == ruleset.behaviour:
        return ruleset
    older = copy.copy(ruleset)
    older.version = version
    older.behaviour = behaviour
    return older


def number(ruleset: Ruleset) -> int:
    """The version a game of `ruleset` follows, as a number to branch on: its behaviour where
    one is set, which is below the version's own number."""
    return ruleset.behaviour if ruleset.behaviour is not None else int(ruleset.version)


@dataclass(frozen=True)
class Renamed:
    """An event that versions before `until` wrote under another kind or with other data
    keys, deciding the same: `kind` as they wrote it, `keys` old name -> today's, `becomes`
    today's kind (when `when` holds of the data, if given), `added` data today's rules give
    that was then the same for every such event."""

    until: int
    kind: str
    keys: Mapping[str, str] = field(default_factory=dict)
    becomes: str | None = None
    when: Callable[[Mapping[str, Any]], bool] | None = None
    added: Mapping[str, Any] = field(default_factory=dict)


def migrated(entry: dict[str, Any], version: int, renames: Sequence[Renamed]) -> dict[str, Any]:
    """`entry` in today's shape, where one of `renames` applies to a save of `version`."""
    if entry.get("t") != "event" or not renames:
        return entry
    for rename in renames:
        if version >= rename.until or entry.get("kind") != rename.kind:
            continue
        data = entry.get("data")
        data = data if isinstance(data, dict) else {}
        if rename.when is not None and not rename.when(data):
            continue
        out = dict(entry)
        if rename.keys and any(old in data for old in rename.keys):
            out["data"] = {rename.keys.get(k, k): v for k, v in data.items()}
        if rename.added:
            out["data"] = {**out.get("data", data), **rename.added}
        if rename.becomes is not None:
            out["kind"] = rename.becomes
        return out
    return entry
