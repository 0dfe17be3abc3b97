"""The GM's initiative tracker (e4-e7, e10; version 3). The seed: "The GM keeps track of the
initiative order in any way they see fit." The GM is side B, the side playing the NPCs (the
seed names no GM seat; the GM's side also rules on other actions, e9).

At the first question of any unit's turn, "Initiative tracker…" lets the GM delay that turn
to later in the round or move a later turn in the order; a combatant added mid-battle
(`enter_next_round`, which the table edits call) rolls initiative from the next round. The
round's order is `Battle.slots` (a character with the mobs it controls, or a mob alone),
`Battle.at` the slot acting now.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from wargame_cli.rulesets.mobs_and_morale.state import Battle

from wargame_cli.engine.requests import Choice, Event, Option, Request

Steps = Generator[Request, Any, Any]
GM = "B"  # the side playing the NPCs keeps the tracker
KEY: Final = "tracker"
OPTION = Option(KEY, "Initiative tracker… (the GM delays this turn or moves one in the order)")


def _named(b: Battle, slot: list[str]) -> str:
    return " with ".join(b.unit_name(u) for u in slot)


def order_text(b: Battle) -> str:
    """`now Brakka, then Red Spears, Ysolde`: the rest of this round's order."""
    later = [_named(b, s) for s in b.slots[b.at + 1 :]]
    now = _named(b, b.slots[b.at]) if b.at < len(b.slots) else "nobody"
    return f"now {now}" + (f", then {', '.join(later)}" if later else "")


def offered(b: Battle) -> bool:
    """Version 3, and some turn still to come this round: there is an order to change."""
    return b.rules_version >= 3 and b.at + 1 < len(b.slots)


def use(b: Battle, unit: str) -> Steps:
    """The GM's two questions: whose turn moves, then where to. Returns True when `unit`'s own
    turn was moved (it ends now and comes again later)."""
    rest = b.slots[b.at + 1 :]
    here = b.slots[b.at]
    mine = here[here.index(unit) :]  # the unit and those after it in its slot
    whose = yield Choice(
        side=GM,
        prompt=f"GM's initiative tracker, round {b.round} ({order_text(b)}): move whose turn?",
        options=(
            Option("now", f"{_named(b, mine)}: delay this turn"),
            *(Option(f"slot:{i}", f"{_named(b, s)}") for i, s in enumerate(rest) if rest[1:]),
            Option("back", "Leave the order as it is"),
        ),
        default="back",
        rules=("e10",),
        kind=KEY,
    )
    if whose == "back":
        return False
    moving = mine if whose == "now" else rest[int(whose.removeprefix("slot:"))]
    others = [s for s in rest if s is not moving]
    places = [Option(f"after:{i}", f"After {_named(b, s)}") for i, s in enumerate(others)]
    if whose != "now":
        places.insert(0, Option("next", "Next, right after this turn"))
    where = yield Choice(
        side=GM,
        prompt=f"GM's initiative tracker: move {_named(b, moving)}'s turn to where?",
        options=tuple(places),
        default=places[-1].key,
        rules=("e10",),
        kind=KEY,
    )
    position = 0 if where == "next" else int(where.removeprefix("after:")) + 1
    others.insert(position, moving)
    if whose == "now":
        kept = here[: here.index(unit)]
        b.slots = b.slots[: b.at] + ([kept] if kept else []) + others
        if kept:
            b.at += 1  # those who acted stay where they were, done
    else:
        b.slots = b.slots[: b.at + 1] + others
    b.order = [u for s in b.slots for u in s]
    after = others[position - 1] if position else None
    yield Event(
        f"GM's tracker: {_named(b, moving)} now acts "
        + (f"after {_named(b, after)}" if after else "next")
        + f" (round {b.round}: {order_text(b)})",
        rules=("e10",),
        kind=KEY,
        data={
            "moved": list(moving),
            "after": list(after) if after else None,
            "order": list(b.order),
        },
    )
    return whose == "now"


def enter_next_round(b: Battle, creature_id: str) -> Event:
    """A combatant added mid-battle (the table edits' `add`): it is not in this round's order
    and rolls initiative with everyone at the next round (e4; a minion added to a mob acts with
    its mob). Returns the event that says so, for the caller to yield."""
    c = b.creatures[creature_id]
    key = b.unit_of(c)
    in_order = any(key in s for s in b.slots[b.at :])
    return Event(
        f"{c.id} joins the battle: "
        + ("it acts with its mob" if in_order else "it rolls initiative from the next round")
        + " (e4)",
        rules=("e4",),
        kind="joins",
        data={"creature": c.id, "unit": key, "next_round": not in_order},
    )
