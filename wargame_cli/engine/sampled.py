"""Sampled odds: what an option leads to, estimated by playing it on clones of the position
with dice of its own, for a ruleset that has no exact arithmetic for it.

The `odds` hook (`Ruleset.odds`) is exact or nothing, and a ruleset that states chances in
its menus (`Shoot Bo (kills 40%)`) works them out by hand. Any ruleset that keeps positions
(`Ruleset.snapshot`, `new_game_at`; every tabletop ruleset does) can instead ask this module:

    estimate = option_chance(session, "shoot:B2", lambda s: s.saw("fallen", target="B2"))
    estimate.words()   # "kills about 41% (±5%)"-style words: see `Estimate.words`

Each sample clones the game where it stands (`position.clone`), answers the pending
question with the option's key, and plays on, unlogged, with dice of its own (a seeded
stream: the same call gives the same estimate) and the hint at every later question, until
the next question (`Until.CHOICE`, the option's own dice), the next turn (`Until.TURN`) or
the end. What happened is a `Sample`: the events logged on the way (`Event.kind` and `data`,
the vocabulary of `engine/events.py`), the game where it stopped and its outcome if it ended.
Rules stay pure: nothing here rolls the game's dice or prints.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from wargame_cli.engine.drive import STOP, drive
from wargame_cli.engine.requests import Choice, Event, Outcome, Roll, TurnStart
from wargame_cli.wording import percent

if TYPE_CHECKING:
    from wargame_cli.engine.session import Session

SAMPLES = 100  # samples per estimate: about ±10% at worst (95%), a menu's worth of clones


class Until(Enum):
    """How far each sample plays on after the option."""

    CHOICE = "choice"  # up to the next question: the option's own dice
    TURN = "turn"  # up to the next turn's start, the hint answering every question
    END = "end"  # to the end of the game (or `limit` requests)


@dataclass(frozen=True)
class Sample:
    """One way the option played out: the events on the way, where the game stopped."""

    events: tuple[Event, ...]
    game: Any
    outcome: Outcome | None

    def saw(self, kind: str, **data: Any) -> bool:
        """Whether an event of `kind` was logged whose data holds every `data` item
        (`saw("fallen", target="B2")`)."""
        return any(
            e.kind == kind and all((e.data or {}).get(k) == v for k, v in data.items())
            for e in self.events
        )

    def won(self, side: str) -> bool:
        return self.outcome is not None and self.outcome.winner == side


@dataclass(frozen=True)
class Estimate:
    """A sampled chance: `hits` of `samples`, with its 95% margin (Wilson interval)."""

    hits: int
    samples: int

    @property
    def value(self) -> float:
        return self.hits / self.samples if self.samples else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval: honest at 0% and 100%, where a normal one is zero wide."""
        n, z = self.samples, 1.96
        if n == 0:
            return 0.0, 1.0
        p = self.value
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def words(self) -> str:
        """`about 41% (±5%)`: the estimate as a menu states it, saying it is sampled."""
        low, high = self.interval
        return f"about {percent(self.value)} (±{percent((high - low) / 2)})"


class _NoDice:
    """A clone's dice while it is rebuilt: only recorded faces are replayed."""

    def throw(self, roll: Roll) -> Any:
        raise AssertionError("a sampled clone throws no dice of the game's")


def sample(
    session: Session,
    key: str,
    rng: random.Random,
    until: Until = Until.CHOICE,
    limit: int = 2000,
) -> Sample:
    """One sample: `key` answers the pending question of a clone of `session`, which plays on
    with `rng`'s dice (and the hint) as far as `until` says, at most `limit` requests."""
    from wargame_cli.engine import position

    copy = position.clone(session, controllers={}, dice=_NoDice())
    gen, pending = copy.runner.hand_over()
    if not isinstance(pending, Choice):
        raise ValueError("sampled odds are of an answer: the game must wait on a question")
    events: list[Event] = []
    answered = False
    left = limit

    def answer(request: Any) -> Any:
        nonlocal answered, left
        left -= 1
        if left < 0:
            return STOP
        if isinstance(request, Choice):
            if not answered:
                answered = True
                return key
            return STOP if until is Until.CHOICE else request.hint
        if isinstance(request, Roll):
            return tuple(rng.randint(1, d) for d in request.dice)
        if isinstance(request, Event):
            events.append(request)
            return None
        if isinstance(request, TurnStart) and until is not Until.END:
            return STOP
        return None

    result = drive(gen, answer, pending)
    outcome = result if isinstance(result, Outcome) else None
    return Sample(tuple(events), copy.runner.game, outcome)


def option_chance(
    session: Session,
    key: str,
    happened: Callable[[Sample], bool],
    samples: int = SAMPLES,
    seed: int = 0,
    until: Until = Until.CHOICE,
) -> Estimate:
    """The chance that answering the pending question with `key` leads to what `happened`
    says, from `samples` samples (the same `seed`, the same dice: options compared on the
    same luck)."""
    if samples < 1:
        raise ValueError("an estimate needs at least one sample")
    rng = random.Random(f"sampled {seed} {len(session.runner.log)}")
    hits = sum(bool(happened(sample(session, key, rng, until))) for _ in range(samples))
    return Estimate(hits, samples)


def win_chance(
    session: Session, key: str, side: str, samples: int = SAMPLES, seed: int = 0
) -> Estimate:
    """`side`'s chance of winning after answering `key`, each sample played to the end with
    the hint at every question (the default bot on both sides)."""
    return option_chance(session, key, lambda s: s.won(side), samples, seed, Until.END)
