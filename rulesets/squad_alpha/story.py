"""Squad Alpha told as a story (the report's hook): who moved, fired and fell, by name and by
the pronoun the squad gives each miniature; the activation dice and steps left to the
workings. The shared scenes (`wargame_cli.report.scenes`) join shots on one target into a
volley and shots both ways into an exchange of fire; this teller names the facts (`fact`)."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.squad_alpha.movement import MOVE_INCHES

from wargame_cli.report import scenes as sc
from wargame_cli.report import voice as v
from wargame_cli.report.credit import credited, fallen
from wargame_cli.report.field import Field, on
from wargame_cli.report.hooks import Teller as BaseTeller
from wargame_cli.report.reading import Line

FIRES = (
    "{x} opens fire on {y}",
    "{x} levels {xp} weapon at {y}",
    "{x} takes a shot at {y}",
    "{x} draws a bead on {y}",
)
MELEE = ("{x} goes at {y} hand to hand", "{x} closes with {y}", "{x} grapples with {y}")
HIT = ("the shot finds {y}", "{y} is hit", "{y} takes the round")
SCORED = ("the shot misses {z} and strikes {y} in the melee",)
SAVED = ("cover saves {y}", "{y} is shaken but unhurt", "{y} keeps {yp} head down, unhurt")
WIDE = ("the shot goes wide", "it misses", "{x} misses", "the round flies past")
FROZE = ("{x} hesitates", "{x} freezes", "{x} holds {xp} fire", "{x} waits for a better moment")
FUMBLED = ("{x}'s attack comes to nothing", "{x} cannot land the blow")
INITIATIVE = ("{s} seizes the initiative", "{s} has the initiative", "{s} moves first")
ROLLOFF = ("{s} wins the roll-off and deploys first",)
DEPLOY = ("{x} takes position {at}", "{x} is set down {at}", "{x} deploys {at}")
RATING = ("{s}'s command rating falls to {n}", "{s} is shaken: command rating {n}")


def _named(entry: Any, cast: dict[str, str]) -> Any:
    """A deploy event with its miniature by name (the field knows them by name)."""
    data = entry.get("data") if isinstance(entry, dict) else None
    if entry.get("kind") != "deploy" or not isinstance(data, dict):
        return entry
    return {**entry, "data": {**data, "id": cast.get(str(data.get("id")), data.get("id"))}}


class Teller(BaseTeller):
    def __init__(self, save: dict[str, Any], voice: v.Voice) -> None:
        super().__init__(save, voice)
        self.cast = self.pieces("miniatures", lambda uid, mini: str(mini.get("name", uid)))
        self.field = Field.of_save(save, self.sides)
        for uid, name in self.cast.items():
            self.field.side_of[name] = uid[:1]
        self.field.deployed(  # every flank judged from the whole deployment
            [_named(e, self.cast) for e in save.get("log") or []], lambda who: ""
        )
        self.striker = ""  # who fired or struck last: the author of the hit that follows

    def roster(self) -> dict[str, str]:
        """Every piece of both sides by the name the story gives it -> its side."""
        return {name: uid[:1] for uid, name in self.cast.items()}

    def name(self, mini_id: Any) -> str:
        return self.cast.get(str(mini_id), str(mini_id))

    def tell(self, kind: str, data: dict[str, Any], text: str) -> str | None:
        say = self.say
        x = self.name(data.get("id", ""))
        if kind in ("attribute", "step", "activate", "deployed"):
            return None
        if kind == "rolloff":
            winner = self.sides.get(data.get("winner", ""))
            return None if data.get("tie") or not winner else say(ROLLOFF, s=winner)
        if kind == "deploy":
            side = str(data.get("id", ""))[:1]
            self.field.place(x, side, data.get("pos"))
            at = self.field.by(x) or on(self.field.flank(side, data.get("pos")))
            return say(DEPLOY, x=x, at=at)
        if kind == "initiative":
            return say(INITIATIVE, s=self.sides.get(data.get("winner", ""), "?"))
        if kind == "test":
            if data.get("passed"):
                return None
            what = str(data.get("what", ""))
            if what.startswith("shot"):
                return say(WIDE, x=x)
            if what.startswith("melee"):
                return say(FUMBLED, x=x)
            return say(FROZE, x=x)
        if kind == "move":
            side = str(data.get("id", ""))[:1]  # "A3": side A's third miniature
            pool = v.heading(side, data.get("from"), data.get("to"), MOVE_INCHES)
            where = self.field.move(x, side, data.get("from"), data.get("to"))
            self.field.place(x, side, data.get("to"))
            return f"{say(pool, x=x)} {where}".strip()
        if kind == "shot":
            self.striker = x
            return say(FIRES, x=x, y=self.name(data.get("target")))
        if kind == "melee":
            self.striker = x
            return say(MELEE, x=x, y=self.name(data.get("target")))
        if kind == "hit":
            if "missed" in data:
                return say(SCORED, y=x, z=self.name(data["missed"]))
            return say(HIT, y=x)
        if kind == "save":
            return say(SAVED, y=x) if data.get("saved") else None
        if kind == "kill":
            self.field.fall(x)
            self.credit.blow(x, self.striker)  # one hit kills: the last to fire or strike
            return credited(say(v.STRUCK_DOWN, x=x), self.credit.authors(x), "hit")
        if kind == "rating":
            return say(RATING, s=self.sides.get(data.get("side", ""), "?"), n=data.get("rating"))
        return text

    def fact(self, line: Line) -> sc.Fact | None:
        d = line.data
        if line.kind in ("shot", "melee"):
            target = self.name(d.get("target"))
            return sc.Fact(sc.BLOW, self.name(d.get("id")), target, shot=line.kind == "shot")
        if line.kind == "hit":
            return sc.Fact(sc.HIT, hits=1)
        if line.kind == "save":  # a save made takes the hit back
            return sc.Fact(sc.HIT, hits=-1) if d.get("saved") else sc.Fact(sc.TOLD)
        if line.kind == "test" and _attack(d):
            return sc.Fact(sc.TOLD)
        if line.kind in ("test", "initiative", "rolloff", "deploy"):
            return sc.Fact(sc.ASIDE)  # a hesitation, who moves first, the set-up: the dice's story
        if line.kind == "move":
            return sc.Fact(sc.MOVE)
        return None

    def fallen(self, kind: str, data: dict[str, Any], told: str) -> str:
        x = self.name(data.get("id", ""))
        return fallen(x, self.credit.authors(x), unit="hit")


def _attack(data: dict[str, Any]) -> bool:
    """A failed test of a shot or a blow: the attack's miss."""
    return str(data.get("what", "")).startswith(("shot", "melee"))
