"""The chances of a fight in The Battle of Ixu (c6, c7), worked out exactly for the menus:
each combat die beats the defence when it shows more than it (strictly), the dice are
independent, so the hits are binomial. Pure arithmetic, shared by the attribution and the
combat menus."""

from __future__ import annotations

from functools import lru_cache
from math import comb

from wargame_cli.rulesets.battle_of_ixu.state import Dice, IxuState, Warrior

from wargame_cli.wording import percent


def beat_chance(die: int, defence: int) -> float:
    """One die of `die` faces showing more than `defence` (c6: "beat")."""
    return max(0, min(die, die - defence)) / die


@lru_cache(maxsize=1024)
def hits_at_least(dice: int, die: int, defence: int, hits: int) -> float:
    """`dice` combat dice beating `defence` at least `hits` times."""
    if hits <= 0:
        return 1.0
    p = beat_chance(die, defence)
    return sum(comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(hits, dice + 1))


def target_odds(dice: int, die: int, target: Warrior) -> str:
    """`a hit 56%, kills 10%` for an attack on `target` (its defence this turn): a kill is
    hits enough for the health it has left (c7)."""
    defence = target.dice.defence if target.dice else die
    hit = hits_at_least(dice, die, defence, 1)
    kill = hits_at_least(dice, die, defence, target.remaining)
    return f"a hit {percent(hit)}, kills {percent(kill)}"


def attribution_odds(state: IxuState, w: Warrior, dice: Dice) -> tuple[str, str]:
    """What an attribution means in chances (c2, c6), as notes for its combat and defence:
    the combat dice's chance to hit the nearest enemy whose defence is known (it attributed
    earlier this turn, c4), and each enemy die's chance to beat the defence."""
    die = int(state.options["die"])
    defence = f"beaten {percent(beat_chance(die, dice.defence))} a die"
    known = [e for e in state.enemies(w) if e.dice is not None]
    if not known:
        return "", defence
    near = min(known, key=lambda e: (w.pos.distance(e.pos), e.id))
    assert near.dice is not None
    hit = hits_at_least(dice.combat, die, near.dice.defence, 1)
    return f"hit {near.name} {percent(hit)}", defence
