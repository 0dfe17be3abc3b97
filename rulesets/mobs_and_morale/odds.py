"""The chances of an attack (e12-e14, e21, e22), worked out exactly for the menus: each Fierce
die is a success on `success_on` or more (e12), and each success survives the defence when
its defence die shows under the defence number (e13); what survives is damage (e14). The
successes are independent, so the damage is binomial: `dice` trials, each doing a point with
chance `p_success * (1 - p_cancel)`.

Pure arithmetic, no rich: the rules label their options with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

from wargame_cli.wording import percent


def face_chance(die: int, at_least: int) -> float:
    """A die of `die` faces showing `at_least` or more."""
    return max(0, min(die, die - at_least + 1)) / die


@lru_cache(maxsize=512)
def damage_at_least(dice: int, die: int, success_on: int, defence: int, points: int) -> float:
    """The chance that `dice` Fierce dice deal `points` damage or more against `defence`."""
    if points <= 0:
        return 1.0
    if points > dice:
        return 0.0
    hit = face_chance(die, success_on) * (1 - face_chance(die, defence))
    if hit >= 1.0:
        return 1.0
    below = sum(comb(dice, k) * hit**k * (1 - hit) ** (dice - k) for k in range(points))
    return min(1.0, max(0.0, 1.0 - below))


@dataclass(frozen=True)
class AttackOdds:
    """What an attack's option states: the chance of any damage and of a kill."""

    wounds: float
    kills: float

    def words(self) -> str:
        """`wounds 75%, kills 40%`, or `kills 62%` when any wound kills (health 1)."""
        if self.kills >= self.wounds:
            return f"kills {percent(self.kills)}"
        return f"wounds {percent(self.wounds)}, kills {percent(self.kills)}"


def attack_odds(dice: int, die: int, success_on: int, defence: int, to_kill: int) -> AttackOdds:
    """The attack's chances: any damage, and at least `to_kill` points (the health the
    target's owner puts in the way: the whole of a character's, or for a mob the sturdiest
    figure the owner may give, e21, e22)."""
    return AttackOdds(
        damage_at_least(dice, die, success_on, defence, 1),
        damage_at_least(dice, die, success_on, defence, to_kill),
    )
