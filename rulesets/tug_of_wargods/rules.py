"""Tug of WarGods v0.75, rule points a9-a19: the pull, the crossings and the win.

Pure: the game asks for dice and reports events; the functions below are also what the exact
odds in `wargame simulate --exact` are computed from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wargame_cli.engine.requests import Event, Outcome, Play, Roll, TurnStart

OTHER = {"A": "B", "B": "A"}


@dataclass
class Model:
    unit: str
    die: int
    distance: float
    crossings: int = 0

    @property
    def across(self) -> bool:
        return self.distance < 0  # a17 gap 4: exactly on the line is not across


@dataclass
class Team:
    name: str
    models: list[Model]
    penalty: int = 0  # a16

    @property
    def front(self) -> float:
        return self.models[0].distance

    @property
    def across_count(self) -> int:
        return sum(m.across for m in self.models)


@dataclass
class TurnRecord:
    """What the last turn rolled and did, for the screen."""

    number: int
    faces: dict[str, list[int]] = field(default_factory=dict)
    modifiers: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    pull: float = 0.0


@dataclass
class TugState:
    sides: dict[str, Team]
    options: dict[str, Any]
    turn: int = 0
    last: TurnRecord | None = None
    winner: str | None = None


def pull_distance(difference: int, rounding: str) -> float:
    """a13: half the difference in inches (`down`: v0.65's rounding)."""
    return float(difference // 2) if rounding == "down" else difference / 2


def move_column(team: Team, inches: float) -> list[int]:
    """Move the whole column (positive = away from the line); returns models that crossed."""
    crossed = []
    for i, model in enumerate(team.models):
        was_across = model.across
        model.distance += inches
        if model.across and not was_across:
            model.crossings += 1
            crossed.append(i)
    return crossed


def win_check(state: TugState, loser_side: str) -> tuple[str, str, tuple[str, ...]] | None:
    """a17/a18 after a pull; only the pulled team can have crossed."""
    team = state.sides[loser_side]
    puller = OTHER[loser_side]
    if team.across_count >= 2:
        return puller, f"two of {team.name}'s models are across the centre line", ("a17",)
    for model in team.models:
        if model.crossings >= 2:
            return (
                puller,
                f"{team.name}'s {model.unit} was pulled across on two different turns",
                ("a18",),
            )
    return None


def new_state(
    names: dict[str, str],
    teams: dict[str, list[str]],
    dice: dict[str, int],
    options: dict[str, Any],
) -> TugState:
    """a10: columns at `start` inches from the line, `spacing` apart, front first."""
    start, spacing = float(options["start"]), float(options["spacing"])
    sides = {
        side: Team(
            names[side],
            [Model(unit, dice[unit], start + spacing * i) for i, unit in enumerate(teams[side])],
        )
        for side in ("A", "B")
    }
    return TugState(sides=sides, options=dict(options))


class TugGame:
    def __init__(self, state: TugState) -> None:
        self.state = state

    def play(self) -> Play:
        state = self.state
        opts = state.options
        while True:  # a19: roll again until someone wins
            state.turn += 1
            yield TurnStart(state.turn)
            record = TurnRecord(state.turn)
            for side in ("A", "B"):  # a11: every member rolls, A's column front to back, then B
                team = state.sides[side]
                faces = yield Roll(
                    dice=tuple(m.die for m in team.models),
                    reason=f"{team.name}'s pull, turn {state.turn}",
                    side=side,
                    rules=("a2", "a11"),
                    labels=tuple(m.unit for m in team.models),
                )
                record.faces[side] = list(faces)
                record.modifiers[side] = -team.penalty
                record.totals[side] = sum(faces) - team.penalty  # a12
            a, b = record.totals["A"], record.totals["B"]
            state.last = record
            if a == b:  # a15, a16
                for team in state.sides.values():
                    team.penalty = team.penalty + 1 if opts["tie_penalty_stacks"] else 1
                yield Event(
                    f"Tie at {a}: nobody moves; each team has -{state.sides['A'].penalty} "
                    "on its next roll",
                    rules=("a15", "a16"),
                    kind="tie",
                    data={"totals": dict(record.totals)},
                )
                continue
            for team in state.sides.values():
                team.penalty = 0
            winner = "A" if a > b else "B"
            loser = OTHER[winner]
            inches = pull_distance(abs(a - b), opts["rounding"])
            record.winner, record.pull = winner, inches
            move_column(state.sides[winner], inches)  # a13
            crossed = move_column(state.sides[loser], -inches)  # a14
            yield Event(
                f"{state.sides[winner].name} {max(a, b)} beats {state.sides[loser].name} "
                f"{min(a, b)} by {abs(a - b)}: pulls {_inches(inches)}; "
                f"{state.sides[loser].name}'s front is {_inches(state.sides[loser].front)} "
                "from the line",
                rules=("a12", "a13", "a14"),
                kind="pull",
                data={"winner": winner, "difference": abs(a - b), "inches": inches},
            )
            for i in crossed:
                model = state.sides[loser].models[i]
                yield Event(
                    f"{state.sides[loser].name}'s {model.unit} is pulled across the centre line "
                    f"(crossing {model.crossings})",
                    rules=("a17", "a18"),
                    kind="cross",
                    data={"side": loser, "model": i, "crossings": model.crossings},
                )
            result = win_check(state, loser)
            if result:
                state.winner = result[0]
                return Outcome(winner=result[0], reason=result[1], rules=result[2])

    def state_json(self) -> dict[str, Any]:
        state = self.state
        return {
            "turn": state.turn,
            "sides": {
                side: {
                    "name": team.name,
                    "penalty": team.penalty,
                    "models": [
                        {
                            "unit": m.unit,
                            "die": m.die,
                            "distance": m.distance,
                            "crossings": m.crossings,
                            "across": m.across,
                        }
                        for m in team.models
                    ],
                }
                for side, team in state.sides.items()
            },
        }


def _inches(value: float) -> str:
    return f'{value:g}"'
