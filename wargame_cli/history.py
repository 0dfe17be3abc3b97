"""A saved game turn by turn: one replay of its log, stopped at the end of every turn.

Replay navigation, `replay --turn N`, `fork` and odds from a position all need the same two
things: where each turn ends in the log, and the game as it stood there. A turn ends where the
next one starts, so the game seen at that moment (the rules asking to start turn N + 1) is the
game `play --turns N` stops with; the last turn ends with the log.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli.engine.entries import LogEntry, Shown
from wargame_cli.engine.requests import TurnStart
from wargame_cli.engine.runner import Observer
from wargame_cli.engine.session import Session
from wargame_cli.errors import BadInput
from wargame_cli.saves import games

LOG_KINDS = frozenset({"turn", "roll", "choice", "event", "end", "edit"})

# Called at the end of every turn (0: the deployment, before turn 1) with the game as it stood.
TurnEnd = Callable[[int, Any], None]


@dataclass(frozen=True)
class TurnMark:
    """Where turn `turn` lies in the log (`start` to `end`, end excluded) and how it ended."""

    turn: int
    start: int
    end: int
    state: dict[str, Any]
    complete: bool  # False: the save stops in the middle of this turn


@dataclass
class History:
    path: Path
    session: Session
    turns: list[TurnMark] = field(default_factory=list)

    @property
    def log(self) -> list[LogEntry]:
        return self.session.runner.log

    @property
    def last(self) -> int:
        return self.turns[-1].turn

    def mark(self, turn: int) -> TurnMark:
        """Turn `turn`, or one clear line naming the turns there are."""
        if not 0 <= turn <= self.last:
            word = self.session.ruleset.turn_word
            raise BadInput(
                f"--turn {turn}: {self.path.name} has {word}s 0 (the deployment) to {self.last}"
            )
        return self.turns[turn]

    def cut(self, turn: int) -> list[LogEntry]:
        """The log up to the end of turn `turn`, nothing after."""
        return self.log[: self.mark(turn).end]


@dataclass(frozen=True)
class Resumed:
    """Where bot games playing a saved log on start: the log's nearest position (None: the
    game's start) and the log's answers after it."""

    at: dict[str, Any] | None
    answers: tuple[Any, ...]


def resumed(session: Session, log: list[LogEntry]) -> Resumed:
    """`log` (the session's, or a cut of it) as bot games play it on: from its nearest
    position when the ruleset keeps them, so the cost does not grow with the game."""
    from wargame_cli.engine import position

    at = position.nearest(log) if session.runner.keeper is not None else None
    if at is None:
        return Resumed(None, tuple(answers(log)))
    return Resumed(dict(log[at][position.KEY]), tuple(answers(log[at:])))  # type: ignore[literal-required]


def answers(log: list[LogEntry]) -> list[Any]:
    """What the log answered to each request of the rules, in order (the end is no answer)."""
    out: list[Any] = []
    for entry in log:
        if entry["t"] == "edit":
            raise BadInput(
                "this save has table edits, which a replay of its answers alone cannot make"
            )
        if entry["t"] == "roll":
            out.append(tuple(entry["faces"]))
        elif entry["t"] == "choice":
            out.append(entry["key"])
        elif entry["t"] != "end":
            out.append(None)
    return out


def load(
    path: Path,
    on_turn_end: TurnEnd | None = None,
    observer: Observer | None = None,
) -> History:
    """Replay the save once, marking the end of every turn (and telling `on_turn_end`)."""
    marks: list[TurnMark] = []
    seen = [0, 0]  # entries so far, start of the current turn

    def watch(entry: Shown, game: Any) -> None:
        if entry.get("t") not in LOG_KINDS:  # a note for the screen, not a log entry
            if observer is not None:
                observer(entry, game)
            return
        seen[0] += 1
        if entry["t"] == "turn":
            here = seen[0] - 1
            marks.append(TurnMark(entry["n"] - 1, seen[1], here, game.state_json(), True))
            seen[1] = here
            if on_turn_end is not None:
                on_turn_end(entry["n"] - 1, game)
        if observer is not None:
            observer(entry, game)

    session = games.open_save(path, observer=watch)
    runner = session.runner
    final = runner.turn
    if not marks or marks[-1].turn != final:
        complete = runner.finished or isinstance(runner.pending, TurnStart)
        state = session.game.state_json()
        marks.append(TurnMark(final, seen[1], len(runner.log), state, complete))
        if on_turn_end is not None:
            on_turn_end(final, session.game)
    return History(path, session, marks)
