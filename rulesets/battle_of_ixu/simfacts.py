"""`wargame simulate`'s facts of one Battle of Ixu game (`Ruleset.sim_watcher`): each model
by its experience (the game's unit types), the damage it dealt and the models it finished
(read from the wound and death events as they pass, `engine/events.Blows`), whether it
fell; and whose model acted first in the first turn's order (c4). Models are named uniquely
in a game (`Warrior.name`)."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.battle_of_ixu.state import IxuState
from wargame_cli.rulesets.battle_of_ixu.teams import kind

from wargame_cli.engine.events import Blows
from wargame_cli.engine.requests import Event, Outcome
from wargame_cli.ruleset import GameFacts, UnitFacts

INITIATIVE = "first initiative"


class Watcher:
    def __init__(self) -> None:
        self.blows = Blows()  # the wounds and deaths, read in the one vocabulary
        self.first: str | None = None  # the first model in the first turn's order

    def event(self, event: Event) -> None:
        kind, data = event.kind, event.data or {}
        self.blows.event(kind, data)
        if kind == "order" and self.first is None and data["order"]:
            self.first = data["order"][0]

    def facts(self, game: Any, outcome: Outcome) -> GameFacts:
        state: IxuState = game.state
        units = [
            UnitFacts(
                kind=kind(w.experience, w.own_dice, w.health, state.options),
                side=w.side,
                kills=self.blows.kills[w.name],
                died=w.dead,
                damage=float(self.blows.dealt[w.name]),
            )
            for w in state.warriors
        ]
        sides = {w.name: w.side for w in state.warriors}
        firsts = {INITIATIVE: sides[self.first]} if self.first in sides else {}
        return GameFacts(units=units, firsts=firsts)
