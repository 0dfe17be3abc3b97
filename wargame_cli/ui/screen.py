"""The decision screen: what a person sees above a question. The board (the one map of the
view's `map_facts`, at the largest scale that fits; for a view without one, its compact board
when the full one and the question do not fit), the facts the decision needs (the view's
card) and what happened since this side last decided, laid out to the terminal's size.
Rulesets supply the renderables (their view's hooks); the layout is here, shared by every
ruleset."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from rich.console import Console, Group
from rich.rule import Rule
from rich.text import Text

from wargame_cli.text import clean
from wargame_cli.ui.live import generic
from wargame_cli.ui.redraw import Memory
from wargame_cli.view import NOBODY_KNOWN, Players

if TYPE_CHECKING:
    from wargame_cli.ruleset import Ruleset

ColorSystem = Literal["auto", "standard", "256", "truecolor", "windows"]


def _color_system(console: Console) -> ColorSystem | None:
    """The console's colour system by name: rich's property gives one of the names its
    `Console(color_system=...)` takes, but is typed as any str."""
    return cast(ColorSystem | None, console.color_system)


ANY_SIDE = ""  # the mark of the latest question asked of anyone
RECENT_TITLE = "Since your last decision"
RESULTS_ROWS = 6  # the newest results the map leaves room for (a heading and 5 lines)
MIN_MAP_ROWS = 10  # the map is never squeezed below this: the list scrolls instead


@dataclass
class Layout:
    """The screen above a question, as ANSI lines, and what each part got."""

    lines: list[str]
    board: str = ""  # "map" (the one map, sized), "full", "compact" or "" (no board)
    card: bool = False
    recent: int = 0  # how many lines of recent events were shown
    list_rows: int = 0  # the rows left to the question's list


@dataclass
class Look:
    """Something a person can look at without deciding: a title and its lines."""

    title: str
    renderable: Any


class Renderer:
    """Rich renderables to ANSI lines at a width, with the colours of the real console."""

    def __init__(self, base: Console | None = None) -> None:
        self.base = base
        self._consoles: dict[int, Console] = {}

    def console(self, width: int) -> Console:
        found = self._consoles.get(width)
        if found is None:
            base = self.base
            found = Console(
                file=io.StringIO(),
                width=width,
                force_terminal=True,
                color_system=_color_system(base) if base is not None else "standard",
                no_color=base.no_color if base is not None else False,
                highlight=False,
                emoji=False,
                legacy_windows=False,
            )
            self._consoles[width] = found
        return found

    def lines(self, renderable: Any, width: int) -> list[str]:
        console = self.console(width)
        with console.capture() as capture:
            console.print(renderable)
        text = capture.get()
        if text.endswith("\n"):
            text = text[:-1]
        return text.split("\n") if text else []


def _short_parts(shown: Any) -> list[Any]:
    """The lines of text in what a view shows for an entry, without its boards and tables
    (the screen draws the board once, above)."""
    if isinstance(shown, Text | Rule):
        return [shown]
    if isinstance(shown, Group):  # its own lines, not those of a board inside it
        return [item for item in shown.renderables if isinstance(item, Text | Rule)]
    return []


@dataclass
class _Cache:
    key: Any = None
    lines: list[str] = field(default_factory=list)


class DecisionScreen:
    """Follows the game through the runner's observer and lays out the screen for each
    question. `mark(side)` is called when a side is asked, so the next screen for that side
    shows only what happened since."""

    def __init__(
        self,
        ruleset: Ruleset,
        names: dict[str, str],
        base: Console | None = None,
        players: Players = NOBODY_KNOWN,
    ) -> None:
        self.view = ruleset.view()
        self.ruleset = ruleset
        self.turn_word = ruleset.turn_word
        self.names = names
        self.players = players
        self.memory = Memory()  # what was drawn of this game, shared with the live log
        self.renderer = Renderer(base)
        self.entries: list[Mapping[str, Any]] = []
        self.game: Any = None
        self._marks: dict[str, int] = {}
        self._previous: dict[str, int] = {}
        self._board = _Cache()
        self._full_height: dict[int, int] = {}
        self._maps: dict[Any, list[str]] = {}
        self._has_map: bool | None = None  # does the view draw the one map (`map_facts`)?
        self._recent: dict[tuple[int, int, str | None], list[str]] = {}
        self._reference: Any = None
        self._side: str | None = None  # the side deciding now, whose sight the screen shows

    # -- following the game ---------------------------------------------------------------
    def observe(self, entry: Mapping[str, Any], game: Any) -> None:
        self.entries.append(entry)
        self.game = game

    def follow(self, game: Any, entries: Sequence[Mapping[str, Any]]) -> None:
        """Start from a game already under way (a resumed save): its log is the past."""
        self.game = game
        self.entries = list(entries)
        self._marks = {ANY_SIDE: len(self.entries)}

    @property
    def state(self) -> Any:
        """The state as the side deciding now may see it (`View.seen_by`)."""
        if self.game is None:
            return None
        return self.view.seen_by(self.game.state, self._side)

    def mark(self, side: str | None) -> None:
        self._previous = dict(self._marks)
        self._marks[side or ANY_SIDE] = len(self.entries)
        self._marks[ANY_SIDE] = len(self.entries)

    def unmark(self) -> None:
        """The answer was refused: the side is asked again, seeing what it saw."""
        self._marks = dict(self._previous)

    def since(self, side: str | None) -> list[tuple[int, Mapping[str, Any]]]:
        start = self._marks.get(side or ANY_SIDE, self._marks.get(ANY_SIDE, 0))
        return list(enumerate(self.entries))[start:]

    # -- pieces ---------------------------------------------------------------------------
    def board_lines(self, width: int, compact: bool) -> list[str] | None:
        """The board's lines at `width`, drawn again only when the state changed; None when
        the view has no such board (no compact one, or none at all)."""
        state = self.state
        if state is None:
            return None
        key = (self._fingerprint(), width, compact, self._side)
        if self._board.key == key:
            return self._board.lines
        hook = self.view.compact_board if compact else self.view.board
        shown = hook(state, self.names)
        if shown is None:
            return None
        self._board.key = key
        self._board.lines = self.renderer.lines(shown, width)
        if not compact:
            self._full_height[width] = len(self._board.lines)
        return self._board.lines

    def map_lines(self, width: int, rows: int) -> list[str] | None:
        """The largest map of the view's `map_facts` (with the notes under it) that fits
        `width` x `rows`, drawn again only when the state or the room changed; None when the
        view has no map. The layout calls it with the rows the question and results leave."""
        state = self.state
        if state is None:
            return None
        key = (self._fingerprint(), width, rows, self._side)
        found = self._maps.get(key)
        if found is not None:
            return found
        facts = self.view.map_facts(state, self.names)
        if facts is None:
            return None
        from wargame_cli.ui.map import fitted

        notes = self.renderer.lines(Group(*facts.notes), width) if facts.notes else []
        if rows - len(notes) < MIN_MAP_ROWS:  # the map before the notes under it
            notes = []
        drawing = fitted(facts, width, max(1, rows - len(notes)))
        console = self.renderer.console(width)
        lines = drawing.ansi(width, console.color_system, console.no_color) + notes
        if len(self._maps) > 16:
            self._maps.clear()
        self._maps[key] = lines
        return lines

    def _fingerprint(self) -> Any:
        """What the board is drawn from: the game's JSON state (hashing it costs well under a
        millisecond; drawing a board costs tens), so an unchanged board is never redrawn."""
        try:
            return hash(json.dumps(self.game.state_json(), sort_keys=True, default=str))
        except (TypeError, ValueError):
            return (id(self.state), len(self.entries))

    def card_lines(self, choice: Any, width: int) -> list[str]:
        state = self.state
        if state is None or choice is None:
            return []
        shown = self.view.card(state, choice, self.names)
        return self.renderer.lines(shown, width) if shown is not None else []

    def _entry_lines(self, index: int, entry: Mapping[str, Any], width: int) -> list[str]:
        key = (index, width, self._side)
        found = self._recent.get(key)
        if found is not None:
            return found
        shown: Any = None
        if self.state is not None:
            shown = self.view.render_entry(entry, self.state, self.names, self.players)
            shown = self.memory.shown(entry, shown)
        if shown is False:
            lines: list[str] = []
        else:
            short = _short_parts(shown) if shown is not None else []
            if not short and entry["t"] != "end":  # only boards and tables: the generic line
                short = _short_parts(generic(entry, self.names, self.turn_word))
            lines = self.renderer.lines(Group(*short), width) if short else []
        self._recent[key] = lines
        return lines

    def recent_lines(self, side: str | None, width: int, last: Any = None) -> list[str]:
        """What happened since `side` last decided, as short lines (newest last); `last`
        (an entry) is left out."""
        out: list[str] = []
        for index, entry in self.since(side):
            if entry is not last:
                out.extend(self._entry_lines(index, entry, width))
        return out

    # -- the layout -----------------------------------------------------------------------
    def compose(
        self,
        width: int,
        height: int,
        fixed: int,
        wanted: int,
        choice: Any = None,
        side: str | None = None,
    ) -> Layout:
        """The lines above a question whose fixed part (message, notices) takes `fixed` rows and
        whose list would like `wanted` rows, in `height` rows. The board first (full when it
        fits with the whole question, else compact), then the newest of what happened since
        this side last decided, then the card just above the question. When even the compact
        board and the whole list do not fit, the list scrolls (at least 3 rows of it)."""
        self._side = side if side is not None else (choice.side if choice is not None else None)
        if self.state is None:
            return Layout([], list_rows=min(wanted, max(3, height - fixed)))
        if self._has_map is None:
            self._has_map = self.view.map_facts(self.state, self.names) is not None
        if self._has_map:
            return self._compose_map(width, height, fixed, wanted, choice, side)
        room = max(0, height - fixed - wanted)
        full_height = self._full_height.get(width)
        compact: list[str] | None = None
        if full_height is not None and full_height > room:  # known not to fit: try compact
            compact = self.board_lines(width, compact=True)
        if compact is not None:
            board, kind = compact, "compact"
        else:
            board, kind = self.board_lines(width, compact=False) or [], "full"
            if len(board) > room and (compact := self.board_lines(width, True)) is not None:
                board, kind = compact, "compact"
        if not board:
            kind = ""
        list_rows = min(wanted, max(3, height - fixed - len(board)))
        room = max(0, height - fixed - list_rows)
        board = board[:room]
        room -= len(board)
        return self._finish(board, kind, room, choice, side, width, list_rows)

    def _finish(
        self,
        board: list[str],
        kind: str,
        room: int,
        choice: Any,
        side: str | None,
        width: int,
        list_rows: int,
    ) -> Layout:
        """The board, then the newest results and the card in the `room` rows left."""
        card = self.card_lines(choice, width)
        shown_card = bool(card) and len(card) <= room
        lines = list(board)
        recent_room = room - (len(card) if shown_card else 0)
        recent: list[str] = []
        events = self.recent_lines(side, width) if recent_room >= 1 else []
        if recent_room >= 2 and events:
            shown = events[-(recent_room - 1) :]
            cut = len(events) - len(shown)
            more = f" (the {cut} line{'s' if cut > 1 else ''} before: Look…)"
            title = RECENT_TITLE + (more if len(shown) < len(events) else "") + ":"
            recent = self.renderer.lines(Text(title, style="dim"), width)[:1] + shown
        elif len(events) == 1:  # one row: the one line that happened
            recent = events
        elif events:  # one row: say that something happened, and where to read it
            note = f"{RECENT_TITLE}: {len(events)} lines (Look… to read them)"
            recent = self.renderer.lines(Text(note, style="dim"), width)[:1]
        lines.extend(recent)
        if shown_card:
            lines.extend(card)
        return Layout(lines, kind, shown_card, max(0, len(recent) - 1), list_rows)

    def _compose_map(
        self, width: int, height: int, fixed: int, wanted: int, choice: Any, side: str | None
    ) -> Layout:
        """The layout with the one map: the largest map that fits with the whole question, the
        card and the newest results (`RESULTS_ROWS` of them at most kept); when even the
        smallest map leaves too little, the list scrolls."""
        card = len(self.card_lines(choice, width))
        events = len(self.recent_lines(side, width))
        results = min(events + 1, RESULTS_ROWS) if events else 0
        rows = height - fixed - wanted - card - results
        if rows < MIN_MAP_ROWS:
            rows = max(MIN_MAP_ROWS, height - fixed - wanted - results)
        board = self.map_lines(width, rows) or []
        list_rows = min(wanted, max(3, height - fixed - len(board)))
        room = max(0, height - fixed - list_rows)
        board = board[:room]
        return self._finish(board, "map", room - len(board), choice, side, width, list_rows)

    # -- looking without deciding ---------------------------------------------------------
    def looks(self, choice: Any = None) -> list[Look]:
        """What a person can look at: the full board, what happened since this side last
        decided (whole, when the screen shows only its newest lines), every piece's card, the
        cited rules."""
        out: list[Look] = []
        if choice is not None:
            self._side = choice.side
        state = self.state
        board = self.view.board(state, self.names) if state is not None else None
        if board is not None:
            out.append(Look("The full board", board))
        side = choice.side if choice is not None else None
        if self.since(side):
            out.append(Look(RECENT_TITLE, lambda width: self.recent_lines(side, width)))
        if state is not None:
            cards = self.view.cards(state, self.names)
            out.extend(Look(clean(title), shown) for title, shown in cards)
        for rule in choice.rules if choice is not None else ():
            text = self._rule_text(rule)
            if text is not None:
                out.append(Look(f"Rule {rule}", Text(f"{rule}: {clean(text)}")))
        return out

    def _rule_text(self, rule: str) -> str | None:
        if self._reference is None:
            try:
                self._reference = self.ruleset.reference()
            except (OSError, ValueError, AttributeError):
                return None
        return self._reference.text_of(rule)

    def look_lines(self, look: Look, width: int) -> list[str]:
        if callable(look.renderable):  # already lines, laid out at the width
            return look.renderable(width)
        return self.renderer.lines(look.renderable, width)
