"""`wargame simulate`'s facts of one Seeds of Wars game (`Ruleset.sim_watcher`): each unit's
kills and the Ht it dealt, read from the hit and destroyed events as they pass, its fate
from the final battle; and who won the deployment roll-off and the first initiative.

A unit destroyed by morale (d15) is killed by whoever last hit it; one never hit has no
killer."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.seeds_of_wars.state import DESTROYED, Battle
from wargame_cli.rulesets.seeds_of_wars.teams import labelled

from wargame_cli.engine.events import Blows
from wargame_cli.engine.requests import Event, Outcome
from wargame_cli.ruleset import GameFacts, UnitFacts

DEPLOYMENT, INITIATIVE = "deployment roll-off", "first initiative"


class Watcher:
    def __init__(self) -> None:
        self.blows = Blows()  # the hits and the units destroyed, in the one vocabulary
        self.firsts: dict[str, str] = {}

    def event(self, event: Event) -> None:
        kind, data = event.kind, event.data or {}
        self.blows.event(kind, data)
        if kind == "deploy_roll" and not data.get("tie"):
            self.firsts.setdefault(DEPLOYMENT, data["winner"])
        elif kind == "initiative":
            self.firsts.setdefault(INITIATIVE, data["winner"])

    def facts(self, game: Any, outcome: Outcome) -> GameFacts:
        battle: Battle = game.state
        units = [
            UnitFacts(
                kind=labelled(u.kind),
                side=u.side,
                kills=self.blows.kills[u.uid],
                died=u.fate == DESTROYED,
                damage=float(self.blows.dealt[u.uid]),
            )
            for u in battle.units
        ]
        return GameFacts(units=units, firsts=dict(self.firsts))
