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

# a unit is "it" ("A1 Knights holds its nerve") unless its army says "they" ("A1 Knights hold
# their nerve"): `{xv:holds|hold}` is the verb that agrees (`Teller.plural`)
CHARGES = (
    "{x} {xv:charges|charge} {y}",
    "{x} {xv:crashes|crash} into {y}",
    "{x} {xv:throws|throw} {xp} weight into {y}",
)
HITS = (
    "{x} {xv:hits|hit} {y}",
    "{x} {xv:draws|draw} blood from {y}",
    "{x} {xv:drives|drive} {xp} attack home on {y}",
    "{x} {xv:wears|wear} down {y}",
)
MISSES = (
    "{x} {xv:fails|fail} to hurt {y}",
    "{y} {yv:weathers|weather} {x}'s attack",
    "{x}'s attack on {y} comes to nothing",
    "{y} {yv:holds|hold} {yp} ground against {x}",
)
HOLDS = (
    "{x} {xv:holds|hold} {xp} nerve",
    "{x} {xv:stands|stand} firm",
    "{x} {xv:does|do} not waver",
)
SHAKEN = (
    "{x} {xv:wavers|waver} and {xv:is|are} shaken",
    "{x} {xv:loses|lose} heart and {xv:is|are} shaken",
    "{x} {xv:falters|falter}, shaken",
)
ROUTS = (
    "{x} {xv:breaks|break} and {xv:is|are} routed",
    "{x} {xv:is|are} routed",
    "{x} {xv:turns|turn} and {xv:runs|run}, routed",
)
RECOVERS = ("{x} {xv:rallies|rally}: {to} now", "{x} {xv:recovers|recover} {xp} nerve ({to} now)")
STILL = ("{x} {xv:is|are} still {to}", "{x} cannot shake it off: still {to}")
FLEES = ("{x} {xv:flees|flee} to {to}", "{x} {xv:runs|run} for {xp} reserve, reaching {to}")
QUITS = ("{x} {xv:leaves|leave} the battle from {xp} reserve", "{x} {xv:quits|quit} the field")
RETREATS = (
    "{x} {xv:falls|fall} back before {y}",
    "{x} {xv:slips|slip} away from {y}'s attack",
    "{x} {xv:gives|give} ground to {y}",
)
CAUGHT = ("{x} {xv:tries|try} to fall back from {y} but {xv:is|are} caught",)
NO_ROOM = ("{x} {xv:has|have} no room to fall back", "{x} {xv:is|are} pinned with nowhere to go")
FIRST = ("{s} takes the initiative", "{s} has the initiative", "{s} acts first this round")
DEPLOY_FIRST = ("{s} deploys first",)
DEPLOYS = (
    "{x} {xv:takes|take} {xp} place at {at}",
    "{x} {xv:deploys|deploy} at {at}",
    "{x} {xv:forms|form} up at {at}",
)


class Teller(BaseTeller):
    wound_word = "hit"
    health_word = "Ht"
    fell_words = (
        " and is destroyed",
    )  # a damage edit's line: "A1 Knights takes 3 Ht and is destroyed"
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
        hits = self.pieces("units", lambda uid, unit: str(unit.get("Ht", "")))
        for uid, ht in hits.items():  # each unit's Ht, as its army gives it
            if ht.isdigit():
                self.took(self.cast[uid], 0, 0, int(ht))

    def roster(self) -> dict[str, str]:
        """Every piece of both sides by the name the story gives it -> its side."""
        return {name: uid[:1] for uid, name in self.cast.items()}

    def name(self, uid: Any) -> str:
        return self.cast.get(str(uid), str(uid))

    def plural(self, name: object) -> bool:
        """A unit its army calls "they" takes a plural verb: "A1 Knights charge"."""
        return self.they(name).plural

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
            self.took(t, 1)  # a hit takes one Ht
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

    def fact(self, line: Line) -> sc.Fact | None:
        d = line.data
        if line.kind in ("hit", "miss"):
            a, t = self.name(d.get("attacker")), self.name(d.get("target"))
            shot = " shoots " in line.text
            return sc.Fact(sc.BLOW, a, t, int(line.kind == "hit"), shot=shot)
        if line.kind in ("move", "flee"):
            return sc.Fact(sc.MOVE)
        calm = line.kind in ("morale", "recovery") and d.get("from") == d.get("to")
        if calm or line.kind in ("initiative", "deploy", "deploy_roll", "no_retreat"):
            return sc.Fact(sc.ASIDE)  # who acts first, the set-up, a unit that holds: the dice's
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
