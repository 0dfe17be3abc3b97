"""`wargame simulate`'s facts of one Mobs and Morale game (`Ruleset.sim_watcher`): each
creature by its profile (a mob's figures as `PROFILE (mob)`), the damage it dealt and the
creatures it killed, whether it was killed (fled and escaped creatures survive); who won the
deployment initiative (`deploy_order=initiative`, e3: the winner deploys last) and the first
round's initiative (e4-e7).

A mob attacks with one pool of every figure in reach (e19), so its damage and kills are
shared among those figures by the successes each one's Fierce dice rolled (the pool's
faces, in the attack's order of figures); a character's blow or a power's damage belongs to
its one actor. Damage is read as the rules deal it (`damage` events: what a victim lost, not
what was lost over its health), so the damage dealt summed over one side's units is the
damage the other side's took."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from wargame_cli.rulesets.mobs_and_morale.state import DEAD, Battle, Creature
from wargame_cli.rulesets.mobs_and_morale.teams import STATS, labelled

from wargame_cli.engine.requests import Event, Outcome
from wargame_cli.ruleset import GameFacts, UnitFacts

DEPLOYMENT, INITIATIVE = "deployment roll-off", "first initiative"
# events between an attack (or a power) and its damage: the blow's author is still known
FOLLOW = frozenset({"defence", "damage", "death", "uncontrolled", "overkill"})

Blow = tuple[tuple[str, ...], tuple[int, ...] | None]  # attackers, the pool's faces (None: one)


class Watcher:
    def __init__(self) -> None:
        self.blow: Blow | None = None  # the attack or power whose damage is resolving
        self.dealt: list[tuple[Blow, int]] = []  # each damage event, by its blow
        self.killed: list[Blow] = []  # each death, by its blow
        self.deploy_last: str | None = None  # the unit that won the deployment initiative
        self.first: str | None = None  # the unit first in the first round's initiative

    def event(self, event: Event) -> None:
        kind, data = event.kind, event.data or {}
        if kind == "attack":
            self.blow = (tuple(data["attackers"]), tuple(data["faces"]))
        elif kind == "power":
            self.blow = ((data["actor"],), None)
        elif kind in FOLLOW:
            if self.blow is None:
                return
            if kind == "damage" and data["damage"]:
                self.dealt.append((self.blow, data["damage"]))
            elif kind == "death":
                self.killed.append(self.blow)
        else:
            self.blow = None
            if kind == "deployment" and "e3" in event.rules and data["order"]:
                self.deploy_last = data["order"][-1]
            elif kind == "initiative" and self.first is None and data["order"]:
                self.first = data["order"][0]

    def facts(self, game: Any, outcome: Outcome) -> GameFacts:
        b: Battle = game.state
        memo: dict[Blow, dict[str, float]] = {}
        damage: defaultdict[str, float] = defaultdict(float)
        kills: defaultdict[str, float] = defaultdict(float)
        for blow, points in self.dealt:
            for who, share in blow_shares(b, blow, memo).items():
                damage[who] += points * share
        for blow in self.killed:
            for who, share in blow_shares(b, blow, memo).items():
                kills[who] += share
        units = [
            UnitFacts(
                kind=f"{_kind(c, b)} (mob)" if c.mob is not None else _kind(c, b),
                side=c.side,
                kills=kills[c.id],
                died=c.status == DEAD,
                damage=damage[c.id],
            )
            for c in b.creatures.values()
        ]
        firsts = {}
        for contest, unit in ((DEPLOYMENT, self.deploy_last), (INITIATIVE, self.first)):
            if unit is not None:
                firsts[contest] = _side(b, unit)
        return GameFacts(units=units, firsts=firsts)


def _kind(c: Creature, b: Battle) -> str:
    """Its profile, with the stats that differ from the stock profile's (`--unit`)."""
    stats = {name: getattr(c, name) for name in STATS if name != "health"}
    stats["health"] = c.max_health
    return labelled(c.profile, stats, b.options["minion_health"])


def blow_shares(b: Battle, blow: Blow, memo: dict[Blow, dict[str, float]]) -> dict[str, float]:
    """Each attacker's share of a blow: its successes over the pool's (e19); evenly where the
    pool was all its own or the faces do not tell (a power, a lone attacker)."""
    if blow in memo:
        return memo[blow]
    attackers, faces = blow
    wins: dict[str, int] = {}
    if faces is not None and len(attackers) > 1:
        at, success_on = 0, b.options["success_on"]
        for who in attackers:
            dice = b.creatures[who].fierce
            wins[who] = sum(f >= success_on for f in faces[at : at + dice])
            at += dice
    total = sum(wins.values())
    if total:
        out = {who: n / total for who, n in wins.items() if n}
    else:
        out = {who: 1 / len(attackers) for who in attackers}
    memo[blow] = out
    return out


def _side(b: Battle, unit: str) -> str:
    """The side of an initiative slot's unit: a character's id or `mob:NAME`."""
    if unit.startswith("mob:"):
        return b.mobs[unit[4:]].side
    return b.creatures[unit].side
