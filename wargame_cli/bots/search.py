"""The search policy: generic, from the ruleset contract alone.

For each candidate key (the hint and a few others) it clones the position
(`engine/position.clone`), answers the pending question with the candidate, plays on with
the default policy on both sides and dice of its own for the rest of the turn and the next,
and judges where that leaves the game with the ruleset's `evaluate` hook (or the outcome,
when the game ended). The same sampled dice are used for every candidate (so candidates are
compared on the same luck). The hint is kept unless another candidate's mean is better by
`Budget.margin` (the default bot is a hand-written player: the search corrects it where the
lookahead shows a clear gain, rather than following the noise of a few samples).

Sample-bounded, so a seed always plays the same game, with a time guard: once `budget`
seconds are spent, the candidates not yet judged are left out (the hint always is first).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wargame_cli.bots.base import draws, open_keys
from wargame_cli.engine.dice import RNG, Thrown
from wargame_cli.engine.requests import Choice, Roll

if TYPE_CHECKING:
    from wargame_cli.engine.session import Session
    from wargame_cli.ruleset import Ruleset

WON = 1000.0  # an ended game outweighs any material


@dataclass(frozen=True)
class Budget:
    """How hard the search looks: candidates per decision, dice samples per candidate,
    turns played after the current one, and the time guard (seconds per decision)."""

    candidates: int = 3
    samples: int = 4
    turns: int = 1
    seconds: float = 1.0
    margin: float = 0.5  # how much better (mean worth) another key must be than the hint


class SampledDice:
    """The search's own dice for a lookahead: never the game's stream, never logged."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def face(self, die: int) -> int:
        return self._rng.randint(1, die)

    def throw(self, roll: Roll) -> Thrown:
        return Thrown(tuple(self._rng.randint(1, d) for d in roll.dice), RNG)


class _First:
    """A lookahead's controller: the candidate for the pending question, hints after."""

    by = "bot"

    def __init__(self, key: str | None) -> None:
        self.key = key

    def choose(self, choice: Choice, game: Any) -> str:
        key, self.key = self.key, None
        return key if key is not None else choice.hint

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        raise LookaheadFailed(reason)


class LookaheadFailed(Exception):
    """A lookahead could not be played (a hint refused in a clone): the candidate is left
    out rather than the game stopped."""


class SearchPolicy:
    """Tries each candidate on clones of the position and keeps the best judged."""

    def __init__(self, ruleset: Ruleset, budget: Budget | None = None) -> None:
        self.ruleset = ruleset
        self.budget = budget or Budget()
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, choice: Choice, session: Session | None) -> str:
        hint = choice.hint
        keys = open_keys(choice)
        if session is None or len(keys) < 2 or session.runner.finished:
            return hint
        started = time.perf_counter()
        rng = draws(session, "search", choice.side)
        others = [k for k in keys if k != hint]
        rng.shuffle(others)
        candidates = [hint, *others[: self.budget.candidates - 1]] if hint in keys else others
        seeds = [rng.getrandbits(64) for _ in range(self.budget.samples)]
        best, best_score = hint, float("-inf")
        deadline = started + self.budget.seconds
        for key in candidates:
            if time.perf_counter() > deadline and best_score > float("-inf"):
                break
            try:
                score = sum(self._look(session, choice.side, key, s) for s in seeds) / len(seeds)
            except LookaheadFailed:
                continue
            if key == hint:
                score += self.budget.margin  # the hint is displaced only by a clear gain
            if score > best_score + 1e-9:
                best, best_score = key, score
        self.decisions += 1
        self.seconds += time.perf_counter() - started
        return best

    def _look(self, session: Session, side: str, key: str, seed: int) -> float:
        """The game's judged worth for `side` after answering `key`, on one sample of dice."""
        from wargame_cli.engine import position

        copy = position.clone(
            session,
            controllers={s: _First(key if s == side else None) for s in ("A", "B")},
            dice=SampledDice(random.Random(seed)),
        )
        runner = copy.runner
        runner.keeper = None  # a lookahead keeps no positions
        runner.run(stop_after_turn=max(runner.turn, 1) + self.budget.turns)
        if runner.outcome is not None:
            winner = runner.outcome.winner
            return 0.0 if winner is None else WON if winner == side else -WON
        return float(self.ruleset.evaluate(runner.game, side))


def make(ruleset: Ruleset) -> SearchPolicy:
    return SearchPolicy(ruleset)
