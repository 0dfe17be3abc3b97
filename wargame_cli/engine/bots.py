"""The bot: every Choice carries the ruleset's own suggestion as `default`; the bot takes it."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from wargame_cli.engine.drive import STOP, IllegalSuggestion, Paused, drive
from wargame_cli.engine.requests import TAKE_BACK, Choice
from wargame_cli.engine.takeback import NOTHING

Builder = Generator[Choice, str, Any]  # a team builder (`wargame_cli.ruleset.TeamBuilder`)


class BotController:
    by = "bot"

    def choose(self, choice: Choice, game: Any) -> str:
        return choice.default

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        raise IllegalSuggestion(f"the ruleset suggested an illegal answer {key!r}: {reason}")


def run_builder(
    make: Callable[[], Builder] | Builder,
    controller: Any,
    game: Any = None,
    back: type[Exception] | None = None,
    answers: list[str] | None = None,
) -> Any:
    """Drive a team-building generator with a controller; returns the team it builds.

    `make` makes a fresh builder (a generator given as such cannot take answers back): a
    take-back drops the latest answer, and a fresh builder is fed the answers kept. Taking
    back its first question raises `back` when given (the question before it is asked again).
    `answers` (kept in place) are fed first: coming back to a team, a caller passes them minus
    the last, so the team's last question is asked again."""
    fresh = make if callable(make) else None
    answers = answers if answers is not None else []
    while True:
        builder = make() if callable(make) else make  # `fresh()`, or the one given
        kept = len(answers)  # fed again first, as they were given

        def answer(choice: Choice) -> Any:
            nonlocal kept
            if kept:
                kept -= 1
                return answers[len(answers) - kept - 1]
            while True:
                key = controller.choose(choice, game)
                if key == TAKE_BACK:
                    if not answers and back is not None:
                        raise back
                    reason = NOTHING if not answers else None
                    if fresh is None:
                        reason = "this question cannot take answers back"
                    if reason is None:
                        answers.pop()
                        return STOP  # a fresh builder is fed the answers kept
                else:
                    reason = choice.legal(key)
                    if reason is None:
                        answers.append(key)
                        return key
                controller.refused(choice, key, reason)

        built = drive(builder, answer)
        if not isinstance(built, Paused):
            return built
