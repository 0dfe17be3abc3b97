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
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # a name for annotations: this module sits below the ruleset's layer
    from wargame_cli.ruleset import Ruleset

R = TypeVar("R", bound="Ruleset")


def at_version(ruleset: R, version: str) -> R:
    """`ruleset` as it played at `version` (this build's own when they are the same)."""
    if version == ruleset.version:
        return ruleset
    older = copy.copy(ruleset)
    older.version = version
    return older


def number(ruleset: Ruleset) -> int:
    """The version a game of `ruleset` follows, as a number to branch on."""
    return int(ruleset.version)
