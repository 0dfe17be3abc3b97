"""The GM's hand on the table (`wargame edit`, "Table…"): deal or heal damage, move or place a
creature, remove one (killed, fled or escaped, as these rules know them), add one from the
catalogue or with stated stats, and change a mob's controller. Each edit changes the battle
between two requests of the rules and says what changed in one line; a refused edit changes
nothing. A creature added mid-battle rolls for initiative from the next round (e4), as every
standing creature does."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from wargame_cli.rulesets.mobs_and_morale import teams
from wargame_cli.rulesets.mobs_and_morale.state import (
    DEAD,
    ESCAPED,
    FLED,
    RADIUS,
    Battle,
    Creature,
    Mob,
)

from wargame_cli.engine.edits import Edit, EditRefused, act, find, health_change
from wargame_cli.engine.requests import REASK, Choice, Outcome, Request
from wargame_cli.errors import TeamError
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.placing import legal_spot
from wargame_cli.text import decimal_number, whole_number
from wargame_cli.wording import plural

HOW = {"killed": DEAD, "fled": FLED, "escaped": ESCAPED}  # what a removed creature became


def apply(b: Battle, edit: Edit) -> str:
    """Change the battle as `edit` says; the line the log keeps."""
    return act(ACTS, b, edit)


def _creature(b: Battle, edit: Edit, index: int = 0) -> Creature:
    """The standing creature named (by its name or map label, any case)."""
    named = {n.lower(): c for c in b.creatures.values() for n in (c.id, c.label)}
    shown = [c.id for c in b.standing()]
    return find(edit.word(index), named, "creature", edit, shown, _off)


def _off(c: Creature) -> str | None:
    return None if c.standing else f"{c.id} is not on the table ({c.status})"


def _health(b: Battle, edit: Edit) -> str:
    c = _creature(b, edit)
    change = health_change(edit, c.health, c.damage, c.id)
    c.damage += change
    if change < 0:
        return f"{c.id} is healed of {-change} damage ({c.health}/{c.max_health})"
    text = f"{c.id} takes {change} damage ({c.health}/{c.max_health} left)"
    return f"{text}; {_take_off(b, c, DEAD)}" if c.health == 0 else text


def _spot(b: Battle, edit: Edit, index: int, moving: str | None) -> Point:
    return legal_spot(edit.word(index), b.table, RADIUS, b.bodies(), moving, edit.action)


def _move(b: Battle, edit: Edit) -> str:
    c = _creature(b, edit)
    p = _spot(b, edit, 1, c.id)
    c.last_pos, c.pos = c.pos, p
    return f"{c.id} is placed at {p.key()}"


def _take_off(b: Battle, c: Creature, status: str) -> str:
    """Off the table as `status`, into the pool the rules keep for it (e23, e26, e27)."""
    c.status = status
    c.last_pos, c.pos = c.pos, None
    mob = b.mobs[c.mob] if c.mob is not None else None
    if status == DEAD and mob is not None:
        mob.dead_pool.append(c.id)
        return f"{c.id} is removed to the dead pool of {mob.name}"
    if status == DEAD:
        b.sides[c.side].fallen.append(c.id)
        return f"{c.id} is removed to the casualty pool"
    if status == FLED and mob is not None:
        mob.casualty_pool.append(c.id)
    return f"{c.id} {'flees the battle' if status == FLED else 'escapes the battle'}"


def _remove(b: Battle, edit: Edit) -> str:
    c = _creature(b, edit)
    how = edit.args[1].lower() if len(edit.args) > 1 else "killed"
    if how not in HOW:
        raise EditRefused(f"edit remove: {how!r}: these rules know {', '.join(HOW)}")
    return _take_off(b, c, HOW[how])


def _add(b: Battle, edit: Edit) -> str:
    """`add SIDE PROFILE X,Y [STAT=VALUE...] [mob=MOB]`: a character from the catalogue, or
    with its stats stated (any stat overrides the profile's); `mob=` adds a minion to one of
    the side's mobs, numbered and lettered as its figures are, acting with it (e5)."""
    from wargame_cli.rulesets.mobs_and_morale import rules

    side = edit.word(0).upper()
    if side not in b.sides:
        raise EditRefused(f"edit add: the side is A or B, not {edit.args[0]!r}")
    profile = edit.word(1)
    p = _spot(b, edit, 2, None)
    stated: dict[str, Any] = {"profile": profile}
    mob: Mob | None = None
    for word in edit.args[3:]:
        key, sep, value = word.partition("=")
        if not sep:
            raise EditRefused(f"edit add: {word!r}: stats are given as STAT=VALUE")
        key = key.strip().lower()
        if key == "mob":
            mob = _side_mob(b, side, value.strip())
            continue
        if key not in STATS:
            raise EditRefused(
                f"edit add: {word!r}: no stat {key!r}; stats: {', '.join(STATS)} (and mob=MOB)"
            )
        stated[key] = _stat(key, value.strip())
    try:
        stats = teams.creature(stated, b.options, f"edit add {profile}")
    except TeamError as exc:
        raise EditRefused(str(exc)) from None
    used = {c.label for c in b.creatures.values()}
    if mob is not None:
        return _join_mob(b, mob, stats, p, used)
    cid = rules.unique_name(b, stats["profile"], side)
    rules.add_creature(b, side, cid, stats, None, rules.pick_label(cid, used))
    b.creatures[cid].pos = p
    what = "" if cid == stats["profile"] else f" ({stats['profile']})"
    return f"{cid}{what} joins side {side} at {p.key()}; it rolls for initiative next round"


def _side_mob(b: Battle, side: str, name: str) -> Mob:
    """The side's mob `name` (any case), or a refusal naming the side's mobs."""
    mob = next((m for m in b.mobs.values() if m.name.lower() == name.lower()), None)
    if mob is None or mob.side != side:
        theirs = [m.name for m in b.mobs.values() if m.side == side]
        raise EditRefused(
            f"edit add: side {side} has no mob {name!r}; its mobs: {', '.join(theirs) or 'none'}"
        )
    return mob


def _join_mob(b: Battle, mob: Mob, stats: dict[str, Any], p: Point, used: set[str]) -> str:
    """A minion added to `mob`: the mob's next number and letter, its morale the worst of its
    members' (e24), and its controller still within 2 x Presence minions (e15)."""
    from wargame_cli.rulesets.mobs_and_morale import rules

    if not stats["minion"]:
        raise EditRefused(f"edit add: {stats['profile']} is not a minion: mobs are minions (e5)")
    if not teams.can_form_mob(stats):
        raise EditRefused(f"edit add: {stats['profile']} cannot form a mob (e16)")
    boss = b.creatures[mob.controller] if mob.controller is not None else None
    if boss is not None:
        minions = 1 + sum(
            1
            for other in b.mobs.values()
            if other.controller == boss.id
            for cid in other.members
            if b.creatures[cid].standing
        )
        if (too_many := teams.over_control(boss.id, minions, boss.presence)) is not None:
            raise EditRefused(f"edit add: {too_many}")
    n = len(mob.members) + 1
    cid = rules.unique_name(b, f"{mob.name} {n}", mob.side)
    letter = next((b.creatures[m].label[:1] for m in mob.members), mob.name[:1].lower())
    rules.add_creature(b, mob.side, cid, stats, mob.name, rules.figure_label(letter, n, used))
    mob.members.append(cid)
    mob.morale = max(mob.morale, stats["morale"])
    b.creatures[cid].pos = p  # (a creature's change: what the battle remembers is worked out anew)
    return f"{cid} ({stats['profile']}) joins {mob.name} at {p.key()}; it acts with its mob"


STATS = (*teams.INTS, "move", "traits", "minion")  # what `add` may state


def _stat(key: str, value: str) -> Any:
    if key == "traits":
        return [t for t in value.split("+") if t]
    if key == "minion":
        if value.lower() not in MINION:
            raise EditRefused(f"edit add: minion={value!r}: yes or no")
        return MINION[value.lower()]
    number = decimal_number(value) if key == "move" else whole_number(value)
    if number is None:
        raise EditRefused(f"edit add: {key}={value!r} is not a number")
    return number


MINION = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False}


def _status(b: Battle, edit: Edit) -> str:
    """`status MOB controller NAME|none`: who controls a mob (e5)."""
    name = edit.word(0)
    mob = next((m for m in b.mobs.values() if m.name.lower() == name.lower()), None)
    if mob is None:
        raise EditRefused(f"edit status: no mob {name!r}; mobs: {', '.join(b.mobs) or 'none'}")
    if edit.word(1).lower() != "controller":
        raise EditRefused("edit status: a mob's status here is its controller: MOB controller NAME")
    who = edit.word(2)
    if who.lower() == "none":
        mob.controller = None
        return f"{mob.name} has no controller now"
    boss = _creature(b, edit, 2)
    if boss.mob is not None or boss.side != mob.side:
        raise EditRefused(f"edit status: {boss.id} is not a character of {mob.name}'s side")
    minions = sum(
        1
        for other in b.mobs.values()
        if other is mob or other.controller == boss.id
        for cid in other.members
        if b.creatures[cid].standing
    )
    too_many = teams.over_control(boss.id, minions, boss.presence)
    if too_many is not None:  # as team building refuses it
        raise EditRefused(f"edit status: {too_many}")
    mob.controller = boss.id
    return f"{boss.id} controls {mob.name} now"


ACTS = {
    "damage": _health,
    "heal": _health,
    "move": _move,
    "remove": _remove,
    "add": _add,
    "status": _status,
}


def after_battle(b: Battle, winner: str | None, reason: str) -> Generator[Request, Any, Outcome]:
    """A battle the GM's `end` edit ended: what every ending brings after it (e27's pools,
    e30's survival rolls, the GM's call on the NPCs' where the rules give it one)."""
    from wargame_cli.rulesets.mobs_and_morale import rules

    outcome = yield from rules.finish(b, winner, reason, ("e29",), "declared by a table edit")
    return outcome


def ruled(build: Callable[[], Choice]) -> Generator[Choice, str, tuple[str, int]]:
    """The GM's ruling on a free action (e9), asked again after each edit the GM makes at it
    ("Table…"): the ruling and how many edits carry it onto the table."""
    edited = 0
    while True:
        key = yield build()
        if key != REASK:
            return key, edited
        edited += 1


def carried(effect: str, edited: int) -> str:
    """A ruling's effect: the edits the GM made at it, else the rules' own."""
    if edited:
        return f"the GM edits the table ({plural(edited, 'edit')})"
    return effect


USAGE = {
    "damage": "damage CREATURE N",
    "heal": "heal CREATURE N",
    "move": "move CREATURE X,Y",
    "remove": f"remove CREATURE [{'|'.join(HOW)}]",
    "add": "add SIDE PROFILE X,Y [STAT=VALUE...] [mob=MOB]",
    "status": "status MOB controller CHARACTER|none",
}
