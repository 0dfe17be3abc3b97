"""Mobs and Morale told as a story (the report's hook): who fought whom, who fell, who wavered
and who held them, each character by the pronoun its team gives it and each mob as the many
it is ("Red Spears turn the blows aside"); the initiative's dice and the pools' bookkeeping
left to the workings. The shared scenes (`wargame_cli.report.scenes`) join a round's blows
on one target and the blows both ways between two; this teller names the facts (`fact`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from wargame_cli.kit.sides import SIDES
from wargame_cli.report import scenes as sc
from wargame_cli.report import voice as v
from wargame_cli.report.credit import credited, fallen
from wargame_cli.report.field import Field, on
from wargame_cli.report.hooks import Teller as BaseTeller

if TYPE_CHECKING:
    from wargame_cli.report.reading import Line

ATTACKS = (
    "{x} lays into {y}",
    "{x} falls upon {y}",
    "{x} turns {xp} blade on {y}",
    "{x} goes for {y}",
)
WHIFFS = ("{x} swings at {y} and misses", "{x} cannot reach {y}", "{x}'s blows fall short of {y}")
GANG = ("{x} close in on {y}", "{x} set upon {y}", "{x} gang up on {y}")
GANG_WHIFF = ("{x} crowd {y} but land nothing", "{x} press {y} in vain")
TURNED = (
    "{y} {yv:turns|turn} the blows aside",
    "{y}'s guard holds",
    "{y} {yv:weathers|weather} it",
)
HURT = ("{y} takes {n} wound{s}", "{y} is hurt ({n} wound{s})", "{y} reels from {n} wound{s}")
# a mob's name is plural ("Odda's hounds", "Red Spears"): its verbs agree with it
WAVERS = ("{m} waver: {n} ready to run", "fear grips {m}: {n} may flee")
STEADY = ("{m} hold their nerve", "{m} stand firm", "{m} do not flinch")
HELD = ("{c} steadies {m}", "{c} holds {m} together", "{c} keeps {m} in line")
FIRST = ("{x} acts first in round {n}", "{x} is quickest in round {n}", "{x} leads round {n}")
DEPLOYS = ("{x} deploys {at}", "{x} takes the field {at}")
DEPLOY_MANY = ("{x} deploy {at}", "{x} take the field {at}")
ESCAPES = ("{x} slips off the table by {xp} own edge", "{x} escapes over {xp} side's edge")
TRIES = ("{x} tries to {what}", "{x} sets out to {what}")
VERDICTS = {"partial": "a partial success", "succeeds": "a success", "fails": "a failure"}


def _unit(key: Any) -> str:
    return str(key).removeprefix("mob:")


def _healths(save: dict[str, Any]) -> dict[str, int]:
    """Each character's health as its team gives it."""
    out: dict[str, int] = {}
    for team in (save.get("setup", {}).get("teams") or {}).values():
        for c in team.get("characters", []) if isinstance(team, dict) else []:
            if isinstance(c, dict) and isinstance(c.get("health"), int):
                out[str(c.get("name"))] = c["health"]
    return out


def _moves(save: dict[str, Any]) -> dict[str, float]:
    """Each character's move in inches, and each mob's (its slowest member's), as its team
    gives it."""
    out: dict[str, float] = {}
    for team in (save.get("setup", {}).get("teams") or {}).values():
        for c in team.get("characters", []) if isinstance(team, dict) else []:
            if isinstance(c, dict) and isinstance(c.get("move"), int | float):
                out[str(c.get("name"))] = float(c["move"])
        for m in team.get("mobs", []) if isinstance(team, dict) else []:
            members = m.get("members", []) if isinstance(m, dict) else []
            moves = [float(f["move"]) for f in members if isinstance(f, dict) and "move" in f]
            if moves:
                out[str(m.get("name"))] = min(moves)
    return out


def _number(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


class Teller(BaseTeller):
    # a damage edit's line: "Kuote takes 4 damage (0/4 left); Kuote is removed to the ... pool"
    fell_words = (" removed to the dead pool", " removed to the casualty pool")

    def __init__(self, save: dict[str, Any], voice: v.Voice) -> None:
        super().__init__(save, voice)
        self.field = Field.of_save(save, self.sides)
        self.striking: list[str] = []  # the attackers of the blow being told
        self.health = _healths(save)  # a character's health, as its team gives it
        for name, most in self.health.items():
            self.took(name, 0, 0, most)
        self.allowed = _moves(save)  # a character's move, as its team gives it
        self.field.deployed(save.get("log"), self._side)

    def tell(self, kind: str, data: dict[str, Any], text: str) -> str | None:
        say = self.say
        if kind in ("pools", "deployment"):
            return None
        if kind == "deploy":
            unit = str(data.get("unit", "?"))
            side = self._side(unit)
            at = data.get("at") or {}
            for figure, pos in at.items():
                self.field.place(str(figure), side, pos)
            first = next(iter(at), "")
            where = "" if self._is_mob(unit) else self.field.by(first)
            where = where or on(self.field.flank(side, at.get(first)))
            return say(DEPLOY_MANY if self._is_mob(unit) else DEPLOYS, x=unit, at=where)
        if kind == "initiative":
            order = data.get("order") or []
            return say(FIRST, x=_unit(order[0]), n=self.turn) if order else None
        if kind == "move":
            x = data.get("creature") or data.get("mob") or "?"
            if "from" not in data:  # a mob's move: where to, figure by figure
                moved = [
                    (self.field.at.get(str(f)), pos) for f, pos in (data.get("to") or {}).items()
                ]
                for figure, pos in (data.get("to") or {}).items():
                    self.field.place(str(figure), self._side(x), pos)
                steps = [(a, b) for a, b in moved if a is not None]
                if not steps:
                    return say(v.MOVE_ON_MANY, x=x)
                far = max(steps, key=lambda ab: v.distance(ab[0], ab[1]) or 0.0)  # its farthest
                allowed = self.allowed.get(str(x))
                return say(v.heading(self._side(x), far[0], far[1], allowed), x=x)
            side = self._side(x)
            where = self.field.move(x, side, data.get("from"), data.get("to"))
            self.field.place(x, side, data.get("to"))
            allowed = self.allowed.get(str(x))
            said = say(v.heading(side, data.get("from"), data.get("to"), allowed), x=x)
            return f"{said} {where}".strip()
        if kind == "attack":
            attackers, y = data.get("attackers", []), data.get("target", "?")
            self.striking = [self._mob_of(str(a)) for a in attackers]
            x = v.listing(attackers)
            if len(attackers) > 1:
                return say(GANG if int(data.get("pool", 0)) else GANG_WHIFF, x=x, y=y)
            return say(ATTACKS if int(data.get("pool", 0)) else WHIFFS, x=x, y=y)
        if kind == "defence":
            return say(TURNED, y=data.get("target", "?")) if not data.get("damage") else None
        if kind == "damage":
            n = int(data.get("damage", 0))
            y = str(data.get("creature", "?"))
            gang = list(dict.fromkeys(self.striking))  # a mob's blow is the mob's
            self.credit.blow(y, v.listing(gang), n)
            most, left = self.health.get(y), data.get("health")
            total = most - left if most is not None and isinstance(left, int) else None
            self.took(y, n, total, most)
            return say(HURT, y=y, n=n, s="s" * (n != 1))
        if kind == "power":  # an action of its own (a Hex): its damage is the user's doing
            self.striking = [str(data.get("actor", "?"))]
            return text
        if kind == "heal":
            self.took(str(data.get("creature", "")), -_number(data.get("healed")))
            return text
        if kind == "death":
            x = str(data.get("creature", "?"))
            self.field.fall(x)
            return credited(say(v.STRUCK_DOWN, x=x), self.credit.authors(x))
        if kind == "morale":
            m, danger = data.get("mob", "?"), int(data.get("danger", 0))
            return say(WAVERS, m=m, n=danger) if danger else say(STEADY, m=m)
        if kind == "other":
            self.striking = [str(data.get("actor", "?"))]  # what the ruling does is its
            return self._action(data)
        if kind == "escape":
            return say(ESCAPES, x=data.get("creature", "?"))
        if kind == "rally":
            return say(HELD, c=data.get("controller", "?"), m=data.get("mob", "?"))
        return text

    def _action(self, data: dict[str, Any]) -> str:
        """Another action and the GM's ruling on it, in words: "Grey Mother tries to rally
        Slingers: the GM rules a partial success; Slingers roll half their morale dice"."""
        what = re.sub(r"\s*\(.*?\)", "", str(data.get("action", "act"))).strip()
        said = self.say(TRIES, x=data.get("actor", "?"), what=what[:1].lower() + what[1:])
        ruling = str(data.get("ruling", ""))
        said += f": the GM rules {VERDICTS.get(ruling, repr(ruling))}"
        effect = re.sub(r" to -?\d[\d.]*,-?\d[\d.]*", " back", str(data.get("effect") or ""))
        mob = next((m for m in self._mobs() if effect.startswith(f"{m} ")), None)
        if mob:  # "Slingers rolls half its": the ruleset's words for one, a mob is many
            rest = effect[len(mob) + 1 :].replace(" its ", " their ")
            verb, _, tail = rest.partition(" ")
            effect = f"{mob} {verb[:-1] if verb.endswith('s') else verb} {tail}"
        return f"{said}; {effect}" if effect and effect != "no effect on the table" else said

    def fact(self, line: Line) -> sc.Fact | None:
        d = line.data
        if line.kind == "attack":
            attackers = [str(a) for a in d.get("attackers") or []]
            mobs = list(dict.fromkeys(self._mob_of(a) for a in attackers))
            who = mobs[0] if len(mobs) == 1 else v.listing(attackers)
            return sc.Fact(sc.BLOW, who, str(d.get("target", "?")))
        if line.kind == "damage":
            return sc.Fact(sc.HIT, hits=_number(d.get("damage")))
        if line.kind == "defence":
            return sc.Fact(sc.TOLD)
        if line.kind == "move":
            return sc.Fact(sc.MOVE)
        steady = line.kind == "morale" and not _number(d.get("danger"))
        if steady or line.kind in ("initiative", "deploy", "revealed", "round_limit"):
            return sc.Fact(sc.ASIDE)  # who acts first, the set-up, a mob that holds: the dice's
        return None

    def plural(self, name: object) -> bool:
        """A mob's name ("Red Spears") and several figures ("Red Spears 3 and Red Spears 4")
        take a plural verb."""
        return self._is_mob(name) or " and " in str(name)

    def fallen(self, kind: str, data: dict[str, Any], told: str) -> str:
        if kind != "death":
            return told
        x = str(data.get("creature", "?"))
        return fallen(x, self.credit.authors(x))

    def roster(self) -> dict[str, str]:
        """The characters, and every figure the deployment placed (a mob's members by
        name, "Red Spears 2"); not a mob's own name."""
        mobs = set(self._mobs())
        cast = {n: s for n, s in self.members.items() if n not in mobs}
        return cast | dict(self.field.side_of)

    def band_of(self, who: str) -> str | None:
        mob = self._mob_of(who)
        return mob if mob != who else None

    def _mob_of(self, figure: str) -> str:
        """The mob a figure fights in ("Red Spears 2" -> "Red Spears"), or the figure."""
        teams = self.save.get("setup", {}).get("teams", {})
        for team in teams.values():
            for m in team.get("mobs", []) if isinstance(team, dict) else []:
                if isinstance(m, dict) and figure.startswith(f"{m.get('name')} "):
                    return str(m["name"])
        return figure

    def _mobs(self) -> list[str]:
        teams = self.save.get("setup", {}).get("teams", {})
        return [
            str(m.get("name"))
            for team in teams.values()
            if isinstance(team, dict)
            for m in team.get("mobs", [])
            if isinstance(m, dict)
        ]

    def _is_mob(self, name: Any) -> bool:
        return name in self._mobs()

    def _side(self, creature: Any) -> str:
        teams = self.save.get("setup", {}).get("teams", {})
        for side in SIDES:
            team = teams.get(side) or {}
            names = [c.get("name") for c in team.get("characters", []) if isinstance(c, dict)]
            mobs = [m.get("name") for m in team.get("mobs", []) if isinstance(m, dict)]
            if creature in names + mobs or any(str(creature).startswith(f"{m} ") for m in mobs):
                return side
        return "A"
