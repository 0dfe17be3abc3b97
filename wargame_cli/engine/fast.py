"""Bot-vs-bot games for simulations: the one driver (`drive.py`) with seeded dice and the
bots' legal suggestions, keeping only the outcome and the number of turns.

`simulate` plays many thousands of games; the Runner builds a log entry for every request,
which costs more than the rules themselves. Here the same requests are answered the same way
(seeded dice, the ruleset's default for every choice, checked as the Runner checks it) with
no log. Fed the faces of `face_source(S)`, a game here is the game
`wargame play ID --no-input --seed S` plays: the faces are drawn exactly as `RngDice` draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from wargame_cli.cpython import die_faces, reseeded_faces
from wargame_cli.engine import drive
from wargame_cli.engine.requests import Choice, Event, Outcome, TurnStart

_MASK = (1 << 64) - 1


class Played(NamedTuple):
    """How one game ended and how many turns it took (a tuple: one is made every game)."""

    outcome: Outcome
    turns: int


def stream_seed(run_seed: int, index: int) -> int:
    """The seed of stream `index` of a run (SplitMix64 of the pair): depends on nothing else,
    so any split over workers draws the same faces."""
    z = (run_seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return ((z ^ (z >> 31)) >> 1) or 1  # 63 bits, never 0


def face_source(seed: int) -> Callable[[int], int]:
    """`below(sides)` is a die's face minus one: the faces `RngDice(seed)` draws."""
    return die_faces(seed)


def face_streams() -> tuple[Callable[[int], int], Callable[[int], None]]:
    """One `below` for many streams: after `reseed(S)` it draws the faces `face_source(S)`
    draws (a simulation's game after game, each on its own stream, at a reseed's cost)."""
    return reseeded_faces()


def play_fast(
    game: Any,
    below: Callable[[int], int],
    on_choice: Callable[[Choice], None] | None = None,
    answers: Sequence[Any] = (),
    on_event: Callable[[Event], None] | None = None,
) -> Played:
    """Play `game` to the end: first the recorded `answers` (a saved log's, for `--from`),
    then each die `below(sides) + 1` and every choice the bot's legal suggestion.
    `on_choice` sees each of the bots' questions before it is answered (the fingerprint,
    the shortcut tests); `on_event` each Event after the recorded answers (a ruleset's
    `sim_watcher`)."""
    turns = 0

    def on_turn(number: int) -> None:
        nonlocal turns
        turns = number

    gen = game.play()
    request = None
    if answers:
        paused = drive.drive(gen, _counting(drive.recorded(answers), on_turn))
        if not isinstance(paused, drive.Paused):
            return Played(drive.ended(paused), turns)
        request = paused.request
    answer = drive.seeded(below, on_choice, on_turn)
    if on_event is not None:
        answer = _watching(answer, on_event)
    outcome = drive.play(gen, answer, request)
    return Played(outcome, turns)


def _watching(answer: drive.Answerer, on_event: Callable[[Event], None]) -> drive.Answerer:
    """`answer`, showing `on_event` every Event first."""

    def watched(req: Any) -> Any:
        if isinstance(req, Event):
            on_event(req)
        return answer(req)

    return watched


def _counting(answer: drive.Answerer, on_turn: Callable[[int], None]) -> drive.Answerer:
    """`answer`, telling `on_turn` of each turn it answers the start of."""

    def counted(req: Any) -> Any:
        reply = answer(req)
        if isinstance(req, TurnStart) and reply is not drive.STOP:
            on_turn(req.number)
        return reply

    return counted
