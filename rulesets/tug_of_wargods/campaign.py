"""A Tug of WarGods campaign is a league (`Ruleset.carrying()`): each side enters clubs (a
column of three WarGods, named by its ready team's name or its members), a battle is a
pairing of one club a side, and what carries is the record: standings, head-to-head, and the
exact odds of the next pairing (`odds.exact`). Nothing of a tug carries into the next one's
start: a club pulls with the same three each time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli.errors import TeamError
from wargame_cli.kit.sides import SIDES
from wargame_cli.ruleset import (
    AfterBattle,
    Aftermath,
    Carrying,
    Figure,
    Finished,
    Roster,
)

RECORD = ("won", "drawn", "lost")


class League(Carrying):
    kind = "league"

    def enlist(
        self,
        roster: Roster,
        team: Any,
        battle: int,
        options: dict[str, Any],
        name: str | None = None,
    ) -> Roster:
        """A club joins, named by its ready team or file, else by its column; naming a club
        the side has picks it for the next pairing."""
        name = name or club_name(team)
        entry = dict(team)
        extra = dict(roster.extra)
        known = roster.named(name)
        if known is not None:
            if known.entry != entry:
                raise TeamError(f"the club {name} pulls with {_members(known.entry)}, not these")
            extra["next"] = known.name
            return Roster(list(roster.figures), extra)
        figures = [*roster.figures, Figure(name=name, entry=entry, joined=battle)]
        extra["next"] = name
        return Roster(figures, extra)

    def fielded(self, roster: Roster, side_name: str) -> str:
        return self.club(roster).name

    def muster(self, roster: Roster, battle: int, options: dict[str, Any]) -> Any:
        return self.club(roster).entry

    def club(self, roster: Roster) -> Figure:
        """The side's club in the next pairing: the one named last, else the one that has
        pulled least (the first entered among equals)."""
        if not roster.figures:
            raise TeamError("this side has no club: enter one with --team-a/--team-b")
        named = roster.named(str(roster.extra.get("next", "")))
        return named or min(roster.figures, key=lambda f: f.battles)

    def after(
        self, rosters: dict[str, Roster], finished: Finished, options: dict[str, Any]
    ) -> AfterBattle:
        yield from ()  # a league throws no after-battle dice
        clubs = {s: self.club(rosters[s]) for s in SIDES}
        for side in SIDES:
            foe = clubs["B" if side == "A" else "A"].name
            figure = clubs[side]
            figure.battles += 1
            result = (
                "drawn"
                if finished.winner is None
                else ("won" if finished.winner == side else "lost")
            )
            record = rosters[side].extra.setdefault("record", {})
            row = record.setdefault(figure.name, dict.fromkeys(RECORD, 0))
            row[result] += 1
            meetings = rosters[side].extra.setdefault("h2h", {}).setdefault(figure.name, {})
            versus = meetings.setdefault(foe, dict.fromkeys(RECORD, 0))
            versus[result] += 1
            figure.deeds.append(f"{result} against {foe} in battle {finished.number}")
            if figure.name == rosters[side].extra.get("next"):
                del rosters[side].extra["next"]  # chosen for one pairing
        a, b = clubs["A"].name, clubs["B"].name
        told = [
            f"{a} and {b} draw."
            if finished.winner is None
            else f"{(a, b)[finished.winner == 'B']} beat {(b, a)[finished.winner == 'B']}."
        ]
        return Aftermath(rosters, told)

    def standings(
        self, rosters: dict[str, Roster], battle: int, options: dict[str, Any], game: dict[str, Any]
    ) -> list[str]:
        """The league table (points, then wins), every head-to-head record, and the exact
        odds of the next pairing."""
        rows = []
        for side in SIDES:
            record = rosters[side].extra.get("record", {})
            for figure in rosters[side].figures:
                row = record.get(figure.name, dict.fromkeys(RECORD, 0))
                points = row["won"] * options["points_win"] + row["drawn"] * options["points_draw"]
                rows.append((points, row["won"], figure.name, side, row))
        rows.sort(key=lambda r: (-r[0], -r[1]))
        lines = ["League table (played, won, drawn, lost, points):"]
        for place, (points, _, name, side, row) in enumerate(rows, 1):
            played = sum(row.values())
            lines.append(
                f"  {place}. {name} (side {side}): {played} {row['won']} {row['drawn']} "
                f"{row['lost']} {points}"
            )
        for side in SIDES:
            for name, foes in sorted(rosters[side].extra.get("h2h", {}).items()):
                for foe, row in sorted(foes.items()):
                    lines.append(
                        f"  Head to head: {name} against {foe}: won {row['won']}, drawn "
                        f"{row['drawn']}, lost {row['lost']}"
                    )
        try:
            a, b = self.club(rosters["A"]), self.club(rosters["B"])
        except TeamError:
            return lines
        from wargame_cli.rulesets.tug_of_wargods.odds import exact

        chance = exact(a.entry, b.entry, game)
        lines.append(
            f"Next pairing (battle {battle}): {a.name} against {b.name}: {a.name} wins "
            f"{chance.a:.1%}, {b.name} {chance.b:.1%} (exact odds)"
        )
        return lines


def club_name(team: Any) -> str:
    """A club with no ready team's name is called by its column, front first."""
    return _members(team)


def _members(team: Any) -> str:
    return ", ".join(str(m) for m in team["models"])


CARRYING = League(Path(__file__).parent)
