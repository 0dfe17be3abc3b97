"""The Battle of Ixu told as a story (the report's hook): charges, blows and wounds in words,
the dice left to the workings."""

from __future__ import annotations

from typing import Any

from wargame_cli.report import voice as v
from wargame_cli.report.hooks import Teller as BaseTeller

CHARGES = ("{x} charges {y}", "{x} rushes at {y}", "{x} storms into {y}", "{x} runs at {y}")
NO_HITS = (
    "{x} strikes at {y}, but {y} turns every blow aside",
    "{x}'s blows glance off {y}",
    "{y} parries {x}'s attack",
    "{x} swings at {y} and misses",
    "{x} finds no opening against {y}",
)
ONE_HIT = ("{x} slashes {y}", "{x} cuts {y}", "{x} lands a blow on {y}", "{x} catches {y}")
HITS = ("{x} lands {n} blows on {y}", "{x} hits {y} {n} times", "{x} rains {n} blows on {y}")
WOUNDS = (
    "{y} bleeds ({total} of {health} damage)",
    "{y} is wounded ({total} of {health} damage)",
    "{y} now carries {total} of {health} damage",
)
FIGHTS_ON = ("{x} fights on", "{x} stays on their feet", "{x} shakes off the wounds")
HOLDS = ("{x} holds back from the fight", "{x} keeps the blade low", "{x} declines to strike")
ORDER = (
    "{first} moves first; {last} goes last",
    "{first} has the first move, {last} the last",
    "{first} is quickest this turn, {last} slowest",
)


class Teller(BaseTeller):
    def tell(self, kind: str, data: dict[str, Any], text: str) -> str | None:
        say = self.voice.say
        x = data.get("model") or data.get("attacker") or ""
        if kind == "order":
            order = data.get("order") or []
            if len(order) < 2:
                return None
            return say(ORDER, first=order[0], last=order[-1])
        if kind == "attribute":
            return None
        if kind in ("move", "stand"):
            if kind == "stand":
                return say(v.STAYS, x=x)
            pool = v.heading(data.get("side"), data.get("from"), data.get("to"))
            return f"{say(pool, x=x)} {v.inches(data.get('inches'))}".strip()
        if kind == "charge":
            return say(CHARGES, x=x, y=v.listing(data.get("charged", [])))
        if kind == "hold":
            return say(HOLDS, x=x)
        if kind == "attack":
            hits, y = int(data.get("hits", 0)), data.get("target", "")
            pool = NO_HITS if hits == 0 else ONE_HIT if hits == 1 else HITS
            return say(pool, x=data.get("attacker", ""), y=y, n=hits)
        if kind == "wound":
            return say(
                WOUNDS, y=data.get("target", ""), total=data.get("total"), health=data.get("health")
            )
        if kind == "health":
            return say(FIGHTS_ON, x=x) if data.get("survives") else None
        if kind == "death":
            pool = v.DIES_OF_WOUNDS if data.get("phase") == "health" else v.STRUCK_DOWN
            return say(pool, x=x)
        return text
