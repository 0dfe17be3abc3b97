"""A game's position as data: what the rules hold at a turn's start, stored and restored.

A ruleset that declares positions (`Ruleset.snapshot` and `Ruleset.new_game_at`) lets the
engine rebuild a game from the nearest stored position and replay only the entries after
it, so take-backs, die corrections, resuming, `simulate --from` and `replay --odds` cost the
same at turn 1,600 as at turn 2. A ruleset without them is replayed from the start, as
before.

Where positions live: a turn's log entry (`{"t": "turn", "n": 7, "position": {...}}`)
carries the position the game had when that turn started, taken as the engine answers the
turn's `TurnStart` (after any table edit made between the turns). The live runner keeps one
whenever the log written since the last one is twice as long as the position itself
(`stored.SPACING`), so positions add about half the log's length at most.

For a search bot: `clone(session)` is an independent copy of a game at the point it
stands, with its own dice and controllers; play it on with its runner and the original
never moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from wargame_cli.engine import stored
from wargame_cli.engine.dice import RngDice

if TYPE_CHECKING:
    from wargame_cli.engine.runner import Controller, Observer
    from wargame_cli.engine.session import Session
    from wargame_cli.ruleset import Ruleset, Setup

KEY = stored.KEY
Keeper = stored.Keeper
nearest = stored.nearest
skip_dice = stored.skip_dice


def declares(ruleset: Ruleset) -> bool:
    """Whether `ruleset` keeps positions: both hooks its own, not the base class's defaults
    (a ruleset from outside may have neither)."""
    from wargame_cli.ruleset import Ruleset

    kind = type(ruleset)
    return kind.new_game_at is not Ruleset.new_game_at and kind.snapshot is not Ruleset.snapshot


def keeper(ruleset: Ruleset, setup: Setup, options: dict[str, Any]) -> stored.Keeper | None:
    """The keeper of `ruleset`'s positions for this game, or None when it declares none
    (the base class's defaults): such a game is always replayed from its start."""
    if not declares(ruleset):
        return None
    return Keeper(
        take=ruleset.snapshot,
        make=lambda snapshot: ruleset.new_game_at(setup, options, snapshot),
    )


def clone(
    session: Session,
    controllers: Mapping[str, Controller] | None = None,
    observer: Observer | None = None,
    dice: Any = None,
) -> Session:
    """An independent copy of `session`'s game where it stands (the same log and position,
    the same question pending), from its nearest position and the entries after it: its
    own state, its own runner, its own dice (`dice`; default the seed's stream, moved on to
    where the game is). Playing the copy on never changes the original."""
    from wargame_cli.engine.runner import Runner
    from wargame_cli.engine.session import Session as Made

    original = session.runner
    stream = dice if dice is not None else RngDice(session.seed)
    runner = Runner(
        None,
        stream,
        controllers if controllers is not None else original.controllers,
        None,
        factory=original.factory,
        editor=original.editor,
        after_end=original.after_end,
        keeper=original.keeper,
        start=False,
    )
    runner.restart(original.log)
    runner.observer = observer
    return Made(
        session.ruleset, session.options, session.seed, session.setup, runner, session.created
    )
