"""Questions for a person at the terminal (questionary). The same `Choice` a bot answers by
taking its default is shown here as a list with the suggestion marked and illegal options
disabled with their reason."""

from __future__ import annotations

from typing import Any

import questionary
from rich.console import Console

from wargame_cli.engine.dice import check_faces, describe
from wargame_cli.engine.requests import TAKE_BACK, Choice, Roll
from wargame_cli.ui.text import clean, name_problem, safe

TYPE_OWN = "\x00type"
STYLE = questionary.Style([("highlighted", "bold"), ("pointer", "bold fg:ansicyan")])


class Prompter:
    """Every question the CLI asks a person. `io` may carry prompt_toolkit `input`/`output`
    for driving the prompts in-process (tests)."""

    def __init__(self, console: Console, **io: Any) -> None:
        self.console = console
        self.io = io

    def select(self, message: str, choices: list[Any], default: Any = None) -> Any:
        return questionary.select(
            clean(message), choices=choices, default=default, style=STYLE, **self.io
        ).unsafe_ask()

    def text(self, message: str, default: str = "", validate: Any = None) -> str:
        return questionary.text(
            clean(message), default=default, validate=validate, style=STYLE, **self.io
        ).unsafe_ask()

    # -- decisions ------------------------------------------------------------------------
    def choose(self, choice: Choice, who: str) -> str:
        items = []
        default_item = None
        for option in choice.options:
            suggested = option.key == choice.default
            item = questionary.Choice(
                title=("(suggested) " if suggested else "") + clean(option.label),
                value=option.key,
                disabled=clean(option.disabled) if option.disabled else None,
            )
            if suggested:
                default_item = item
            items.append(item)
        if default_item is None:  # the suggestion is a typed answer: offer it first
            default_item = questionary.Choice(
                title=f"(suggested) {clean(choice.label_of(choice.default))}",
                value=choice.default,
            )
            items.insert(0, default_item)
        if choice.free_hint is not None:
            items.append(
                questionary.Choice(title=f"Type it ({clean(choice.free_hint)})", value=TYPE_OWN)
            )
        items.append(questionary.Choice(title="Take back", value=TAKE_BACK))  # always last
        prompt = choice.prompt.removeprefix(f"Side {choice.side}: ")
        prompt = prompt if prompt.startswith(who) else f"{who}: {prompt}"
        answer = self.select(prompt, items, default_item)
        if answer == TYPE_OWN:
            return self.text(
                f"{prompt} ({choice.free_hint})",
                validate=lambda s: choice.refusal(s.strip()) or True,
            ).strip()
        return answer

    def refused(self, reason: str) -> None:
        self.console.print(f"[bold red]Refused:[/] {safe(reason)}")

    # -- dice -----------------------------------------------------------------------------
    def faces(self, roll: Roll) -> list[int]:
        labels = (
            ", ".join(
                f"{clean(label)} d{d}" for label, d in zip(roll.labels, roll.dice, strict=False)
            )
            if roll.labels
            else describe(roll)
        )

        def check(text: str) -> bool | str:
            try:
                faces = [int(p) for p in text.replace(",", " ").split()]
            except ValueError:
                return "type whole numbers separated by spaces"
            return check_faces(roll, faces) or True

        text = self.text(
            f"{roll.reason}: roll {describe(roll)} and type the faces ({labels})", validate=check
        )
        return [int(p) for p in text.replace(",", " ").split()]

    # -- setting up -----------------------------------------------------------------------
    def ruleset(self, infos: list[Any]) -> str:
        items = [questionary.Choice(title=f"{clean(i.name)}  ({i.id})", value=i.id) for i in infos]
        return self.select("Which ruleset?", items, items[0])

    def name(self, side: str, default: str) -> str:
        return self.text(
            f"Name for side {side}",
            default=default,
            validate=lambda s: name_problem(s) or True,
        ).strip()

    def player(self, side: str) -> str:
        items = [
            questionary.Choice("A person at this terminal", "human"),
            questionary.Choice("The computer", "bot"),
        ]
        return self.select(f"Who plays side {side}?", items, items[0])

    def next_turn(self, number: int, word: str = "turn") -> bool | str:
        """Between turns: True to play on, False to save and quit, TAKE_BACK to take back."""
        items = [
            questionary.Choice(f"Play {word} {number}", True),
            questionary.Choice("Save and quit", False),
            questionary.Choice("Take back", TAKE_BACK),
        ]
        return self.select(f"{word.capitalize()} {number - 1} is over.", items, items[0])

    def step(self, message: str) -> bool:
        items = [questionary.Choice(message, True), questionary.Choice("Stop", False)]
        return self.select("Replay", items, items[0])


class HumanController:
    """A person choosing through the Prompter; refused answers are explained and asked again."""

    by = "human"

    def __init__(self, prompter: Prompter, names: dict[str, str]) -> None:
        self.prompter = prompter
        self.names = names

    def choose(self, choice: Choice, game: Any) -> str:
        return self.prompter.choose(choice, self.names.get(choice.side, f"Side {choice.side}"))

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        self.prompter.refused(reason)
