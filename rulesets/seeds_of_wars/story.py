"""Seeds of Wars told as a story (the report's hook): charges, attacks, morale and routs of
units by name (a unit is "it" unless its army gives its type a pronoun), every destroyed unit
credited to the hits that wore it down; the dice totals left to the workings. The shared
scenes (`wargame_cli.report.scenes`) join a round's attacks on one unit and the attacks both
ways between two; this teller names the facts (`fact`)."""

from __future__ import annotations

from typing import Any

from wargame_cli.kit import pronouns
from wargame_cli.report import scenes as sc
from wargame_cli.report import voice as v
from wargame_cli.report.credit import credited, fallen
from wargame_cli.report.hooks import Teller as BaseTeller
from wargame_cli.report.reading import Line
from wargame_cli.report.scenes import Fact

CHARGES = ("{x} charges {y}", "{x} crashes into {y}", "{x} throws {xp} weight into {y}")
HITS = (
    "{x} hits {y}",
    "{x} draws blood from {y}",
    "{x} drives {xp} attack home on {y}",
    "{x} wears down {y}",
)
MISSES = (
    "{x} fails to hurt {y}",
    "{y} weathers {x}'s attack",
    "{x}'s attack on {y} comes to nothing",
    "{y} holds {yp} ground against {x}",
)
HOLDS = ("{x} holds {xp} nerve", "{x} stands firm", "{x} does not waver")
SHAKEN = ("{x} wavers and is shaken", "{x} loses heart and is shaken", "{x} falters, shaken")
ROUTS = ("{x} breaks and is routed", "{x} is routed", "{x} turns and runs, routed")
RECOVERS = ("{x} rallies: {to} now", "{x} recovers {xp} nerve ({to} now)")
STILL = ("{x} is still {to}", "{x} cannot shake it off: still {to}")
FLEES = ("{x} flees to {to}", "{x} runs for {xp} reserve, reaching {to}")
QUITS = ("{x} leaves the battle from {xp} reserve", "{x} quits the field")
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
    default_pronoun = pronouns.IT  # a unit is one body of soldiers

    def __init__(self, save: dict[str, Any], voice: v.Voice) -> None:
        super().__init__(save, voice)
        self.cast = self.pieces("units", lambda uid, unit: f"{uid} {unit.get('type', '')}".strip())
        teams = save.get("setup", {}).get("teams", {})
        for uid, name in self.cast.items():  # "Knights (they)": each of its army's Knights
            said = (teams.get(uid[:1]) or {}).get("pronouns") or {}
            kind = name.split(" ", 1)[-1]
            if isinstance(said, dict) and kind in said:
                self.pronouns[name] = pronouns.of(said[kind])

    def name(self, uid: Any) -> str:
        return self.cast.get(str(uid), str(uid))

    def tell(self, kind: str, data: dict[str, Any], text: str) -> str | None:
        say = self.say
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
            a, t = self.name(data.get("attacker")), self.name(data.get("target"))
            self.credit.blow(t, a)
            return say(HITS, x=a, y=t)
        if kind == "miss":
            return say(MISSES, x=self.name(data.get("attacker")), y=self.name(data.get("target")))
        if kind == "destroyed":
            return credited(say(v.DESTROYED, x=x), self.credit.authors(x), "hit")
        if kind == "morale":
            if data.get("from") == data.get("to"):
                return say(HOLDS, x=x)
            return say(ROUTS if data.get("to") == "Routed" else SHAKEN, x=x)
        if kind == "recovery":
            to = str(data.get("to", "")).lower()
            return say(STILL if data.get("from") == data.get("to") else RECOVERS, x=x, to=to)
        if kind == "flee":
            return say(FLEES, x=x, to=data.get("to", "?"))
        if kind == "removed":
            return say(QUITS, x=x)
        if kind == "retreat":
            return say(RETREATS if data.get("success") else CAUGHT, x=x, y=y)
        if kind == "no_retreat":
            return say(NO_ROOM, x=x)
        return text

    def fact(self, line: Line) -> Fact | None:
        d = line.data
        if line.kind in ("hit", "miss"):
            a, t = self.name(d.get("attacker")), self.name(d.get("target"))
            shot = " shoots " in line.text
            return Fact(sc.BLOW, a, t, int(line.kind == "hit"), shot=shot)
        if line.kind in ("move", "flee"):
            return Fact(sc.MOVE)
        calm = line.kind in ("morale", "recovery") and d.get("from") == d.get("to")
        if calm or line.kind in ("initiative", "deploy", "deploy_roll", "no_retreat"):
            return Fact(sc.ASIDE)  # who acts first, the set-up, a unit that holds: the dice's
        return None

    def fallen(self, kind: str, data: dict[str, Any], told: str) -> str:
        x = self.name(data.get("unit", ""))
        if kind != "destroyed":
            return told
        return fallen(x, self.credit.authors(x), unit="hit")


def _row(space: Any) -> int:
    """`b3` -> 3: the row, counted from side A's Reserve."""
    digits = "".join(ch for ch in str(space) if ch.isdigit())
    return int(digits) if digits else 0
