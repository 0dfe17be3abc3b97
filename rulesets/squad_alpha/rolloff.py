"""Roll-offs (b4, b6): a d6 each plus a bonus, rolled again on a tie (default 1)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from rulesets.squad_alpha.state import GameState
from wargame_cli.engine.requests import Event, Roll


def roll_off(
    state: GameState, reason: str, rules: tuple[str, ...], bonus: dict[str, int]
) -> Generator[Any, Any, tuple[str, dict[str, int]]]:
    """Returns the winner and the winning totals; ties are rolled again."""
    names = {side: squad.name for side, squad in state.squads.items()}
    attempt = 1
    while True:
        faces = yield Roll(
            dice=(6, 6),
            reason=reason if attempt == 1 else f"{reason} (roll {attempt})",
            side=None,
            rules=rules,
            labels=(names["A"], names["B"]),
        )
        totals = {"A": faces[0] + bonus["A"], "B": faces[1] + bonus["B"]}
        if totals["A"] != totals["B"]:
            return ("A" if totals["A"] > totals["B"] else "B"), totals
        yield Event(
            f"{reason}: a tie at {totals['A']}, roll again",
            rules=rules,
            kind="rolloff",
            data={"totals": totals, "tie": True},
        )
        attempt += 1


def with_bonus(face: int, bonus: int) -> str:
    return f"{face}{bonus:+d}={face + bonus}" if bonus else str(face)
