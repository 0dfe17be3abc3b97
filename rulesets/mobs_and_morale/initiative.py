"""Initiative (e4-e7): a Presence pool for every character and uncontrolled mob, most
successes first, ties to the higher base initiative, then d10 roll-offs until they separate."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from wargame_cli.rulesets.mobs_and_morale.pools import successes
from wargame_cli.rulesets.mobs_and_morale.state import Battle

from wargame_cli.engine import rolloffs
from wargame_cli.engine.requests import Roll
from wargame_cli.wording import plural

ROLL_OFF_DIE = 10  # e7: "rolls 1d10"


@dataclass(frozen=True)
class Contender:
    """One initiative slot: a character (with the mobs it controls) or an uncontrolled mob."""

    key: str
    name: str
    side: str
    presence: int
    base: int


Rolling = Generator[Roll, Any, Any]


def roll_initiative(contenders: list[Contender], die: int, success_on: int, why: str) -> Rolling:
    """Returns (contenders in order, successes by key)."""
    scores: dict[str, int] = {}
    for c in contenders:
        faces: tuple[int, ...] = ()
        if c.presence > 0:
            faces = yield Roll(
                dice=(die,) * c.presence,
                reason=f"{c.name}: {why} (Presence {c.presence})",
                side=c.side,
                rules=("e4", "e5", "e6"),
            )
        scores[c.key] = successes(faces, success_on)
    ranked = sorted(contenders, key=lambda c: (-scores[c.key], -c.base))
    order: list[Contender] = []
    for _, tied in groupby(ranked, key=lambda c: (scores[c.key], c.base)):
        order += yield from roll_off(list(tied))
    return order, scores


def roll_off(tied: list[Contender]) -> Rolling:
    """e7: tied contenders roll a d10 each, higher first; those still tied roll again."""
    return (
        yield from rolloffs.roll_off(
            tied,
            rolloffs.Dice(
                ROLL_OFF_DIE,
                lambda group, _: "initiative roll-off: " + ", ".join(c.name for c in group),
                ("e7",),
                label=lambda c: c.name,
                owner=lambda c: c.side,
            ),
        )
    )


def contenders(b: Battle, setup: bool = False) -> list[Contender]:
    """e4, e5: every standing character, and every mob without a standing controller, which
    rolls once with its best member's Presence and base initiative. At setup (e3) everyone
    counts and a mob is controlled if it has a controller at all."""
    out = [
        Contender(c.id, c.id, c.side, c.presence, c.initiative)
        for c in b.creatures.values()
        if c.mob is None and (setup or c.standing)
    ]
    for mob in b.mobs.values():
        figures = [b.creatures[i] for i in mob.members] if setup else b.figures(mob)
        alone = mob.controller is None if setup else b.controller(mob) is None
        if figures and alone:
            out.append(
                Contender(
                    f"mob:{mob.name}",
                    mob.name,
                    mob.side,
                    max(f.presence for f in figures),
                    max(f.initiative for f in figures),
                )
            )
    return out


def slot_units(b: Battle, key: str) -> list[str]:
    """An initiative slot's units: the character, then the mobs it controls (e5)."""
    if key.startswith("mob:"):
        return [key]
    return [key] + [f"mob:{m.name}" for m in b.live_mobs() if b.controller(m) is b.creatures[key]]


def describe(c: Contender, ranked: list[Contender], scores: dict[str, int], mobs: list[str]) -> str:
    """`Ysolde (1 success; base 4)`: successes, how a tie was broken (e7), the mobs in its
    slot (e5); in brackets, so a name ending in a digit (Wolf mob 2) never runs into them."""
    notes = [plural(scores[c.key], "success", "successes")]
    tied = [o for o in ranked if scores[o.key] == scores[c.key]]
    if len(tied) > 1:
        same_base = sum(o.base == c.base for o in tied) > 1
        notes.append(f"base {c.base}" + (", roll-off" if same_base else ""))
    if mobs:
        notes.append("with " + " and ".join(mobs))
    return f"{c.name} ({'; '.join(notes)})"
