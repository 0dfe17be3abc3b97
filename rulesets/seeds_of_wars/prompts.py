"""Every decision in a battle goes through `ask`, which adds surrender to the options (d16:
"surrender is a choice at any prompt"). Surrender is never the default and is confirmed, so
Enter alone never gives a battle away."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from wargame_cli.rulesets.seeds_of_wars.state import Battle

from wargame_cli.engine.requests import Choice, Describe, Judge, Option, Text, Thunk, legal_keys

SURRENDER = "surrender"
_SURRENDER = Option(SURRENDER, "Surrender the battle")
_ASKED: dict[tuple[str, ...], tuple[str, ...]] = {}  # a question's rules and d16's, made once


class Surrendered(Exception):  # noqa: N818 - it is an event, not an error
    """Raised through the game generator when a side surrenders; the game catches it."""

    def __init__(self, side: str) -> None:
        super().__init__(side)
        self.side = side


def ask(
    battle: Battle,
    side: str,
    prompt: Text,
    options: Sequence[Option] | Thunk[Sequence[Option]],
    default: str | Thunk[str],
    rules: tuple[str, ...],
    kind: str,
    judge: Judge | None = None,
    describe: Describe | None = None,
) -> Generator[Choice, Any, str]:
    """A battle decision for `side`; returns the key, or raises `Surrendered`. `options` may
    be a function that builds the menu, called only when someone reads it; then `judge`
    (why a key is not legal) judges every answer without the menu, and `describe` (the
    menu's label for a key) labels a replay's answer without it."""
    surrender = _SURRENDER
    if callable(options):
        build = options
        offered: Any = lambda: (*build(), surrender)  # noqa: E731
    else:
        offered = (*options, surrender)
    labelled = judged = None
    asked = _ASKED.get(rules)
    if asked is None:
        asked = _ASKED[rules] = (*rules, "d16")
    if describe is not None:
        labelled = lambda key: surrender.label if key == SURRENDER else describe(key)  # noqa: E731
    if judge is not None:
        judged = lambda key: None if key == SURRENDER else judge(key)  # noqa: E731
    while True:
        key = yield Choice(side, prompt, offered, default, asked, kind, None, judged, labelled)
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


def not_offered(key: str, open_keys: list[str] | None = None) -> str:
    """A check's refusal of a key its menu does not list; with the keys open instead, when
    the check can name them without building the menu."""
    if open_keys is None:
        return f"{key!r} is not one of the options"
    return (
        f"{key!r} is not one of the options; {legal_keys(tuple(Option(k, k) for k in open_keys))}"
    )
