"""The GM's calls at the end (version 3): which of the NPCs' casualties roll to survive, one
by one (e30: "this isn't necessary for NPCs, unless the GM really wants them to stage a
comeback"), and ending the battle as the seed's three endings say (e29: both sides retreated,
one side escaped, one side decimated) when the table agrees it is over before the program's
own count would say so. The GM is side B, the side playing the NPCs."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargame_cli.rulesets.mobs_and_morale.state import ESCAPED, Battle, Creature

from wargame_cli.engine.requests import Choice, Event, Option, Request
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.wording import plural

Steps = Generator[Request, Any, Any]
GM = "B"
END = "end:"


def pick(b: Battle, side: str, fallen: list[Creature], marked: list[str]) -> Steps:
    """The GM marks the casualties to roll for (starting from npc_survival's answer: all or
    none), one at a time; returns the marked ids in the casualty order."""
    chosen = set(marked)
    name = b.sides[side].name
    while True:
        options = [
            Option("done", f"Roll for the {len(chosen)} marked" if chosen else "Roll for none"),
            Option("all", "Mark them all"),
            Option("none", "Mark none"),
            *(
                Option(
                    f"mark:{c.id}",
                    f"[{'x' if c.id in chosen else ' '}] {c.id} ({c.status})",
                )
                for c in fallen
            ),
        ]
        key = yield Choice(
            side=GM,
            prompt=f"GM: which of {name}'s {plural(len(fallen), 'casualty', 'casualties')} "
            "roll to survive? "
            "(e30: optional for NPCs; mark or unmark each)",
            options=tuple(options),
            default="done",
            rules=("e30",),
            kind="survival",
        )
        if key == "done":
            return [c.id for c in fallen if c.id in chosen]
        if key == "all":
            chosen = {c.id for c in fallen}
        elif key == "none":
            chosen = set()
        else:
            chosen ^= {key.removeprefix("mark:")}


def end_options(b: Battle) -> tuple[Option, ...]:
    """The GM's ways to end the battle now, at the end of a round (e29): rulings, which the
    table calls and no bot takes (a GM's bot would end every battle in its own favour)."""
    said = "End the battle: both sides have retreated (a draw)"
    out = [Option(f"{END}retreated", said, ruling=True)]
    for side in SIDES:
        name = b.sides[side].name
        for how, words in (("escaped", "has escaped"), ("decimated", "is decimated")):
            out.append(Option(f"{END}{how}:{side}", f"End the battle: {name} {words}", ruling=True))
    return tuple(out)


def declare(b: Battle, key: str) -> Steps:
    """The GM's ending: the winner, the reason and the cause the battle ends with. An escaped
    side's creatures leave the table by their edge."""
    how, _, side = key.removeprefix(END).partition(":")
    if how == "retreated":
        b.declared = (None, "both sides retreated (the GM ends the battle)", "GM: both retreated")
    else:
        name = b.sides[side].name
        if how == "escaped":
            for c in b.standing(side):
                c.status = ESCAPED
                c.last_pos, c.pos = c.pos, None
        b.declared = (
            other(side),
            f"{name} {'escaped' if how == 'escaped' else 'is decimated'} (the GM ends the battle)",
            f"GM: loser {how}",
        )
    yield Event(
        f"The GM ends the battle: {b.declared[1]}",
        rules=("e29",),
        kind="declared",
        data={"how": how, "side": side or None, "winner": b.declared[0]},
    )
