"""The suggestions every Choice offers as its default: what the bot plays, and what Enter plays.

The bot weighs odds, not dice: it deploys facing the enemy, charges where its melee odds beat
the return blows, keeps shooters adjacent but out of melee, shoots and strikes the best odds
(finishing weakened units first), and retreats units that are shaken or about to fall.
The attacker closes in; the defender holds unless a charge is worth it.
"""

from __future__ import annotations

from collections.abc import Callable

from wargame_cli.rulesets.seeds_of_wars.board import Space
from wargame_cli.rulesets.seeds_of_wars.checks import MAX_BONUS, hit_chance
from wargame_cli.rulesets.seeds_of_wars.combat import (
    fighter_refusal,
    melee_bonus,
    move_refusal,
    shooter_refusal,
    shot_targets,
)
from wargame_cli.rulesets.seeds_of_wars.movement import reachable, retreat_space
from wargame_cli.rulesets.seeds_of_wars.state import ROUTED, SHAKEN, STEADY, Battle, Unit

from wargame_cli.kit.sides import other

GAIN_NEEDED = 0.01  # a move must improve a unit's position by more than this
RESERVE_PENALTY = 5.0  # units in their own Reserve count towards losing (d16)
NOT_LISTED = "not listed"  # a unit the step's refusals leave out may not act


def target_weight(target: Unit) -> float:
    """A hit that destroys counts more; routed units are nearly out already."""
    weight = 1.5 if target.left <= 1 else 1.0
    return weight * (0.6 if target.state == ROUTED else 1.0)


# -- deployment ---------------------------------------------------------------------------
def deploy_space(battle: Battle, unit: Unit, legal: list[Space]) -> Space:
    """Front line first, spread over the columns, facing the enemy already deployed."""
    board = battle.board
    rows = list(reversed(board.home_rows(unit.side)))  # front first, Reserve last
    centre = (board.columns - 1) / 2

    facing: dict[int, int] = {}
    for e in battle.fighting(other(unit.side)):
        assert e.space is not None  # a unit still fighting stands somewhere
        facing[e.space[1]] = facing.get(e.space[1], 0) + 1
    where = battle.places()

    def key(space: Space) -> tuple[float, ...]:
        friends = len(where.get((space, unit.side), ()))
        col = space[1]
        return (rows.index(space[0]), friends, -facing.get(col, 0), abs(col - centre), col)

    return min(legal, key=key)


# -- movement -----------------------------------------------------------------------------
def position_value(battle: Battle, unit: Unit, space: Space) -> float:
    """How good `space` is for `unit` this round (higher is better)."""
    return valuer(battle, unit)(space)


def valuer(battle: Battle, unit: Unit) -> Callable[[Space], float]:
    """`position_value` of `unit` as a function of the space, for weighing many spaces: what
    does not depend on the space (the enemies, their odds) is worked out once."""
    side = unit.side
    kind = unit.kind
    board = battle.board
    where = battle.places()
    foe = other(side)
    foes = where[foe]  # every enemy still fighting stands on a space
    spaces = list({e.space: None for e in foes})  # each held space once: for the nearest
    keen = 0.5 if kind.ra is not None else 1.0
    fear = 1.0 if unit.state == SHAKEN else 0.5
    pull = (0.1 if side == battle.attacker else 0.03) if spaces and unit.state == STEADY else 0.0
    nearest: dict[Space, int] = battle.remembered().setdefault(("nearest", foe), {})
    reserve = board.reserve_row(side)
    ra = kind.ra
    neighbours = board.neighbour_table()

    def value(space: Space) -> float:
        enemies = where.get((space, foe))
        result = 0.0
        if enemies:
            me = kind.me + (MAX_BONUS if space != unit.space else 0)
            attack = max([hit_chance(me, e.kind.de) * target_weight(e) for e in enemies])
            threat = max(
                [hit_chance(e.kind.me, kind.de) for e in enemies if e.state != ROUTED],
                default=0.0,
            )
            result += keen * attack - fear * threat + 0.2 * keen
        elif ra is not None:  # the best shot from here: enemies in the adjacent spaces
            result += max(
                [
                    hit_chance(ra, e.kind.de) * target_weight(e)
                    for near in neighbours[space]
                    for e in where.get((near, foe), ())
                ],
                default=0.0,
            )
        if pull:
            gap = nearest.get(space)
            if gap is None:
                row, col = space
                gap = nearest[space] = min(abs(row - r) + abs(col - c) for r, c in spaces)
            result -= pull * gap
        if space[0] == reserve:
            result -= RESERVE_PENALTY
        return result

    return value


def best_destination(battle: Battle, unit: Unit) -> tuple[Space, float]:
    """The best space `unit` can reach and how much it gains over staying (worked out once
    until a unit changes: the bot weighs every unit, then the menu asks again for the one
    that moves)."""
    spaces = reachable(battle, unit)
    memo = battle.remembered()
    key = ("best", unit.uid)
    found = memo.get(key)
    if found is None or found[0] is not spaces:
        found = memo[key] = (spaces, _best_destination(battle, unit, spaces))
    return found[1]


def _best_destination(battle: Battle, unit: Unit, spaces: dict[Space, int]) -> tuple[Space, float]:
    assert unit.space is not None
    value = valuer(battle, unit)
    here = value(unit.space)
    best, gain = unit.space, 0.0
    # Of equally good spaces the first is kept: taken front first from the unit's own side
    # (rows count from A's Reserve), so a tie steers both sides alike, not A back and B on.
    reserve = battle.board.reserve_row(unit.side)
    for space in sorted(spaces, key=lambda s: (-abs(s[0] - reserve), s[1])):
        if space == unit.space:
            continue
        better = value(space) - here
        if better > gain + 1e-9:
            best, gain = space, better
    return best, gain


def best_move(
    battle: Battle,
    side: str,
    acted: set[str],
    refusals: dict[str, str | None] | None = None,
) -> tuple[str, Space] | None:
    """The unit whose move gains most, and where; None: pass. `refusals`: what
    `move_refusal` says of each unit, when the step has worked it out already."""
    found: tuple[str, Space] | None = None
    top = GAIN_NEEDED
    for unit in battle.fighting(side):
        if refusals is not None:
            if refusals.get(unit.uid, NOT_LISTED) is not None:
                continue
        elif move_refusal(battle, unit, acted) is not None:
            continue
        space, gain = best_destination(battle, unit)
        if gain > top:
            found, top = (unit.uid, space), gain
    return found


# -- combat -------------------------------------------------------------------------------
def best_shot_at(battle: Battle, shooter: Unit) -> tuple[Unit, float] | None:
    assert shooter.kind.ra is not None
    scored = [
        (t, hit_chance(shooter.kind.ra, t.kind.de) * target_weight(t))
        for t in shot_targets(battle, shooter)
    ]
    return max(scored, key=lambda p: p[1], default=None)


def _best_pair(
    battle: Battle,
    side: str,
    acted: set[str],
    refusal: Callable[[Battle, Unit, set[str]], str | None],
    best_at: Callable[[Battle, Unit], tuple[Unit, float] | None],
    refusals: dict[str, str | None] | None,
) -> tuple[str, str] | None:
    """The attacker and target with the best odds; None (pass) when nothing can hit.
    `refusals`: what `refusal` says of each unit, when the step has worked it out already
    (a unit missing from it may not act)."""
    found, top = None, 0.0
    for unit in battle.fighting(side):
        if refusals is not None:
            if refusals.get(unit.uid, NOT_LISTED) is not None:
                continue
        elif refusal(battle, unit, acted) is not None:
            continue
        pick = best_at(battle, unit)
        if pick and pick[1] > top:
            found, top = (unit.uid, pick[0].uid), pick[1]
    return found


def best_shot(
    battle: Battle,
    side: str,
    acted: set[str],
    refusals: dict[str, str | None] | None = None,
) -> tuple[str, str] | None:
    return _best_pair(battle, side, acted, shooter_refusal, best_shot_at, refusals)


def best_blow_at(battle: Battle, attacker: Unit) -> tuple[Unit, float] | None:
    assert attacker.space is not None  # it is asked of a unit in a fight
    scored = [
        (
            t,
            hit_chance(attacker.kind.me + melee_bonus(battle, attacker, t)[0], t.kind.de)
            * target_weight(t),
        )
        for t in battle.enemies_at(attacker.side, attacker.space)
    ]
    return max(scored, key=lambda p: p[1], default=None)


def best_melee(
    battle: Battle,
    side: str,
    acted: set[str],
    refusals: dict[str, str | None] | None = None,
) -> tuple[str, str] | None:
    return _best_pair(battle, side, acted, fighter_refusal, best_blow_at, refusals)


def wants_retreat(battle: Battle, target: Unit, attacker: Unit, back: Space | None = None) -> bool:
    """d13: pull back a unit that is shaken or about to fall, never the last one out of the
    Reserve (d16), nor a steady one into the Reserve. `back`: the `retreat_space` when the
    step has found it already."""
    if back is None:
        back, _ = retreat_space(battle, target)
    if back is None:
        return False
    if battle.board.in_reserve(target.side, back):
        others = [u for u in battle.fighting(target.side) if u is not target]
        if target.state == STEADY or all(battle.in_reserve(u) for u in others):
            return False
    if target.state != STEADY:
        return True
    bonus, _ = melee_bonus(battle, attacker, target)
    return target.left <= 1 and hit_chance(attacker.kind.me + bonus, target.kind.de) >= 0.25
