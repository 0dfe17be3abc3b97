"""Roll-offs (b4, b6): a d6 each plus a bonus, rolled again on a tie (default 1), told as
the shared roll-off (`wargame_cli.engine.rolloffs`) rolls it."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from wargame_cli.rulesets.squad_alpha.state import GameState

from wargame_cli.engine.requests import Event
from wargame_cli.engine.rolloffs import Dice
from wargame_cli.engine.rolloffs import roll_off as shared_roll_off
from wargame_cli.kit.sides import SIDES


def roll_off(
    state: GameState, reason: str, rules: tuple[str, ...], bonus: dict[str, int]
) -> Generator[Any, Any, tuple[str, dict[str, int]]]:
    """Returns the winner and the winning totals; ties are rolled again."""
    totals: dict[str, int] = {}

    def tied(group: list[str], shown: list[int], attempt: int) -> Generator[Event, Any, None]:
        yield Event(
            f"{reason}: a tie at {shown[0]}, roll again",
            rules=rules,
            kind="rolloff",
            data={"totals": dict(zip(group, shown, strict=True)), "tie": True},
        )

    def asked(group: Sequence[str], attempt: int) -> str:
        return reason if attempt == 1 else f"{reason} (roll {attempt})"

    dice = Dice(6, asked, rules, lambda side: state.squads[side].name, bonus.__getitem__, owner=str)
    order = yield from shared_roll_off(SIDES, dice, seen=totals.__setitem__, tied=tied)
    return order[0], totals


def with_bonus(face: int, bonus: int) -> str:
    return f"{face}{bonus:+d}={face + bonus}" if bonus else str(face)
