"""The Battle of Ixu told as a story (the report's hook): charges across the field, blows and
wounds in words, each god by the pronoun its warband gives it, every death credited to the
blows that brought it about; the dice left to the workings.

A turn is told as scenes (`scenes`): blows by several gods on one target become one
sentence, blows between the same two an exchange, the health checks one line; in the brief
style, quiet turns (no wound, no death, no move) run together into one line."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.battle_of_ixu.teams import own_places, table_place

from wargame_cli.kit.sides import SIDES
from wargame_cli.report import voice as v
from wargame_cli.report.credit import credited, fallen
from wargame_cli.report.field import Field, on
from wargame_cli.report.hooks import Teller as BaseTeller
from wargame_cli.report.reading import Beat, Line, Section, joined
from wargame_cli.report.scenes import Blow, scenes_of

CHARGES = ("{x} charges {y}", "{x} rushes at {y}", "{x} storms into {y}", "{x} runs at {y}")
NO_HITS = (
    "{x} strikes at {y}, but {ys} turns every blow aside",
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
SPENT = ("{y} cannot bear it: {yp} {health} health is spent",)
FIGHTS_ON = ("{x} fights on", "{x} stays on {xp} feet", "{x} shakes off the wounds")
ALL_FIGHT_ON = ("{x} fight on", "{x} stay on their feet", "{x} shake off their wounds")
ROUND = ("{x} edges round {f}", "{x} works round behind {f}", "{x} steps round {f}")
HOLDS = ("{x} holds back from the fight", "{x} keeps the blade low", "{x} declines to strike")
ORDER = (
    "{first} moves first; {last} goes last",
    "{first} has the first move, {last} the last",
    "{first} is quickest this turn, {last} slowest",
)
QUIET = (
    "blows glance off shields",
    "neither side draws blood",
    "blades clash and nobody bleeds",
)
AGAIN_QUIET = ("for {n} turns, {what}",)


def _number(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


class Teller(BaseTeller):
    def __init__(self, save: dict[str, Any], voice: v.Voice) -> None:
        super().__init__(save, voice)
        self.field = Field.of_save(save, self.sides)
        self._deployed(save)

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
            return None
        if kind in ("move", "stand", "charge"):
            return self._moved(kind, x, data)
        if kind == "hold":
            return say(HOLDS, x=x)
        if kind == "attack":
            hits, y = int(data.get("hits", 0)), data.get("target", "")
            pool = NO_HITS if hits == 0 else ONE_HIT if hits == 1 else HITS
            return say(pool, x=data.get("attacker", ""), y=y, n=hits)
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
            said = self.say(CHARGES, x=x, y=v.listing(charged))
            if charged and self.field.behind(x, charged[0]):
                where = "from behind"
            tail = where or on(flank)
            return f"{said} {tail}".strip()
        pool = v.heading(side, data.get("from"), data.get("to"))
        where = self.field.move(x, side, data.get("from"), data.get("to"))
        if pool is not v.MOVE_ON and where.startswith(("beside ", "behind ")):
            return self.say(ROUND, x=x, f=where.split(" ", 1)[1])  # the way round a friend
        return " ".join(p for p in (self.say(pool, x=x), v.inches(data.get("inches")), where) if p)

    def _wound(self, data: dict[str, Any]) -> str:
        y = str(data.get("target", ""))
        self.credit.blow(y, str(data.get("attacker", "")), _number(data.get("damage")))
        total, health = _number(data.get("total")), _number(data.get("health"))
        if health and total > health:  # not "2 of 1 damage"
            return self.say(SPENT, y=y, health=health)
        return self.say(WOUNDS, y=y, total=total, health=health)

    def _death(self, x: str, data: dict[str, Any]) -> str:
        self.field.fall(x)
        pool = v.DIES_OF_WOUNDS if data.get("phase") == "health" else v.STRUCK_DOWN
        return credited(self.say(pool, x=x), self.credit.authors(x))

    def fallen(self, kind: str, data: dict[str, Any], told: str) -> str:
        x = str(data.get("model", ""))
        p = self.they(x)
        how = (
            f"died of {p.possessive} wounds at the health check"
            if data.get("phase") == "health"
            else "struck down in combat"
        )
        return fallen(x, self.credit.authors(x), how)

    # -- whole scenes ------------------------------------------------------------------
    def scenes(self, sections: list[Section], style: str) -> list[Section]:
        if style != "brief":
            return [self._scene(section, style) for section in sections]
        return self._quiet_runs(sections)

    def _scene(self, section: Section, style: str) -> Section:
        lines = section.lines
        out: list[Beat] = []
        moves = [ln for ln in lines if ln.kind in ("move", "charge", "stand", "hold")]
        fights = [ln for ln in lines if ln.kind in ("attack", "wound") or _combat_death(ln)]
        checks = [ln for ln in lines if ln.kind == "health" or _health_death(ln)]
        rest = [ln for ln in lines if ln not in moves and ln not in fights and ln not in checks]
        left_out: list[Line] = []
        for line in rest:
            if line.kind == "order" and style == "brief":
                left_out.append(line)  # the dice ledger (`--with-rules`) keeps it
                continue
            out.append(Beat([line]))
        if style == "brief":
            left_out += [ln for ln in moves if ln.kind == "stand"]
            moves = [ln for ln in moves if ln.kind != "stand"]
        if moves:
            out.append(Beat(moves))
        out += self._blows(fights, style)
        survivors = [ln for ln in checks if ln.kind == "health"]
        if style == "brief":  # surviving is the rule; the deaths below are the news
            pass
        elif len(survivors) > 1:
            names = v.listing(ln.actor for ln in survivors)
            out.append(Beat([joined(survivors, self.say(ALL_FIGHT_ON, x=names))]))
        elif survivors:
            out.append(Beat(survivors))
        out += [Beat([ln]) for ln in checks if ln.kind == "death"]
        workings = [*left_out, *section.workings]
        kept = Section(section.title, section.turn, out, section.losses, workings)
        return kept

    def _blows(self, lines: list[Line], style: str) -> list[Beat]:
        """A turn's combat as scenes: an attack with its wound and death lines is a blow;
        `scenes_of` groups the blows. In brief, the scenes where nothing landed share one
        line at the end."""
        blows: list[Blow] = []
        for line in lines:
            if line.kind == "attack":
                d = line.data
                blows.append(
                    Blow(
                        str(d.get("attacker")), str(d.get("target")), _number(d.get("hits")), [line]
                    )
                )
            elif blows:
                blows[-1].after.append(line)
        beats = []
        scenes = scenes_of(blows)
        if style == "brief":
            idle = [sc for sc in scenes if all(b.hits == 0 and not b.after for b in sc.blows)]
            scenes = [sc for sc in scenes if sc not in idle]
        for scene in scenes:
            if len(scene.blows) == 1:
                blow = scene.blows[0]
                beats.append(Beat([*blow.lines, *blow.after]))
                continue
            said = scene.sentence(self)
            told = [line for blow in scene.blows for line in blow.lines]
            told += [line for blow in scene.blows for line in blow.after if not line.loss]
            last = {str(ln.data.get("target")): ln.prose for ln in told if ln.kind == "wound"}
            wounds = [prose for prose in last.values() if prose]  # each target's last state
            prose = said + "." + "".join(f" {v.sentence(w)}." for w in wounds)
            deaths = [line for blow in scene.blows for line in blow.after if line.loss]
            beats.append(Beat([joined(told, prose.rstrip(".")), *deaths]))
        if style == "brief" and idle:
            pairs = [
                v.listing(dict.fromkeys(n for b in sc.blows for n in (b.attacker, b.target)))
                for sc in idle
            ]
            told = [line for sc in idle for b in sc.blows for line in b.lines]
            what = self.voice.pick(QUIET)
            said = (
                f"Between {pairs[0]}, {what}" if len(pairs) == 1 else f"{'; '.join(pairs)}: {what}"
            )
            beats.append(Beat([joined(told, v.sentence(said))]))
        return beats

    def _quiet_runs(self, sections: list[Section]) -> list[Section]:
        """Runs of two or more quiet turns as one section of one line."""
        out: list[Section] = []
        run: list[Section] = []

        def flush() -> None:
            if len(run) < 2:
                out.extend(self._scene(s, "brief") for s in run)
            else:
                pairs = sorted({p for s in run for p in _pairs(s)})
                what = self.voice.pick(QUIET)
                said = self.say(AGAIN_QUIET, n=v.number(len(run)), what=what)
                if pairs:
                    said += f" ({'; '.join(f'{a} and {b}' for a, b in pairs)})"
                lines = [ln for s in run for ln in s.lines]
                title = f"{self.turn_word.capitalize()}s {run[0].turn}-{run[-1].turn}"
                beat = Beat([joined(lines, said)]) if lines else Beat([])
                out.append(Section(title, run[-1].turn, [beat], [], []))
            run.clear()

        for section in sections:
            if section.turn and _quiet(section):
                run.append(section)
                continue
            flush()
            out.append(self._scene(section, "brief"))
        flush()
        return out


def _combat_death(line: Line) -> bool:
    return line.kind == "death" and line.data.get("phase") != "health"


def _health_death(line: Line) -> bool:
    return line.kind == "death" and line.data.get("phase") == "health"


def _quiet(section: Section) -> bool:
    """No wound, no death, no move: nothing a reader needs told blow by blow."""
    return not section.losses and all(
        ln.kind in ("attack", "stand", "hold", "order", "health") for ln in section.lines
    )


def _pairs(section: Section) -> set[tuple[str, str]]:
    out = set()
    for ln in section.lines:
        if ln.kind == "attack":
            a, b = str(ln.data.get("attacker")), str(ln.data.get("target"))
            out.add((min(a, b), max(a, b)))
    return out
