"""Attacks (e11-e14, e19-e23): a Fierce success pool against defence dice, damage, deaths
into the dead pool, and a mob's damage carrying over from figure to figure."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any

from wargame_cli.rulesets.mobs_and_morale import bot, pools
from wargame_cli.rulesets.mobs_and_morale.state import DEAD, RADIUS, Battle, Creature

from wargame_cli.engine.requests import Choice, Event, Option, Request, Roll
from wargame_cli.kit.sides import other

Steps = Generator[Request, Any, Any]


def reachable(b: Battle, attackers: list[Creature], unit: str) -> list[Creature]:
    """e11, e19: the attackers within range (1", or the reach option) of the target unit."""
    reach = b.options["reach"]
    spots = [(t.pos.x, t.pos.y) for t in b.unit_figures(unit) if t.pos is not None]
    hypot = math.hypot
    out = []
    for a in attackers:  # `Creature.in_range` on plain numbers: the gap between the bases
        assert a.pos is not None
        ax, ay, limit = a.pos.x, a.pos.y, a.reach(reach) + 1e-6
        if any(max(0.0, hypot(ax - x, ay - y) - RADIUS - RADIUS) <= limit for x, y in spots):
            out.append(a)
    return out


def one_blow(b: Battle, attackers: list[Creature], target_key: str) -> bool:
    """A character's attack on a mob (version 3 on): one blow, one figure damaged, the owner
    picking which of those in reach (e22), so the attacker names the mob, not a figure."""
    return b.rules_version >= 3 and target_key.startswith("mob:") and _alone(attackers)


def _alone(attackers: list[Creature]) -> bool:
    return len(attackers) == 1 and attackers[0].mob is None


def struck(b: Battle, attackers: list[Creature], target_key: str) -> list[Creature]:
    """The figures an attack may damage: a character's blow at a mob reaches only those in
    its reach (e22); any other attack, the whole target unit."""
    figures = b.unit_figures(target_key)
    if not one_blow(b, attackers, target_key):
        return figures
    reach = b.options["reach"]
    return [f for f in figures if attackers[0].in_range(f, reach)] or figures


def attack(b: Battle, attackers: list[Creature], target_key: str, name: str) -> Steps:
    """One attack: `attackers` (a character, or every mob figure in range, e19) against a
    creature or a whole enemy mob (e20)."""
    die, success_on = b.options["die"], b.options["success_on"]
    side = attackers[0].side
    targets = struck(b, attackers, target_key)
    target_name = b.unit_name(target_key)
    dice = tuple(die for a in attackers for _ in range(a.fierce))
    faces: tuple[int, ...] = ()
    if dice:
        faces = yield Roll(
            dice=dice,
            reason=f"{name} attacks {target_name}: Fierce",
            side=side,
            rules=("e12", "e19") if len(attackers) > 1 else ("e12",),
            labels=tuple(a.id for a in attackers for _ in range(a.fierce)),
        )
    pool = pools.successes(faces, success_on)
    crowd = f" ({len(attackers)} figures)" if len(attackers) > 1 else ""
    yield Event(
        f"{name} attacks {target_name}{crowd}: Fierce {pools.shown(faces)} -> {pool} "
        f"success{'es' if pool != 1 else ''} in the pool",
        rules=("e11", "e12", "e19", "e20") if len(attackers) > 1 else ("e11", "e12"),
        kind="attack",
        data={
            "attackers": [a.id for a in attackers],
            "target": target_name,
            "faces": list(faces),
            "pool": pool,
        },
    )
    if pool == 0:
        return
    defence = max(t.defence for t in targets)  # a mixed mob defends with its weakest armour
    blocks = yield Roll(
        dice=(die,) * pool,
        reason=f"{target_name} defends against {pool} (defence {defence})",
        side=other(side),
        rules=("e13",),
    )
    points = pools.damage(pool, blocks, defence)
    yield Event(
        f"{target_name} rolls {pools.shown(blocks)} against defence {defence}: cancels "
        f"{pool - points} of {pool}, {points} damage",
        rules=("e13", "e14"),
        kind="defence",
        data={"target": target_name, "faces": list(blocks), "defence": defence, "damage": points},
    )
    if points == 0:
        return
    if target_key.startswith("mob:") and not _alone(attackers):
        yield from carry_over(b, target_key, points)
    elif targets[0].mob is not None and b.rules_version >= 2:
        victim = yield from owners_pick(b, attackers[0], targets[0], points)
        yield from wound(b, victim, points, ("e14", "e22"))
    else:
        yield from wound(b, targets[0], points, ("e14",))


def owners_pick(b: Battle, attacker: Creature, struck: Creature, points: int) -> Steps:
    """e22: a character's attack on a mob figure damages one figure (reading 5), and the
    mob's owner chooses which of its figures within the attacker's reach takes it (and is
    removed if it dies), not the attacker."""
    assert struck.mob is not None  # a mob figure, struck
    mob = b.mobs[struck.mob]
    reach = b.options["reach"]
    near = [f for f in b.figures(mob) if attacker.in_range(f, reach)] or [struck]
    if len(near) == 1:
        return near[0]
    key = yield Choice(
        side=struck.side,
        prompt=f"{attacker.id} deals {points} damage to {mob.name}: which figure takes it?",
        options=tuple(Option(f.id, f"{f.id} (health {f.health}/{f.max_health})") for f in near),
        default=lambda: bot.to_lose(b, near, wounded_first=False).id,
        rules=("e22",),
        kind="casualty",
    )
    return b.creatures[key]


def carry_over(b: Battle, target_key: str, points: int) -> Steps:
    """e21, e22: all damage on one figure, the owner's pick, until it dies; then the next."""
    while points > 0:
        figures = b.unit_figures(target_key)
        if not figures:
            yield Event(
                f"{b.unit_name(target_key)} is destroyed; {points} damage is left over",
                rules=("e21",),
                kind="overkill",
                data={"mob": b.unit_name(target_key), "left": points},
            )
            return
        victim = figures[0]
        # when the damage kills every figure left, the owner's order changes nothing: not asked
        choice = points < sum(f.health for f in figures) or b.rules_version == 0
        if len(figures) > 1 and choice:  # behaviour 0 asked even when the order changed nothing
            key = yield Choice(
                side=figures[0].side,
                prompt=f"{b.unit_name(target_key)} takes {points} damage: which figure first?",
                options=tuple(
                    Option(f.id, f"{f.id} (health {f.health}/{f.max_health})") for f in figures
                ),
                default=lambda figures=figures: bot.to_lose(b, figures, wounded_first=False).id,
                rules=("e21", "e22"),
                kind="casualty",
            )
            victim = b.creatures[key]
        hit = min(points, victim.health)
        points -= hit
        yield from wound(b, victim, hit, ("e21", "e22"))


def wound(b: Battle, victim: Creature, points: int, rules: tuple[str, ...]) -> Steps:
    """Damage on one creature; at no health it dies and leaves the table (e23)."""
    dealt = min(points, victim.health)
    victim.damage += dealt
    lost = points - dealt
    yield Event(
        f"{victim.id} takes {dealt} damage ({victim.health}/{victim.max_health} left)"
        + (f"; {lost} more damage is lost" if lost else ""),
        rules=rules,
        kind="damage",
        data={"creature": victim.id, "damage": dealt, "health": victim.health, "lost": lost},
    )
    if victim.health == 0:
        yield from kill(b, victim)


def kill(b: Battle, victim: Creature) -> Steps:
    victim.status = DEAD
    victim.last_pos, victim.pos = victim.pos, None
    if victim.mob is not None:
        b.mobs[victim.mob].dead_pool.append(victim.id)
        where = f"the dead pool of {victim.mob}"
    else:
        b.sides[victim.side].fallen.append(victim.id)
        where = "the casualty pool"
    yield Event(
        f"{victim.id} falls and is removed to {where}",
        rules=("e23",),
        kind="death",
        data={"creature": victim.id, "mob": victim.mob, "side": victim.side},
    )
    for mob in b.mobs.values():
        if mob.controller == victim.id and b.figures(mob):
            yield Event(
                f"{mob.name} has lost its controller and fights on uncontrolled",
                rules=("e5", "e25"),
                kind="uncontrolled",
                data={"mob": mob.name},
            )
