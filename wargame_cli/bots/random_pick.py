"""The random policy: a uniformly random legal key, from draws of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wargame_cli.bots.base import draws, open_keys
from wargame_cli.engine.requests import Choice

if TYPE_CHECKING:
    from wargame_cli.engine.session import Session
    from wargame_cli.ruleset import Ruleset


class RandomPolicy:
    """Any open key, each as likely; seeded from the game's seed and the decision's place,
    so the same seed plays the same game (the dice log never sees these draws)."""

    def choose(self, choice: Choice, session: Session | None) -> str:
        keys = open_keys(choice)
        if not keys:  # only typed answers: the hint is legal
            return choice.hint
        return draws(session, "random", choice.side).choice(keys)


def make(ruleset: Ruleset) -> RandomPolicy:
    return RandomPolicy()
