"""The redraw policy, once for every ruleset: what the screen has shown of one game, and from
that which of a view's alternatives (`Redraw`, `Once`, see `wargame_cli/view.py`) it shows
now. Views keep nothing between calls; this is where the memory of a game's screen lives, one
`Memory` per game shown (the live log and the decision screen share it)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.rule import Rule
from rich.text import Text

from wargame_cli.view import Entry, Once, Redraw, Shown


@dataclass
class Memory:
    """What was drawn: the parts of the last board (`board`) and the moment it last counted
    as current (`board_at`), the last `Once` key shown, and, when pictures are kept once a turn
    (`once_a_turn`: a replay written to a file), the kinds of entry drawn with one this turn."""

    board: Mapping[Any, Hashable] | None = None
    board_at: Hashable = None
    once: Hashable = None
    once_a_turn: bool = False
    pictured: set[tuple[str, str]] = field(default_factory=set)

    def shown(self, entry: Entry, shown: Shown) -> Shown:
        """What to show of what the view returned for `entry`."""
        while isinstance(shown, Redraw | Once):
            shown = self._redraw(shown) if isinstance(shown, Redraw) else self._once(shown)
        return self._trimmed(entry, shown) if self.once_a_turn else shown

    def _redraw(self, offer: Redraw) -> Shown:
        """The board again only if what it shows changed since it was drawn (or, once drawn
        at this moment, only if a part in `within` changed); unchanged, the board on screen
        counts as drawn now."""
        before = self.board or {}
        if offer.always:
            draw = True
        elif offer.within is not None and self.board_at == offer.at:
            draw = any(before.get(part) != now for part, now in offer.within.items())
        elif offer.key != self.board:
            draw = offer.wanted
        else:
            self.board_at = offer.at
            draw = False
        if not draw:
            return offer.plain
        self.board, self.board_at = offer.key, offer.at
        return offer.drawn

    def _once(self, offer: Once) -> Shown:
        if self.once == offer.key:
            return offer.later
        self.once = offer.key
        return offer.first()

    def _trimmed(self, entry: Entry, shown: Shown) -> Shown:
        """A picture drawn beside a line (a grid after a move) kept once a turn for each kind
        of entry, every line around it kept; the boards at a turn's start and at the end
        stay."""
        if entry["t"] in ("turn", "end"):
            self.pictured.clear()
            return shown
        if not isinstance(shown, Group):
            return shown
        parts = _flat(shown)
        if all(_is_line(part) for part in parts):
            return shown
        kind = (entry["t"], str(entry.get("kind")))
        if kind not in self.pictured:
            self.pictured.add(kind)
            return shown
        return Group(*(part for part in parts if _is_line(part)))  # the lines, not the picture


def _flat(group: Group) -> list[Any]:
    parts: list[Any] = []
    for part in group.renderables:
        parts.extend(_flat(part) if isinstance(part, Group) else [part])
    return parts


def _is_line(part: Any) -> bool:
    """Text and headings are lines of the story; tables, panels and maps are pictures."""
    return isinstance(part, Text | Rule | str)
