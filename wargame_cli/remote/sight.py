"""What each screen of a remote game shows of a state. Both machines run the rules on the
whole state and keep the whole log (the hash chain needs the same log on both); only what is
drawn is cut. A player sees what their side may see (`View.seen_by`, as at one terminal when
it is their turn: a hidden deployment leaves the other side's pieces out until revealed); a
spectator sees only what both sides see at once, so a spectator can never tell either player
where the other's hidden pieces stand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wargame_cli.ruleset import SIDES
from wargame_cli.view import View

Sight = Callable[[Any], Any]


def of_side(view: View, side: str) -> Sight:
    """The state as `side`'s player may see it."""
    return lambda state: view.seen_by(state, side)


def neutral(view: View) -> Sight:
    """The state as every side may see it: each side's hiding applied in turn."""

    def seen(state: Any) -> Any:
        for side in SIDES:
            state = view.seen_by(state, side)
        return state

    return seen


def hidden(view: View, state: Any) -> bool:
    """Is part of `state` hidden from some side now (a hidden deployment under way)? Then what
    a spectator is sent waits for the reveal (`Watchers`)."""
    return any(view.seen_by(state, side) is not state for side in SIDES)
