"""The bot's judgement: every Choice's suggested default comes from here. Plain heuristics,
fast and predictable: attack what is in reach (the weakest first), close on the nearest
enemy, keep mobs together, give up the figures that matter least, retreat when outmatched
three to one."""

from __future__ import annotations

from rulesets.mobs_and_morale.moves import LEAVE, MobPlan
from rulesets.mobs_and_morale.state import OTHER, Battle, Creature
from wargame_cli.tabletop.destinations import Destination

RETREAT_RATIO = 3  # a side retreats when the enemy is this many times stronger


def strength(b: Battle, side: str) -> int:
    """A rough fighting worth: attack dice (plus one) times health left, over standing figures."""
    return sum((c.fierce + 1) * c.health for c in b.standing(side))


def should_retreat(b: Battle, side: str) -> bool:
    """Keep retreating once begun; begin when outmatched RETREAT_RATIO to one."""
    if b.sides[side].retreating:
        return True
    return strength(b, side) * RETREAT_RATIO < strength(b, OTHER[side])


def enemy_gap(b: Battle, c: Creature) -> float:
    enemies = b.standing(OTHER[c.side])
    return min((c.pos.distance(e.pos) for e in enemies), default=0.0)


def character_target(b: Battle, attacker: Creature, targets: list[Creature]) -> Creature:
    """The weakest in reach, characters before minions (a fallen controller frees its mobs)."""
    return min(
        targets,
        key=lambda t: (t.health, t.mob is not None, attacker.pos.distance(t.pos), t.id),
    )


def mob_target(b: Battle, in_reach: dict[str, int]) -> str:
    """The unit most figures can reach; then the one with least health left."""

    def health(unit: str) -> int:
        return sum(f.health for f in b.unit_figures(unit))

    return max(in_reach, key=lambda u: (in_reach[u], -health(u)))


def to_lose(b: Battle, figures: list[Creature], wounded_first: bool) -> Creature:
    """The figure the owner gives up (or hits first): furthest from the fight. Damage goes
    on the sturdiest first (fewest kills, e21); flight takes the most wounded (e26)."""

    def key(f: Creature) -> tuple[int, float]:
        health = -f.health if wounded_first else f.health
        return (health, enemy_gap(b, f))

    return max(figures, key=key)


def character_move(
    b: Battle, c: Creature, dests: list[Destination], leave_ok: bool, edge_key: str
) -> str:
    if should_retreat(b, c.side):
        return LEAVE if leave_ok else edge_key
    for prefix in ("contact:", "toward:"):
        found = next((d for d in dests if d.tag.startswith(prefix)), None)
        if found is not None:
            return found.point.key()
    return c.pos.key()


def mob_move(b: Battle, side: str, plans: list[MobPlan]) -> str:
    if should_retreat(b, side):
        return "withdraw"
    closing = [p for p in plans if p.key.startswith("close:")]
    keep = [p for p in closing if not p.stragglers]
    if keep:
        return keep[0].key
    return min(plans, key=lambda p: (len(p.stragglers), p.key != "stay")).key
