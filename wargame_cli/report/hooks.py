"""A ruleset's optional report hooks: modules beside its `ruleset.py`, found by name.

- `story.py`: `Teller(save, voice)`, a subclass of `Teller` below, telling events as prose.
- `picture.py`: `picture(state, names) -> str`, the table as one SVG element.

A ruleset without them still gets a report: every event told by its own text, no pictures.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

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


def module(ruleset_id: str, name: str) -> ModuleType | None:
    """`rulesets.<package>.<name>` of an installed ruleset, or None."""
    try:
        from wargame_cli import registry

        package = registry.info(ruleset_id).loader.partition(":")[0].rpartition(".")[0]
    except Exception:  # a save of a ruleset that is not installed: no hooks
        return None
    if not package:
        return None
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package}.{name}":
            return None
        raise


def teller(save: dict[str, Any]) -> Teller:
    ruleset_id = str(save.get("ruleset", {}).get("id", ""))
    voice = Voice(save.get("seed", 0))
    story = module(ruleset_id, "story")
    made: Teller = Teller(save, voice) if story is None else story.Teller(save, voice)
    try:
        from wargame_cli import registry

        made.turn_word = registry.get(ruleset_id).turn_word
    except Exception:  # a ruleset that is not installed: "turn"
        pass
    return made
