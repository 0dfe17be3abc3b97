"""The Battle of Ixu game: turns of four phases (c3) until one side has no models standing."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.battle_of_ixu import ending, fighting, movement, order
from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Warrior

from wargame_cli.engine.requests import Play, TurnStart
from wargame_cli.kit.sides import SIDES

PHASES = (
    ("order", order.order_phase),  # c4: the d10s
    ("attribution", order.attribute_phase),  # c2, in that order
    ("movement", movement.movement_phase),  # c5
    ("combat", fighting.combat_phase),  # c6, c7
    ("health", fighting.health_phase),  # c8
)


def _ranged(w: Warrior) -> dict[str, Any]:
    """A model's ranged attack (c9), for `--json`, where a team gave it one."""
    if w.ranged is None:
        return {}
    dice = "combat" if w.ranged.dice is None else w.ranged.dice
    return {"ranged": {"range": w.ranged.range, "dice": dice}}


class IxuGame:
    def __init__(self, state: IxuState, at_turn: bool = False) -> None:
        """`at_turn`: a restored position; the game sets nothing up before its turns."""
        self.state = state

    def play(self) -> Play:
        state = self.state
        while state.turn < int(state.options["max_turns"]):
            yield TurnStart(state.turn + 1, rules=("c3",))
            state.turn += 1  # after the engine's save point: a stopped game shows turns done
            for w in state.warriors:
                w.new_turn()
            for name, phase in PHASES:
                state.phase = name
                outcome = yield from phase(state)
                if outcome is not None:
                    state.phase = "over"
                    return outcome
        state.phase = "over"
        return ending.turn_cap(state)

    def state_json(self) -> dict[str, Any]:
        state = self.state
        return {
            "turn": state.turn,
            "phase": state.phase,
            "field": {"width": state.table.width, "height": state.table.height},
            "order": [state.name_of(i) for i in state.order],
            "winner": state.winner,
            "sides": {
                side: {
                    "name": state.names[side],
                    "models": [
                        {
                            "name": w.name,
                            "experience": w.experience,
                            "rating": w.rating,
                            "position": w.pos.as_list(),
                            "rolled": list(w.rolled),
                            "dice": w.dice.as_dict() if w.dice else None,
                            "health": w.health,
                            "damage": w.damage,
                            "status": "dead" if w.dead else "standing",
                            "died_turn": w.died_turn,
                            **_ranged(w),
                        }
                        for w in state.warriors
                        if w.side == side
                    ],
                }
                for side in SIDES
            },
        }
