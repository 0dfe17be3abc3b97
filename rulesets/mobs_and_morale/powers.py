"""Powers and a team's own actions (e9, e11): what a scenario's team file gives a creature
beyond its profile.

- `reach = N`: its attacks reach N" (a long spear, a whip), instead of 1" or the reach trait.
- `ranged = {name, range}`: an attack at range (a bow, a sling): it attacks within `range`
  inches and its attacks are told by the weapon's name. The seed has no sight or cover, so a
  ranged attack is rolled as any attack (e12-e14).
- `actions = [...]`: names from the team file's `[[actions]]` table, each `{name, range,
  dice, effect}`. The effect is worded as the GM's table edits are: `damage N`, `heal N`,
  `move N` (pushed N" straight away) or `status fled`; `dice` d10s are rolled (Presence-style
  pool, success_on) and the action works on any success (0 dice: it always works). No
  defence roll: the power is the creature's own, not an attack.

The checked actions are copied into each creature's stats, so a save carries them.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

from wargame_cli.rulesets.mobs_and_morale import pools
from wargame_cli.rulesets.mobs_and_morale.moves import moved
from wargame_cli.rulesets.mobs_and_morale.state import FLED, Battle, Creature

from wargame_cli.engine.requests import Choice, Event, Option, Request, Roll
from wargame_cli.errors import TeamError
from wargame_cli.tabletop.movement import farthest_toward, gap
from wargame_cli.wording import plural

Steps = Generator[Request, Any, Any]
EFFECTS = ("damage", "heal", "move", "status")
STATUSES = ("fled",)
MAX_RANGE = 48.0
MAX_ACTIONS = 12


def check_reach(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 24:
        raise TeamError(f"{where}: reach must be above 0 and at most 24 inches, not {value!r}")
    return float(value)


def check_ranged(value: Any, where: str) -> dict[str, Any]:
    """`{name, range}`: an attack at range."""
    if not isinstance(value, dict):
        raise TeamError(f"{where}: ranged is a table of name and range")
    name = _name(value.get("name", "ranged attack"), where)
    return {"name": name, "range": _range(value.get("range"), where)}


def check_action(raw: Any, where: str) -> dict[str, Any]:
    """One `[[actions]]` entry, checked: name, range (inches), dice and effect."""
    if not isinstance(raw, dict):
        raise TeamError(f"{where}: an action is a table of name, range, dice and effect")
    name = _name(raw.get("name"), where)
    dice = raw.get("dice", 0)
    if isinstance(dice, bool) or not isinstance(dice, int) or not 0 <= dice <= 10:
        raise TeamError(f"action {name}: dice must be a whole number 0-10, not {dice!r}")
    effect = raw.get("effect")
    parsed = parse_effect(effect) if isinstance(effect, str) else None
    if parsed is None:
        raise TeamError(
            f"action {name}: effect must be damage N, heal N, move N or status fled, not {effect!r}"
        )
    return {
        "name": name,
        "range": _range(raw.get("range", 1), f"action {name}"),
        "dice": dice,
        "effect": f"{parsed[0]} {parsed[1]}",
    }


def parse_effect(text: str) -> tuple[str, Any] | None:
    """`damage 2` -> ("damage", 2); `status fled` -> ("status", "fled"); else None."""
    m = re.fullmatch(r"\s*(damage|heal|move|status)\s+(\S+)\s*", text)
    if m is None:
        return None
    kind, arg = m.group(1), m.group(2)
    if kind == "status":
        return (kind, arg) if arg in STATUSES else None
    try:
        amount = float(arg) if kind == "move" else int(arg)
    except ValueError:
        return None
    limit = 12 if kind == "move" else 10
    return (kind, amount) if 0 < amount <= limit else None


def team_actions(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A team file's `[[actions]]`, by name."""
    raw = data.get("actions", [])
    if not isinstance(raw, list) or len(raw) > MAX_ACTIONS:
        raise TeamError(f"`actions` is a list of at most {MAX_ACTIONS} actions ([[actions]])")
    out: dict[str, dict[str, Any]] = {}
    for i, entry in enumerate(raw, 1):
        action = check_action(entry, f"action {i}")
        if action["name"] in out:
            raise TeamError(f"action {action['name']} is named twice")
        out[action["name"]] = action
    return out


def creature_actions(value: Any, known: dict[str, dict[str, Any]], where: str) -> list[Any]:
    """A creature's `actions`: names from the team's table (or, in a saved team, the
    actions themselves), checked."""
    if not isinstance(value, list) or len(value) > MAX_ACTIONS:
        raise TeamError(f"{where}: actions is a list of the team's action names")
    out = []
    for item in value:
        if isinstance(item, dict):
            out.append(check_action(item, where))
        elif isinstance(item, str) and item in known:
            out.append(known[item])
        else:
            names = ", ".join(known) or "none in this team file"
            raise TeamError(f"{where}: no action {item!r} in the team's [[actions]] ({names})")
    return out


def _name(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 30:
        raise TeamError(f"{where}: a name is 1-30 characters")
    if re.search(r"[\x00-\x1f\x7f\[\]]", value):
        raise TeamError(f"{where}: a name cannot hold control characters or [brackets]")
    return value.strip()


def _range(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= MAX_RANGE:
        raise TeamError(f"{where}: range must be above 0 and at most {MAX_RANGE:g} inches")
    return float(value)


# -- at the table -----------------------------------------------------------------------------
def targets(b: Battle, actor: Creature, action: dict[str, Any]) -> list[Creature]:
    """Who the action may be used on: friends (itself too) for heal, enemies otherwise,
    within its range (base edge to base edge)."""
    kind = action["effect"].split()[0]
    friends = kind == "heal"
    pool = [c for c in b.standing() if (c.side == actor.side) == friends]
    return [c for c in pool if gap(actor.body(), c.body()) <= action["range"] + 1e-6]


def options(b: Battle, actor: Creature) -> list[Option]:
    """The actor's own actions for the action menu, each disabled without a target."""
    out = []
    for action in actor.actions:
        found = targets(b, actor, action)
        dice = plural(action["dice"], "die", "dice") if action["dice"] else "no roll"
        out.append(
            Option(
                f"power:{action['name']}",
                f'{action["name"]}: {action["effect"]} within {action["range"]:g}" ({dice})',
                disabled=None if found else f'no target within {action["range"]:g}"',
            )
        )
    return out


def use(b: Battle, actor: Creature, name: str) -> Steps:
    """The actor uses its action `name`: a target, the dice, then the effect."""
    from wargame_cli.rulesets.mobs_and_morale.combat import wound

    action = next(a for a in actor.actions if a["name"] == name)
    found = targets(b, actor, action)
    key = yield Choice(
        side=actor.side,
        prompt=f"{actor.id}: {name} on whom? ({action['effect']})",
        options=tuple(Option(c.id, f"{c.id} (health {c.health}/{c.max_health})") for c in found),
        default=found[0].id,
        rules=("e9",),
        kind="power",
    )
    target = b.creatures[key]
    faces: tuple[int, ...] = ()
    if action["dice"]:
        faces = yield Roll(
            dice=(b.options["die"],) * action["dice"],
            reason=f"{actor.id}: {name} on {target.id}",
            side=actor.side,
            rules=("e9",),
        )
    works = not action["dice"] or pools.successes(faces, b.options["success_on"]) > 0
    kind, amount = parse_effect(action["effect"]) or ("", 0)
    rolled = f" ({pools.shown(faces)})" if faces else ""
    edit = {"action": kind, "creature": target.id, "amount": amount}
    yield Event(
        f"{actor.id} uses {name} on {target.id}{rolled}: "
        + (f"it works ({action['effect']})" if works else "it fails"),
        rules=("e9",),
        kind="power",
        data={
            "actor": actor.id,
            "action": name,
            "target": target.id,
            "faces": list(faces),
            "works": works,
            "edit": edit if works else None,
        },
    )
    if not works:
        return
    if kind == "damage":
        yield from wound(b, target, int(amount), ("e9",))
    elif kind == "heal":
        yield from heal(b, target, int(amount))
    elif kind == "move":
        yield from push(b, actor, target, float(amount))
    else:
        yield from flee(b, target)


def heal(b: Battle, c: Creature, points: int) -> Steps:
    """Damage taken away, never above its health."""
    healed = min(points, c.damage)
    c.damage -= healed
    yield Event(
        f"{c.id} heals {healed} ({c.health}/{c.max_health})",
        rules=("e9",),
        kind="heal",
        data={"creature": c.id, "healed": healed, "health": c.health},
    )


def push(b: Battle, actor: Creature, c: Creature, inches: float) -> Steps:
    """Pushed straight away from the actor, as far as the way is clear."""
    start = c.at
    goal = actor.at.toward(c.at, actor.at.distance(c.at) + inches)
    others = [o for o in b.bodies() if o.id != c.id]
    c.pos = farthest_toward(b.table, c.body(), goal.rounded(2), inches, others)
    yield moved(c, start, ("e9",), "is pushed")


def flee(b: Battle, c: Creature) -> Steps:
    """It flees the battle: a mob figure to its mob's casualty pool, a character to its
    side's (e27)."""
    c.status = FLED
    c.last_pos, c.pos = c.pos, None
    if c.mob is not None:
        b.mobs[c.mob].casualty_pool.append(c.id)
    else:
        b.sides[c.side].fallen.append(c.id)
    yield Event(
        f"{c.id} flees the battle",
        rules=("e9", "e27"),
        kind="removed",
        data={"creature": c.id, "mob": c.mob, "how": "fled"},
    )
