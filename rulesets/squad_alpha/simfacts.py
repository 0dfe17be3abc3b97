"""`wargame simulate`'s facts of one Squad Alpha game (`Ruleset.sim_watcher`): each
miniature by its training (the game's unit types), the casualties it caused, read from the
shot and melee events and the kill that follows them, and whether it fell; who won the
deployment roll-off and the first initiative. A hit kills or is saved (b15-b16): no damage."""

from __future__ import annotations

from collections import Counter
from typing import Any

from wargame_cli.rulesets.squad_alpha.state import GameState

from wargame_cli.engine.requests import Event, Outcome
from wargame_cli.ruleset import GameFacts, UnitFacts

DEPLOYMENT, INITIATIVE = "deployment roll-off", "first initiative"


class Watcher:
    def __init__(self) -> None:
        self.acting: str | None = None  # the miniature whose shot or melee attack is resolving
        self.kills: Counter[str] = Counter()
        self.firsts: dict[str, str] = {}

    def event(self, event: Event) -> None:
        kind, data = event.kind, event.data or {}
        if kind in ("shot", "melee"):
            self.acting = data["id"]
        elif kind == "kill" and self.acting is not None:
            self.kills[self.acting] += 1
        elif kind == "rolloff" and "winner" in data:
            self.firsts.setdefault(DEPLOYMENT, data["winner"])
        elif kind == "initiative":
            self.firsts.setdefault(INITIATIVE, data["winner"])

    def facts(self, game: Any, outcome: Outcome) -> GameFacts:
        state: GameState = game.state
        units = [
            UnitFacts(kind=m.training, side=m.side, kills=self.kills[m.id], died=not m.alive)
            for m in state.all_minis()
        ]
        return GameFacts(units=units, firsts=dict(self.firsts))
