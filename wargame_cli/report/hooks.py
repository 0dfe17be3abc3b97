"""The storyteller of battle reports: `Teller`, which a ruleset's `teller(save, voice)` hook
subclasses to tell events as prose (`Ruleset.teller`, `Ruleset.picture` and `Ruleset.chance`
are the report's hooks, declared with the others in `wargame_cli/ruleset.py`).

A ruleset without them still gets a report: every event told by its own text, no pictures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wargame_cli.errors import UnknownRuleset
from wargame_cli.report.voice import Voice


class Teller:
    """Tells one event as a sentence of the story (plain text, unescaped), or None when the
    event is workings (dice, bookkeeping) shown only with the rules. This default tells every
    event by its own text."""

    # Event kinds listed in the aftermath; empty: the losses (deaths and those who left).
    tally_kinds: frozenset[str] = frozenset()
    tally_title = "Losses, in order:"
    no_tally = "No one fell."

    def __init__(self, save: dict[str, Any], voice: Voice) -> None:
        self.save = save
        self.voice = voice
        names = save.get("setup", {}).get("names", {})
        self.sides = {s: str(names.get(s, f"Side {s}")) for s in ("A", "B")}  # sides' names
        self.turn = 0  # the turn being told, kept up by the reader
        self.turn_word = "turn"  # what the ruleset calls a turn ("round"), for the titles

    def tell(self, kind: str, data: dict[str, Any], text: str) -> str | None:
        return text

    def pieces(self, key: str, label: Callable[[str, dict[str, Any]], str]) -> dict[str, str]:
        """Each side's pieces by id (A1, A2, ... B1, ...): the team's list `key` in the save,
        each named by `label(id, piece)`; anything malformed is left out."""
        cast: dict[str, str] = {}
        for side in ("A", "B"):
            team = self.save.get("setup", {}).get("teams", {}).get(side) or {}
            listed = team.get(key, []) if isinstance(team, dict) else []
            for i, piece in enumerate(listed):
                if isinstance(piece, dict):
                    cast[f"{side}{i + 1}"] = label(f"{side}{i + 1}", piece)
        return cast


def teller(save: dict[str, Any]) -> Teller:
    """The save's ruleset's storyteller, or the plain one (a save of a ruleset that is not
    installed: every event by its own text, turns called turns)."""
    from wargame_cli import registry

    voice = Voice(save.get("seed", 0))
    try:
        ruleset = registry.get(str(save.get("ruleset", {}).get("id", "")))
    except UnknownRuleset:
        return Teller(save, voice)
    made = ruleset.teller(save, voice) or Teller(save, voice)
    made.turn_word = ruleset.turn_word
    return made
