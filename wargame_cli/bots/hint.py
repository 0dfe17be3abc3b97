"""The default policy: the ruleset's own hint (each ruleset's hand-written bot)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wargame_cli.engine.requests import Choice

if TYPE_CHECKING:
    from wargame_cli.engine.session import Session
    from wargame_cli.ruleset import Ruleset


class HintPolicy:
    """Takes `Choice.hint`: the choices every bot made before bots had levels."""

    def choose(self, choice: Choice, session: Session | None) -> str:
        return choice.hint


def make(ruleset: Ruleset) -> HintPolicy:
    return HintPolicy()
