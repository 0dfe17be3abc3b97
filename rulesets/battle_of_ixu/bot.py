"""The bot's judgement: every Choice's default comes from here, so a human pressing Enter plays
the same sensible game the computer does. Pure arithmetic on the open state (all dice and
positions are open information), no randomness."""

from __future__ import annotations

from collections.abc import Callable

from wargame_cli.rulesets.battle_of_ixu.approach import approach_move
from wargame_cli.rulesets.battle_of_ixu.attribution import assignments
from wargame_cli.rulesets.battle_of_ixu.state import Dice, IxuState, Warrior

from wargame_cli.tabletop.approach import GANG_INCHES
from wargame_cli.tabletop.destinations import Destination

REACH = 0.01  # inches of slack when judging whether a move reaches base contact


def beat_chance(defence: int, die: int) -> float:
    """Chance one die beats `defence`: strictly greater (c6)."""
    return max(0, die - defence) / die


def guess(warrior: Warrior, slot: str, die: int) -> float:
    """A known attributed die, or a middling guess for a model that has not attributed yet."""
    if warrior.dice is not None:
        return float(getattr(warrior.dice, slot))
    return 0.65 * die + 0.5


def score_dice(state: IxuState, warrior: Warrior, dice: Dice) -> float:
    """Expected damage dealt minus damage taken this turn, plus a little for closing in."""
    die = int(state.options["die"])
    enemies = state.enemies(warrior)
    if not enemies:
        return 0.0
    gaps = {e.id: state.gap_to(warrior, e) for e in enemies}
    shots = warrior.ranged  # c9: an enemy within a move and a shot is harmed by its shot

    def harm(e: Warrior) -> float:
        hit = beat_chance(round(guess(e, "defence", die)), die)
        if gaps[e.id] <= dice.movement + REACH or shots is None:
            return dice.combat * hit
        return shots.count(dice.combat) * hit

    reachable = [
        e
        for e in enemies
        if gaps[e.id] <= dice.movement + REACH
        or (shots is not None and gaps[e.id] <= dice.movement + shots.range + REACH)
    ]
    dealt = max((harm(e) for e in reachable), default=0.0)
    threats = sum(
        guess(e, "combat", die)
        for e in enemies
        if gaps[e.id] <= dice.movement + guess(e, "movement", die) + REACH
    )
    taken = threats * beat_chance(dice.defence, die)
    closing = min(dice.movement, min(gaps.values()))
    return dealt - taken + 0.2 * closing


def dice_scorer(state: IxuState, warrior: Warrior) -> Callable[[Dice], float]:
    """`score_dice(state, warrior, ·)` with what does not depend on the dice (the enemies'
    gaps and guessed dice) worked out once: the same arithmetic in the same order, so the
    same floats, for the up to six assignments weighed in a row."""
    die = int(state.options["die"])
    enemies = state.enemies(warrior)
    if not enemies:
        return lambda dice: 0.0
    middling = 0.65 * die + 0.5  # `guess` for a model that has not attributed yet
    known = []
    for e in enemies:
        d = e.dice
        defence, combat, move = (
            (middling,) * 3 if d is None else (float(d.defence), float(d.combat), float(d.movement))
        )
        known.append((state.gap_to(warrior, e), beat_chance(round(defence), die), combat, move))
    nearest = min(gap for gap, *_ in known)
    shots = warrior.ranged  # c9: as `score_dice` weighs a shot

    def score(dice: Dice) -> float:
        reach = dice.movement + REACH
        dealt = None  # the best harm on a reachable enemy (`max`, default 0.0)
        threats: float = 0  # summed in the enemies' order, as `sum` does
        for gap, hit, combat, move in known:
            harm = None
            if gap <= reach:
                harm = dice.combat * hit
            elif shots is not None and gap <= dice.movement + shots.range + REACH:
                harm = shots.count(dice.combat) * hit
            if harm is not None and (dealt is None or harm > dealt):
                dealt = harm
            if gap <= dice.movement + move + REACH:
                threats += combat
        if dealt is None:
            dealt = 0.0
        taken = threats * beat_chance(dice.defence, die)
        closing = min(dice.movement, nearest)
        return dealt - taken + 0.2 * closing

    return score


def pick_dice(state: IxuState, warrior: Warrior, faces: list[int]) -> Dice:
    """The best-scoring assignment; ties go to defence, then combat, then movement."""
    offered = assignments(faces)
    if len(offered) == 1:  # all faces alike: nothing to weigh
        return offered[0]
    score = dice_scorer(state, warrior)
    return max(
        offered,
        key=lambda d: (round(score(d), 6), d.defence, d.combat, d.movement),
    )


GANG_BONUS = 0.05  # joining friends already fighting a target: it strikes only one of you


def worth(state: IxuState, attacker: Warrior, target: Warrior) -> float:
    """How good a fight with `target` looks: harm done per health left, less harm taken. A
    target already fighting friends can strike only one of them, so the harm it may do is
    shared, and joining them is worth a little in itself (they gang up, as in the seed's
    story)."""
    die = int(state.options["die"])
    a, t = attacker.dice, target.dice
    if a is None or t is None:
        return 0.0
    friends = sum(1 for f in state.engaged(target) if f is not attacker)
    dealt = a.combat * beat_chance(t.defence, die) / max(1, target.remaining)
    taken = t.combat * beat_chance(a.defence, die) / max(1, attacker.remaining)
    return dealt - 0.3 * taken / (1 + friends) + GANG_BONUS * friends


def pick_move(state: IxuState, warrior: Warrior, offered: list[Destination]) -> Destination:
    """Hold when already fighting; charge the best target in reach if the fight looks good,
    or one friends already fight; otherwise close on the nearest enemy (one friends fight
    counts nearer, `by_approach`); when no straight move gets closer, walk round the bases
    in the way toward a fight next turn (`approach`); else stay."""
    by_tag = {d.tag: d for d in offered}
    stay = by_tag["stay"]
    if state.engaged(warrior):
        return stay
    if warrior.ranged is not None and (shooting := _shooting_move(state, warrior, offered)):
        return shooting
    charges = [
        (worth(state, warrior, state.get(tag.removeprefix("contact:"))), d)
        for tag, d in by_tag.items()
        if tag.startswith("contact:")
    ]
    if charges:
        best_worth, best = max(charges, key=lambda pair: pair[0])
        if best_worth > 0:
            return best
        # a fight that looks poor alone is still worth joining where friends already are
        ganged = [d for _, d in charges if friends_on(state, warrior, d)]
        return ganged[0] if ganged else stay
    for enemy in by_approach(state, warrior, state.enemies(warrior)):
        if f"toward:{enemy.id}" in by_tag:
            toward = by_tag[f"toward:{enemy.id}"]
            if not _blocked(state, warrior, enemy, toward):
                return toward
            return approach_move(state, warrior) or toward
    return approach_move(state, warrior) or stay  # no straight way closer: walk round


def _shooting_move(
    state: IxuState, warrior: Warrior, offered: list[Destination]
) -> Destination | None:
    """A model with a ranged attack (c9) keeps out of contact where it can shoot: it stands
    while an enemy is in range, else takes the move toward an enemy that ends in range."""
    if state.in_range(warrior):
        return next(d for d in offered if d.tag == "stay")
    assert warrior.ranged is not None
    reach = warrior.ranged.range + 1e-9
    for d in offered:
        if d.tag.startswith("toward:") and any(
            d.point.distance(e.pos) - warrior.radius - e.radius <= reach
            for e in state.enemies(warrior)
        ):
            return d
    return None


def _blocked(state: IxuState, warrior: Warrior, enemy: Warrior, toward: Destination) -> bool:
    """Does the straight move toward `enemy` gain next to nothing (a base in the way)?"""
    assert warrior.dice is not None
    gained = warrior.pos.distance(enemy.pos) - toward.point.distance(enemy.pos)
    return gained < min(1.0, warrior.dice.movement / 2)


def friends_on(state: IxuState, warrior: Warrior, charge: Destination) -> bool:
    """Do friends already fight the enemy this contact spot charges?"""
    target = state.get(charge.tag.removeprefix("contact:"))
    return any(f is not warrior for f in state.engaged(target))


def by_gap(state: IxuState, warrior: Warrior, enemies: list[Warrior]) -> list[Warrior]:
    """Enemies nearest first by the gap between bases."""
    return sorted(enemies, key=lambda e: state.gap_to(warrior, e))


def by_approach(state: IxuState, warrior: Warrior, enemies: list[Warrior]) -> list[Warrior]:
    """The order the bot closes on enemies: nearest first, an enemy its friends already fight
    counting `GANG_INCHES` nearer per friend (they gang up on it, as the seed's Swords do)."""

    def key(e: Warrior) -> float:
        friends = sum(1 for f in state.engaged(e) if f is not warrior)
        return state.gap_to(warrior, e) - GANG_INCHES * friends

    return sorted(enemies, key=key)


def pick_target(
    state: IxuState, warrior: Warrior, targets: list[Warrior], dice: int | None = None
) -> Warrior:
    """Fighting costs nothing, so always strike: a likely kill first, of one that has not
    struck yet if possible (a kill takes its attack away, c7), then the most harm per health
    left; a target whose defence no die can beat comes last. `dice`: a shot's (c9)."""
    die = int(state.options["die"])
    combat = dice if dice is not None else warrior.dice.combat if warrior.dice else 1

    def key(t: Warrior) -> tuple[bool, bool, float, bool, str]:
        defence = t.dice.defence if t.dice else die
        hits = combat * beat_chance(defence, die)
        kill = 0 < t.remaining <= hits
        return (kill, kill and not t.fought, hits / max(1, t.remaining), not t.fought, t.id)

    return max(targets, key=key)
