"""The bot's judgement: every Choice's suggested default comes from here. Plain heuristics,
fast and predictable: attack what is in reach (the weakest first), close on the nearest
enemy, keep mobs together, give up the figures that matter least, retreat when outmatched
three to one."""

from __future__ import annotations

from collections.abc import Callable

from wargame_cli.rulesets.mobs_and_morale.moves import LEAVE, MobPlan, way_round
from wargame_cli.rulesets.mobs_and_morale.state import Battle, Creature, Mob

from wargame_cli.kit.sides import other
from wargame_cli.tabletop.destinations import Destination
from wargame_cli.tabletop.geometry import Point

Plans = list[MobPlan] | Callable[[], list[MobPlan]]  # a mob's plans, or how to get them
RETREAT_RATIO = 3  # a side retreats when the enemy is this many times stronger
# The search bot's judgement (`position_worth`): a retreating side keeps this share of its
# strength, since a side that goes on retreating leaves the table and loses (e29); and
# STRENGTH_STEP strength points make one step of the search's margin (a minion is 2, a hit
# on a Fierce 4 character 5).
RETREATING = 0.5
STRENGTH_STEP = 5.0


def strength(b: Battle, side: str) -> int:
    """A rough fighting worth: attack dice (plus one) times health left, over standing figures."""
    return sum((c.fierce + 1) * c.health for c in b.standing(side))


def position_worth(b: Battle, side: str) -> float:
    """The search bot's judgement of a position for `side` (`Ruleset.evaluate`): each side's
    strength (as `strength` reckons it), a retreating side's cut to RETREATING of it, own
    less the other's, in STRENGTH_STEP steps. Material and health alone count a 1-health
    minion as much as a character, and a retreat that saves a round's wounds as a gain."""

    def worth(s: str) -> float:
        kept = RETREATING if b.sides[s].retreating else 1.0
        return strength(b, s) * kept

    return (worth(side) - worth(other(side))) / STRENGTH_STEP


def should_retreat(b: Battle, side: str) -> bool:
    """Keep retreating once begun; begin when outmatched RETREAT_RATIO to one."""
    if b.sides[side].retreating:
        return True
    return strength(b, side) * RETREAT_RATIO < strength(b, other(side))


def enemy_gap(b: Battle, c: Creature) -> float:
    enemies = b.standing(other(c.side))
    return min((c.at.distance(e.at) for e in enemies), default=0.0)


def character_target(b: Battle, attacker: Creature, targets: list[Creature]) -> Creature:
    """The weakest in reach, characters before minions (a fallen controller frees its mobs)."""
    return min(
        targets,
        key=lambda t: (t.health, t.mob is not None, attacker.at.distance(t.at), t.id),
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
    b: Battle,
    c: Creature,
    dests: list[Destination] | Callable[[], list[Destination]],
    leave_ok: bool,
    edge_key: str | Callable[[], str],
) -> str:
    """Leave or head for our edge when retreating, else into contact, else toward the enemy
    (`dests` and `edge_key` may be functions, called only when needed); when the straight
    move toward it gains next to nothing (a base or the terrain in the way), walk round to
    where it can fight next turn (`moves.way_round`), else stay."""
    if should_retreat(b, c.side):
        return LEAVE if leave_ok else (edge_key() if callable(edge_key) else edge_key)
    dests = dests() if callable(dests) else dests
    contact = next((d for d in dests if d.tag.startswith("contact:")), None)
    if contact is not None:
        return contact.point.key()
    toward = next((d for d in dests if d.tag.startswith("toward:")), None)
    if toward is not None and not _blocked(b, c, toward):
        return toward.point.key()
    found = way_round(b, c)
    if found is not None:
        return found.point.key()
    return toward.point.key() if toward is not None else c.at.key()


def _blocked(b: Battle, c: Creature, toward: Destination) -> bool:
    """Does the straight move toward its enemy gain next to nothing (a base in the way)?"""
    enemy = b.creatures[toward.tag.removeprefix("toward:")]
    gained = c.at.distance(enemy.at) - toward.point.distance(enemy.at)
    return gained < min(1.0, c.move / 2)


def best_close(plans: list[MobPlan]) -> MobPlan | None:
    """The closing move worth making: no stragglers, someone actually moves, and the most
    figures in reach afterwards (ties to the nearest target, offered first)."""
    useful = [p for p in plans if p.key.startswith("close:") and p.moved and not p.stragglers]
    return max(useful, key=lambda p: p.in_reach, default=None)


def mob_advance(
    b: Battle, mob: Mob, plans: Plans, closing: list[MobPlan] | None = None
) -> MobPlan | None:
    """The best closing move, else the straggler-free move that brings the mob nearest the
    enemy (by at least half an inch), else None: then the mob stays put. `plans` may be a
    function giving them, called only when no closing move (`closing`, the first plans) is
    worth making."""
    best = best_close(closing if closing is not None else _listed(plans))
    if best is not None:
        return best
    plans = _listed(plans)
    enemies = [e.at for e in b.standing(other(mob.side))]
    if not enemies:
        return None

    def nearest(spots: list[Point]) -> float:
        return min(s.distance(e) for s in spots for e in enemies)

    now = nearest([f.at for f in b.figures(mob)])
    fine = [
        (nearest([s for s in p.spots.values() if s is not None]), p.key)
        for p in plans
        if p.moved and not p.stragglers and p.key != "withdraw" and None not in p.spots.values()
    ]
    found = min((f for f in fine if f[0] < now - 0.5), default=None)
    return next(p for p in plans if p.key == found[1]) if found else None


def mob_move(b: Battle, mob: Mob, plans: Plans, closing: list[MobPlan] | None = None) -> str:
    if should_retreat(b, mob.side):
        return "withdraw"
    plan = mob_advance(b, mob, plans, closing)
    return plan.key if plan is not None else "stay"


def _listed(plans: Plans) -> list[MobPlan]:
    return plans() if callable(plans) else plans
