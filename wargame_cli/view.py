"""How a ruleset's state looks on screen: the `View` base class, every hook declared with its
no-op default, and the two ways a view offers the ui a choice it cannot make alone.

A view is pure: it turns a state (and the session's players) into rich renderables and keeps
nothing between calls. What depends on what the screen showed before (draw the board again only
if something moved, a heading only the first time) is decided by the ui's redraw policy
(`wargame_cli/ui/redraw.py`), from the `Redraw` and `Once` values a view returns. rich is
imported only by the views themselves: this module is light, so a `Ruleset` can name it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from rich.console import RenderableType

    from wargame_cli.engine.requests import Choice
    from wargame_cli.tabletop.mapfacts import MapFacts

Entry: TypeAlias = Mapping[str, Any]  # one log entry, as the runner records it (read only)
Names: TypeAlias = Mapping[str, str]  # each side's display name
Players: TypeAlias = Mapping[str, str]  # each side's player: "human" or "bot"; {}: not known
Shown: TypeAlias = Any  # a renderable, a `Redraw`/`Once`, None (the plain line) or False


@dataclass(frozen=True)
class Redraw:
    """A picture of the table (`drawn`) the view would show beside an entry, or `plain` (the
    entry's lines alone) when the table on screen still shows what it is drawn from.

    `key` maps each part of the table (a piece) to what it shows of it. The ui draws `drawn`
    when `key` differs from the last table it drew; otherwise it notes the table on screen as
    current `at` (a moment: turn and step) and shows `plain`. Once current `at` this moment,
    only the parts in `within` (as they are now) count. `always`: drawn whatever changed;
    `wanted=False`: never drawn, only noted current when nothing changed."""

    drawn: Shown
    plain: Shown
    key: Mapping[Any, Hashable]
    at: Hashable = None
    within: Mapping[Any, Hashable] | None = None
    always: bool = False
    wanted: bool = True


@dataclass(frozen=True)
class Once:
    """`first()` the first time `key` comes up in a row (e.g. a heading for a new step), else
    `later`; `first` is made only when shown."""

    key: Hashable
    first: Callable[[], Shown]
    later: Shown


NOBODY_KNOWN: Players = {}


class View:
    """What a ruleset shows. Every hook is optional: the default shows nothing of its own and
    the ui falls back to its generic rendering (`wargame_cli/ui/live.py`), so a view with no
    hooks at all still plays, prints and replays. The ui calls the hooks; none is called
    while the rules run, and none may change the state."""

    def board(self, state: Any, names: Names) -> RenderableType | None:
        """The full board (map, rosters, legend): drawn at a resume, at the end of a replay's
        turns, on "Look..." and above a question when it fits. None: no board."""
        return None

    def compact_board(self, state: Any, names: Names) -> RenderableType | None:
        """The board in at most 14 lines at 80 columns, drawn above a question when the full
        board and the question do not fit together. None: only the full board."""
        return None

    def middle_boards(self, state: Any, names: Names) -> list[RenderableType]:
        """Boards between the full one and the compact one, largest first (a grid of spaces
        drawn as boxes with each unit's name and state, then one line a unit): above a
        question the screen draws the largest board that fits, so a bigger terminal gets a
        bigger board. Empty (the default): only the full and the compact board."""
        return []

    def map_facts(self, state: Any, names: Names, choice: Choice | None = None) -> MapFacts | None:
        """What the one map is drawn from (pieces and their true positions, terrain, who deploys
        where; at a question, the piece it is about): the decision screen draws it at the
        largest scale that fits, and the cursor points at it. None: no map (the screen draws
        `board` or `compact_board` instead)."""
        return None

    def card(self, state: Any, choice: Choice, names: Names) -> RenderableType | None:
        """The facts this decision needs (the acting piece's card, its reach, the odds the
        options state), just above the question. None: no card."""
        return None

    def cards(self, state: Any, names: Names) -> list[tuple[str, RenderableType]]:
        """`(title, renderable)` for every piece on the table, for "Look...". Empty: none."""
        return []

    def seen_by(self, state: Any, side: str | None) -> Any:
        """The state as `side`, deciding now, may see it: the state itself (the default), or
        a copy without the pieces that side may not see yet (a hidden deployment: at one
        terminal each side deploys without the other's pieces on its screen). The decision
        screen draws the board, the card, Look… and the entries since the side last decided
        from it (`render_entry` may leave out an entry about a piece missing from it). None
        for `side`: nobody in particular, the whole state."""
        return state

    def render_entry(self, entry: Entry, state: Any, names: Names, players: Players) -> Shown:
        """One log entry as shown, called as the log grows (live play, replays) with the state
        as it stands after the entry. A renderable; a `Redraw` or `Once` for the ui to
        decide; None for the ui's generic line; False to leave the entry out. The decision
        screen keeps only its lines of text (the `Text` and `Rule` parts of a `Group`).
        `players` says who plays each side ({}: not known, each side may be a person)."""
        return None


class ViewOf(View):
    """A view made of plain functions, one per hook (a ruleset's `view.py` keeps them at module
    level, where its tests call them too)."""

    def __init__(
        self,
        board: Callable[..., RenderableType | None],
        compact_board: Callable[..., RenderableType | None],
        card: Callable[..., RenderableType | None],
        cards: Callable[..., list[tuple[str, RenderableType]]],
        render_entry: Callable[..., Shown],
        seen_by: Callable[[Any, str | None], Any] | None = None,
        map_facts: Callable[..., MapFacts | None] | None = None,
        middle_boards: Callable[..., list[RenderableType]] | None = None,
    ) -> None:
        """Each function takes the hook's arguments (a state of the ruleset's own type);
        `seen_by`, `map_facts` and `middle_boards` are optional (the defaults: every side sees
        the whole state; no map; no board between the full and the compact one)."""
        self._board, self._compact_board, self._card = board, compact_board, card
        self._cards, self._render_entry = cards, render_entry
        self._seen_by = seen_by
        self._map_facts = map_facts
        self._middle_boards = middle_boards

    def middle_boards(self, state: Any, names: Names) -> list[RenderableType]:
        return self._middle_boards(state, names) if self._middle_boards is not None else []

    def map_facts(self, state: Any, names: Names, choice: Choice | None = None) -> MapFacts | None:
        return self._map_facts(state, names, choice) if self._map_facts is not None else None

    def board(self, state: Any, names: Names) -> RenderableType | None:
        return self._board(state, names)

    def compact_board(self, state: Any, names: Names) -> RenderableType | None:
        return self._compact_board(state, names)

    def card(self, state: Any, choice: Choice, names: Names) -> RenderableType | None:
        return self._card(state, choice, names)

    def cards(self, state: Any, names: Names) -> list[tuple[str, RenderableType]]:
        return self._cards(state, names)

    def render_entry(self, entry: Entry, state: Any, names: Names, players: Players) -> Shown:
        return self._render_entry(entry, state, names, players)

    def seen_by(self, state: Any, side: str | None) -> Any:
        return state if self._seen_by is None else self._seen_by(state, side)
