"""Positions in a log, below the rulesets: where they stand, how a runner takes and makes
them (`Keeper`), and the seeded stream moved past a log's faces. `engine/position.py` binds
a ruleset's hooks to a game and clones sessions on top of this."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from wargame_cli.engine.dice import RNG, RngDice

SPACING = 2  # a position is kept once the log since the last is this many times its length
SAMPLE = 4  # one log entry in this many is measured, standing for the others
KEY = "position"  # the field of a turn's log entry that holds the position


@dataclass(frozen=True)
class Keeper:
    """A ruleset's position hooks bound to one game's setup and options: `take` a game's
    position (None: the ruleset keeps none), `make` a game standing at one."""

    take: Callable[[Any], dict[str, Any] | None]
    make: Callable[[dict[str, Any]], Any]


def nearest(log: Sequence[Mapping[str, Any]], before: int | None = None) -> int | None:
    """Index of the latest turn entry holding a position, at or before index `before` (None:
    anywhere in the log); None when there is none."""
    end = len(log) if before is None else min(before + 1, len(log))
    for index in range(end - 1, -1, -1):
        entry = log[index]
        if entry.get("t") == "turn" and isinstance(entry.get(KEY), dict):
            return index
    return None


def skip_dice(rng: RngDice, entries: Sequence[Mapping[str, Any]]) -> None:
    """Move the seeded stream past every face `entries` took from it, as replaying them
    would, without the rules: a game restored at a position rolls on from there."""
    for entry in entries:
        if entry.get("t") != "roll":
            continue
        dice = entry.get("dice") or []
        source = entry.get("source", RNG)
        sources = entry.get("sources") or [source] * len(dice)
        for die, used in zip(dice, sources, strict=False):
            if used == RNG:
                rng.face(die)
