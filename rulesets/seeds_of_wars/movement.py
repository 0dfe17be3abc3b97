"""Where units can go: moves of 1 space per Mv that stop on entering an enemy's space (d8, d9),
routed units' flight (gap 8), the step back of a retreat (d13) and the way home (d17)."""

from __future__ import annotations

from wargame_cli.rulesets.seeds_of_wars.board import Space
from wargame_cli.rulesets.seeds_of_wars.state import SHAKEN, Battle, Unit

from wargame_cli.kit.sides import other


def can_charge(battle: Battle, unit: Unit) -> bool:
    """Gap 8: Shaken units cannot charge (enter an enemy's space) unless the option allows."""
    return unit.state != SHAKEN or battle.options["shaken_can_charge"]


def reach(battle: Battle, unit: Unit) -> dict[Space, int]:
    """Every space `unit` can end its move in, with the spaces it takes to get there.

    Breadth first, one space per point of Mv (d8); entering a space held by an enemy ends the
    move there (d9). Spaces full of friends can be passed through, not stopped in.
    """
    return dict(reachable(battle, unit))


def reachable(battle: Battle, unit: Unit) -> dict[Space, int]:
    """`reach`, worked out once until a unit changes (the refusals, the bot and the menu all
    ask); the dict is shared: read it, never change it."""
    assert unit.space is not None
    memo = battle.remembered()
    options = battle.options
    charge, limit = options["shaken_can_charge"], options["stack_limit"]
    key = ("reach", unit.uid, unit.space, unit.state, charge, limit)  # one tuple: asked often
    found: dict[Space, int] | None = memo.get(key)
    if found is None:
        found = memo[key] = _reach(battle, unit)
    return found


def _reach(battle: Battle, unit: Unit) -> dict[Space, int]:
    assert unit.space is not None
    start = unit.space
    dist = {start: 0}
    frontier = [start]
    charge = can_charge(battle, unit)
    where = battle.places()
    side, foe = unit.side, other(unit.side)
    neighbours = battle.board.neighbour_table()
    for step in range(1, unit.kind.mv + 1):
        nxt: list[Space] = []
        for space in frontier:
            if space != start and (space, foe) in where:
                continue  # d9: it stopped here
            for near in neighbours[space]:
                if near in dist:
                    continue
                if not charge and (near, foe) in where:
                    continue
                dist[near] = step
                nxt.append(near)
        frontier = nxt
    limit = battle.options["stack_limit"]  # `room`: no more than `limit` friends end there
    return {s: d for s, d in dist.items() if s == start or len(where.get((s, side), ())) < limit}


def move_refusal(
    battle: Battle, unit: Unit, space: Space, reachable: dict[Space, int]
) -> str | None:
    """Why `unit` cannot end its move in `space`, or None."""
    if space in reachable:
        return None
    full = battle.room(unit.side, space)
    if full:
        return full
    if battle.enemies_at(unit.side, space) and not can_charge(battle, unit):
        return "Shaken units cannot charge into an enemy's space"
    return f"out of reach (Mv {unit.kind.mv}; entering an enemy's space stops a move)"


def rout_path(battle: Battle, unit: Unit) -> list[Space]:
    """Gap 8: a Routed unit flees up to Mv spaces straight towards its Reserve, stopping before
    a space full of friends, or on entering an enemy's space (d9)."""
    assert unit.space is not None
    path: list[Space] = []
    here = unit.space
    for _ in range(unit.kind.mv):
        back = battle.board.behind(unit.side, here)
        if back is None or battle.room(unit.side, back) is not None:
            break
        path.append(back)
        here = back
        if battle.enemies_at(unit.side, back):
            break
    return path


def retreat_space(battle: Battle, unit: Unit) -> tuple[Space | None, str | None]:
    """d13, gap 7: the space one step towards its Reserve, or why there is no room behind."""
    assert unit.space is not None
    back = battle.board.behind(unit.side, unit.space)
    if back is None:
        return None, "no room behind: it stands at its rear edge"
    if battle.enemies_at(unit.side, back):
        return None, f"no room behind: an enemy holds {battle.board.key(back)}"
    full = battle.room(unit.side, back)
    if full:
        return None, f"no room behind: {full}"
    return back, None


def way_home(battle: Battle, unit: Unit) -> bool:
    """d17, gap 9: a path of enemy-free spaces from the unit to its own Reserve row."""
    assert unit.space is not None
    if battle.enemies_at(unit.side, unit.space):
        return False
    seen = {unit.space}
    frontier = [unit.space]
    while frontier:
        space = frontier.pop()
        if battle.board.in_reserve(unit.side, space):
            return True
        for near in battle.board.neighbours(space):
            if near not in seen and not battle.enemies_at(unit.side, near):
                seen.add(near)
                frontier.append(near)
    return False
