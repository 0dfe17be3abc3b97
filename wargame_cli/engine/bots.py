"""The bot: every Choice carries the ruleset's own suggestion as `default`; the bot takes it."""

from __future__ import annotations

from typing import Any

from wargame_cli.engine.requests import Choice


class BotController:
    by = "bot"

    def choose(self, choice: Choice, game: Any) -> str:
        return choice.default

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        raise RuntimeError(f"the ruleset suggested an illegal answer {key!r}: {reason}")


def run_builder(builder: Any, controller: Any, game: Any = None) -> Any:
    """Drive a team-building generator with a controller; returns the team it builds."""
    answer = None
    try:
        while True:
            choice = builder.send(answer)
            while True:
                key = controller.choose(choice, game)
                reason = choice.refusal(key)
                if reason is None:
                    break
                controller.refused(choice, key, reason)
            answer = key
    except StopIteration as stop:
        return stop.value
