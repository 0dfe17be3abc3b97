"""Mobs and Morale told as a story (the report's hook): who fought whom, who fell, who wavered
and who held them; the initiative's dice and the pools' bookkeeping left to the workings."""

from __future__ import annotations

from typing import Any

from wargame_cli.kit.sides import SIDES
from wargame_cli.report import voice as v
from wargame_cli.report.hooks import Teller as BaseTeller

ATTACKS = ("{x} lays into {y}", "{x} falls upon {y}", "{x} hacks at {y}", "{x} goes for {y}")
WHIFFS = ("{x} swings at {y} and misses", "{x} cannot reach {y}", "{x}'s blows fall short of {y}")
GANG = ("{x} close in on {y}", "{x} set upon {y}", "{x} gang up on {y}")
GANG_WHIFF = ("{x} crowd {y} but land nothing", "{x} press {y} in vain")
TURNED = ("{y} turns the blows aside", "{y}'s guard holds", "{y} weathers it unhurt")
HURT = ("{y} takes {n} wound{s}", "{y} is hurt ({n} wound{s})", "{y} reels from {n} wound{s}")
# a mob's name is plural ("Odda's hounds", "Red Spears"): its verbs agree with it
WAVERS = ("{m} waver: {n} ready to run", "fear grips {m}: {n} may flee")
STEADY = ("{m} hold their nerve", "{m} stand firm", "{m} do not flinch")
HELD = ("{c} steadies {m}", "{c} holds {m} together", "{c} keeps {m} in line")
FIRST = ("{x} acts first in round {n}", "{x} is quickest in round {n}", "{x} leads round {n}")
DEPLOYS = ("{x} deploys around {at}", "{x} takes the field at {at}")
DEPLOY_MANY = ("{x} deploy around {at}", "{x} take the field at {at}")


def _unit(key: Any) -> str:
    return str(key).removeprefix("mob:")


class Teller(BaseTeller):
    def tell(self, kind: str, data: dict[str, Any], text: str) -> str | None:
        say = self.voice.say
        if kind in ("pools", "deployment"):
            return None
        if kind == "deploy":
            where = next(iter((data.get("at") or {}).values()), None)
            unit = data.get("unit", "?")
            return say(DEPLOY_MANY if self._is_mob(unit) else DEPLOYS, x=unit, at=v.spot(where))
        if kind == "initiative":
            order = data.get("order") or []
            return say(FIRST, x=_unit(order[0]), n=self.turn) if order else None
        if kind == "move":
            x = data.get("creature") or data.get("mob") or "?"
            if "from" not in data:  # a mob's move: where to, figure by figure
                return say(v.MOVE_ON_MANY, x=x)
            return say(v.heading(self._side(x), data.get("from"), data.get("to")), x=x)
        if kind == "attack":
            attackers, y = data.get("attackers", []), data.get("target", "?")
            x = v.listing(attackers)
            if len(attackers) > 1:
                return say(GANG if int(data.get("pool", 0)) else GANG_WHIFF, x=x, y=y)
            return say(ATTACKS if int(data.get("pool", 0)) else WHIFFS, x=x, y=y)
        if kind == "defence":
            return say(TURNED, y=data.get("target", "?")) if not data.get("damage") else None
        if kind == "damage":
            n = int(data.get("damage", 0))
            return say(HURT, y=data.get("creature", "?"), n=n, s="s" * (n != 1))
        if kind == "death":
            return say(v.STRUCK_DOWN, x=data.get("creature", "?"))
        if kind == "morale":
            m, danger = data.get("mob", "?"), int(data.get("danger", 0))
            return say(WAVERS, m=m, n=danger) if danger else say(STEADY, m=m)
        if kind == "rally":
            return say(HELD, c=data.get("controller", "?"), m=data.get("mob", "?"))
        return text

    def _is_mob(self, name: Any) -> bool:
        teams = self.save.get("setup", {}).get("teams", {})
        return any(
            isinstance(m, dict) and m.get("name") == name
            for team in teams.values()
            if isinstance(team, dict)
            for m in team.get("mobs", [])
        )

    def _side(self, creature: Any) -> str:
        teams = self.save.get("setup", {}).get("teams", {})
        for side in SIDES:
            team = teams.get(side) or {}
            names = [c.get("name") for c in team.get("characters", []) if isinstance(c, dict)]
            mobs = [m.get("name") for m in team.get("mobs", []) if isinstance(m, dict)]
            if creature in names or any(str(creature).startswith(f"{m} ") for m in mobs):
                return side
        return "A"
