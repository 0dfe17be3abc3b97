"""What carries from one Mobs and Morale battle to the next (`Ruleset.carrying()`). The
casualty pool's survival rolls (e30) are the battle's own, in its log: a figure 'lost' (or
an NPC not rolled for) is gone; 'wounded' and 'missing' figures miss the next battle (the
way home) and are back after the downtime, or, with `wounded=hurt`, the wounded fight the
next one with 1 health left. Mobs keep their names and controllers (a controller not in the
battle leaves its mob uncontrolled for it); characters keep their damage unless
`downtime_heal`. No after-battle dice: the battle rolled them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli.errors import TeamError
from wargame_cli.kit.figures import kills
from wargame_cli.kit.sides import SIDES
from wargame_cli.ruleset import (
    AfterBattle,
    Aftermath,
    Carrying,
    Figure,
    Finished,
    Roster,
)
from wargame_cli.wording import plural

STANDING = ("standing", "escaped")  # left the battle on its feet: no survival roll


class MobsCarrying(Carrying):
    """Characters are figures by name; a mob is one figure, its entry the mob's team form
    with the members it has now (those away wait in `extra["away"]`, each with its `back`)."""

    battle_rolls = frozenset({"e30"})  # the survival rolls, thrown (or typed) in the battle

    def enlist(
        self,
        roster: Roster,
        team: Any,
        battle: int,
        options: dict[str, Any],
        name: str | None = None,
    ) -> Roster:
        figures = list(roster.figures)
        extra = dict(roster.extra)
        extra.setdefault("team_name", team.get("name") or name or "")
        for entry in [*team["characters"], *team["mobs"]]:
            called = str(entry["name"])
            if roster.named(called) is not None or any(f.name == called for f in figures):
                raise TeamError(f"{called} is on the roster already: a recruit needs a new name")
            kept = {k: v for k, v in entry.items() if k != "damage"}
            wounds = int(entry.get("damage", 0))
            figures.append(Figure(name=called, entry=kept, joined=battle, wounds=wounds))
        return Roster(figures, extra)

    def returning(self, roster: Roster, battle: int) -> Roster:
        """The characters whose time is up, and the mob members away, back."""
        roster = super().returning(roster, battle)
        away = roster.extra.get("away", [])
        for item in [a for a in away if a["back"] <= battle]:
            mob = roster.named(item["mob"])
            if mob is not None:
                mob.entry["members"] = _grouped([*_figures_of(mob.entry), item["member"]])
                mob.state, mob.back = "ready", None
                mob.deeds.append(f"{item['member']['profile']} back for battle {battle}")
        roster.extra["away"] = [a for a in away if a["back"] > battle]
        return roster

    def muster(self, roster: Roster, battle: int, options: dict[str, Any]) -> Any:
        ready = roster.ready()
        characters = []
        for f in ready:
            if "members" not in f.entry:
                characters.append({**f.entry, **({"damage": f.wounds} if f.wounds else {})})
        present = {c["name"] for c in characters}
        mobs = [
            {
                **f.entry,
                "controller": f.entry["controller"] if f.entry["controller"] in present else None,
            }
            for f in ready
            if "members" in f.entry and f.entry["members"]
        ]
        if not characters and not mobs:
            raise TeamError(
                "no one on the roster can fight: recruit with --team-a/--team-b "
                "(`wargame campaign show` lists them)"
            )
        return {"name": roster.extra.get("team_name", ""), "characters": characters, "mobs": mobs}

    def after(
        self, rosters: dict[str, Roster], finished: Finished, options: dict[str, Any]
    ) -> AfterBattle:
        yield from ()  # the survival rolls are the battle's own (e30), in its log
        b, number = finished.state, finished.number
        told: list[str] = []
        owner: dict[str, str] = {}  # a creature's id -> its roster figure's name
        for side in SIDES:
            team = finished.teams[side]
            own = [c for c in b.creatures.values() if c.side == side and c.mob is None]
            for entry, creature in zip(team["characters"], own, strict=False):
                owner[creature.id] = str(entry["name"])
            mobs = [m for m in b.mobs.values() if m.side == side]
            for entry, mob in zip(team["mobs"], mobs, strict=False):
                for cid in mob.members:
                    owner[cid] = str(entry["name"])
        killed = kills(finished, owner)
        for side in SIDES:
            fates = {row["creature"]: row["fate"] for row in b.after.get(side, [])}
            faces = {row["creature"]: row["roll"] for row in b.after.get(side, [])}
            roster = rosters[side]
            fought = [
                f
                for f in (
                    roster.named(n)
                    for n in dict.fromkeys(
                        owner[c.id]
                        for c in b.creatures.values()
                        if c.side == side and c.id in owner
                    )
                )
                if f is not None
            ]
            for figure in fought:
                figure.battles += 1
                figure.kills += killed[figure.name]
                if killed[figure.name]:
                    figure.deeds.append(f"{plural(killed[figure.name], 'kill')} in battle {number}")
            for cid, name in owner.items():
                creature = b.creatures[cid]
                one = roster.named(name)
                if creature.side != side or one is None or creature.mob is not None:
                    continue
                fate = "standing" if creature.status in STANDING else fates.get(cid, "lost")
                told += self._character(one, creature, fate, faces.get(cid), number, options)
            for figure in fought:
                if "members" in figure.entry:
                    told += self._mob(roster, figure, b, owner, fates, number, options)
        return Aftermath(rosters, told)

    def _character(
        self,
        figure: Figure,
        creature: Any,
        fate: str,
        face: int | None,
        number: int,
        options: dict[str, Any],
    ) -> list[str]:
        """A character's fate after the battle; `face`: its survival roll (e30), if rolled."""
        name = figure.name
        rolled = "" if face is None else f" (rolled {face})"
        if fate == "standing":
            figure.wounds = 0 if options["downtime_heal"] else creature.damage
            return [f"{name} carries {figure.wounds} damage."] if figure.wounds else []
        if fate == "wounded" and options["wounded"] == "hurt":
            figure.wounds = creature.max_health - 1
            figure.deeds.append(f"wounded in battle {number}; fights on hurt")
            return [f"{name} was wounded{rolled} and fights the next battle hurt (1 health)."]
        if fate in ("wounded", "missing"):
            figure.state, figure.back, figure.wounds = fate, number + 2, 0
            figure.deeds.append(f"{fate} after battle {number}")
            return [f"{name} is {fate}{rolled}: back after the downtime, for battle {number + 2}."]
        figure.state = "dead"
        figure.deeds.append(f"lost in battle {number}")
        return [f"{name} is lost{rolled or ' (not rolled for)'}."]

    def _mob(
        self,
        roster: Roster,
        figure: Figure,
        b: Any,
        owner: dict[str, str],
        fates: dict[str, str],
        number: int,
        options: dict[str, Any],
    ) -> list[str]:
        """A mob's members as the battle left them: those on their feet, and the wounded
        under `hurt`, stay; the wounded and missing go away till the downtime; the lost go."""
        stats = _figures_of(figure.entry)
        members = [cid for cid, name in owner.items() if name == figure.name]
        kept, gone = [], 0
        for member, cid in zip(stats, members, strict=False):
            creature = b.creatures[cid]
            fate = "standing" if creature.status in STANDING else fates.get(cid, "lost")
            if fate == "standing" or (fate == "wounded" and options["wounded"] == "hurt"):
                kept.append(member)
            elif fate in ("wounded", "missing"):
                away = roster.extra.setdefault("away", [])
                away.append({"mob": figure.name, "member": member, "back": number + 2})
            else:
                gone += 1
        figure.entry["members"] = _grouped(kept)
        waiting = [a for a in roster.extra.get("away", []) if a["mob"] == figure.name]
        figure.wounds = len(waiting)
        if not kept:
            figure.state = "missing" if waiting else "dead"
            figure.back = min((a["back"] for a in waiting), default=None)
        lines = [
            f"{figure.name}: {len(kept)} fight on, {len(waiting)} away till the downtime, "
            f"{gone} lost."
        ]
        if gone:
            figure.deeds.append(f"{plural(gone, 'member')} lost in battle {number}")
        return lines


def _figures_of(mob: dict[str, Any]) -> list[dict[str, Any]]:
    """A mob's members one by one (each its stats with `count` 1), in the team's order."""
    return [{**m, "count": 1} for m in mob["members"] for _ in range(m["count"])]


def _grouped(members: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Members back in the team form: equal stats counted together, in order."""
    out: list[dict[str, Any]] = []
    for member in members:
        same = next((o for o in out if {**o, "count": 1} == {**member, "count": 1}), None)
        if same is not None:
            same["count"] += 1
        else:
            out.append({**member, "count": 1})
    return out


CARRYING = MobsCarrying(Path(__file__).parent)
