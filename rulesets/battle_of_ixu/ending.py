"""Deaths and the end of the game: the last side with models standing wins (victory is not
stated in the seed; our default), or the `max_turns` safety cap decides."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Warrior

from wargame_cli.engine.events import EventData
from wargame_cli.engine.requests import Event, Outcome
from wargame_cli.kit.sides import SIDES, other


def death(
    state: IxuState, w: Warrior, text: str, rules: tuple[str, ...], extra: EventData
) -> Event:
    w.dead, w.died_turn = True, state.turn
    state.fallen.append(w.id)
    data: EventData = {
        "model": w.name,
        "side": w.side,
        "turn": state.turn,
        "damage": w.damage,
        **extra,
    }
    return Event(text, rules=rules, kind="death", data=data)


def last_side_standing(state: IxuState, rules: tuple[str, ...]) -> Outcome | None:
    """The last side with models standing wins (victory is unstated; our default); when the
    last models of both sides fall in the same health phase (c8), the battle is a draw."""
    if not state.standing():
        state.winner = None
        return Outcome(
            winner=None,
            reason=f"the last models of {state.names['A']} and {state.names['B']} fall "
            "together: a draw",
            rules=rules,
            data=summary(state),
            cause="both sides fell together",
        )
    for side in SIDES:
        if not state.standing(side):
            winner = other(side)
            state.winner = winner
            return Outcome(
                winner=winner,
                reason=f"every model of {state.names[side]} has fallen; "
                f"{state.names[winner]} are the last side standing",
                rules=rules,
                data=summary(state),
                cause="loser wiped out in combat"
                if "c7" in rules
                else "loser fell at health checks",
            )
    return None


def summary(state: IxuState) -> dict[str, Any]:
    standing = state.standing()
    return {
        "standing": [w.name for w in standing],
        "survivors": {side: sum(w.side == side for w in standing) for side in SIDES},
        "fallen": [
            {"model": w.name, "side": w.side, "turn": w.died_turn}
            for w in map(state.get, state.fallen)
        ],
    }


def turn_cap(state: IxuState) -> Outcome:
    """`max_turns` reached: more models standing wins, then more health left, else a draw."""
    score = {
        side: (len(state.standing(side)), sum(w.remaining for w in state.standing(side)))
        for side in SIDES
    }
    cap = f"the {state.options['max_turns']}-turn cap is reached"
    winner = None if score["A"] == score["B"] else max(score, key=lambda s: score[s])
    state.winner = winner
    if winner is None:
        reason = f"{cap} with the sides even: a draw"
    else:
        loser = "B" if winner == "A" else "A"
        (won_standing, won_health), (lost_standing, lost_health) = score[winner], score[loser]
        if won_standing != lost_standing:
            test = f"more models standing ({won_standing} to {lost_standing})"
        else:
            test = f"as many models standing and more health left ({won_health} to {lost_health})"
        reason = f"{cap}; {state.names[winner]} have {test}"
    return Outcome(
        winner=winner,
        reason=reason,
        rules=("c3",),
        data=summary(state),
        cause="turn limit (max_turns)",
    )
