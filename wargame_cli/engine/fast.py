"""A lean driver for bot-vs-bot games: the Runner's answers without its log.

`simulate` plays many thousands of games; the Runner builds a log entry for every request,
which costs more than the rules themselves. This driver answers the same requests the same
way (seeded dice, the ruleset's default for every choice) and keeps only the outcome and the
number of turns. Fed the faces of `face_source(S)`, a game here is the game
`wargame play ID --no-input --seed S` plays: the faces are drawn exactly as `RngDice` draws them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator
from typing import Any, NamedTuple

from wargame_cli.engine.requests import Choice, Outcome, Roll, TurnStart

_MASK = (1 << 64) - 1


class Played(NamedTuple):
    """How one game ended and how many turns it took (a tuple: one is made every game)."""

    outcome: Outcome
    turns: int


def stream_seed(run_seed: int, index: int) -> int:
    """The seed of stream `index` of a run (SplitMix64 of the pair): depends on nothing else,
    so any split over workers draws the same faces."""
    z = (run_seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return ((z ^ (z >> 31)) >> 1) or 1  # 63 bits, never 0


def face_source(seed: int) -> Callable[[int], int]:
    """`below(sides)` is a die's face minus one. `randint(1, d)` is exactly
    `1 + _randbelow(d)`, so these are the faces `RngDice(seed)` draws, at half the cost; the
    public call is the fallback if that private method goes away."""
    rng = random.Random(seed)
    below = getattr(rng, "_randbelow", None)
    if below is None:  # pragma: no cover - CPython has had it since 3.2
        return lambda d: rng.randint(1, d) - 1
    return below


def play_fast(game: Any, below: Callable[[int], int]) -> Played:
    """Play `game` to the end: each die `below(sides) + 1`, every choice the ruleset's default."""
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


def bot_decisions(game: Any, below: Callable[[int], int]) -> Generator[Choice, None, Outcome]:
    """Each decision of `game` played by its own bots on the faces `below(sides) + 1`, yielded
    before the bot's answer is sent, for tools that look at a seeded game's positions (the
    shortcut tests, `bench/bot_fingerprint.py`); returns the game's Outcome."""
    gen = game.play()
    answer: Any = None
    try:
        while True:
            req = gen.send(answer)
            if isinstance(req, Roll):
                answer = tuple([below(d) + 1 for d in req.dice])
            elif isinstance(req, Choice):
                yield req
                answer = req.default
            else:
                answer = None
    except StopIteration as stop:
        return stop.value


def play_any(ruleset: Any, game: Any, below: Callable[[int], int]) -> Played:
    """A ruleset's own `fast_play(game, below)` where it offers one (the same rules without the
    request protocol, drawing dice in the same order), else the generic `play_fast`."""
    fast = ruleset.fast_play(game, below)
    if fast is None:
        return play_fast(game, below)
    outcome, turns = fast
    return Played(outcome, turns)


def _answer(req: Any, below: Any) -> Any:
    """The less frequent requests (and subclasses of the frequent ones)."""
    if isinstance(req, Choice):
        reason = req.default_refusal()
        if reason is not None:
            raise RuntimeError(f"the ruleset suggested an illegal answer {req.default!r}: {reason}")
        return req.default
    if isinstance(req, Roll):
        return tuple([below(d) + 1 for d in req.dice])
    return None  # Event, TurnStart subclass: nothing to record
