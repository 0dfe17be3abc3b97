"""Roll-offs shared by the rulesets: tied contenders roll a die each, highest first, and any
still tied roll again among themselves until each has its place."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from itertools import groupby
from typing import Any, TypeVar

from wargame_cli.engine.requests import Roll

T = TypeVar("T")


def ranked(pairs: Sequence[tuple[T, int]]) -> list[list[T]]:
    """Highest value first; contenders with equal values share a group (order kept)."""
    ordered = sorted(pairs, key=lambda pair: -pair[1])
    return [[item for item, _ in group] for _, group in groupby(ordered, key=lambda p: p[1])]


def settle_ties(
    tied: Sequence[T],
    die: int,
    reason: Callable[[Sequence[T]], str],
    rules: tuple[str, ...],
    label: Callable[[T], str],
    seen: Callable[[T, int], None] | None = None,
) -> Generator[Roll, Any, list[T]]:
    """The order of `tied` by roll-off. One `Roll` of `die` per contender at a time; `seen`
    hears each contender's face (for rulesets that show them)."""
    group = list(tied)
    if len(group) < 2:
        return group
    while True:  # a loop, not recursion: a run of equal re-rolls cannot exhaust the stack
        faces = yield Roll(
            dice=(die,) * len(group),
            reason=reason(group),
            rules=rules,
            labels=tuple(label(item) for item in group),
        )
        if seen is not None:
            for item, face in zip(group, faces, strict=True):
                seen(item, face)
        groups = ranked(list(zip(group, faces, strict=True)))
        if len(groups) > 1:
            break
    order: list[T] = []
    for part in groups:
        order += yield from settle_ties(part, die, reason, rules, label, seen)
    return order
