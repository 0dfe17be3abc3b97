"""The card's dice tests, each in one place: "10 or greater to succeed" (d4, d14), "must
exceed De" (d10, d12), opposed 1d20 rolls (d1, d6, d13), and the odds the bot weighs them by."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from functools import cache
from typing import Any

from wargame_cli.rulesets.seeds_of_wars.state import ROUTED, SHAKEN, STATES, STEADY

from wargame_cli.engine.requests import Roll
from wargame_cli.engine.rolloffs import Dice

DIE = 20
TARGET = 10  # "10 or greater to succeed"
MAX_BONUS = 2  # d12: +2 if charging or flanking, not +4 for both


def recovery_passes(face: int, mo: int) -> bool:
    """d4: 1d20 + Mo, 10 or greater to succeed."""
    return face + mo >= TARGET


def morale_passes(face: int, mo: int, taken: int) -> bool:
    """d14: 1d20 + Mo - Ht taken during the entire battle, 10 or greater to succeed."""
    return face + mo - taken >= TARGET


def hits(face: int, bonus: int, de: int) -> bool:
    """d10, d12: 1d20 + Ra (or Me and its bonus) must exceed De: equal is a miss."""
    return face + bonus > de


@cache  # a few dozen (bonus, De) pairs, asked hundreds of times a battle by the bot
def hit_chance(bonus: int, de: int) -> float:
    """P(1d20 + bonus > de)."""
    return max(0, min(DIE, DIE - (de - bonus))) / DIE


def pass_chance(modifier: int) -> float:
    """P(1d20 + modifier >= 10)."""
    return max(0, min(DIE, DIE - (TARGET - modifier) + 1)) / DIE


def worse(state: str) -> str | None:
    """One step down after a failed morale check; None: a Routed unit is destroyed (d15)."""
    return {STEADY: SHAKEN, SHAKEN: ROUTED}.get(state)


def better(state: str) -> str:
    """One step up after a successful recovery check (d4)."""
    return STATES[max(0, STATES.index(state) - 1)]


@dataclass(frozen=True, slots=True)
class Contender:
    """One side of an opposed roll: who rolls and what they add."""

    side: str
    who: str  # the side's name, or the unit that rolls for it
    modifier: int
    parts: str  # "Order 2 + 1 Scout": how the modifier is made up, for the log
    unit: bool = False  # a unit rolls (d13): its name goes in the reason; the side's is shown

    @property
    def rolls(self) -> str:
        """What it rolls, for the roll's reason: "1d20 + Order 2", "Knights rolls 1d20 + Mv 1"."""
        return f"{f'{self.who} rolls ' if self.unit else ''}1d20 + {self.parts}"


def d20s(reason: str, rules: tuple[str, ...]) -> Dice[Contender]:
    """Opposed 1d20 + modifier: each side rolls its own die (so `--dice manual` asks the
    right player)."""
    return Dice(
        DIE,
        lambda rolling, _: f"{reason}: {rolling[0].rolls}",
        rules,
        label=lambda c: c.who,
        bonus=lambda c: c.modifier,
        apart=lambda c: c.side,
    )


def opposed(
    first: Contender,
    second: Contender,
    reason: str,
    rules: tuple[str, ...],
) -> Generator[Roll, Any, tuple[int, int]]:
    """One opposed roll (`d20s`): the totals, first's then second's."""
    totals = yield from d20s(reason, rules).roll((first, second))
    return totals[0], totals[1]
