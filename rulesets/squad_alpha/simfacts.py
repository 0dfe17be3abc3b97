"""`wargame simulate`'s facts of one Squad Alpha game (`Ruleset.sim_watcher`): each
miniature by its training (the game's unit types), the casualties it caused, read from the
shot and melee events and the kill that follows them (`engine/events.Blows`), and whether
it fell; who won the deployment roll-off and the first initiative. A hit kills or is saved
(b15-b16): no damage."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.squad_alpha.state import GameState
from wargame_cli.rulesets.squad_alpha.teams import kind

from wargame_cli.engine.events import Blows
from wargame_cli.engine.requests import Event, Outcome
from wargame_cli.ruleset import GameFacts, UnitFacts

DEPLOYMENT, INITIATIVE = "deployment roll-off", "first initiative"


class Watcher:
    def __init__(self) -> None:
        self.blows = Blows()  # shots, melee attacks, hits and kills, in the one vocabulary
        self.firsts: dict[str, str] = {}

    def event(self, event: Event) -> None:
        kind, data = event.kind, event.data or {}
        self.blows.event(kind, data)
        if kind == "rolloff" and "winner" in data:
            self.firsts.setdefault(DEPLOYMENT, data["winner"])
        elif kind == "initiative":
            self.firsts.setdefault(INITIATIVE, data["winner"])

    def facts(self, game: Any, outcome: Outcome) -> GameFacts:
        state: GameState = game.state
        units = [
            UnitFacts(
                kind=kind(m.training, m.own_dice),
                side=m.side,
                kills=self.blows.kills[m.id],
                died=not m.alive,
            )
            for m in state.all_minis()
        ]
        return GameFacts(units=units, firsts=dict(self.firsts))
