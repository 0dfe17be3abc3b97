"""c2: one die each to movement, combat and defence, the other dice ignored.

The options offered are the distinct orders of the three highest faces: a higher die is never
worse in any of the three places, so nothing sensible is lost. Any other assignment of rolled
dice may still be typed as `movement,combat,defence`.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from itertools import permutations

from wargame_cli.rulesets.battle_of_ixu.state import Dice

from wargame_cli.wording import plural

SLOTS = ("movement", "combat", "defence")


def assignments(faces: list[int]) -> list[Dice]:
    """The distinct ways to place the three highest faces, best movement first."""
    return list(_assignments(tuple(faces)))


# The same few dozen rolls come up turn after turn: the answers for a roll (pure functions of
# the faces and the typed text) are remembered, at most a few thousand.
@lru_cache(maxsize=4096)
def _assignments(faces: tuple[int, ...]) -> tuple[Dice, ...]:
    top = sorted(faces, reverse=True)[:3]
    return tuple(Dice(*p) for p in sorted(set(permutations(top)), reverse=True))


def key_of(dice: Dice) -> str:
    return f"{dice.movement},{dice.combat},{dice.defence}"


@lru_cache(maxsize=1024)
def parse(text: str) -> Dice:
    parts = [p for p in re.split(r"[^0-9]+", text.strip()) if p]
    if len(parts) != 3:
        raise ValueError(f"{text!r}: type three dice, movement,combat,defence (e.g. 5,4,2)")
    return Dice(*(int(p) for p in parts))


def unused(faces: list[int], dice: Dice) -> list[int]:
    """The faces left over once `dice` are taken (c2: ignored)."""
    return list(_unused(tuple(faces), dice))


@lru_cache(maxsize=4096)
def _unused(faces: tuple[int, ...], dice: Dice) -> tuple[int, ...]:
    left = Counter(faces)
    left.subtract([dice.movement, dice.combat, dice.defence])
    return tuple(sorted(left.elements(), reverse=True))


def problem(faces: list[int], text: str) -> str | None:
    """Why `text` is not an assignment of the rolled `faces`, or None."""
    return _problem(tuple(faces), text)


@lru_cache(maxsize=4096)
def _problem(faces: tuple[int, ...], text: str) -> str | None:
    try:
        dice = parse(text)
    except ValueError as exc:
        return str(exc)
    need = Counter([dice.movement, dice.combat, dice.defence])
    have = Counter(faces)
    missing = [face for face, n in need.items() if have[face] < n]
    if missing:
        rolled = ", ".join(map(str, sorted(faces, reverse=True)))
        return f"the dice rolled were {rolled}: each place takes one of them, no die twice (c2)"
    return None


def label(faces: list[int], dice: Dice, notes: tuple[str, str] = ("", "")) -> str:
    """`move 5", combat 4 dice (hit Tutok 87%), defence 2 (beaten 67% a die); ignore 1`:
    `notes` are the chances of the combat and the defence (`odds.attribution_odds`)."""
    left = unused(faces, dice)
    rest = f"; ignore {', '.join(map(str, left))}" if left else ""
    combat = plural(dice.combat, "die", "dice")
    combat_note, defence_note = (f" ({note})" if note else "" for note in notes)
    return (
        f'move {dice.movement}", combat {combat}{combat_note}, '
        f"defence {dice.defence}{defence_note}{rest}"
    )
