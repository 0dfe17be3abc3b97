"""What carries from one Seeds of Wars battle to the next (`Ruleset.carrying()`): destroyed
units are gone; a captured unit (d17) leaves its army's roster for its captor's, held as a
prisoner (exchanged one for one after each battle with `exchange=even`); the Ht a unit took
(d14) carries, counting against its Ht and in its morale checks; Shaken and Routed units
recover between battles as the `recover` option says. Units are named by their type
(numbered when an army has several), since the seed names none. No after-battle dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli.rulesets.seeds_of_wars.state import CAPTURED, DESTROYED, ROUTED, SHAKEN, STEADY

from wargame_cli.errors import TeamError
from wargame_cli.kit.figures import kills
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.ruleset import (
    AfterBattle,
    Aftermath,
    Carrying,
    Figure,
    Finished,
    Roster,
)
from wargame_cli.wording import plural

BETTER = {ROUTED: SHAKEN, SHAKEN: STEADY, STEADY: STEADY}


class SeedsCarrying(Carrying):
    """Each unit a figure (its entry: its profile); the army's name and Order, each unit's
    morale state and the units fielded in the last battle (in order) in `extra`."""

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
        extra.setdefault("army", team.get("name") or name or "")
        extra.setdefault("order", team["order"])
        morale = dict(extra.get("morale", {}))
        rows = team.get("carried") or [{"taken": 0, "state": STEADY}] * len(team["units"])
        for unit, row in zip(team["units"], rows, strict=True):
            called = _free_name(unit["type"], {f.name for f in figures})
            figures.append(Figure(called, dict(unit), joined=battle, wounds=row["taken"]))
            if row["state"] != STEADY:
                morale[called] = row["state"]
        extra["morale"] = morale
        return Roster(figures, extra)

    def muster(self, roster: Roster, battle: int, options: dict[str, Any]) -> Any:
        ready = roster.ready()
        if not ready:
            raise TeamError(
                "no unit on the roster can fight: recruit with --team-a/--team-b "
                "(`wargame campaign show` lists them)"
            )
        roster.extra["fielded"] = [f.name for f in ready]
        morale = roster.extra.get("morale", {})
        team: dict[str, Any] = {
            "name": roster.extra.get("army", ""),
            "order": roster.extra.get("order", 2),
            "units": [dict(f.entry) for f in ready],
        }
        carried = [{"taken": f.wounds, "state": morale.get(f.name, STEADY)} for f in ready]
        if any(c["taken"] or c["state"] != STEADY for c in carried):
            team["carried"] = carried
        return team

    def after(
        self, rosters: dict[str, Roster], finished: Finished, options: dict[str, Any]
    ) -> AfterBattle:
        yield from ()  # the Seeds of Wars throws no after-battle dice
        number, names = finished.number, finished.names
        owner: dict[str, str] = {}
        for side in SIDES:
            fielded = rosters[side].extra.get("fielded", [])
            mine = [u for u in finished.state.units if u.side == side]
            owner.update({u.uid: n for u, n in zip(mine, fielded, strict=False)})
        killed = kills(finished, owner)
        told: list[str] = []
        for unit in finished.state.units:
            if unit.uid not in owner:
                continue
            roster, name = rosters[unit.side], owner[unit.uid]
            figure = roster.named(name)
            if figure is None:
                continue
            figure.battles += 1
            figure.kills += killed[name]
            if killed[name]:
                figure.deeds.append(f"destroyed {plural(killed[name], 'unit')} in battle {number}")
            morale = roster.extra.setdefault("morale", {})
            morale.pop(name, None)
            if unit.fate == DESTROYED:
                figure.state, figure.wounds = "dead", unit.taken
                figure.deeds.append(f"destroyed in battle {number}")
                told.append(f"{names[unit.side]}'s {name} was destroyed.")
                continue
            figure.wounds = unit.taken
            if unit.fate == CAPTURED:
                captor = other(unit.side)
                figure.state = "captured"
                figure.deeds.append(f"captured in battle {number}")
                held = _free_name(f"{name} of {names[unit.side]}", _names(rosters[captor]))
                prisoner = Figure(
                    held,
                    {"of": unit.side, "figure": name, "unit": dict(figure.entry)},
                    state="prisoner",
                    joined=number,
                    deeds=[f"taken prisoner in battle {number}"],
                )
                rosters[captor].figures.append(prisoner)
                told.append(f"{names[captor]} hold {names[unit.side]}'s {name} prisoner.")
                continue
            state = _recovered(unit.state, options["recover"])
            if state != STEADY:
                morale[name] = state
            if unit.taken or unit.state != STEADY:
                told.append(
                    f"{names[unit.side]}'s {name}: Ht taken {unit.taken}/{unit.kind.ht}, {state}."
                )
        if options["exchange"] == "even":
            told += _exchange(rosters, names, number)
        return Aftermath(rosters, told)


def _recovered(state: str, recover: str) -> str:
    if recover == "all":
        return STEADY
    if recover == "step":
        return BETTER[state]
    return state


def _exchange(rosters: dict[str, Roster], names: dict[str, str], number: int) -> list[str]:
    """Prisoners exchanged one for one, the earliest taken first: each goes home, ready."""
    held = {s: [f for f in rosters[s].figures if f.state == "prisoner"] for s in SIDES}
    told = []
    for a, b in zip(held["A"], held["B"], strict=False):
        for prisoner, captor in ((a, "A"), (b, "B")):
            home = rosters[other(captor)].named(prisoner.entry["figure"])
            rosters[captor].figures.remove(prisoner)
            if home is not None:
                home.state = "ready"
                home.deeds.append(f"exchanged after battle {number}")
        told.append(
            f"{names['A']} and {names['B']} exchange prisoners: {a.entry['figure']} for "
            f"{b.entry['figure']}."
        )
    return told


def _names(roster: Roster) -> set[str]:
    return {f.name for f in roster.figures}


def _free_name(base: str, taken: set[str]) -> str:
    """`base`, else `base 2`, `base 3`…: a unit type an army has more than one of."""
    if base not in taken:
        return base
    n = 2
    while f"{base} {n}" in taken:
        n += 1
    return f"{base} {n}"


CARRYING = SeedsCarrying(Path(__file__).parent)
