"""The storyteller's voice: phrases varied by rotation, shared by every ruleset's story hook.

A `Voice` hands out the phrases of a pool in turn (starting where the game's seed says), so two
deaths in a row never read alike and a long game uses every phrase of a pool about as often.
It is deterministic: the same save gives the same report. Pools of phrases a ruleset might share
(deaths, misses, moves) live here; a ruleset's `story.py` adds its own words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

_POSSESSIVE = re.compile(r"(?<=[a-z])s's\b")  # "Archers's" -> "Archers'"

# A figure killed outright (a blow, a shot).
STRUCK_DOWN = (
    "{x} falls",
    "{x} is cut down",
    "{x} goes down and stays down",
    "{x} is slain",
    "{x} drops and does not rise",
    "that is the end of {x}",
    "{x} is struck dead",
    "{x} breathes no more",
)
# A figure that dies of wounds taken earlier.
DIES_OF_WOUNDS = (
    "{x}'s wounds prove fatal",
    "{x} bleeds out",
    "{x} collapses and dies of the wounds",
    "{x} can fight no longer and dies",
    "{x} succumbs to the wounds",
    "{x} sinks to the ground, lifeless",
)
# A whole unit destroyed.
DESTROYED = (  # told by a teller's `say`: `{xv:is|are}` agrees with the unit's name
    "{x} {xv:is|are} destroyed",
    "{x} {xv:is|are} wiped out",
    "nothing is left of {x}",
    "{x} {xv:is|are} cut to pieces",
    "{x} {xv:is|are} broken and destroyed",
)
# A figure staying where it is while others fight.
STAYS = ("{x} stays back", "{x} holds position", "{x} waits", "{x} keeps out of the fight")
# Moves, told by a teller's `say`: `{xv:advances|advance}` agrees with the name (a unit its
# army calls "they").
MOVE_ON = (
    "{x} {xv:advances|advance}",
    "{x} {xv:pushes|push} forward",
    "{x} {xv:strides|stride} forward",
    "{x} {xv:presses|press} on",
)
MOVE_ON_MANY = ("{x} advance", "{x} push forward", "{x} move up", "{x} press on")  # a mob
MOVE_BACK = ("{x} {xv:falls|fall} back", "{x} {xv:pulls|pull} back", "{x} {xv:gives|give} ground")
MOVE_ACROSS = (
    "{x} {xv:shifts|shift} along the line",
    "{x} {xv:moves|move} across",
    "{x} {xv:sidesteps|sidestep}",
)
# A step: a quarter of the move allowed or less (never a run).
STEP_ON = (
    "{x} {xv:edges|edge} forward",
    "{x} {xv:takes|take} a step forward",
    "{x} {xv:inches|inch} forward",
)
STEP_BACK = ("{x} {xv:steps|step} back", "{x} {xv:edges|edge} back", "{x} {xv:gives|give} a step")
STEP_ACROSS = ("{x} {xv:shuffles|shuffle} aside", "{x} {xv:edges|edge} sideways")
# Most of the move allowed, or all of it.
RUN_ON = ("{x} {xv:runs|run} forward", "{x} {xv:dashes|dash} ahead", "{x} {xv:hurries|hurry} on")
RUN_BACK = ("{x} {xv:falls|fall} back at a run", "{x} {xv:races|race} back")
RUN_ACROSS = ("{x} {xv:runs|run} across", "{x} {xv:hurries|hurry} along the line")
STEP, RUN = 0.25, 0.8  # a move of at most this share of the allowance is a step; at least, a run
FORWARD = (MOVE_ON, STEP_ON, RUN_ON)


class Voice:
    """Phrases by rotation, per pool; `say` fills a phrase's `{names}` and capitalises it."""

    def __init__(self, seed: Any = 0) -> None:
        self._start = int(seed) if isinstance(seed, int) else 0
        self._next: dict[Sequence[str], int] = {}

    def pick(self, pool: Sequence[str]) -> str:
        n = self._next.get(pool, self._start % len(pool))
        self._next[pool] = n + 1
        return pool[n % len(pool)]

    def say(self, pool: Sequence[str], **names: Any) -> str:
        return sentence(_POSSESSIVE.sub("s'", self.pick(pool).format(**names)))


def sentence(text: str) -> str:
    """The first letter capitalised (a name keeps its own case after it)."""
    return text[:1].upper() + text[1:] if text else text


def listing(names: Iterable[Any]) -> str:
    """`Ann`, `Ann and Bob`, `Ann, Bob and Cid`."""
    items = [str(n) for n in names]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def inches(value: Any) -> str:
    """A distance in prose: whole inches (`5"`), or "less than an inch"; never a decimal
    (the log's own text, shown with `--with-rules`, keeps the exact figure)."""
    try:
        d = float(value)
    except (TypeError, ValueError):
        return ""
    return "less than an inch" if d < 0.5 else f'{int(d + 0.5)}"'  # 0.5 is an inch, not 0


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number(n: int) -> str:
    """`two`, `ten`, `11`: a small count in words."""
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def spot(pos: Any) -> str:
    """A point [x, y] as the game writes it: `12,7.5`."""
    try:
        return f"{float(pos[0]):g},{float(pos[1]):g}"
    except (TypeError, ValueError, IndexError):
        return "?"


def heading(side: Any, start: Any, end: Any, allowance: float | None = None) -> Sequence[str]:
    """The pool for a move from `start` to `end` ([x, y], or a number along the way to the
    enemy): toward the enemy (side A's forward is growing y), away from it, or across; with
    the `allowance` (the inches it could move), scaled by how far it went: a step (a
    quarter of it or less, or under an inch), a run (four fifths or more), or a move."""
    if isinstance(start, dict) and isinstance(end, dict):  # a group: its first member's move
        shared = [key for key in start if key in end]
        start, end = (start[shared[0]], end[shared[0]]) if shared else (None, None)
    try:
        if isinstance(start, (int, float)):
            dx, dy = 0.0, float(end) - float(start)
        else:
            dx, dy = float(end[0]) - float(start[0]), float(end[1]) - float(start[1])
    except (TypeError, ValueError, IndexError, KeyError):
        return MOVE_ON
    forward = dy if side == "A" else -dy
    way = 0 if abs(forward) < abs(dx) / 2 else 1 if forward > 0 else 2
    size = scale((dx * dx + dy * dy) ** 0.5, allowance)
    pools = (
        (STEP_ACROSS, MOVE_ACROSS, RUN_ACROSS),
        (STEP_ON, MOVE_ON, RUN_ON),
        (STEP_BACK, MOVE_BACK, RUN_BACK),
    )
    return pools[way][size]


def scale(moved: float, allowance: float | None) -> int:
    """How big a move was: 0 a step (a quarter of the `allowance` or less, or under an
    inch), 2 a run (four fifths of it or more), 1 a move between (or when none is known)."""
    if allowance is None or allowance <= 0:
        return 1
    share = moved / allowance
    return 0 if share <= STEP or moved < 1 else 2 if share >= RUN else 1


def distance(start: Any, end: Any) -> float | None:
    """Inches between two points [x, y], or None."""
    try:
        return float(((end[0] - start[0]) ** 2 + (end[1] - start[1]) ** 2) ** 0.5)
    except (TypeError, ValueError, IndexError, KeyError):
        return None
