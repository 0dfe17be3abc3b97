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


HEALTH_DIE = 10  # c8: the health check is a d10, whatever the combat die


def hits_exactly(dice: int, die: int, defence: int, hits: int) -> float:
    """`dice` combat dice beating `defence` exactly `hits` times."""
    p = beat_chance(die, defence)
    return comb(dice, hits) * p**hits * (1 - p) ** (dice - hits)


def check_fails(damage: int) -> float:
    """c8: a model falls at its health check when the d10 shows its damage or less."""
    return min(max(damage, 0), HEALTH_DIE) / HEALTH_DIE


def kill_chance(dice: int, die: int, defence: int, target: Warrior) -> float:
    """The chance that an attack kills `target` this turn: hits enough for the health it has
    left (c7), or fewer that leave it to fail this turn's health check (c8), which it rolls
    once damaged this turn (already, or by this attack's hits)."""
    need = target.remaining
    now = hits_at_least(dice, die, defence, need)
    first = 0 if target.damaged_this_turn and not target.checked else 1
    later = sum(
        hits_exactly(dice, die, defence, k) * check_fails(target.damage + k)
        for k in range(first, min(need, dice + 1))
    )
    return now + later


def target_odds(dice: int, die: int, target: Warrior) -> str:
    """`a hit 56%, kills 10%` for an attack on `target` (its defence this turn): a kill is
    hits enough for the health it has left (c7), or at this turn's health check (c8)."""
    defence = target.dice.defence if target.dice else die
    hit = hits_at_least(dice, die, defence, 1)
    kill = kill_chance(dice, die, defence, target)
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
