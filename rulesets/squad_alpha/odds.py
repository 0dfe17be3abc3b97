"""The numbers of Squad Alpha: action tests (b12, b13, b24, b25) and cover saves (b16).

Pure arithmetic, shared by the rules (deciding) and the bot (weighing chances).
"""

from __future__ import annotations

from functools import lru_cache

from wargame_cli.tabletop.table import TerrainKind

DIE = 6  # b12, b16: every test and save is a d6
SAVE_NEEDED = {TerrainKind.HARD: 3, TerrainKind.SOFT: 5}  # b16: cover from fire 3+, view 5+


def needed(step: int, modifier: int) -> int:
    """The highest face that activates at `step` with a (non-positive) morale modifier."""
    return step + min(0, modifier)


def highest_passing(step: int, modifier: int) -> int:
    """The highest face that passes, as shown to players: a 6 never does (b13), a 1 always
    does (b25)."""
    return max(1, min(5, needed(step, modifier)))


def die_activates(face: int, step: int, modifier: int) -> bool:
    """b12: at or under the number needed; b13: a 6 always fails; b25: a 1 always works."""
    if face == 1:
        return True
    return face != 6 and face <= needed(step, modifier)


def test_passes(faces: tuple[int, ...] | list[int], step: int, modifier: int) -> bool:
    """b12: the action succeeds if any die activates."""
    return any(die_activates(f, step, modifier) for f in faces)


@lru_cache(maxsize=1024)
def pass_chance(dice: int, step: int, modifier: int) -> float:
    """Chance that `dice` d6 pass the action test."""
    single = sum(die_activates(f, step, modifier) for f in range(1, DIE + 1)) / DIE
    return 1 - (1 - single) ** dice


def save_chance(kind: TerrainKind | None) -> float:
    if kind is None or kind not in SAVE_NEEDED:
        return 0.0
    return (DIE + 1 - SAVE_NEEDED[kind]) / DIE


def saves(face: int, kind: TerrainKind) -> bool:
    """b16: saves are never modified."""
    return face >= SAVE_NEEDED[kind]
