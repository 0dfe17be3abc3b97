"""A lean driver for bot-vs-bot games: the Runner's answers without its log.

`simulate` plays many thousands of games; the Runner builds a log entry for every request,
which costs more than the rules themselves. This driver answers the same requests the same
way (seeded dice, the ruleset's default for every choice) and keeps only the outcome and the
number of turns. A game played here with seed S is the game `wargame play ID --seed S` plays
with bots on both sides: the faces are drawn exactly as `RngDice` draws them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from wargame_cli.engine.requests import Choice, Outcome, Roll, TurnStart

_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Played:
    """How one game ended and how many turns it took."""

    outcome: Outcome
    turns: int


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run: depends on nothing else, so any split over workers
    plays the same games. SplitMix64 of (seed, index), cheaper than seeding a Random twice."""
    z = (run_seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return ((z ^ (z >> 31)) >> 1) or 1  # 63 bits, never 0


def _face_source(seed: int) -> Any:
    """`below(d) + 1` gives the faces `RngDice(seed)` gives (`randint(1, d)` is exactly
    `1 + _randbelow(d)`); the public call is the fallback if that private method goes away."""
    rng = random.Random(seed)
    below = getattr(rng, "_randbelow", None)
    if below is None:  # pragma: no cover - CPython has had it since 3.2
        return lambda d: rng.randint(1, d) - 1
    return below


def play_fast(game: Any, seed: int) -> Played:
    """Play `game` to the end: dice from `seed`, every choice by the ruleset's default."""
    below = _face_source(seed)
    gen = game.play()
    send = gen.send
    answer: Any = None
    turns = 0
    roll, turn_start = Roll, TurnStart
    try:
        while True:
            req = send(answer)
            kind = type(req)
            if kind is roll:
                answer = tuple([below(d) + 1 for d in req.dice])
            elif kind is turn_start:
                turns = req.number
                answer = None
            else:
                answer = _answer(req, below)
    except StopIteration as stop:
        outcome = stop.value
    if not isinstance(outcome, Outcome):
        raise TypeError("a ruleset's play() must return an Outcome")
    return Played(outcome, turns)


def _answer(req: Any, below: Any) -> Any:
    """The less frequent requests (and subclasses of the frequent ones)."""
    if isinstance(req, Choice):
        reason = req.refusal(req.default)
        if reason is not None:
            raise RuntimeError(f"the ruleset suggested an illegal answer {req.default!r}: {reason}")
        return req.default
    if isinstance(req, Roll):
        return tuple([below(d) + 1 for d in req.dice])
    return None  # Event, TurnStart subclass: nothing to record
