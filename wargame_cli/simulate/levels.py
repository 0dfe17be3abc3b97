"""Simulated games with bot levels (`simulate --bot-level`): played through the runner,
since a policy such as the search looks at the position (it clones it); the default
level's games never come here and stay on `play_fast`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from wargame_cli.engine.dice import RNG, Thrown
from wargame_cli.engine.fast import Played
from wargame_cli.engine.requests import Roll

if TYPE_CHECKING:
    from wargame_cli.engine.runner import Controller
    from wargame_cli.ruleset import Ruleset
    from wargame_cli.simulate.batch import Job


class StreamDice:
    """The simulation's stream of faces (`below(sides) + 1`) as a runner's dice."""

    def __init__(self, below: Callable[[int], int]) -> None:
        self.below = below

    def throw(self, roll: Roll) -> Thrown:
        return Thrown(tuple(self.below(d) + 1 for d in roll.dice), RNG)


def played(
    ruleset: Ruleset, job: Job, below: Callable[[int], int], seed: int
) -> tuple[Any, Played]:
    """One game of `job` with its sides' levels; the game and how it ended. The game's own
    seed is the session's, as `wargame play --seed S --bot-level ...` has it, so the
    policies' own draws and the dice are that command's (`simulate/replay.py`)."""
    from wargame_cli.bots.base import controller
    from wargame_cli.engine.session import start

    levels = job.levels or {}
    bots: dict[str, Controller] = {s: controller(ruleset, levels.get(s)) for s in ("A", "B")}
    session = start(ruleset, job.setup, job.options, seed, StreamDice(below), bots)
    outcome = session.runner.run()
    assert outcome is not None
    return session.game, Played(outcome, session.runner.turn)
