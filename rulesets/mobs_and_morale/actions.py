"""Actions other than attacking (e9): the acting side names one from a short list or types its
own, and the GM's side (B) rules on it: succeeds, partial or fails. The seed never published
its action table, so the effects are minimal and documented in reference.toml:

- Shove: the nearest enemy in reach is pushed straight away, 2" on a success, 1" on a
  partial (a shoved mob figure may end up a straggler at its mob's next move, e17).
- Rally: the nearest friendly mob skips this round's morale test on a success, or rolls half
  its dead-pool dice (rounded up) on a partial (e24).
- Search, and anything typed: no effect on the table; the ruling is logged as text.
- A creature's own actions from its team file (powers.py): no ruling, they do what they say.

The GM may also type the ruling in words instead of picking one: it is logged as said and
changes nothing on the table (the GM narrates its effect).
"""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

from wargame_cli.rulesets.mobs_and_morale import edits, powers
from wargame_cli.rulesets.mobs_and_morale.state import Battle, Creature, Mob

from wargame_cli.engine.requests import Choice, Event, Option, Request, menu_or
from wargame_cli.kit.sides import other
from wargame_cli.tabletop.movement import farthest_toward

Steps = Generator[Request, Any, Any]
RULINGS = (("partial", "Partial success"), ("succeeds", "It succeeds"), ("fails", "It fails"))
SHOVE = {"succeeds": 2.0, "partial": 1.0, "fails": 0.0}
RULING_LENGTH = 100  # characters of a typed ruling


def text_problem(text: str, limit: int = 60) -> str | None:
    """Why a typed action (or ruling) is refused, or None."""
    if not text.strip():
        return "say it in a few words"
    if len(text.strip()) > limit:
        return f"at most {limit} characters"
    if re.search(r"[\x00-\x1f\x7f\[\]]", text):
        return "no control characters or [brackets]"
    return None


def shove_target(b: Battle, actors: list[Creature]) -> tuple[Creature, Creature] | None:
    """(shover, victim): the nearest enemy any actor has in reach."""
    reach = b.options["reach"]
    pairs = [(a, e) for a in actors for e in b.standing(other(a.side)) if a.in_range(e, reach)]
    return min(pairs, key=lambda p: (p[0].at.distance(p[1].at), p[1].id), default=None)


def rally_target(b: Battle, actors: list[Creature]) -> Mob | None:
    own = actors[0].mob
    if own is not None:
        return b.mobs[own]
    mobs = b.live_mobs(actors[0].side)
    here = actors[0].at
    return min(
        mobs,
        key=lambda m: (min(here.distance(f.at) for f in b.figures(m)), m.name),
        default=None,
    )


def worth_rallying(b: Battle, actors: list[Creature]) -> Mob | None:
    """The bot's reason for another action: the mob it would rally has dead in its pool
    this round (a morale test is coming, e24) and is not rallied already."""
    mob = rally_target(b, actors)
    return mob if mob is not None and mob.dead_pool and mob.rallied != "full" else None


def other_action(b: Battle, actors: list[Creature], name: str) -> Steps:
    side = actors[0].side
    shove = shove_target(b, actors)
    rally = rally_target(b, actors)
    options = (
        Option(
            "shove",
            f"Shove {shove[1].id}" if shove else "Shove an enemy",
            disabled=None if shove else "no enemy within reach",
        ),
        Option(
            "rally",
            f"Rally {rally.name} ({len(rally.dead_pool)} in its dead pool)"
            if rally
            else "Rally a mob",
            disabled=None if rally else "no friendly mob on the table",
        ),
        Option("search", "Search the area"),
        *(powers.options(b, actors[0]) if len(actors) == 1 else ()),
    )
    key = yield Choice(
        side=side,
        prompt=f"{name}: which action? (the GM rules on it)",
        options=options,
        default=lambda: "rally" if worth_rallying(b, actors) else "search",
        rules=("e9",),
        kind="action",
        free_hint="describe another action",
        judge=menu_or(options, text_problem),
    )
    if key.startswith("power:") and any(o.key == key for o in options):  # its own action:
        yield from powers.use(b, actors[0], key.removeprefix("power:"))  # no ruling needed
        return
    known = {o.key: o.label for o in options}
    what = known.get(key, key.strip())
    # an offered action is a verb ("Shove B2"); a typed one is the player's own words, quoted
    # as they are ("bellows a war cry" would read "tries to bellows")
    tried = f"tries to {what[0].lower() + what[1:]}" if key in known else f'tries this: "{what}"'
    rulings = tuple(Option(k, label) for k, label in RULINGS)
    ruling, edited = yield from edits.ruled(
        lambda: Choice(
            side="B",
            prompt=f"GM: {name} {tried}. How does it turn out?",
            options=rulings,
            default="partial",
            rules=("e9",),
            kind="ruling",
            free_hint="type the GM's ruling in words",
            judge=menu_or(rulings, lambda text: text_problem(text, RULING_LENGTH)),
            reasks=True,
        )
    )
    verdicts = dict(RULINGS)
    if ruling not in verdicts:  # the GM's own words: only the GM's edits move the table
        carried = edits.carried("", edited)
        yield Event(
            f"{name}: {what}. The GM rules: {ruling.strip()}" + (f"; {carried}" if carried else ""),
            rules=("e9",),
            kind="other",
            data={"actor": name, "action": what, "ruling": ruling.strip(), "effect": carried},
        )
        return
    effect = "no effect on the table"
    if key == "shove" and shove is not None and ruling != "fails":
        shover, victim = shove
        inches = SHOVE[ruling]
        goal = shover.at.toward(victim.at, shover.at.distance(victim.at) + inches)
        others = [o for o in b.bodies() if o.id != victim.id]
        victim.pos = farthest_toward(b.table, victim.body(), goal.rounded(2), inches, others)
        effect = f"{victim.id} is pushed to {victim.pos.key()}"
    elif key == "rally" and rally is not None and ruling != "fails":
        rally.rallied = "full" if ruling == "succeeds" else "partial"
        effect = (
            f"{rally.name} skips this round's morale test"
            if ruling == "succeeds"
            else f"{rally.name} rolls half its morale dice this round"
        )
    verdict = verdicts[ruling].lower()
    effect = edits.carried(effect, edited)
    yield Event(
        f"{name}: {what}. The GM rules: {verdict}; {effect}",
        rules=("e9",),
        kind="other",
        data={"actor": name, "action": what, "ruling": ruling, "effect": effect},
    )
