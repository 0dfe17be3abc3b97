"""A turn's blows as scenes, for any ruleset where figures strike figures: several attackers
on one target become one joint attack ("Tuze and Eyox fall on Ijoi together"), blows between
the same two an exchange ("Tuze and Kuote trade blows: Tuze cuts Kuote; her blows glance off
him"), any other blow stands alone. The words use each figure's pronoun (`Teller.they`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wargame_cli.report.voice import listing, number

if TYPE_CHECKING:
    from wargame_cli.report.hooks import Teller
    from wargame_cli.report.reading import Line

JOINT = ("{a} fall on {y} together", "{a} set upon {y} together", "{a} close on {y} as one")
TRADE = ("{x} and {y} trade blows", "{x} and {y} exchange blows", "{x} and {y} go at each other")
IN_VAIN = ("{x} and {y} trade blows to no effect", "{x} and {y} parry each other's blows")


@dataclass
class Blow:
    """One attack: who struck whom, how many hits; its lines (the attack) and what followed
    from it (the wound, a death)."""

    attacker: str
    target: str
    hits: int
    lines: list[Line]
    after: list[Line] = field(default_factory=list)


@dataclass
class Scene:
    kind: str  # "joint", "exchange" or "single"
    blows: list[Blow]
    target: str = ""  # a joint attack's target

    def sentence(self, teller: Teller) -> str:
        """The scene as one sentence (no full stop)."""
        if self.kind == "joint":
            return _joint(self.target, self.blows, teller)
        if self.kind == "exchange":
            return _exchange(self.blows, teller)
        return ""


def _result(blow: Blow) -> str:
    if blow.hits == 0:
        return f"{blow.attacker}'s blows glance off"
    return f"{blow.attacker} lands {number(blow.hits)}"


def _joint(target: str, blows: list[Blow], teller: Teller) -> str:
    on = [b for b in blows if b.target == target]
    back = [b for b in blows if b.attacker == target]
    attackers = listing(dict.fromkeys(b.attacker for b in on))
    said = teller.say(JOINT, a=attackers, y=target)
    if all(b.hits == 0 for b in on):
        p = teller.they(target)
        said += f", but {p.subject} {p.verb('turns', 'turn')} every blow aside"
    else:
        said += ": " + ", ".join(_result(b) for b in on)
    for b in back:
        p = teller.they(target)
        reply = "and misses" if b.hits == 0 else f"and lands {number(b.hits)}"
        if any(teller.they(a.attacker) == p for a in on):  # "he" would not say which
            said += f"; {target} strikes back at {b.target} {reply}"
            continue
        if p.plural:
            reply = reply.replace("misses", "miss").replace("lands", "land")
        said += f"; {p.subject} {p.verb('strikes', 'strike')} back at {b.target} {reply}"
    return said


def _exchange(blows: list[Blow], teller: Teller) -> str:
    first, *rest = blows
    if all(b.hits == 0 for b in blows):
        return teller.say(IN_VAIN, x=first.attacker, y=first.target)
    said = teller.say(TRADE, x=first.attacker, y=first.target) + ": "
    parts = [_named(first)]
    for b in rest:
        p, q = teller.they(b.attacker), teller.they(b.target)
        if p == q:  # "his blows glance off him" would not say whose: name the striker
            parts.append(_named(b).replace(f" {b.target}", f" {q.object}"))
        elif b.hits == 0:
            parts.append(f"{p.possessive} blows glance off {q.object}")
        else:
            hit = "lands" if not p.plural else "land"
            parts.append(f"{p.subject} {hit} {number(b.hits)} on {q.object}")
    return said + "; ".join(parts)


def _named(blow: Blow) -> str:
    if blow.hits == 0:
        return f"{blow.attacker}'s blows glance off {blow.target}"
    if blow.hits == 1:
        return f"{blow.attacker} cuts {blow.target}"
    return f"{blow.attacker} lands {number(blow.hits)} blows on {blow.target}"


def scenes_of(blows: list[Blow]) -> list[Scene]:
    """Joint attacks first (a target two or more struck, with its blows back at them), then
    exchanges (a struck b, b struck a), then single blows; in the order they began."""
    used: set[int] = set()
    found: list[tuple[int, Scene]] = []
    by_target: dict[str, list[int]] = {}
    for i, b in enumerate(blows):
        by_target.setdefault(b.target, []).append(i)
    for target, listed in by_target.items():
        idx = [i for i in listed if i not in used]
        if len({blows[i].attacker for i in idx}) < 2:
            continue
        attackers = {blows[i].attacker for i in idx}
        back = [i for i, b in enumerate(blows) if b.attacker == target and b.target in attackers]
        mine = sorted(i for i in idx + back if i not in used)
        used |= set(mine)
        found.append((mine[0], Scene("joint", [blows[i] for i in mine], target)))
    for i, b in enumerate(blows):
        if i in used:
            continue
        reply = next(
            (
                j
                for j, c in enumerate(blows)
                if j not in used and j != i and c.attacker == b.target and c.target == b.attacker
            ),
            None,
        )
        if reply is not None:
            used |= {i, reply}
            found.append((i, Scene("exchange", [b, blows[reply]])))
        else:
            used.add(i)
            found.append((i, Scene("single", [b])))
    return [scene for _, scene in sorted(found, key=lambda f: f[0])]
