"""The one loop that drives a game generator: every request goes to an answerer, every answer
goes back into the rules.

Live play, replay, resuming, take-backs, simulations, `simulate --from`, the team builders
and the tests all play through `drive`; they differ only in their answerer, a plain function
from a request to its answer. So there is one place where the rules are fed, and the loop a
simulation spends its time in is this one, as tight as a loop can be: one call of the
answerer and one `send` per request.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, NamedTuple

from wargame_cli.engine.requests import Choice, Event, Outcome, Request, Roll, TurnStart


class _Stop:
    """The type of `STOP` (one instance): an answer no request ever takes."""

    def __repr__(self) -> str:
        return "STOP"


STOP: Any = _Stop()  # an answerer returns it to leave its request unanswered: `drive` pauses

Answerer = Callable[[Any], Any]  # a request -> its answer (faces, a key, None) or STOP


class Paused(NamedTuple):
    """`drive` stopped at `request`, which still waits for its answer."""

    request: Any


def drive(gen: Generator[Any, Any, Any], answer: Answerer, request: Any = None) -> Any:
    """Send `answer(request)` for every request of `gen` until it returns (its value is
    returned) or `answer` gives `STOP` (a `Paused` with that request is returned). `request`:
    one already received from `gen` and not yet answered (None: `gen` has not started)."""
    send = gen.send
    try:
        if request is None:
            request = send(None)
        while True:
            reply = answer(request)
            if reply is STOP:
                return Paused(request)
            request = send(reply)
    except StopIteration as stop:
        return stop.value


def play(gen: Generator[Any, Any, Any], answer: Answerer, request: Any = None) -> Outcome:
    """`drive` a game to its end: its Outcome (a ruleset's play() must return one)."""
    return ended(drive(gen, answer, request))


def ended(value: Any) -> Outcome:
    """What a game generator returned, which must be its Outcome."""
    if not isinstance(value, Outcome):
        raise TypeError("a ruleset's play() must return an Outcome")
    return value


class IllegalSuggestion(RuntimeError):
    """A ruleset's own suggestion (a Choice's default, what the bot plays) is not legal."""


def bot_key(choice: Choice) -> str:
    """The bot's answer: the choice's default, checked as every answer is checked."""
    key = choice.default
    reason = choice.legal(key)
    if reason is not None:
        raise IllegalSuggestion(f"the ruleset suggested an illegal answer {key!r}: {reason}")
    return key


def seeded(
    below: Callable[[int], int],
    on_choice: Callable[[Choice], None] | None = None,
    on_turn: Callable[[int], None] | None = None,
) -> Answerer:
    """The answerer of a bot-vs-bot game: each die `below(sides) + 1`, each choice the bot's
    legal suggestion. Hooks: `on_choice` sees each Choice before it is answered, `on_turn`
    each turn's number (TurnStart)."""
    # told apart by exact type through local names (the hot loop of every bot game), which
    # mypy does not read as narrowing `req`: hence the ignores below, each for that alone
    roll, event, choice, turn_start = Roll, Event, Choice, TurnStart

    def answer(req: Request) -> Any:
        kind = type(req)
        if kind is event:
            return None
        if kind is roll:
            dice = req.dice  # type: ignore[union-attr]
            if len(dice) == 1:  # most rolls are one die: no list to build
                return (below(dice[0]) + 1,)
            return tuple([below(d) + 1 for d in dice])
        if kind is choice:
            if on_choice is not None:
                on_choice(req)  # type: ignore[arg-type]
            return bot_key(req)  # type: ignore[arg-type]
        if kind is turn_start:
            if on_turn is not None:
                on_turn(req.number)  # type: ignore[union-attr]
            return None
        return _seldom(req, below, on_choice, on_turn)

    return answer


def _seldom(
    req: Any,
    below: Callable[[int], int],
    on_choice: Callable[[Choice], None] | None,
    on_turn: Callable[[int], None] | None,
) -> Any:
    """Subclasses of the requests (not told apart by their exact type): answered alike."""
    if isinstance(req, Roll):
        return tuple([below(d) + 1 for d in req.dice])
    if isinstance(req, Choice):
        if on_choice is not None:
            on_choice(req)
        return bot_key(req)
    if isinstance(req, TurnStart) and on_turn is not None:
        on_turn(req.number)
    return None


def recorded(answers: Any) -> Answerer:
    """Answers given in order (a saved log's faces and keys), then STOP."""
    feed = iter(answers)
    end = STOP

    def answer(req: Request) -> Any:
        return next(feed, end)

    return answer
