"""The search policy: generic, from the ruleset contract alone.

For each candidate key (the hint and a few others) it clones the position
(`engine/position.clone`), answers the pending question with the candidate, plays on with
the default policy on both sides and dice of its own for the rest of the turn and the next,
and judges where that leaves the game with the ruleset's `evaluate` hook (or the outcome,
when the game ended). The same sampled dice are used for every candidate (so candidates are
compared on the same luck). The hint is kept unless another candidate's mean is better by
`Budget.margin` (the default bot is a hand-written player: the search corrects it where the
lookahead shows a clear gain, rather than following the noise of a few samples).

Sample-bounded and work-bounded (a lookahead stops after `Budget.entries` log entries), so a
seed always plays the same game, with a time guard for a machine far slower than planned:
once `Budget.seconds` are spent, the candidates not yet judged are left out (the hint is
always judged first). The budgets keep a decision well inside the guard on one core.
"""

from __future__ import annotations

import hashlib
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wargame_cli.bots.base import draws, open_keys
from wargame_cli.engine.drive import STOP, Paused, drive, ended
from wargame_cli.engine.requests import Choice, Roll, TurnStart

if TYPE_CHECKING:
    from wargame_cli.engine.session import Session
    from wargame_cli.ruleset import Ruleset

GUARD = "WARGAME_SEARCH_GUARD"
WON = 1000.0  # an ended game outweighs any material


@dataclass(frozen=True)
class Budget:
    """How hard the search looks: candidates per decision, dice samples per candidate,
    turns played after the current one, and the time guard (seconds per decision)."""

    candidates: int = 3
    samples: int = 4
    turns: int = 1
    # the time guard; WARGAME_SEARCH_GUARD (seconds) lifts it where a run must reproduce on
    # a machine too loaded to keep it (the tests)
    seconds: float = field(default_factory=lambda: float(os.environ.get(GUARD, "1.0")))
    margin: float = 1.5  # how much better (mean worth) another key must be than the hint
    entries: int = 80  # a lookahead stops after this many log entries (the work it may do)


class Lookahead:
    """Answers a clone's requests on its own, unlogged: the candidate for the pending
    question, then the hint to every question, dice of its own (never the game's stream),
    until the turn after next starts or `limit` requests were answered."""

    def __init__(self, key: str, seed: int, last_turn: int, limit: int) -> None:
        self.key: str | None = key
        self.seed = seed
        self.last_turn = last_turn
        self.left = limit
        self.turn = 0
        self.thrown: Counter[str] = Counter()

    def __call__(self, request: Any) -> Any:
        self.left -= 1
        if isinstance(request, Choice):
            key, self.key = self.key, None
            if key is None:
                if self.left < 0:
                    return STOP
                key = request.hint
            return key
        if self.left < 0:
            return STOP
        if isinstance(request, Roll):
            return self.faces(request)
        if isinstance(request, TurnStart):
            if request.number > self.last_turn:
                return STOP
            self.turn = request.number
        return None

    def faces(self, roll: Roll) -> tuple[int, ...]:
        """The sample's faces for `roll`, drawn from what the roll is (its turn, words, side
        and dice, and how many such rolls came before it this turn), not from its place in
        the game: every candidate meets the same luck in the same roll, however many rolls
        its own line of play made before it (common random numbers: the candidates' worths
        differ by what they chose, far less by their dice)."""
        what = f"{self.turn}|{roll.reason}|{roll.side}|{roll.dice}"
        count = self.thrown[what]
        self.thrown[what] = count + 1
        digest = hashlib.blake2b(f"{self.seed}|{what}|{count}".encode(), digest_size=8)
        rng = random.Random(int.from_bytes(digest.digest(), "big"))
        return tuple(rng.randint(1, d) for d in roll.dice)


class NoDice:
    """A clone's dice while it is rebuilt (only recorded faces are replayed, so the seeded
    stream is never moved on); the lookahead throws its own."""

    def throw(self, roll: Roll) -> Any:
        raise AssertionError("a lookahead's clone throws no dice of the game's")


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
            score = sum(self._look(session, choice.side, key, s) for s in seeds) / len(seeds)
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

        copy = position.clone(session, controllers={}, dice=NoDice())
        gen, pending = copy.runner.hand_over()
        last = max(copy.runner.turn, 1) + self.budget.turns
        answer = Lookahead(key, seed, last, self.budget.entries)
        result = drive(gen, answer, pending)
        if not isinstance(result, Paused):
            winner = ended(result).winner
            return 0.0 if winner is None else WON if winner == side else -WON
        game = copy.runner.game
        return float(self.ruleset.evaluate(game, side))


def make(ruleset: Ruleset) -> SearchPolicy:
    """The search with the ruleset's own budget (`Ruleset.search_budget`), if it has one."""
    given = ruleset.search_budget or {}
    whole = {"candidates", "samples", "turns", "entries"}
    fields: dict[str, Any] = {k: int(v) if k in whole else float(v) for k, v in given.items()}
    return SearchPolicy(ruleset, Budget(**fields))
