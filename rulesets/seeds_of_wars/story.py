"""Seeds of Wars told as a story (the report's hook): charges, attacks, morale and routs of
units by name; the dice totals left to the workings."""

from __future__ import annotations

from typing import Any

from wargame_cli.report import voice as v
from wargame_cli.report.hooks import Teller as BaseTeller

CHARGES = ("{x} charges {y}", "{x} crashes into {y}", "{x} drives into {y}")
HITS = ("{x} hits {y}", "{x} draws blood from {y}", "{x} scores a hit on {y}", "{x} wears down {y}")
MISSES = (
    "{x} fails to hurt {y}",
    "{y} weathers {x}'s attack",
    "{x}'s attack on {y} comes to nothing",
)
HOLDS = ("{x} holds its nerve", "{x} stands firm", "{x} does not waver")
SHAKEN = ("{x} wavers and is {to}", "{x} loses heart: {to}", "{x} falters ({to})")
RECOVERS = ("{x} rallies ({to})", "{x} recovers its nerve ({to})", "{x} steadies ({to})")
RETREATS = (
    "{x} falls back before {y}",
    "{x} slips away from {y}'s attack",
    "{x} gives ground to {y}",
)
CAUGHT = ("{x} tries to fall back from {y} but is caught",)
NO_ROOM = ("{x} has no room to fall back", "{x} is pinned with nowhere to go")
FIRST = ("{s} takes the initiative", "{s} has the initiative", "{s} acts first this round")
DEPLOY_FIRST = ("{s} deploys first",)
DEPLOYS = ("{x} takes its place at {at}", "{x} deploys at {at}", "{x} forms up at {at}")


class Teller(BaseTeller):
    def __init__(self, save: dict[str, Any], voice: v.Voice) -> None:
        super().__init__(save, voice)
        self.cast = self.pieces("units", lambda uid, unit: f"{uid} {unit.get('type', '')}".strip())

    def name(self, uid: Any) -> str:
        return self.cast.get(str(uid), str(uid))

    def tell(self, kind: str, data: dict[str, Any], text: str) -> str | None:
        say = self.voice.say
        x = self.name(data.get("unit") or data.get("attacker") or "")
        y = self.name(data.get("target") or data.get("attacker") or "")
        if kind in ("initiative_tie", "result"):
            return None
        if kind == "deploy_roll":
            first = self.sides.get(data.get("first", ""))
            return say(DEPLOY_FIRST, s=first) if first else None
        if kind == "deploy":
            return say(DEPLOYS, x=x, at=data.get("space", "?"))
        if kind == "initiative":
            return say(FIRST, s=self.sides.get(data.get("winner", ""), "?"))
        if kind == "move":
            charging = [self.name(u) for u in data.get("charging") or []]
            if charging:
                return say(CHARGES, x=x, y=v.listing(charging))
            rows = [_row(data.get("from")), _row(data.get("to"))]
            pool = v.heading(str(data.get("unit", "A"))[:1], rows[0], rows[1])
            return f"{say(pool, x=x)} to {data.get('to', '?')}"
        if kind == "hit":
            return say(HITS, x=self.name(data.get("attacker")), y=self.name(data.get("target")))
        if kind == "miss":
            return say(MISSES, x=self.name(data.get("attacker")), y=self.name(data.get("target")))
        if kind == "destroyed":
            return say(v.DESTROYED, x=x)
        if kind == "morale":
            if data.get("from") == data.get("to"):
                return say(HOLDS, x=x)
            return say(SHAKEN, x=x, to=str(data.get("to", "")).lower())
        if kind == "recovery":
            return say(RECOVERS, x=x, to=str(data.get("to", "")).lower())
        if kind == "retreat":
            return say(RETREATS if data.get("success") else CAUGHT, x=x, y=y)
        if kind == "no_retreat":
            return say(NO_ROOM, x=x)
        return text


def _row(space: Any) -> int:
    """`b3` -> 3: the row, counted from side A's Reserve."""
    digits = "".join(ch for ch in str(space) if ch.isdigit())
    return int(digits) if digits else 0
