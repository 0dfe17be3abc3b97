"""Every decision in a battle goes through `ask`, which adds surrender to the options (d16:
"surrender is a choice at any prompt"). Surrender is never the default and is confirmed, so
Enter alone never gives a battle away."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from rulesets.seeds_of_wars.state import Battle
from wargame_cli.engine.requests import Check, Choice, Describe, Option, Thunk

SURRENDER = "surrender"


class Surrendered(Exception):  # noqa: N818 - it is an event, not an error
    """Raised through the game generator when a side surrenders; the game catches it."""

    def __init__(self, side: str) -> None:
        super().__init__(side)
        self.side = side


def ask(
    battle: Battle,
    side: str,
    prompt: str,
    options: Sequence[Option] | Thunk[Sequence[Option]],
    default: str | Thunk[str],
    rules: tuple[str, ...],
    kind: str,
    check: Check | None = None,
    describe: Describe | None = None,
) -> Generator[Choice, Any, str]:
    """A battle decision for `side`; returns the key, or raises `Surrendered`. `options` may
    be a function that builds the menu, called only when someone reads it; then `check`
    (why a key is not legal) judges a bot's answer without the menu, and with `describe` (the
    menu's label for a key) a replay's answer too. In a fast game (simulate)
    nobody is asked: the answer is the default, and no menu is built."""
    if battle.fast is not None:
        return default() if callable(default) else default
    surrender = Option(SURRENDER, "Surrender the battle")
    if callable(options):
        build = options
        offered: Any = lambda: (*build(), surrender)  # noqa: E731
    else:
        offered = (*options, surrender)
    labelled = None
    if describe is not None:
        labelled = lambda key: surrender.label if key == SURRENDER else describe(key)  # noqa: E731
    while True:
        key = yield Choice(
            side=side,
            prompt=prompt,
            options=offered,
            default=default,
            rules=(*rules, "d16"),
            kind=kind,
            check=check,
            describe=labelled,
        )
        if key != SURRENDER:
            return key
        sure = yield Choice(
            side=side,
            prompt="Surrender the battle? Units that cannot retreat are captured.",
            options=(Option("no", "No, fight on"), Option("yes", "Yes, surrender")),
            default="no",
            rules=("d16", "d17"),
            kind="surrender",
        )
        if sure == "yes":
            raise Surrendered(side)
