"""What carries from one Battle of Ixu to the next (`Ruleset.carrying()`): the damage each
god took (c8 compares the d10 with the damage of the campaign so far, less what the `heal`
option heals between battles), its kills, its experience (one step up for every
`promote_after` kills, off by default), and death: the fallen stay dead. No dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli.rulesets.battle_of_ixu.teams import EXPERIENCE

from wargame_cli.kit.figures import NamedFigures, kills
from wargame_cli.ruleset import AfterBattle, Aftermath, Figure, Finished, Roster
from wargame_cli.wording import plural


class IxuCarrying(NamedFigures):
    members = "models"
    carried = ("damage",)

    def joined(self, entry: dict[str, Any]) -> dict[str, Any]:
        return {"wounds": int(entry.get("damage", 0))}

    def entry_for(self, figure: Figure, options: dict[str, Any]) -> dict[str, Any]:
        entry = dict(figure.entry)
        if figure.wounds:
            entry["damage"] = figure.wounds
        return entry

    def after(
        self, rosters: dict[str, Roster], finished: Finished, options: dict[str, Any]
    ) -> AfterBattle:
        state = finished.state
        number = finished.number
        by_game_name = {
            w.name: str(finished.teams[w.side]["models"][int(w.id[1:]) - 1]["name"])
            for w in state.warriors
        }
        killed = kills(finished, by_game_name)
        told: list[str] = []
        for w in state.warriors:
            name = by_game_name[w.name]
            figure = rosters[w.side].named(name)
            if figure is None:  # cannot happen for a mustered team; a lone save is refused
                continue
            figure.battles += 1
            figure.kills += killed[name]
            if killed[name]:
                figure.deeds.append(f"{plural(killed[name], 'kill')} in battle {number}")
            if w.dead:
                figure.state, figure.wounds = "dead", w.damage
                figure.deeds.append(f"fell in battle {number}, turn {w.died_turn}")
                told.append(f"{name} fell (turn {w.died_turn}) and stays dead.")
                continue
            healed = min(w.damage, options["heal"])
            figure.wounds = w.damage - healed
            if figure.wounds:
                told.append(
                    f"{name} carries {figure.wounds} damage"
                    + (f" ({healed} healed)" if healed else "")
                    + "."
                )
            elif w.damage:
                told.append(f"{name}'s {plural(w.damage, 'wound')} heal.")
            promoted = _promotion(figure, killed[name], options["promote_after"])
            if promoted is not None:
                figure.deeds.append(f"became {promoted} after battle {number}")
                told.append(f"{name} is now {promoted} ({plural(figure.kills, 'kill')}).")
        yield from ()  # a generator: the Battle of Ixu throws no after-battle dice
        return Aftermath(rosters, told)


def _promotion(figure: Figure, new_kills: int, every: int) -> str | None:
    """c1's experience one step up each time the campaign's kills pass a multiple of
    `every` (this battle's `new_kills` added), up to elite; the new word, or None."""
    if every <= 0:
        return None
    steps = figure.kills // every - (figure.kills - new_kills) // every
    earned = min(max(EXPERIENCE), figure.entry["experience"] + steps)
    if earned <= figure.entry["experience"]:
        return None
    figure.entry["experience"] = earned
    return EXPERIENCE[earned]


CARRYING = IxuCarrying(Path(__file__).parent)
