"""What carries from one Squad Alpha battle to the next (`Ruleset.carrying()`): each
casualty (b22) rolls a d6 after the battle, wounded on `wounded_on` or more (it misses
`wounded_miss` battles, then is back), gone for good below; each miniature's command rating
and training, and so who leads (b3), carry. When the leader is not there to fight and no
one of those who are is rated above the rest, the side names a new leader: of the tied, the
best trained (elite, regular, conscript), then the first on the roster, whose rating rises
by one so that it stands above the others (b3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli.rulesets.squad_alpha.teams import MIN_SIZE, TRAINING_DICE

from wargame_cli.engine.requests import Roll
from wargame_cli.errors import TeamError
from wargame_cli.kit.figures import NamedFigures, kills
from wargame_cli.ruleset import AfterBattle, Aftermath, Figure, Finished, Roster, Ruleset
from wargame_cli.wording import plural


class SquadCarrying(NamedFigures):
    members = "miniatures"

    def recruits(
        self, ruleset: Ruleset, spec: str, options: dict[str, Any]
    ) -> tuple[Any, str | None]:
        """Recruits written inline may be fewer than a squad (b1 is the whole squad's, checked
        when it is mustered); a file or a ready squad's name is read as `play` reads it."""
        from wargame_cli.rulesets.squad_alpha import teams

        if spec.lower().endswith((".toml", ".json")) or ruleset.preset_named(spec, options):
            return super().recruits(ruleset, spec, options)
        soldiers = teams.soldiers_in(spec)
        if found := teams.problems(soldiers, options, complete=False):
            raise TeamError(found[0])
        if not soldiers:
            raise TeamError('no recruits: e.g. "Nova elite 3, 2 Trooper conscript 0"')
        return teams.to_data(soldiers), None

    def muster(self, roster: Roster, battle: int, options: dict[str, Any]) -> Any:
        ready = roster.ready()
        if len(ready) < MIN_SIZE:
            raise TeamError(
                f"only {plural(len(ready), 'miniature')} can fight battle {battle}; a squad "
                f"needs {MIN_SIZE} (b1): recruit with --team-a/--team-b"
            )
        name_leader(ready, battle)
        return super().muster(roster, battle, options)

    def standings(
        self, rosters: dict[str, Roster], battle: int, options: dict[str, Any], game: dict[str, Any]
    ) -> list[str]:
        """Who leads each squad into the next battle (b3), as it stands."""
        lines = []
        for side in ("A", "B"):
            ready = rosters[side].ready()
            if not ready:
                continue
            top = max(ready, key=lambda f: f.entry["rating"])
            tied = [f for f in ready if f.entry["rating"] == top.entry["rating"]]
            lead = "no one stands above the rest: one is named" if len(tied) > 1 else top.name
            lines.append(
                f"Side {side} is led by {lead} (rating {top.entry['rating']}) in battle {battle}."
            )
        return lines

    def after(
        self, rosters: dict[str, Roster], finished: Finished, options: dict[str, Any]
    ) -> AfterBattle:
        number = finished.number
        minis = {m.id: m for squad in finished.state.squads.values() for m in squad.minis}
        killed = kills(finished, {m.id: m.name for m in minis.values()})
        told: list[str] = []
        for mini in minis.values():
            figure = rosters[mini.side].named(mini.name)
            if figure is None:
                continue
            figure.battles += 1
            figure.kills += killed[mini.name]
            if killed[mini.name]:
                figure.deeds.append(f"{plural(killed[mini.name], 'kill')} in battle {number}")
            if mini.alive:
                continue
            face = (
                yield Roll(
                    dice=(6,),
                    reason=f"{mini.name}, a casualty of battle {number}: wounded on "
                    f"{options['wounded_on']}+, else gone",
                    side=mini.side,
                    rules=("b22",),
                )
            )[0]
            if face >= options["wounded_on"]:
                back = number + 1 + options["wounded_miss"]
                figure.state, figure.back, figure.wounds = "wounded", back, figure.wounds + 1
                if back == number + 1:
                    figure.state, figure.back = "ready", None
                figure.deeds.append(f"wounded in battle {number} (rolled {face})")
                told.append(f"{mini.name} was wounded (rolled {face}); back for battle {back}.")
            else:
                figure.state = "gone"
                figure.deeds.append(f"lost in battle {number} (rolled {face})")
                told.append(f"{mini.name} is gone for good (rolled {face}).")
        return Aftermath(rosters, told)


def name_leader(ready: list[Figure], battle: int) -> None:
    """b3 for the miniatures that fight: one rated above all others. None is: the best
    trained of the tied (then the first listed) is named leader, its rating one higher."""
    top = max(f.entry["rating"] for f in ready)
    tied = [f for f in ready if f.entry["rating"] == top]
    if len(tied) < 2:
        return
    rank = list(TRAINING_DICE)
    chosen = max(tied, key=lambda f: (rank.index(f.entry["training"]), -ready.index(f)))
    chosen.entry["rating"] = top + 1
    chosen.deeds.append(f"named leader before battle {battle} (rating {top + 1})")


CARRYING = SquadCarrying(Path(__file__).parent)
