"""Mob cohesion (e17): members within 3" of each other, measured base edge to base edge.

`chain` (the default reading) keeps the largest group linked member to member within 3";
`all` keeps the largest set found where every pair is within 3" (dropping, one at a time, the
member out of reach of most others). Everyone else is a straggler, removed as a casualty.
"""

from __future__ import annotations

from collections.abc import Sequence

from wargame_cli.tabletop.movement import Body, gap

COHESION = 3.0  # e17: inches


def split(
    bodies: Sequence[Body], mode: str, limit: float = COHESION
) -> tuple[list[str], list[str]]:
    """(kept ids, straggler ids), both in the given order."""
    if len(bodies) < 2:
        return [b.id for b in bodies], []
    keep = _largest_chain(bodies, limit) if mode == "chain" else _all_pairs(bodies, limit)
    return [b.id for b in bodies if b.id in keep], [b.id for b in bodies if b.id not in keep]


def _close(a: Body, b: Body, limit: float) -> bool:
    return gap(a, b) <= limit + 1e-6


def _largest_chain(bodies: Sequence[Body], limit: float) -> set[str]:
    """Connected groups; the largest wins, ties to the group holding the earliest member."""
    seen: set[str] = set()
    best: set[str] = set()
    for start in bodies:
        if start.id in seen:
            continue
        group, frontier = {start.id}, [start]
        while frontier:
            here = frontier.pop()
            for other in bodies:
                if other.id not in group and _close(here, other, limit):
                    group.add(other.id)
                    frontier.append(other)
        seen |= group
        if len(group) > len(best):
            best = group
    return best


def _all_pairs(bodies: Sequence[Body], limit: float) -> set[str]:
    kept = list(bodies)
    while True:
        misses = [sum(not _close(b, o, limit) for o in kept if o is not b) for b in kept]
        worst = max(misses)
        if worst == 0:
            return {b.id for b in kept}
        drop = max(range(len(kept)), key=lambda i: (misses[i], i))  # the latest of the worst
        kept.pop(drop)
