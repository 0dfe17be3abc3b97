"""The bot's judgement: every Choice's default comes from here, so "press Enter" and `--bot`
play the same sensible game. Pure and deterministic (no dice, no randomness).

Units are rough "expected kills": a shot now is worth its chance to kill; a spot is worth the
shots it offers next minus the danger it stands in.
"""

from __future__ import annotations

import math
from functools import lru_cache

from wargame_cli.rulesets.squad_alpha.movement import MOVE_INCHES, bends, legal_ring
from wargame_cli.rulesets.squad_alpha.odds import pass_chance, save_chance
from wargame_cli.rulesets.squad_alpha.state import HOME_EDGE, GameState, Mini

from wargame_cli.tabletop.destinations import Mover, contact_spot, cover_spots, toward
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import CONTACT_TOLERANCE, nearest_contact_spot
from wargame_cli.tabletop.paths import path_distance, route_toward
from wargame_cli.tabletop.placement import cell_centres, edge_distance
from wargame_cli.tabletop.sight import cover, line_of_sight, line_of_sight_once
from wargame_cli.tabletop.table import Table, TerrainKind, table_cache

TYPICAL_STEP = 4  # what an enemy's die is worth on average when guessing its next action
APPROACH = 0.025  # per inch of walking closer to the nearest enemy: keeps games moving
COVER_BONUS = {TerrainKind.HARD: 0.6, TerrainKind.SOFT: 0.3}


def worth(state: GameState, mini: Mini) -> float:
    """How much a miniature matters: its dice, and the leader's rating."""
    leader = state.squads[mini.side].leader_id == mini.id
    return 1.0 + 0.2 * (mini.dice - 1) + (0.2 if leader else 0.0)


def _chance(state: GameState, mini: Mini, step: int | None = None) -> float:
    """Its chance to pass a test at `step` (or a typical step) with its side's morale."""
    return pass_chance(mini.dice, step or TYPICAL_STEP, state.modifier(mini.side))


def _free(state: GameState, mini: Mini) -> bool:
    """Not tied up in melee (so able to shoot)."""
    return not state.contacts(mini)


# -- shooting --------------------------------------------------------------------------------


def shot_value(state: GameState, shooter: Mini, target: Mini, step: int) -> float:
    """Chance to kill `target` now, less the risk that a miss lands on a friend in melee
    with it (b20)."""
    assert shooter.pos is not None and target.pos is not None
    p = pass_chance(shooter.dice, step, state.modifier(shooter.side))
    kill = p * (1 - save_chance(cover(state.table, shooter.pos, target.pos)))
    score = kill * worth(state, target)
    if (
        target.pos is not None
        and _free(state, target)
        and line_of_sight(state.table, target.pos, shooter.pos)
    ):  # a dead enemy shoots no more: the danger it puts the shooter in goes too
        back = _chance(state, target) * (
            1 - save_chance(cover(state.table, target.pos, shooter.pos))
        )
        score += kill * back * 0.5
    mates = state.contacts(target)
    if mates:
        risk = max(
            (1 - save_chance(cover(state.table, shooter.at, m.at))) * worth(state, m) for m in mates
        )
        score -= (1 - p) * risk
    return score


def best_shot(state: GameState, shooter: Mini, step: int) -> tuple[Mini | None, float]:
    best, value = None, -math.inf
    for enemy in state.enemies(shooter.side):
        if line_of_sight(state.table, shooter.at, enemy.at):
            score = shot_value(state, shooter, enemy, step)
            if score > value:
                best, value = enemy, score
    return best, (value if best is not None else 0.0)


# -- positions -------------------------------------------------------------------------------


def danger(state: GameState, side: str, p: Point, ignore: str = "") -> float:
    """Expected losses standing at `p`: every free enemy that sees it, its chance to hit and
    the cover p has from it. An enemy still to act this turn counts with the die it holds;
    the others count for next turn, at a typical step and discounted (they may move)."""
    total = 0.0
    for enemy in state.enemies(side):
        if enemy.id == ignore or not _free(state, enemy):
            continue
        assert enemy.pos is not None
        if line_of_sight(state.table, enemy.pos, p):
            unsaved = 1 - save_chance(cover(state.table, enemy.pos, p))
            if enemy.die is not None and not enemy.acted and enemy.die >= state.step:
                total += _chance(state, enemy, enemy.die) * unsaved
            else:
                total += 0.7 * _chance(state, enemy) * unsaved
    return total


def survival(state: GameState, side: str, p: Point) -> float:
    """The chance to live through the rest of this turn at `p`: every free enemy that sees it
    and still holds a die to come may shoot (its chance to hit, less the cover p has)."""
    alive = 1.0
    for enemy in state.enemies(side):
        if enemy.die is None or enemy.acted or enemy.die < state.step or not _free(state, enemy):
            continue
        assert enemy.pos is not None
        if line_of_sight(state.table, enemy.pos, p):
            unsaved = 1 - save_chance(cover(state.table, enemy.pos, p))
            alive *= 1 - _chance(state, enemy, enemy.die) * unsaved
    return alive


def prospects(state: GameState, mini: Mini, p: Point) -> float:
    """The best attack `p` would offer next time the miniature acts: a shot at an enemy in
    sight (less its save), or a charge at one within a move of base contact (a second test,
    but no save)."""
    best = 0.0
    chance = _chance(state, mini)
    reach = MOVE_INCHES + 2 * state.base_radius
    for enemy in state.enemies(mini.side):
        assert enemy.pos is not None
        if line_of_sight(state.table, p, enemy.pos):
            kill = 1 - save_chance(cover(state.table, p, enemy.pos))
            best = max(best, kill * worth(state, enemy))
        if p.distance(enemy.pos) <= reach and (
            path_distance(state.table, p, enemy.pos, state.base_radius) <= reach
        ):
            best = max(best, chance * worth(state, enemy))
    return best * chance


def nearest_walk(state: GameState, mini: Mini, p: Point) -> float:
    """The shortest walk from `p` to an enemy (0 when every enemy is walled off).

    A walk is never shorter than the straight line between the rounded points the walking
    distances are worked out on, so enemies are tried nearest first and the walk to one
    whose straight line is already longer than the best walk found (with a margin for that
    rounding) is never worked out: the answer is the same, at a fraction of the searches."""
    best = math.inf
    table, radius = state.table, state.base_radius
    px, py = p.x, p.y
    lines = sorted(
        (math.hypot(px - e.at.x, py - e.at.y), i, e) for i, e in enumerate(state.enemies(mini.side))
    )
    for line, _, enemy in lines:
        if line - 0.1 > best:
            break
        walk = path_distance(table, p, enemy.at, radius)
        if walk < best:
            best = walk
    return best if best < math.inf else 0.0


def contact_value(state: GameState, mini: Mini, p: Point, step: int) -> float:
    """Ending a move in base contact: the free melee attack (b17) now, against the enemy
    striking back later in the turn if it still holds a die to come."""
    reach = 2 * state.base_radius + CONTACT_TOLERANCE
    touching = [e for e in state.enemies(mini.side) if e.at.distance(p) <= reach]
    if not touching:
        return 0.0
    p_kill = pass_chance(mini.dice, step, state.modifier(mini.side))
    target = max(touching, key=lambda e: worth(state, e))
    gain = p_kill * worth(state, target)
    for enemy in touching:
        strikes_back = enemy.die is not None and not enemy.acted and enemy.die >= step
        back = _chance(state, enemy, enemy.die if strikes_back else None)
        gain -= (1 - (p_kill if enemy is target else 0)) * back * worth(state, mini) * 0.5
    return gain


def spot_value(state: GameState, mini: Mini, p: Point, step: int) -> float:
    """What standing at `p` is worth to `mini` after moving there at `step`: the attacks it
    offers next time, if it lives that long, less the danger it stands in. Remembered until
    a miniature changes: the bot weighs the same ring of spots to choose an action and then
    to choose where to move."""
    memo = state._remembered()
    key = ("spot", mini.id, p.x, p.y, step, state.step)
    value = memo.get(key)
    if value is None:
        value = memo[key] = _spot_value(state, mini, p, step)
    return value


def _spot_value(state: GameState, mini: Mini, p: Point, step: int) -> float:
    """`prospects`, `survival` and `danger` in one pass over the enemies, each figure summed
    in the same order as those functions do (so to the same last bit), with what does not
    depend on the spot worked out once per decision (`_foes`)."""
    table, radius = state.table, state.base_radius
    chance = _chance(state, mini)
    reach = MOVE_INCHES + 2 * radius
    best, alive, total = 0.0, 1.0, 0.0
    px, py = p.x, p.y
    for _enemy, epos, value, free, holds, now, later in _foes(state, mini.side):
        kill, unsaved = _exchange(table, p, epos)
        if kill is not None:
            best = max(best, kill * value)
        if (
            chance * value > best  # else the charge cannot raise the best: skip the walk
            and math.hypot(px - epos.x, py - epos.y) <= reach
            and path_distance(table, p, epos, radius) <= reach
        ):
            best = max(best, chance * value)
        if free and unsaved is not None:
            if holds:
                alive *= 1 - now * unsaved
                total += now * unsaved
            else:
                total += 0.7 * later * unsaved
    value = (best * chance) * alive * 0.6 - total * 0.5
    value += contact_value(state, mini, p, step)
    value -= APPROACH * nearest_walk(state, mini, p)
    return value


EXCHANGE_CACHE = 100_000  # spot-enemy pairs remembered per table (cleared when full)


def _exchange(table: Table, p: Point, e: Point) -> tuple[float | None, float | None]:
    """Fire both ways between `p` and an enemy at `e`: the share of shots from `p` the enemy
    does not save (None without a line of sight from `p`), and the same from `e` at `p`.
    The sight lines and covers of `line_of_sight` and `cover`, remembered per table as one
    entry: a decision weighs every spot against every enemy."""
    memo = table.memos.get("squad-alpha-exchange")
    if memo is None:
        memo = table_cache(table, "squad-alpha-exchange", EXCHANGE_CACHE)
    key = (p.x, p.y, e.x, e.y)
    found = memo.get(key)
    if found is None:
        if len(memo) >= EXCHANGE_CACHE:
            memo.clear()
        out = 1 - save_chance(cover(table, p, e)) if line_of_sight_once(table, p, e) else None
        back = 1 - save_chance(cover(table, e, p)) if line_of_sight_once(table, e, p) else None
        found = memo[key] = (out, back)
    return found


def _foes(state: GameState, side: str) -> list[tuple[Mini, Point, float, bool, bool, float, float]]:
    """Per enemy, for every spot weighed in one decision: its position, worth, whether it is
    free to shoot, whether it still holds a die to come this turn, and its chance to hit
    with that die and at a typical step."""
    memo = state._remembered()
    key = ("foes", side, state.step)
    found = memo.get(key)
    if found is None:
        found = memo[key] = [
            (
                e,
                e.pos,
                worth(state, e),
                _free(state, e),
                e.die is not None and not e.acted and e.die >= state.step,
                _chance(state, e, e.die),
                _chance(state, e),
            )
            for e in state.enemies(side)
        ]
    return found


# -- decisions -------------------------------------------------------------------------------


def action(state: GameState, mini: Mini, step: int) -> str:
    """Shoot (`shoot:<id>`) when the shot beats what the best move would gain, else `move`."""
    target, shot = best_shot(state, mini, step)
    if target is None or shot <= 0:
        return "move"  # nothing worth shooting: no need to weigh every move
    p = pass_chance(mini.dice, step, state.modifier(mini.side))
    assert mini.pos is not None
    here = spot_value(state, mini, mini.pos, step)
    # Shoot when the shot is worth at least p * (best move - here). That product only grows
    # with the move's value, so the first spot whose own product beats the shot settles it
    # (move) without weighing the rest (a failed move test then never needs them).
    for q in move_samples(state, mini):
        if p * (spot_value(state, mini, q, step) - here) > shot:
            return "move"
    return f"shoot:{target.id}"  # (with no spot at all, the best move is staying: gain 0)


def move_samples(state: GameState, mini: Mini) -> list[Point]:
    """Spots the bot weighs: a ring of legal spots, contact with each enemy in reach, and the
    walk toward the nearest enemy."""
    me, others = state.body(mini), state.bodies()
    spots = legal_ring(state, mini)
    enemies = [state.body(e) for e in state.enemies(mini.side)]
    for enemy in enemies:
        spot = nearest_contact_spot(state.table, me, enemy, MOVE_INCHES, others)
        spots += [spot] if spot is not None else []
    if enemies:
        near = min(enemies, key=lambda e: me.pos.distance(e.pos))
        reach = me.radius + near.radius
        spots.append(route_toward(state.table, me, near.pos, MOVE_INCHES, others, reach))
    return spots


def move_spots(state: GameState, mini: Mini) -> list[Point]:
    """Spots the bot weighs for a move: base contact with each enemy it can reach (nearest
    first) or, when it can reach none, the way toward the nearest enemy; into the two
    nearest pieces of cover; staying put; and the ring of legal spots. The menu a person
    sees (`movement.destinations`) is built only when someone reads it: the bot's own list
    leaves out the ways toward farther enemies, the compass moves and "away", which seldom
    won and cost most of a move's time; against the bot that weighed the whole menu it won
    1,013 of 2,000 games (sides swapped; bench/README.md)."""
    me = state.body(mini)
    m = Mover(state.table, me, MOVE_INCHES, tuple(state.bodies()), bends(state))
    enemies = sorted(
        (state.body(e) for e in state.enemies(mini.side)), key=lambda e: me.pos.distance(e.pos)
    )
    spots = []
    for enemy in enemies:
        spot = contact_spot(m, enemy)
        if spot is not None and spot != me.pos and m.fits(spot):
            spots.append(spot)
    if enemies and not spots:
        spot = toward(m, enemies[0])
        if spot is not None and m.fits(spot):
            spots.append(spot)
    spots += [spot for _, _, spot in cover_spots(m) if m.fits(spot)]
    spots.append(me.pos)
    return spots + legal_ring(state, mini)


def destination(state: GameState, mini: Mini, points: list[Point], step: int) -> Point:
    """The best of `points` (the first among equals)."""
    return max(points, key=lambda q: round(spot_value(state, mini, q, step), 6))


def melee_target(state: GameState, mini: Mini, contacts: list[Mini]) -> Mini:
    """The enemy most worth killing, preferring one about to strike back this turn."""

    def key(e: Mini) -> tuple[bool, float]:
        return (e.die is not None and not e.acted and e.die >= state.step, worth(state, e))

    return max(contacts, key=key)


def miss_victim(state: GameState, shooter: Mini, victims: list[Mini]) -> Mini:
    """b20, shooter picks: the enemy in the melee if any, else the friend best covered and
    least missed."""
    assert shooter.pos is not None

    def key(m: Mini) -> tuple[bool, float, float]:
        return (
            m.side != shooter.side,
            save_chance(cover(state.table, shooter.at, m.at)),
            -worth(state, m),
        )

    return max(victims, key=key)


def order(state: GameState, ready: list[Mini], step: int) -> Mini:
    """Who acts first within a step: melee first, then the best shot."""

    def key(m: Mini) -> tuple[bool, float]:
        return (bool(state.contacts(m)), best_shot(state, m, step)[1])

    return max(ready, key=key)


def attribution(state: GameState, minis: list[Mini], faces: list[int]) -> dict[str, int]:
    """Which die each miniature gets: the most expected good actions, acting early where it
    matters. Low dice go to the elites and the miniatures with the best shots (their extra
    dice make a low number still likely to pass); pairwise swaps settle the rest."""
    mod = state.modifier(minis[0].side) if minis else 0
    weight = {m.id: _opportunity(state, m) for m in minis}
    urgency = {m.id: _urgency(state, m) for m in minis}

    def utility(m: Mini, face: int) -> float:
        early = 1 + 0.05 * (6 - face) * urgency[m.id]
        return weight[m.id] * pass_chance(m.dice, face, mod) * early

    ranked = sorted(minis, key=lambda m: (-m.dice, -weight[m.id], m.id))
    plan = dict(zip([m.id for m in ranked], sorted(faces), strict=True))
    by_id = {m.id: m for m in minis}
    improved = True
    while improved:
        improved = False
        ids = [m.id for m in ranked]
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                fa, fb = plan[a], plan[b]
                if fa == fb:
                    continue
                now = utility(by_id[a], fa) + utility(by_id[b], fb)
                swapped = utility(by_id[a], fb) + utility(by_id[b], fa)
                if swapped > now + 1e-9:
                    plan[a], plan[b] = fb, fa
                    improved = True
    return plan


def _opportunity(state: GameState, mini: Mini) -> float:
    if state.contacts(mini):
        return 1.3
    target, value = best_shot(state, mini, TYPICAL_STEP)
    return 1.0 + 0.2 * min(1.0, value) if target is not None else 0.8


def _urgency(state: GameState, mini: Mini) -> float:
    if state.contacts(mini):
        return 3.0
    assert mini.pos is not None
    return 1.0 if danger(state, mini.side, mini.pos) > 0 else 0.3


# -- deployment ------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _far_samples(table: Table, edge: str) -> tuple[Point, ...]:
    """Points in the far half of the table, 3" apart: where enemies will come from."""
    far = {"south": "north", "north": "south"}[edge]
    return tuple(
        p for p in cell_centres(table, 3.0) if edge_distance(table, p, far) <= table.height / 2
    )


@lru_cache(maxsize=4096)
def concealment(table: Table, edge: str, p: Point) -> float:
    """The share of the far half that cannot see `p`."""
    samples = _far_samples(table, edge)
    if not samples:
        return 0.0
    return sum(not line_of_sight_once(table, s, p) for s in samples) / len(samples)


def _ground_value(table: Table, edge: str, p: Point) -> float:
    """What a deployment spot is worth before friends are counted (once per table and spot)."""
    memo = table_cache(table, "squad-alpha-ground", 8192)
    key = (edge, p.x, p.y)
    value = memo.get(key)
    if value is None:
        value = 2.0 * concealment(table, edge, p)
        inside = [pc for pc in table.pieces_at(p) if pc.kind is not TerrainKind.BLOCKING]
        if inside:
            value += max(COVER_BONUS[pc.kind] for pc in inside)
        value -= 0.08 * max(0.0, edge_distance(table, p, edge) - 6)
        memo[key] = value
    return value


def deploy_value(state: GameState, side: str, p: Point) -> float:
    value = _ground_value(state.table, HOME_EDGE[side], p)
    for friend in state.squads[side].minis:
        if friend.pos is not None and friend.pos.distance(p) < 2.5:
            value -= 0.3
    return value


def deploy_rank(state: GameState, side: str, spots: list[Point]) -> list[Point]:
    """`deploy_value` of every spot, best first: the ground's worth comes from the table's
    memo and the friends placed so far are looked up once."""
    table, edge = state.table, HOME_EDGE[side]
    friends = [(f.pos.x, f.pos.y) for f in state.squads[side].minis if f.pos is not None]

    def value(p: Point) -> float:
        found = _ground_value(table, edge, p)
        for fx, fy in friends:
            if math.hypot(fx - p.x, fy - p.y) < 2.5:
                found -= 0.3
        return found

    return sorted(spots, key=lambda p: (-round(value(p), 6), p.y, p.x))


def deploy_best(
    state: GameState,
    side: str,
    spots: list[Point],
    count: int,
    cells: list[Point],
    picked: set[int] | None = None,
) -> list[Point]:
    """`deploy_rank(state, side, spots)[:count]`, where every spot is one of `cells` (the
    table's fitting cells, a list kept for the table; `picked`, when given, holds the spots'
    numbers in it). The cells are ranked by their ground value once per table; a friend
    nearby only lowers a spot's value, so the walk down that ranking stops as soon as the
    next cell's ground value cannot reach the `count` best found: the same spots, without
    weighing all of them at every deployment."""
    table, edge = state.table, HOME_EDGE[side]
    memo = table_cache(table, "squad-alpha-ground-order", 16)
    key = (edge, id(cells))
    ranked = memo.get(key)
    if ranked is None or ranked[0] is not cells:
        order = sorted(
            ((-round(_ground_value(table, edge, p), 6), p.y, p.x), k, p)
            for k, p in enumerate(cells)
        )
        ranked = memo[key] = (cells, order, {p: k for k, p in enumerate(cells)})
    if picked is None:
        numbers = ranked[2]
        picked = {numbers.get(p, -1) for p in spots}
        if -1 in picked or len(picked) != len(spots):
            return deploy_rank(state, side, spots)[:count]  # not the usual cells: the long way
    friends = [(f.pos.x, f.pos.y) for f in state.squads[side].minis if f.pos is not None]
    best: list[tuple[tuple[float, float, float], Point]] = []
    for bound, k, p in ranked[1]:
        if len(best) >= count and bound > best[-1][0]:
            break  # this cell's value at best, and every later one's, ranks below them all
        if k not in picked:
            continue
        found = _ground_value(table, edge, p)
        for fx, fy in friends:
            if math.hypot(fx - p.x, fy - p.y) < 2.5:
                found -= 0.3
        best.append(((-round(found, 6), p.y, p.x), p))
        best.sort(key=lambda b: b[0])
        del best[count:]
    return [p for _, p in best]


def deploy_who(state: GameState, waiting: list[Mini]) -> Mini:
    """The best-trained first, so it takes the best spot; the leader among equals."""
    side = waiting[0].side
    leader = state.squads[side].leader_id
    return max(waiting, key=lambda m: (m.dice, m.id == leader, -int(m.id[1:])))


# -- the search bot's judgement --------------------------------------------------------------

EXPOSURE = 0.8  # the share of a miniature's worth its expected losses where it stands take


def position_worth(state: GameState, side: str) -> float:
    """What the search bot judges a lookahead by: each living miniature's worth, less the
    share the enemies that see it are expected to take next turn (`danger`, capped at one
    loss); `side`'s less the other's. A miniature is alive or dead, so material alone rarely
    tells a turn's moves apart: where they leave the squads standing does."""
    total = 0.0
    for squad in state.squads.values():
        for mini in squad.living:
            if mini.pos is None:
                continue
            exposed = min(1.0, danger(state, mini.side, mini.pos))
            value = worth(state, mini) * (1 - EXPOSURE * exposed)
            total += value if mini.side == side else -value
    return total
