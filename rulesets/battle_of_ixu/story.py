"""The Battle of Ixu told as a story (the report's hook): charges across the field, blows and
wounds in words, each god by the pronoun its warband gives it, every death credited to the
blows that brought it about; the dice left to the workings.

A turn is told as the shared scenes (`wargame_cli.report.scenes`): this teller says which
lines are blows (`fact`), and the report joins blows by several gods on one target into one
sentence, blows between the same two into an exchange, and in the brief style quiet turns
(no wound, no death, no move) into one line."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.battle_of_ixu.teams import own_places, table_place

from wargame_cli.kit.sides import SIDES
from wargame_cli.report import voice as v
from wargame_cli.report.credit import credited, fallen
from wargame_cli.report.field import Field, on
from wargame_cli.report.hooks import Teller as BaseTeller
from wargame_cli.report.reading import Line
from wargame_cli.report.scenes import ASIDE, BLOW, LULL, MOVE, STATE, Fact

CHARGES = ("{x} charges {y}", "{x} rushes at {y}", "{x} storms into {y}", "{x} runs at {y}")
CLOSES = ("{x} steps in against {y}", "{x} closes with {y}", "{x} edges into contact with {y}")
NO_HITS = (
    "{x} strikes at {y}, but {ys} turns every blow aside",
    "{x}'s blows glance off {y}",
    "{y} parries {x}'s attack",
    "{x} swings at {y} and misses",
    "{x} finds no opening against {y}",
)
ONE_HIT = ("{x} slashes {y}", "{x} cuts {y}", "{x} lands a blow on {y}", "{x} catches {y}")
HITS = ("{x} lands {n} blows on {y}", "{x} hits {y} {n} times", "{x} rains {n} blows on {y}")
# a shot from afar (c9, a power a team file gives): told as a shot, never as a blow in contact
SHOT_MISSES = (
    "{x} shoots at {y} from {d}, and misses",
    "{x}'s shot at {y} from {d} goes wide",
    "{x} looses at {y} from {d}; {ys} is untouched",
)
SHOT_HITS = ("{x} shoots {y} from {d}", "{x}'s shot from {d} finds {y}")
SHOTS_HIT = ("{x} shoots {y} from {d}, {n} hits", "{x}'s shots from {d} hit {y} {n} times")
SHOT_DOWN = ("{x} is shot down", "{x} falls to a shot", "{x} drops, shot from afar")
WOUNDS = (
    "{y} bleeds ({total} of {health} damage)",
    "{y} is wounded ({total} of {health} damage)",
    "{y} now carries {total} of {health} damage",
)
SPENT = ("{y} cannot bear it: {yp} {health} health is spent",)
FIGHTS_ON = ("{x} fights on", "{x} stays on {xp} feet", "{x} shakes off the wounds")
ROUND = ("{x} edges round {f}", "{x} works round behind {f}", "{x} steps round {f}")
HOLDS = ("{x} holds back from the fight", "{x} keeps the blade low", "{x} declines to strike")
ORDER = (
    "{first} moves first; {last} goes last",
    "{first} has the first move, {last} the last",
    "{first} is quickest this turn, {last} slowest",
)


def _number(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


class Teller(BaseTeller):
    fell_words = (" falls",)  # a damage edit's line: "Kuote takes 4 damage and Kuote falls"

    def __init__(self, save: dict[str, Any], voice: v.Voice) -> None:
        super().__init__(save, voice)
        self.field = Field.of_save(save, self.sides)
        self._deployed(save)
        self.allowed: dict[str, float] = {}  # each model's movement die this turn (c5)
        health = (save.get("options") or {}).get("health")
        for name in self.roster() if isinstance(health, int) else ():
            self.took(name, 0, 0, health)  # every god's health, as the options give it

    def _deployed(self, save: dict[str, Any]) -> None:
        """Every god where its warband lined up (the rules' own placing), so a flank reads
        as the side deployed from the first move on."""
        teams = save.get("setup", {}).get("teams", {})
        options = save.get("options") or {}
        names = [
            m.get("name")
            for t in teams.values()
            if isinstance(t, dict)
            for m in t.get("models", [])
        ]
        for side in SIDES:
            models = [m for m in (teams.get(side) or {}).get("models", []) if isinstance(m, dict)]
            try:
                places = own_places(models, options)
            except (KeyError, TypeError, ValueError):
                continue
            for model, own in zip(models, places, strict=True):
                name = str(model.get("name"))
                name = f"{name} ({side})" if names.count(name) > 1 else name
                where = table_place(own, side, options)
                self.field.place(name, side, (where.x, where.y))

    def tell(self, kind: str, data: dict[str, Any], text: str) -> str | None:
        say = self.say
        x = data.get("model") or data.get("attacker") or ""
        if kind == "order":
            order = data.get("order") or []
            if len(order) < 2:
                return None
            return say(ORDER, first=order[0], last=order[-1])
        if kind == "attribute":
            if isinstance(data.get("movement"), int | float):
                self.allowed[str(x)] = float(data["movement"])
            return None
        if kind in ("move", "stand", "charge"):
            return self._moved(kind, x, data)
        if kind == "hold":
            return say(HOLDS, x=x)
        if kind == "attack":
            hits, y = int(data.get("hits", 0)), data.get("target", "")
            pool = NO_HITS if hits == 0 else ONE_HIT if hits == 1 else HITS
            return say(pool, x=data.get("attacker", ""), y=y, n=hits)
        if kind == "shot":
            hits, y = _number(data.get("hits")), data.get("target", "")
            shots = SHOT_MISSES if hits == 0 else SHOT_HITS if hits == 1 else SHOTS_HIT
            d = v.inches(data.get("inches"))
            d = d if d and d[0].isdigit() else "close range"
            return say(shots, x=data.get("attacker", ""), y=y, n=hits, d=d)
        if kind == "wound":
            return self._wound(data)
        if kind == "health":
            return say(FIGHTS_ON, x=x) if data.get("survives") else None
        if kind == "death":
            return self._death(x, data)
        return text

    def _moved(self, kind: str, x: str, data: dict[str, Any]) -> str:
        side = data.get("side")
        self.field.place(x, side, data.get("from"))
        self.field.place(x, side, data.get("to"))
        if kind == "stand":
            return self.say(v.STAYS, x=x)
        if kind == "charge":
            charged = data.get("charged", [])
            where = self.field.move(x, side, data.get("from"), data.get("to"), charge=True)
            flank = self.field.flank(self.field.side_of.get(charged[0], ""), data.get("to"))
            moved = v.distance(data.get("from"), data.get("to")) or 0.0
            pool = CLOSES if v.scale(moved, self.allowed.get(x)) == 0 else CHARGES
            said = self.say(pool, x=x, y=v.listing(charged))
            if charged and self.field.behind(x, charged[0]):
                where = "from behind"
            tail = where or on(flank)
            return f"{said} {tail}".strip()
        pool = self._pool(x, data)
        where = self.field.move(x, side, data.get("from"), data.get("to"))
        if pool not in v.FORWARD and where.startswith(("beside ", "behind ")):
            return self.say(ROUND, x=x, f=where.split(" ", 1)[1])  # the way round a friend
        return " ".join(p for p in (self.say(pool, x=x), v.inches(data.get("inches")), where) if p)

    def _pool(self, x: str, data: dict[str, Any]) -> Any:
        """The words for a move, scaled by how much of its movement die it used."""
        return v.heading(data.get("side"), data.get("from"), data.get("to"), self.allowed.get(x))

    def _wound(self, data: dict[str, Any]) -> str:
        y = str(data.get("target", ""))
        self.credit.blow(y, str(data.get("attacker", "")), _number(data.get("damage")))
        total, health = _number(data.get("total")), _number(data.get("health"))
        self.took(y, _number(data.get("damage")), total, health or None)
        if health and total > health:  # not "2 of 1 damage"
            return self.say(SPENT, y=y, health=health)
        return self.say(WOUNDS, y=y, total=total, health=health)

    def _death(self, x: str, data: dict[str, Any]) -> str:
        self.field.fall(x)
        pool = (
            v.DIES_OF_WOUNDS
            if data.get("phase") == "health"
            else SHOT_DOWN
            if data.get("how") == "shot"
            else v.STRUCK_DOWN
        )
        return credited(self.say(pool, x=x), self.credit.authors(x))

    def fallen(self, kind: str, data: dict[str, Any], told: str) -> str:
        x = str(data.get("model", ""))
        p = self.they(x)
        how = (
            f"died of {p.possessive} wounds at the health check"
            if data.get("phase") == "health"
            else "shot down"
            if data.get("how") == "shot"
            else "struck down in combat"
        )
        return fallen(x, self.credit.authors(x), how)

    # -- whole scenes (the shared telling, `wargame_cli.report.scenes`) -------------
    def fact(self, line: Line) -> Fact | None:
        d = line.data
        if line.kind == "attack":
            return Fact(BLOW, str(d.get("attacker")), str(d.get("target")), _number(d.get("hits")))
        if line.kind == "wound":
            return Fact(STATE, target=str(d.get("target", "")))
        if line.kind in ("order", "stand") or (line.kind == "health" and not line.loss):
            return Fact(ASIDE)  # the dice ledger (`--with-rules`) keeps them
        if line.kind == "hold":
            return Fact(LULL)
        if line.kind in ("move", "charge"):
            return Fact(MOVE)
        return None
