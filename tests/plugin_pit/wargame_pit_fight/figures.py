"""`wargame simulate`'s figures per fighter (`Ruleset.sim_watcher`): the wounds each dealt
and whom it felled, read in the one vocabulary of events (`wargame_cli.engine.events.Blows`),
and whether it fell."""

from __future__ import annotations

from typing import Any

from wargame_cli.engine.events import Blows
from wargame_cli.engine.requests import Event, Outcome
from wargame_cli.ruleset import GameFacts, UnitFacts


class Watcher:
    def __init__(self) -> None:
        self.blows = Blows()

    def event(self, event: Event) -> None:
        self.blows.event(event.kind, event.data or {})

    def facts(self, game: Any, outcome: Outcome) -> GameFacts:
        units = [
            UnitFacts(
                kind=fighter.name,
                side=side,
                kills=self.blows.kills[side],
                died=fighter.wounds <= 0,
                damage=float(self.blows.dealt[side]),
            )
            for side, fighter in game.state.fighters.items()
        ]
        return GameFacts(units=units)
