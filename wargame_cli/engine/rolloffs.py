"""The one roll-off every ruleset uses: rivals roll a die each and add their bonus, highest
first, and any still tied roll again among themselves until each has its place.

Rulesets differ only in how the dice are asked for and what is said about a tie, so those are
parameters: how the dice are rolled (`Dice`: one `Roll` for the whole group, or one per
rival asked of its own side), and a `tied` hook that tells of a roll that parted nobody and
may settle the tie instead of a re-roll (a side's option)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any, Generic, TypeVar

from wargame_cli.engine.requests import Roll

T = TypeVar("T")

Reason = Callable[[Sequence[T], int], str]  # the rivals in this Roll, and which roll (1 first)
Tied = Callable[[list[T], list[int], int], Generator[Any, Any, list[T] | None]]


def ranked(pairs: Sequence[tuple[T, int]]) -> list[list[T]]:
    """Highest value first; contenders with equal values share a group (order kept)."""
    ordered = sorted(pairs, key=lambda pair: -pair[1])
    return [[item for item, _ in group] for _, group in groupby(ordered, key=lambda p: p[1])]


def _no_bonus(_: Any) -> int:
    return 0


@dataclass(frozen=True)
class Dice(Generic[T]):
    """How rivals roll: a `die` each plus their `bonus`, in one `Roll` for the group or,
    with `apart`, one `Roll` per rival in turn asked of the side `apart` gives (an opposed
    roll, so `--dice manual` asks the right player). A group's `Roll` names each die's side
    with `owner`, so each side's player throws only their own."""

    die: int
    reason: Reason[T]
    rules: tuple[str, ...]
    label: Callable[[T], str]
    bonus: Callable[[T], int] = _no_bonus
    apart: Callable[[T], str | None] | None = None
    owner: Callable[[T], str | None] | None = None  # one Roll, each die its owner's side's

    def roll(self, group: Sequence[T], attempt: int = 1) -> Generator[Roll, Any, list[int]]:
        """Each rival's total, in `group`'s order."""
        apart = self.apart
        rolls = [[item] for item in group] if apart is not None else [list(group)]
        totals: list[int] = []
        for part in rolls:
            faces = yield Roll(
                dice=(self.die,) * len(part),
                reason=self.reason(part, attempt),
                side=apart(part[0]) if apart is not None else None,
                rules=self.rules,
                labels=tuple(self.label(item) for item in part),
                owners=tuple(self.owner(item) for item in part) if self.owner else (),
            )
            totals += [face + self.bonus(item) for item, face in zip(part, faces, strict=True)]
        return totals


def roll_off(
    rivals: Sequence[T],
    dice: Dice[T],
    seen: Callable[[T, int], None] | None = None,
    tied: Tied[T] | None = None,
) -> Generator[Any, Any, list[T]]:
    """`rivals` in order, highest total first (`dice.roll` each round). A roll that parts
    nobody is told to `tied` (the group, its totals, which roll), whose requests are passed
    on and whose returned order, if any, settles the tie; otherwise the group rolls again.
    Rivals tied after a roll that parted others roll again among themselves. `seen` hears
    each rival's total of every roll (for rulesets that show them)."""
    group = list(rivals)
    if len(group) < 2:
        return group
    attempt = 1
    while True:  # a loop, not recursion: a run of equal re-rolls cannot exhaust the stack
        totals = yield from dice.roll(group, attempt)
        if seen is not None:
            for item, total in zip(group, totals, strict=True):
                seen(item, total)
        groups = ranked(list(zip(group, totals, strict=True)))
        if len(groups) > 1:
            break
        if tied is not None:
            settled = yield from tied(group, totals, attempt)
            if settled is not None:
                return settled
        attempt += 1
    order: list[T] = []
    for part in groups:
        order += yield from roll_off(part, dice, seen, tied)
    return order
