"""Decisions given up front (`--choices "k1;k2"`), taken in the order the rules ask for
decisions, whichever side decides; then each side's own controller (a person or the bot)."""

from __future__ import annotations

from typing import Any

from wargame_cli.engine.requests import TAKE_BACK, Choice
from wargame_cli.errors import BadInput

SEPARATOR = ";"  # keys may hold commas (positions such as "3,4.5")


def parse_choices(text: str) -> list[str]:
    return [part.strip() for part in text.split(SEPARATOR) if part.strip()]


class ChoiceScript:
    """The shared queue of scripted keys."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = list(keys)
        self.used = 0

    def controllers(self, inner: dict[str, Any]) -> dict[str, Any]:
        return {side: ScriptedController(self, controller) for side, controller in inner.items()}


class ScriptedController:
    """Answers from the script while it lasts (recorded as `script`), then as `inner` does."""

    def __init__(self, script: ChoiceScript, inner: Any) -> None:
        self.script = script
        self.inner = inner
        self.by = inner.by
        self.scripted = False  # the last answer came from the script

    def choose(self, choice: Choice, game: Any) -> str:
        script = self.script
        self.scripted = script.used < len(script.keys)
        if self.scripted:
            key = script.keys[script.used]
            script.used += 1
            if key == TAKE_BACK:  # the runner takes back the latest decision
                self.by = "script"
                return key
            reason = choice.legal(key)
            if reason is not None:
                raise BadInput(
                    f"--choices value #{script.used} ({key!r}) is refused at "
                    f'"{choice.prompt}": {reason}'
                )
            self.by = "script"
            return key
        self.by = self.inner.by
        return self.inner.choose(choice, game)

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        if self.scripted:
            raise BadInput(
                f"--choices value #{self.script.used} ({key!r}) is refused at "
                f'"{choice.prompt}": {reason}'
            )
        self.inner.refused(choice, key, reason)
