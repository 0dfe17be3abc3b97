"""A game in one object: ruleset, options, seed, setup and the runner driving it.

Used by every front end (CLI play/resume/replay, simulate, tests) so that a game is set up,
resumed and verified in exactly one way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from wargame_cli.engine import position
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.dice import DiceSource, RngDice
from wargame_cli.engine.runner import Controller, Observer, Runner
from wargame_cli.ruleset import SIDES, Ruleset, Setup, resolve_options


def draw_seed() -> int:
    return random.SystemRandom().randrange(1, 2**31)


@dataclass
class Session:
    ruleset: Ruleset
    options: dict[str, Any]
    seed: int
    setup: Setup
    runner: Runner
    created: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> Any:
        return self.runner.game

    @property
    def status(self) -> str:
        return "finished" if self.runner.finished else "in_progress"

    @property
    def winner(self) -> str | None:
        return self.runner.outcome.winner if self.runner.outcome else None


def start(
    ruleset: Ruleset,
    setup: Setup,
    options: dict[str, Any] | list[str] | None = None,
    seed: int | None = None,
    dice: DiceSource | None = None,
    controllers: dict[str, Controller] | None = None,
    observer: Observer | None = None,
    positions: bool = True,
) -> Session:
    """A new game. With no controllers, bots play both sides; with no dice, the seeded generator.
    `positions`: keep the game's positions in its log (for its save, take-backs, clones);
    a game nobody saves may go without."""
    opts = resolve_options(ruleset.options, options)
    seed = draw_seed() if seed is None else seed
    game = ruleset.new_game(setup, opts)
    runner = Runner(
        game,
        dice if dice is not None else RngDice(seed),
        controllers if controllers is not None else {s: BotController() for s in SIDES},
        observer,
        factory=lambda: ruleset.new_game(setup, opts),
        editor=ruleset.apply_edit,
        after_end=ruleset.after_declared_hook(),
        keeper=position.keeper(ruleset, setup, opts) if positions else None,
    )
    return bind(Session(ruleset, opts, seed, setup, runner))


@runtime_checkable
class Binds(Protocol):
    """A controller that reads the game it plays (a bot's policy looks at the position)."""

    def bind(self, session: Session) -> None: ...


def bind(session: Session) -> Session:
    """Give the game to the controllers that read it."""
    for controller in session.runner.controllers.values():
        if isinstance(controller, Binds):
            controller.bind(session)
    return session


def bot_game(
    ruleset: Ruleset,
    seed: int,
    options: dict[str, Any] | list[str] | None = None,
    max_turns: int | None = None,
) -> Session:
    """Default teams, bots on both sides, seeded dice: the conformance and benchmark game."""
    opts = resolve_options(ruleset.options, options)
    session = start(ruleset, default_setup(ruleset, opts), opts, seed)
    session.runner.run(stop_after_turn=max_turns)
    return session


def default_setup(ruleset: Ruleset, options: dict[str, Any]) -> Setup:
    """Each side's default team and name (what a bot or a script plays when none is given)."""
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    return Setup(names=names, teams=teams)
