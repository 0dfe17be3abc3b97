"""A creature's or a mob's turn (e8, e10, e18): move and act in either order, each once, so
never move-act-move. Acting is attacking (e11-e23) or another action the GM rules on (e9)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from wargame_cli.rulesets.mobs_and_morale import bot, moves, odds, tracker
from wargame_cli.rulesets.mobs_and_morale.actions import other_action, worth_rallying
from wargame_cli.rulesets.mobs_and_morale.cohesion import split
from wargame_cli.rulesets.mobs_and_morale.combat import attack, one_blow, reachable, struck
from wargame_cli.rulesets.mobs_and_morale.state import (
    ESCAPED,
    STRAGGLER,
    Battle,
    Creature,
    Mob,
)

from wargame_cli.engine.requests import REASK, SPOT_HINT, Choice, Event, Option, Request
from wargame_cli.kit.sides import other
from wargame_cli.tabletop.geometry import Point
from wargame_cli.wording import plural

Steps = Generator[Request, Any, Any]
TURN_RULES = ("e8", "e10")


def take_turn(
    b: Battle, unit: str, waiting: list[str] | tuple[str, ...] = (), in_place: bool = True
) -> Steps:
    """The turn of a character or (`mob:NAME`) a mob, if it still has anyone standing.
    `waiting`: the controller's mobs still to act in its slot, which it may let act first
    (e5); returns those that did. `in_place`: its turn comes in the round's order (not a mob
    let act first), so the GM's tracker may move it."""
    if unit.startswith("mob:"):
        mob = b.mobs[unit[4:]]
        if b.figures(mob):
            yield from _turn(b, unit, mob, None, in_place)
            _over(b, unit)
        return set()
    if b.creatures[unit].standing:
        went_first = yield from _turn(b, unit, None, list(waiting), in_place)
        _over(b, unit)
        return went_first
    return set()


def _over(b: Battle, unit: str) -> None:
    """Its turn has ended this round (not when the GM's tracker put it later, e10)."""
    if not b.delayed:
        b.did.setdefault(unit, set()).add("over")


def _turn(
    b: Battle,
    unit: str,
    mob: Mob | None,
    waiting: list[str] | None = None,
    in_place: bool = True,
) -> Steps:
    name = b.unit_name(unit)
    side = b.unit_figures(unit)[0].side
    moved = acted = False
    went_first: set[str] = set()
    # once it has moved and acted, ending the turn is all that is left: not asked (e8;
    # behaviour 0 asked it)
    forced = b.rules_version == 0
    while b.unit_figures(unit) and b.standing(other(side)) and (forced or not (moved and acted)):
        figures = b.unit_figures(unit)
        options, default = _turn_options(b, unit, figures, moved, acted)
        ahead: list[str] = []
        if not (moved or acted):
            ahead = [u for u in waiting or () if u not in went_first and b.unit_figures(u)]
            options[-1:-1] = [
                Option(
                    f"first:{u}",
                    f"Let {b.unit_name(u)} act first (it shares {name}'s initiative, e5)",
                )
                for u in ahead
            ]
            if in_place and not went_first and tracker.offered(b):
                options[-1:-1] = [tracker.OPTION]
        key = yield Choice(
            side=side,
            prompt=f"{name}: {'move or act' if not (moved or acted) else 'and then?'}",
            options=tuple(options),
            default=default,
            rules=TURN_RULES + (("e18",) if mob else ()) + (("e5",) if ahead else ()),
            kind="turn",
            reasks=True,
        )
        if key == REASK:  # the GM edited the table: the question is built again
            continue
        if key == "end":
            return went_first
        if key == tracker.KEY:
            if (yield from tracker.use(b, unit)):
                b.delayed = True
                return went_first
            continue
        if key.startswith("first:"):
            first = key.removeprefix("first:")
            went_first.add(first)
            yield Event(
                f"{name} lets {b.unit_name(first)} act first (they share an initiative, e5)",
                rules=("e5",),
                kind="slot",
                data={"controller": unit, "first": first},
            )
            yield from take_turn(b, first, in_place=False)
            continue
        if key == "move":
            moved = True
            if mob is not None:
                yield from _move_mob(b, mob)
            else:
                yield from _move_character(b, figures[0])
        elif key == "other":
            acted = True
            yield from other_action(b, figures, name)
        elif key.startswith("attack:"):
            acted = True
            target = key.removeprefix("attack:")
            attackers = reachable(b, figures, target)
            yield from attack(b, attackers, target, name)
        if key in ("move", "other") or key.startswith("attack:"):  # done: for its card
            b.did.setdefault(unit, set()).add("moved" if key == "move" else "acted")
    return went_first


def _targets(b: Battle, unit: str, figures: list[Creature]) -> dict[str, int]:
    """Attackable units and how many figures reach each. A character picks one creature (a
    single figure of a mob, e12); a mob picks one character or one whole mob (e20)."""
    side = figures[0].side
    if unit.startswith("mob:"):
        found = {u: len(reachable(b, figures, u)) for u in b.enemy_units(side)}
    else:
        found = {e.id: 1 for e in _in_reach(b, figures[0])}
    found = {u: n for u, n in found.items() if n}
    if unit.startswith("mob:") or b.rules_version < 3:
        return found
    # version 3: a mob's owner picks which figure takes a character's blow (e22), so the
    # character names the mob once, not each figure in reach
    return {target_unit(b, u): 1 for u in found}


def _in_reach(b: Battle, c: Creature) -> list[Creature]:
    """The enemy creatures a character's attack reaches (remembered until a creature
    changes: the menu and the bot's pick ask the same)."""
    return list(
        b.remember(
            ("in reach", c.id),
            lambda: [e for e in b.standing(other(c.side)) if reachable(b, [c], e.id)],
        )
    )


def target_unit(b: Battle, creature_id: str) -> str:
    """The key a character's attack on `creature_id` is answered with: its mob from version
    3 on (the owner picks the figure, e22), else the creature itself."""
    c = b.creatures[creature_id]
    return b.unit_of(c) if b.rules_version >= 3 else c.id


def _turn_options(
    b: Battle, unit: str, figures: list[Creature], moved: bool, acted: bool
) -> tuple[list[Option], Callable[[], str]]:
    is_mob = unit.startswith("mob:")
    done = "it has already acted this turn (e8)"
    speed = min(f.move for f in figures)
    label = f'Move (up to {speed:g}")' + (" the mob" if is_mob else "")
    if is_mob and not moved:
        label += moves.straggler_warning(b, b.mobs[unit[4:]])
    options = [
        Option("move", label, disabled="it has already moved this turn (e8)" if moved else None)
    ]
    targets = _targets(b, unit, figures)
    for target, n in targets.items():
        who = f"{plural(n, 'figure')}, " if is_mob else ""
        verb = f"{figures[0].ranged}: attack" if figures[0].ranged and not is_mob else "Attack"
        options.append(
            Option(
                f"attack:{target}",
                f"{verb} {b.unit_name(target)} ({who}{attack_facts(b, figures, target)})",
                disabled=done if acted else None,
            )
        )
    if not targets:
        reach = max(f.reach(b.options["reach"]) for f in figures)
        options.append(Option("attack", "Attack", disabled=f'no enemy within {reach:g}" (e11)'))
    options.append(
        Option("other", "Another action (the GM rules on it)", disabled=done if acted else None)
    )
    options.append(Option("end", "End the turn"))
    return options, lambda: _suggest(b, unit, figures, moved, acted, targets)


def attack_facts(b: Battle, figures: list[Creature], target: str) -> str:
    """`3 dice; health 1, defence 8; kills 62%`: the dice that reach, the health and defence
    in the way, and the chances of a wound and of a kill (e12-e14, e21, e22). A kill takes
    the health of the figure the owner would put in the way, the sturdiest (`bot.to_lose`):
    exact when the figures' health is alike, else the least a kill needs from the owner."""
    attackers = reachable(b, figures, target)
    people = struck(b, attackers, target)
    dice = sum(f.fierce for f in attackers)
    defence = max(f.defence for f in people)
    to_kill = max(f.health for f in people)
    chances = odds.attack_odds(dice, b.options["die"], b.options["success_on"], defence, to_kill)
    if one_blow(b, attackers, target):
        health = f"{plural(len(people), 'figure')} in reach, health {to_kill}"
    else:
        health = f"health {sum(f.health for f in people)}"
    return f"{plural(dice, 'die', 'dice')}; {health}, defence {defence}; {chances.words()}"


def _suggest(
    b: Battle, unit: str, figures: list[Creature], moved: bool, acted: bool, targets: dict[str, int]
) -> str:
    """The bot's step: close in first when that brings more figures into reach, then attack
    the best target, else move toward the enemy, and with nothing to attack rally a mob that
    lost figures this round; retreating sides only move."""
    side = figures[0].side
    if bot.should_retreat(b, side):
        return "move" if not moved else "end"
    fresh = not moved and not acted
    mob = b.mobs[unit[4:]] if unit.startswith("mob:") else None
    if mob is not None and fresh:
        closing = moves.closing_plans(b, mob)
        best = bot.best_close(closing)
        if best is not None and best.in_reach > max(targets.values(), default=0):
            return "move"
    if targets and not acted:
        if mob is not None:
            return f"attack:{bot.mob_target(b, targets)}"
        reached = _in_reach(b, figures[0])
        return f"attack:{target_unit(b, bot.character_target(b, figures[0], reached).id)}"
    rally = "other" if not acted and worth_rallying(b, figures) else "end"
    if not fresh:
        return rally
    if mob is not None and _advance(b, mob) is None:
        return rally  # nowhere useful to go
    return "move"


def _advance(b: Battle, mob: Mob) -> moves.MobPlan | None:
    """The mob's move worth making, working out all its plans only when no closing move is."""
    return bot.mob_advance(b, mob, lambda: moves.mob_plans(b, mob), moves.closing_plans(b, mob))


# -- moving -----------------------------------------------------------------------------------
def _move_character(b: Battle, c: Creature) -> Steps:
    leave_ok = moves.can_leave(b, c, b.bodies())

    def extras() -> list[Option]:
        """After the tabletop's destinations, each unless one of them has its key already."""
        edge = moves.toward_edge(b, c).key()
        leave = [Option(moves.LEAVE, "Leave the table by our edge (escape, e29)")]
        return [
            Option(edge, f"Toward our table edge ({edge})"),
            *(leave if leave_ok else []),
            Option(c.at.key(), "Stay where it is"),
        ]

    def menu() -> tuple[Option, ...]:
        """Built only when someone reads it: a bot reads just the contact and toward spots
        (and, when it takes it, the way round that a person is offered here too)."""
        dests = moves.destinations(b, c)
        options = [d.option() for d in dests]
        keys = {o.key for o in options}
        ahead = sum(d.tag.startswith(("contact:", "toward:")) for d in dests)  # listed first
        options[ahead:ahead] = [o for o in way_round() if o.key not in keys]
        keys |= {o.key for o in options}
        for extra in extras():
            if extra.key not in keys:
                options.append(extra)
                keys.add(extra.key)
        return tuple(options)

    def way_round() -> list[Option]:
        """The bot's walk round the bases to a fight next turn, as a person is offered it."""
        found = moves.way_round(b, c)
        return [] if found is None else [found.option()]

    typed = moves.typed_check(b, c)

    def judge(text: str) -> str | None:
        return None if leave_ok and text == moves.LEAVE else typed(text)

    def describe(key: str) -> str:
        """`menu()`'s label for `key`, the destinations worked out only as far as it."""
        found = moves.listed_destination(b, c, key)
        if found is not None:
            return found.option().label
        extra = next((o.label for o in extras() if o.key == key), None)
        if extra is not None:
            return extra
        return next((o.label for o in way_round() if o.key == key), key)  # worked out last

    key = yield Choice(
        side=c.side,
        prompt=f'{c.id}: move where? (up to {c.move:g}")',
        options=menu,
        default=lambda: bot.character_move(
            b,
            c,
            lambda: moves.bot_destinations(b, c),
            leave_ok,
            lambda: moves.toward_edge(b, c).key(),
        ),
        rules=("e8",),
        kind="move",
        free_hint=SPOT_HINT,
        judge=judge,
        describe=describe,
    )
    if key == moves.LEAVE:
        yield from _leave(b, c)
        return
    start = c.at
    c.pos = Point.parse(key)
    yield moves.moved(c, start, ("e8",))


def _leave(b: Battle, c: Creature) -> Steps:
    c.status = ESCAPED
    c.last_pos, c.pos = c.pos, None
    yield Event(
        f"{c.id} leaves the table by its own edge",
        rules=("e29",),
        kind="escape",
        data={"creature": c.id, "side": c.side},
    )


def _move_mob(b: Battle, mob: Mob) -> Steps:
    yield from cohesion_check(b, mob, "start")
    if not b.figures(mob):
        return
    typed = moves.typed_mob_check(b, mob)

    by_figure = b.rules_version >= 3 and len(b.figures(mob)) > 1  # version 3

    def menu() -> tuple[Option, ...]:
        """Built only when someone reads it: a bot reads just the closing moves when one of
        them is worth making."""
        suggested = bot.mob_move(
            b, mob, lambda: moves.mob_plans(b, mob), moves.closing_plans(b, mob)
        )
        listed = moves.tidy(b, mob, moves.mob_plans(b, mob), suggested)
        plans = [Option(p.key, p.label) for p in listed]
        return tuple(plans + ([moves.BY_FIGURE_OPTION] if by_figure else []))

    def judge(text: str) -> str | None:
        if by_figure and text == moves.BY_FIGURE:
            return None
        return None if moves.offered(b, mob, text) else typed(text)

    def describe(key: str) -> str:
        if by_figure and key == moves.BY_FIGURE:
            return moves.BY_FIGURE_OPTION.label
        plan = moves.listed_plan(b, mob, key)
        return plan.label if plan is not None else key

    key = yield Choice(
        side=mob.side,
        prompt=f"{mob.name}: move where? (typed x,y moves the lead figure, "
        f"{moves.lead(b, mob).id}; the others follow)",
        options=menu,
        default=lambda: bot.mob_move(
            b, mob, lambda: moves.mob_plans(b, mob), moves.closing_plans(b, mob)
        ),
        rules=("e17", "e18"),
        kind="move",
        free_hint=SPOT_HINT,
        judge=judge,
        describe=describe,
    )
    if key == moves.BY_FIGURE and by_figure:
        yield from _move_figures(b, mob)
        return
    plan = moves.chosen(b, mob, key)
    moved = []
    for fid, spot in plan.spots.items():
        f = b.creatures[fid]
        if spot is None:
            yield from _leave(b, f)
        elif spot != f.pos:
            moved.append(fid)
            f.pos = spot
    yield Event(
        f"{mob.name}: {plan.label.split(' - ')[0]}; {len(moved)} figure"
        f"{'s' if len(moved) != 1 else ''} moved",
        rules=("e18",),
        kind="move",
        data={
            "mob": mob.name,
            "plan": plan.key,
            "to": {i: (p.as_list() if p is not None else None) for i, p in plan.spots.items()},
        },
    )
    yield from cohesion_check(b, mob, "end", plan.first)


def _move_figures(b: Battle, mob: Mob) -> Steps:
    """The owner moves the mob figure by figure (version 3), each as a character moves, its
    typed spot walking round bases and terrain; the cohesion check (e17) follows the last."""
    figures = b.figures(mob)
    for n, f in enumerate(figures, 1):
        if not f.standing:
            continue
        typed = moves.typed_check(b, f, bend=True)

        def menu(f: Creature = f) -> tuple[Option, ...]:
            options = [d.option() for d in moves.destinations(b, f)]
            if f.at.key() not in {o.key for o in options}:
                options.append(Option(f.at.key(), "Stay where it is"))
            return tuple(options)

        key = yield Choice(
            side=mob.side,
            prompt=f"{mob.name}, figure {n} of {len(figures)}: move {f.id} where? (up to "
            f'{f.move:g}"; the mob must be within 3" after the last, e17)',
            options=menu,
            default=f.at.key(),
            rules=("e17", "e18"),
            kind="move",
            free_hint=SPOT_HINT,
            judge=typed,
        )
        start = f.at
        f.pos = Point.parse(key)
        if f.pos != start:
            yield moves.moved(f, start, ("e18",))
    yield from cohesion_check(b, mob, "end")


def cohesion_check(b: Battle, mob: Mob, when: str, first: str | None = None) -> Steps:
    """e17: members out of 3" of the mob at the start or end of a move are lost (of groups
    of equal size, the one holding `first`, a shift's lead, is kept)."""
    figures = sorted(b.figures(mob), key=lambda f: f.id != first)
    _, lost = split([f.body() for f in figures], b.options["cohesion"])
    lost = [f.id for f in b.figures(mob) if f.id in lost]
    for fid in lost:
        f = b.creatures[fid]
        f.status = STRAGGLER
        f.last_pos, f.pos = f.pos, None
        pool = mob.dead_pool if b.options["stragglers"] == "dead_pool" else mob.casualty_pool
        pool.append(fid)
        yield Event(
            f'{fid} is more than 3" from {mob.name} at the {when} of its move and is lost '
            f"to the {'dead' if pool is mob.dead_pool else 'casualty'} pool",
            rules=("e17",),
            kind="removed",
            data={"creature": fid, "mob": mob.name, "how": "straggler", "when": when},
        )
