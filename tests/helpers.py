"""Drive a ruleset's game generator directly in unit tests, with scripted dice and choices."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from wargame_cli.engine.drive import STOP, Paused, drive
from wargame_cli.engine.requests import Choice, Event, Outcome, Roll, TurnStart


class Script:
    """Answers a game's requests: faces from `faces`, choices from `choices` (keys, or
    callables taking the Choice), falling back to the default (the bot) when exhausted.
    Records everything it saw in `requests`, `events` and `outcome`."""

    def __init__(
        self,
        faces: Iterable[int] = (),
        choices: Iterable[str | Callable[[Choice], str]] = (),
        fallback_face: Callable[[int], int] | None = None,
    ) -> None:
        self.faces = list(faces)
        self.choices = list(choices)
        self.fallback_face = fallback_face
        self.requests: list[Any] = []
        self.events: list[Event] = []
        self.outcome: Outcome | None = None

    def answer(self, req: Any) -> Any:
        self.requests.append(req)
        if isinstance(req, Roll):
            out = []
            for die in req.dice:
                if self.faces:
                    out.append(self.faces.pop(0))
                elif self.fallback_face is not None:
                    out.append(self.fallback_face(die))
                else:
                    raise AssertionError(f"script ran out of faces at {req.reason}")
            return tuple(out)
        if isinstance(req, Choice):
            req.options  # noqa: B018 - a menu built later would show a later position
            if self.choices:
                pick = self.choices.pop(0)
                key = pick(req) if callable(pick) else pick
            else:
                key = req.default
            reason = req.legal(key)
            assert reason is None, f"scripted answer {key!r} refused: {reason}"
            return key
        if isinstance(req, Event):
            self.events.append(req)
        return None

    def run(
        self, game: Any, until: Callable[[Any], bool] | None = None, max_requests: int = 100_000
    ) -> Any:
        """Play `game` until it ends or `until(request)` is true (that request unanswered)."""
        asked = 0

        def answer(req: Any) -> Any:
            nonlocal asked
            if until is not None and until(req):
                return STOP
            asked += 1
            if asked > max_requests:
                raise AssertionError("game did not end")
            return self.answer(req)

        ended = drive(game.play(), answer)
        if isinstance(ended, Paused):
            return ended.request
        self.outcome = ended
        return None

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


def turns_seen(script: Script) -> int:
    return sum(isinstance(r, TurnStart) for r in script.requests)
