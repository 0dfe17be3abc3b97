"""Super Toy Soldier Squad Alpha as a game generator: deployment, then turns until a side is
wiped out (or `max_turns`)."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.squad_alpha.deployment import deploy
from wargame_cli.rulesets.squad_alpha.state import GameState
from wargame_cli.rulesets.squad_alpha.turn import (
    decide_by_survivors,
    initiative,
    roll_and_attribute,
    steps,
)

from wargame_cli.engine.requests import Outcome, Play, TurnStart


class SquadGame:
    def __init__(self, state: GameState, at_turn: bool = False) -> None:
        """`at_turn`: the game stands at a turn's start (a position restored), so its
        generator begins with that turn, its setting up done."""
        self.state = state
        self.at_turn = at_turn

    def play(self) -> Play:
        state = self.state
        if not self.at_turn:
            yield from deploy(state)
        while True:
            yield TurnStart(state.turn + 1, rules=("b21",))
            state.turn += 1  # after the engine's save point: a stopped game shows turns done
            yield from initiative(state)
            yield from roll_and_attribute(state)
            outcome = yield from steps(state)  # b21: after step 6, a new turn
            if outcome is None and state.turn >= state.options["max_turns"]:
                outcome = decide_by_survivors(state)
            if outcome is not None:
                return self._end(outcome)

    def _end(self, outcome: Outcome) -> Outcome:
        self.state.phase = "over"
        self.state.winner = outcome.winner
        self.state.result = outcome.reason
        return outcome

    def state_json(self) -> dict[str, Any]:
        state = self.state
        return {
            "turn": state.turn,
            "phase": state.phase,
            "step": state.step,
            "initiative": state.initiative,
            "deploys_first": state.deploys_first,
            "winner": state.winner,
            "table": {
                "name": state.table.name,
                "width": state.table.width,
                "height": state.table.height,
            },
            "sides": {
                side: {
                    "name": squad.name,
                    "leader": state.leader(side).name,
                    "leader_rating": state.current_rating(side),
                    "casualties": squad.casualties,
                    "miniatures": [
                        {
                            "id": m.id,
                            "name": m.name,
                            "training": m.training,
                            "command": m.rating,
                            "leader": m.id == squad.leader_id,
                            "position": m.pos.as_list() if m.pos is not None else None,
                            "status": "active" if m.alive else "casualty",
                            "die": m.die,
                            "acted": m.acted and m.die is not None,
                        }
                        for m in squad.minis
                    ],
                }
                for side, squad in state.squads.items()
            },
        }
