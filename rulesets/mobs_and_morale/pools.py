"""Success pools (e12-e14), carry-over (e21), morale (e24-e26) and survival (e30) as plain
arithmetic on faces: the game asks for the dice, these count them."""

from __future__ import annotations

from collections.abc import Sequence

SURVIVAL_DIE = 10  # e30: a d10 for each figure in the casualty pool
SURVIVES_ON = 5  # e30: 5 or up lives


def shown(faces: Sequence[int]) -> str:
    """Faces as an event states them: `6 2 1 4`, or `no dice`."""
    return " ".join(str(f) for f in faces) if faces else "no dice"


def successes(faces: Sequence[int], success_on: int) -> int:
    """e12, e6: every die showing `success_on` or more is a success."""
    return sum(f >= success_on for f in faces)


def cancelled(faces: Sequence[int], defence: int) -> int:
    """e13: each defence die equal to or more than the defence number cancels one success."""
    return sum(f >= defence for f in faces)


def damage(pool: int, defence_faces: Sequence[int], defence: int) -> int:
    """e14: every success left in the pool is one point of damage."""
    return max(0, pool - cancelled(defence_faces, defence))


def carry_over(points: int, healths: Sequence[int]) -> list[int]:
    """e21: damage dealt to each figure in turn, all on one until it dies, the rest carrying
    over to the next; what is left when the figures run out is lost."""
    dealt = []
    for health in healths:
        hit = min(points, health)
        dealt.append(hit)
        points -= hit
    return dealt


def in_danger(faces: Sequence[int], morale: int) -> int:
    """e24: each dead-pool die *under* the morale score (not equal) puts a figure in danger."""
    return sum(f < morale for f in faces)


def fleeing(danger: int, saved: int, figures: int) -> int:
    """e25, e26: the controller's successes save figures; the rest flee, at most the whole mob."""
    return min(figures, max(0, danger - saved))


def survives(face: int) -> bool:
    """e30: a casualty lives (wounded or missing) on 5 or more."""
    return face >= SURVIVES_ON
