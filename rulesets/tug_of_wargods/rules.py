"""Tug of WarGods v0.75, rule points a9-a19: the pull, the crossings and the win.

Pure. One function, `resolve`, applies a turn's totals (a12-a18); the game generator asks for
the dice and narrates around it, `fast_play` (simulations) feeds it dice directly, and the exact
odds (`odds.py`) walk it as a Markov chain. There is one copy of each rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from wargame_cli.rulesets.tug_of_wargods.teams import told_apart

from wargame_cli.engine.requests import Event, Outcome, Play, Roll, TurnStart
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.wording import possessive


@dataclass(frozen=True, slots=True)
class Model:
    """One model as shown and reported: where it stands and how often it was pulled across."""

    unit: str
    die: int
    distance: float
    crossings: int

    @property
    def across(self) -> bool:
        return self.distance < 0  # gap 4: exactly on the line is not across


@dataclass(slots=True)
class Team:
    """A column: its front model's distance from the line, the others `spacing` behind (a10)."""

    name: str
    units: tuple[str, ...]
    dice: tuple[int, ...]
    front: float
    spacing: float
    crossings: list[int]
    penalty: int = 0  # a16

    def distance(self, i: int) -> float:
        return self.front + self.spacing * i

    @property
    def models(self) -> list[Model]:
        return [
            Model(unit, die, self.front + self.spacing * i, self.crossings[i])
            for i, (unit, die) in enumerate(zip(self.units, self.dice, strict=True))
        ]

    @property
    def across_count(self) -> int:
        return sum(self.front + self.spacing * i < 0 for i in range(len(self.units)))


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
    pair: tuple[Team, Team] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.pair = (self.sides["A"], self.sides["B"])


Win = tuple[str, str, tuple[str, ...]]  # winning side, why, rule points


class Turn(NamedTuple):
    """What `resolve` did with one turn's roll (a tuple: one is made every turn)."""

    totals: tuple[int, int]
    modifiers: tuple[int, int]
    winner: str | None  # None: a tie (a15)
    inches: float
    crossed: tuple[int, ...]  # the pulled team's models that went across this turn
    win: Win | None


def pull_distance(difference: int, rounding: str) -> float:
    """a13: half the difference in inches (`down`: v0.65's rounding)."""
    return float(difference // 2) if rounding == "down" else difference / 2


def move_column(team: Team, inches: float) -> tuple[int, ...]:
    """Move the whole column (positive = away from the line); returns the models that went
    from not across to across (gap 5: that is a crossing)."""
    before = team.front
    team.front = before + inches
    if inches >= 0:
        return ()
    crossed = []
    spacing = team.spacing
    for i in range(len(team.units)):
        if before + spacing * i >= 0 > team.front + spacing * i:
            team.crossings[i] += 1
            crossed.append(i)
    return tuple(crossed)


# How a game ends, for simulate's tally (a17, a18)
CAUSES: dict[tuple[str, ...], str] = {
    ("a17",): "two of the loser's models across",
    ("a18",): "a loser's model pulled across twice",
}


def outcome_of(win: Win) -> Outcome:
    return Outcome(winner=win[0], reason=win[1], rules=win[2], cause=CAUSES.get(win[2], ""))


def win_check(state: TugState, loser_side: str) -> Win | None:
    """a17/a18 after a pull; only the pulled team can have crossed."""
    team = state.sides[loser_side]
    puller = other(loser_side)
    if team.across_count >= 2:
        return puller, f"two of {possessive(team.name)} models are across the centre line", ("a17",)
    for i, count in enumerate(team.crossings):
        if count >= 2:
            return (
                puller,
                f"{possessive(team.name)} {told_apart(team.units, loser_side, i)} was pulled "
                "across on two different turns",
                ("a18",),
            )
    return None


def resolve(state: TugState, sum_a: int, sum_b: int) -> Turn:
    """One turn after the roll: the totals with their modifiers (a12, a16), the tie (a15) or
    the pull (a13, a14), and the win (a17, a18). Every game turn goes through here."""
    side_a, side_b = state.pair
    mods = (-side_a.penalty, -side_b.penalty)
    a, b = sum_a + mods[0], sum_b + mods[1]
    if a == b:
        stacks = state.options["tie_penalty_stacks"]
        for team in state.pair:
            team.penalty = team.penalty + 1 if stacks else 1
        return Turn((a, b), mods, None, 0.0, (), None)
    side_a.penalty = side_b.penalty = 0
    if a > b:
        winner, loser, pulled = "A", "B", side_b
        inches = pull_distance(a - b, state.options["rounding"])
        side_a.front += inches  # a13: the winner backs off, straight back
    else:
        winner, loser, pulled = "B", "A", side_a
        inches = pull_distance(b - a, state.options["rounding"])
        side_b.front += inches
    crossed = move_column(pulled, -inches)  # a14
    # a17 and a18 can only become true when a model crosses, so only then are they checked
    win = win_check(state, loser) if crossed else None
    if win is not None:
        state.winner = win[0]
    return Turn((a, b), mods, winner, inches, crossed, win)


def deploy(state: TugState) -> None:
    """a10: both columns in place, front models `start` inches from the line; nothing crossed,
    no penalty. A new game, or the next one of a simulation on the same teams."""
    start = float(state.options["start"])
    for team in state.pair:
        team.front = start
        team.crossings = [0] * len(team.units)
        team.penalty = 0
    state.turn = 0
    state.last = None
    state.winner = None


def new_state(
    names: dict[str, str],
    teams: dict[str, list[str]],
    dice: dict[str, int],
    options: dict[str, Any],
) -> TugState:
    """a10: columns at `start` inches from the line, `spacing` apart, front first."""
    spacing = float(options["spacing"])
    sides = {
        side: Team(
            names[side],
            tuple(teams[side]),
            tuple([dice[unit] for unit in teams[side]]),
            0.0,
            spacing,
            [],
        )
        for side in SIDES
    }
    state = TugState(sides, options)  # options are only read
    deploy(state)
    return state


def fast_play(state: TugState, below: Callable[[int], int]) -> tuple[Win, int]:
    """The game without requests, for simulations: each die is `below(sides) + 1`, drawn in the
    order `play()` asks for them (A's column front to back, then B's), so both play the same
    game from the same faces. Returns the win and the number of turns."""
    dice_a, dice_b = state.sides["A"].dice, state.sides["B"].dice
    size_a, size_b = len(dice_a), len(dice_b)
    turn = state.turn
    while True:  # a19
        turn += 1
        sum_a = size_a
        for die in dice_a:
            sum_a += below(die)
        sum_b = size_b
        for die in dice_b:
            sum_b += below(die)
        win = resolve(state, sum_a, sum_b).win
        if win is not None:
            state.turn = turn
            return win, turn


def fast_games(state: TugState, below: Callable[[int], int]) -> Iterator[tuple[Win, int]]:
    """Game after game on the same teams, each deployed afresh (a10): for simulations."""
    while True:
        deploy(state)
        yield fast_play(state, below)


class TugGame:
    def __init__(self, state: TugState, at_turn: bool = False) -> None:
        """`at_turn`: a restored position; the game sets nothing up before its turns."""
        self.state = state

    def play(self) -> Play:
        state = self.state
        rolls = {
            side: Roll(
                dice=team.dice,
                reason=f"{possessive(team.name)} pull",
                side=side,
                rules=("a2", "a11"),
                labels=team.units,
            )
            for side, team in state.sides.items()
        }
        while True:  # a19: roll again until someone wins
            yield TurnStart(state.turn + 1, rules=("a11", "a19"))
            state.turn += 1  # after the engine's save point: a stopped game shows turns done
            faces_a = yield rolls["A"]  # a11: every member rolls, A front to back, then B
            faces_b = yield rolls["B"]
            turn = resolve(state, sum(faces_a), sum(faces_b))
            state.last = TurnRecord(
                state.turn,
                faces={"A": list(faces_a), "B": list(faces_b)},
                modifiers=dict(zip(SIDES, turn.modifiers, strict=True)),
                totals=dict(zip(SIDES, turn.totals, strict=True)),
                winner=turn.winner,
                pull=turn.inches,
            )
            yield from _narrate(state, turn)
            if turn.win is not None:
                return outcome_of(turn.win)

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


def _narrate(state: TugState, turn: Turn) -> Iterator[Event]:
    """The events of a resolved turn, for the log, the screen and battle reports."""
    a, b = turn.totals
    if turn.winner is None:
        yield Event(
            f"Tie at {a} ({_dice(state, 'A')} against {_dice(state, 'B')}): nobody moves; "
            f"each team has -{state.sides['A'].penalty} on its next roll",
            rules=("a15", "a16"),
            kind="tie",
            data={"totals": {"A": a, "B": b}},
        )
        return
    won, lost = state.sides[turn.winner], state.sides[other(turn.winner)]
    yield Event(
        f"{won.name} {max(a, b)} ({_dice(state, turn.winner)}) beats {lost.name} {min(a, b)} "
        f"({_dice(state, other(turn.winner))}) by {abs(a - b)}: pulls "
        f"{_inches(turn.inches)}; {possessive(lost.name)} front is {_inches(lost.front)} "
        "from the line",
        rules=("a12", "a13", "a14"),
        kind="pull",
        data={"winner": turn.winner, "difference": abs(a - b), "inches": turn.inches},
    )
    for i in turn.crossed:
        yield Event(
            f"{possessive(lost.name)} {told_apart(lost.units, other(turn.winner), i)} is pulled "
            "across the centre line "
            f"(crossing {lost.crossings[i]})",
            rules=("a17", "a18"),
            kind="cross",
            data={"side": other(turn.winner), "model": i, "crossings": lost.crossings[i]},
        )


def _dice(state: TugState, side: str) -> str:
    """How a side's total was made, as the seed's example shows a pull: `9+4+4`, and a tie
    penalty after it (`8+5+2 -1`)."""
    last = state.last
    if last is None:
        return ""
    made = "+".join(str(face) for face in last.faces.get(side, []))
    modifier = last.modifiers.get(side, 0)
    return f"{made} {modifier:+d}" if modifier else made


def _inches(value: float) -> str:
    return f'{value:g}"'
