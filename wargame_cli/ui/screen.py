"""The decision screen: what a person sees above a question. What happened since this side
last decided comes first (its newest results, whole, each under the heading of the step it
happened in), then the board in the rows left (the one map of the view's `map_facts` at the
largest scale that fits; for a view without one, the compact board when the full one does not
fit), then the facts the decision needs (the view's card), laid out to the terminal's size, as
the side deciding may see it (`View.seen_by`). Rulesets supply the renderables (their view's
hooks); the layout is here, shared by every ruleset."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from rich.console import Console, Group
from rich.rule import Rule
from rich.text import Text

from wargame_cli.kit.sides import SIDES
from wargame_cli.tabletop.geometry import Point
from wargame_cli.text import clean
from wargame_cli.ui.facts import ListedOdds, without_listed_odds
from wargame_cli.ui.live import generic
from wargame_cli.ui.redraw import Memory
from wargame_cli.view import NOBODY_KNOWN, Players

if TYPE_CHECKING:
    from wargame_cli.ruleset import Ruleset
    from wargame_cli.tabletop.grid import Grid
    from wargame_cli.tabletop.mapfacts import MapFacts, Marker

ColorSystem = Literal["auto", "standard", "256", "truecolor", "windows"]


def _color_system(console: Console) -> ColorSystem | None:
    """The console's colour system by name: rich's property gives one of the names its
    `Console(color_system=...)` takes, but is typed as any str."""
    return cast(ColorSystem | None, console.color_system)


ANY_SIDE = ""  # the mark of the latest question asked of anyone
RECENT_TITLE = "Since your last decision"
MIN_MAP_ROWS = 10  # a map with the notes under it needs this many rows, else it leaves them
MAP_GRID_ROWS = 8  # rows of cells the map gets at a decision before the list gets its rows
NO_ROOM_FOR_MAP = "The map needs more rows than the results and question leave: Look… shows it"
NOT_POSSIBLE = "Options not possible, and why"
MIN_RESULTS = 4  # results kept whole at every decision before the board gets a row


@dataclass
class Layout:
    """The screen above a question, as ANSI lines, and what each part got."""

    lines: list[str]
    board: str = ""  # "map" (the one map, sized), "full", "middle", "compact", "" (none)
    card: bool = False
    recent: int = 0  # how many lines of recent events were shown
    list_rows: int = 0  # the rows left to the question's list
    fold: bool = False  # the list's disabled options fold into one line
    board_rows: int = 0
    wanted: int = 0  # the rows the list would like
    board_room: int = 0  # the rows the results and the question left to the board
    results: int = 0  # how many results (entries) were shown
    grid_rows: int = 0  # the map's rows of cells


def _shows(layout: Layout) -> tuple[int, ...]:
    """What a layout shows, most wanted first. With the one map: its `MAP_GRID_ROWS` rows of
    cells, the whole list, the list's rows (results told a line each rather than a shorter
    list), the map's rows (up to `MIN_MAP_ROWS`: a map squeezed coarser is
    reason to fold the list), how many results, the card, the newest results' lines (more
    room alone is no reason to fold). Else: the whole list, the board's rows, the card, the
    lines of what happened."""
    whole = int(layout.list_rows >= layout.wanted)
    if layout.board == "map":
        return (
            min(layout.grid_rows, MAP_GRID_ROWS),
            whole,
            min(0, layout.list_rows - layout.wanted),  # the rows of it scrolled out of view
            min(layout.board_rows, MIN_MAP_ROWS),
            min(layout.results, MIN_RESULTS),
            int(layout.card),
            min(layout.recent, MIN_RESULTS),
        )
    return (whole, layout.board_rows, int(layout.card), layout.recent)


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


def _is_heading(part: Any) -> bool:
    """A rule (a turn's or a round's start) or an underlined line (a step's heading, e.g.
    `Round 1, step 5 of 6, melee`): what the lines after it happened under."""
    if isinstance(part, Rule):
        return True
    if not isinstance(part, Text):
        return False
    whole = [str(span.style) for span in part.spans if span.start == 0 and span.end >= len(part)]
    return any("underline" in style for style in [str(part.style), *whole])


@dataclass
class _Told:
    """One log entry as the screen tells it: its lines of text (Text or Rule, no pictures),
    made when it happened, and the heading it happened under."""

    parts: list[Any]
    under: Any = None  # the heading in effect before this entry

    @property
    def heading(self) -> bool:
        return bool(self.parts) and all(_is_heading(part) for part in self.parts)

    @property
    def headed(self) -> bool:
        return bool(self.parts) and _is_heading(self.parts[0])


@dataclass
class _Block:
    """An entry since the side's last decision, laid out at a width."""

    lines: list[str]
    under: list[str]  # its heading's lines, for when the block shows without the one above it
    heading: bool  # nothing but a heading
    headed: bool  # it starts with its own heading
    own: bool  # a result of the side's own last decision (before anyone decided again)


@dataclass
class _Cache:
    key: Any = None
    lines: list[str] = field(default_factory=list)
    boards: list[list[str]] = field(default_factory=list)


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
        self._told: list[_Told | None] = []  # each entry as told when it happened
        self._heading: Any = None  # the heading in effect at the newest entry
        self.game: Any = None
        self._marks: dict[str, int] = {}
        self._previous: dict[str, int] = {}
        self._boards = {False: _Cache(), True: _Cache()}  # the full board, the compact one
        self._middle = _Cache()  # the boards between them (`middle_lines`)
        self._full_height: dict[int, int] = {}
        self._recent: dict[tuple[int, int, str | None, bool], list[str]] = {}
        self._headings: dict[tuple[int, int, bool], tuple[Any, list[str]]] = {}  # ids stay
        self._maps: dict[Any, tuple[list[str], Grid]] = {}
        self._has_map: bool | None = None  # does the view draw the one map (`map_facts`)?
        self._reference: Any = None
        self._mention = ""  # the question's words and the latest results': whom the key names
        self._asked = ""  # the question's own words: whom the key names first
        self._side: str | None = None  # the side deciding now, whose sight the screen shows
        self._choice: Any = None  # the question asked now (the map marks its piece)
        self._grid_rows = 0  # the rows of cells of the map last fitted
        self._print: Any = None  # the state's fingerprint while a screen is composed
        self._facts: tuple[Any, MapFacts | None] = (None, None)  # the map's facts, kept
        self._needs: dict[Any, int] = {}  # `map_need`'s answers
        self._notes: tuple[Any, list[str]] = (None, [])  # the map's notes, laid out
        # entries told otherwise to a side that could not see all of the state then (hidden
        # deployment): (index, side) -> as that side was told it
        self._told_by: dict[tuple[int, str], _Told] = {}

    # -- following the game ---------------------------------------------------------------
    def observe(self, entry: Mapping[str, Any], game: Any) -> None:
        """An entry as it is logged: told now, in the state it happened in (a step's heading
        is the step the rules were in then, not the one the next question is asked in)."""
        self.entries.append(entry)
        self.game = game
        whole = game.state if game is not None else None
        self._told.append(self._tell(entry, whole))
        for side in SIDES:
            seen = self.view.seen_by(whole, side) if whole is not None else None
            if seen is not whole:
                self._told_by[(len(self.entries) - 1, side)] = self._tell(entry, seen, False)

    def follow(self, game: Any, entries: Sequence[Mapping[str, Any]]) -> None:
        """Start from a game already under way (a resumed save): its log is the past."""
        self.game = game
        self.entries = list(entries)
        self._told = [None] * len(self.entries)  # told when looked at, if ever
        self._marks = {ANY_SIDE: len(self.entries)}

    def _tell(self, entry: Mapping[str, Any], state: Any, follow: bool = True) -> _Told:
        """The lines of text the view shows for `entry` in `state` (through the redraw
        policy), the generic line where it shows only pictures; the end is told by the live
        log. `follow`: the headings it holds are the ones in effect from now on."""
        under = self._heading
        if entry["t"] == "end" or state is None:
            return _Told([], under)
        shown = self.view.render_entry(entry, state, self.names, self.players)
        if follow:
            shown = self.memory.shown(entry, shown)
        if shown is False:
            return _Told([], under)
        parts = _short_parts(shown) if shown is not None else []
        if not parts:  # only boards and tables: the generic line
            parts = _short_parts(generic(entry, self.names, self.turn_word))
        for part in parts if follow else ():
            if _is_heading(part):
                self._heading = part
        return _Told(parts, under)

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
        key = (self._fingerprint(), width, self._side)
        cache = self._boards[compact]
        if cache.key == key:
            return cache.lines or None
        hook = self.view.compact_board if compact else self.view.board
        shown = hook(state, self.names)
        cache.key = key
        cache.lines = self.renderer.lines(shown, width) if shown is not None else []
        if shown is None:
            return None

        if not compact:
            self._full_height[width] = len(cache.lines)
        return cache.lines

    def map_lines(self, width: int, rows: int) -> list[str] | None:
        """The largest map of the view's `map_facts` (with the notes under it) that fits
        `width` x `rows`, drawn again only when the state or the room changed; None when the
        view has no map. The layout calls it with the rows the question and results leave."""
        drawn = self._map(width, rows)
        return drawn[0] if drawn is not None else None

    def _map(self, width: int, rows: int) -> tuple[list[str], Grid] | None:
        """`map_lines` and the map's grid of cells."""
        state = self.state
        if state is None:
            return None
        printed = self._print if self._print is not None else self._fingerprint()
        facts_key = (printed, self._side, id(self._choice))
        if self._facts[0] != facts_key:
            self._facts = (facts_key, self.view.map_facts(state, self.names, self._choice))
        facts = self._facts[1]
        if facts is None:
            return None
        named = tuple(  # those the question names first, then the latest results'
            sorted(
                (m.name for m in facts.markers if m.name and _said(m.name) in self._mention),
                key=lambda name: _said(name) not in self._asked,
            )
        )
        key = (printed, width, rows, self._side, named, id(self._choice))
        found = self._maps.get(key)
        if found is not None:
            return found
        if self._notes[0] != (facts_key, width):  # the lines under the map, laid out once
            laid = self.renderer.lines(Group(*facts.notes), width) if facts.notes else []
            self._notes = ((facts_key, width), laid)
        made = drawn_map_rows(self.renderer, facts, width, rows, named, self._notes[1])
        if len(self._maps) > 64:
            self._maps.clear()
        self._maps[key] = made
        return made

    def map_need(self, width: int, most: int) -> int:
        """The fewest rows (at most `most`) in which the map has `MAP_GRID_ROWS` rows of
        cells with the piece the question is about, and every piece within its reach, each
        in its own cell (not folded into a mark); else the fewest with those rows of cells,
        or as many as the table has at its coarsest; 0 for a view without a map. At a
        decision the map gets these before the list gets more than its least."""
        key = (self._print, width, most, self._side, id(self._choice), self._mention)
        if self._print is not None and key in self._needs:
            return self._needs[key]
        if len(self._needs) > 64:
            self._needs.clear()
        need = self._needs[key] = self._map_need(width, most)
        return need

    def _map_need(self, width: int, most: int) -> int:
        least = MAP_GRID_ROWS + 3  # the title, the x axis and the south edge at least
        most = max(least, most)

        def first(test: Any, low: int) -> int | None:
            """The fewest rows from `low` to `most` passing `test` (which more rows never
            fail once they pass: a larger map is as fine or finer), halving the range."""
            found, high = None, most
            while low <= high:
                middle = (low + high) // 2
                if test(middle):
                    found, high = middle, middle - 1
                else:
                    low = middle + 1
            return found

        def drawn(rows: int) -> Grid | None:
            made = self._map(width, rows)
            return made[1] if made is not None and len(made[0]) <= rows else None

        if self._map(width, least) is None:
            return 0
        enough = first(lambda r: (g := drawn(r)) is not None and g.rows >= MAP_GRID_ROWS, least)
        if enough is None:  # the table's coarsest: as many rows as fit
            return first(lambda r: drawn(r) is not None, least) or 0
        grid = drawn(enough)
        if grid is None or not crowded(grid, self._choice):
            return enough
        widest = drawn(most)
        if widest is None or crowded(widest, self._choice):
            return enough  # no room to tell them apart: the least map of 8 rows
        spread = first(lambda r: (g := drawn(r)) is not None and not crowded(g, self._choice),
                       enough + 1)  # fmt: skip
        return spread or enough

    def _fingerprint(self) -> Any:
        """What the board is drawn from: the game's JSON state (hashing it costs well under a
        millisecond; drawing a board costs tens), so an unchanged board is never redrawn."""
        try:
            return hash(json.dumps(self.game.state_json(), sort_keys=True, default=str))
        except (TypeError, ValueError):
            return (id(self.state), len(self.entries))

    def card_lines(self, choice: Any, width: int) -> tuple[list[str], list[str]]:
        """The card's lines, and its lines for a list shown whole: without an `odds:` line of
        the options' own words (`facts.ListedOdds`), which the list would say again."""
        state = self.state
        if state is None or choice is None:
            return [], []
        shown = self.view.card(state, choice, self.names)
        if shown is None:
            return [], []
        lines = self.renderer.lines(shown, width)
        if isinstance(shown, ListedOdds) or (
            isinstance(shown, Group) and any(isinstance(p, ListedOdds) for p in shown.renderables)
        ):
            bare = without_listed_odds(shown)
            return lines, self.renderer.lines(bare, width) if bare is not None else []
        return lines, lines

    def _told_at(self, index: int, side: str | None = None) -> _Told:
        """Entry `index` as it was told (to `side`, where that side saw less then)."""
        if side is not None and (index, side) in self._told_by:
            return self._told_by[(index, side)]
        told = self._told[index]
        if told is None:  # a resumed game's past: told in today's state
            told = self._told[index] = self._tell(self.entries[index], self.state)
        return told

    def _lines(self, parts: Sequence[Any], width: int, one: bool = False) -> list[str]:
        """`parts` laid out at `width`; `one`: each line of text on one row, cut with an
        ellipsis (a screen short of rows tells each result in a line)."""
        if one:
            parts = [_unwrapped(part) for part in parts]
        return self.renderer.lines(Group(*parts), width) if parts else []

    def _blocks(
        self, side: str | None, width: int, last: Any = None, one: bool = False
    ) -> list[_Block]:
        """What happened since `side` last decided, an entry a block (oldest first), laid
        out at `width`; `last` (an entry) is left out. The side's own results are the entries
        before anyone's next decision. `one`: each line of text on one row."""
        return self._blocks_of(self.since(side), side, width, last, one)

    def told_lines(self, start: int, end: int, width: int) -> list[str]:
        """The lines of entries `start` to `end` (excluded), each under the heading it was
        logged under, the heading above the first left to the caller (a replay's page, whose
        title names the turn)."""
        blocks = self._blocks_of(list(enumerate(self.entries))[start:end], None, width)
        if blocks:
            blocks[0].under = []
        return _shown(blocks, set(range(len(blocks))))

    def _blocks_of(
        self,
        entries: Sequence[tuple[int, Mapping[str, Any]]],
        side: str | None,
        width: int,
        last: Any = None,
        one: bool = False,
    ) -> list[_Block]:
        blocks: list[_Block] = []
        own = True
        for index, entry in entries:
            if entry is last:
                continue
            if entry["t"] == "choice" and entry.get("side") != side:
                own = False  # someone else decided: what follows is theirs
            apart = side if side is not None and (index, side) in self._told_by else None
            key = (index, width, apart, one)
            found = self._recent.get(key)
            told = self._told_at(index, apart)
            if found is None:
                found = self._recent[key] = self._lines(told.parts, width, one)
            if not found:
                continue
            under = self._heading_lines(told.under, width, one)
            blocks.append(_Block(found, under, told.heading, told.headed, own))
        return blocks

    def _heading_lines(self, heading: Any, width: int, one: bool = False) -> list[str]:
        """A heading laid out at `width`, once (many entries share one); `one`: on one row."""
        if heading is None:
            return []
        key = (id(heading), width, one)
        found = self._headings.get(key)
        if found is None:
            found = self._headings[key] = (heading, self._lines([heading], width, one))
        return found[1]

    def recent_lines(self, side: str | None, width: int, last: Any = None) -> list[str]:
        """What happened since `side` last decided, as short lines (newest last), under the
        heading it happened in; `last` (an entry) is left out."""
        blocks = self._blocks(side, width, last)
        return _shown(blocks, set(range(len(blocks))))

    # -- the layout -----------------------------------------------------------------------
    def compose(
        self,
        width: int,
        height: int,
        fixed: int,
        wanted: int,
        choice: Any = None,
        side: str | None = None,
        folded: int | None = None,
    ) -> Layout:
        """The lines above a question whose fixed part (message, notices) takes `fixed` rows and
        whose list would like `wanted` rows (`folded` with its disabled options folded into
        one line), in `height` rows. Rows go first to the question and the newest results
        since this side last decided (at least `MIN_RESULTS` of them, whole), then to the
        board (the rows left), then the card just above the question, then older results.
        When room is short the disabled options fold; when even then the list does not fit,
        it scrolls (at least 3 rows of it)."""
        self._side = side if side is not None else (choice.side if choice is not None else None)
        self._choice = choice
        if self.state is None:
            return Layout([], list_rows=min(wanted, max(3, height - fixed)))
        self._print = self._fingerprint()  # once for the whole screen
        try:
            return self._compose(width, height, fixed, wanted, choice, side, folded)
        finally:
            self._print = None

    def _compose(
        self,
        width: int,
        height: int,
        fixed: int,
        wanted: int,
        choice: Any,
        side: str | None,
        folded: int | None,
    ) -> Layout:
        if self._has_map is None:
            self._has_map = self.view.map_facts(self.state, self.names) is not None
        avail = max(0, height - fixed)
        blocks = self._blocks(side, width)
        card, bare = self.card_lines(choice, width)
        said = [choice.prompt, *(o.label for o in choice.options)] if choice is not None else []
        said += [line for block in blocks[-MIN_RESULTS:] for line in block.lines]
        self._mention = clean(" ".join(str(s) for s in said))
        self._asked = clean(str(choice.prompt)) if choice is not None else ""
        most = avail - min(wanted, 3) - 2  # the list's least and a line of results
        if self._has_map:
            need = self.map_need(width, most)
        else:  # the compact board whole (a board cut short loses which id is which)
            need = min(most, len(self.board_lines(width, compact=True) or []))
        short = self._blocks(side, width, one=True) if need else []
        best: Layout | None = None
        for rows, fold in ((wanted, False), *(((folded, True),) if folded is not None else ())):
            if rows is None or (fold and rows >= wanted):
                continue
            for shown in (blocks, *((short,) if short else ())):
                layout = self._arrange(shown, card, width, avail, rows, need, bare)
                layout.fold = fold
                if best is None or _shows(layout) > _shows(best):
                    best = layout
        assert best is not None
        return best

    def _arrange(
        self,
        blocks: list[_Block],
        card: list[str],
        width: int,
        avail: int,
        wanted: int,
        need: int = 0,
        bare: list[str] | None = None,
    ) -> Layout:
        """The screen above a list of `wanted` rows in `avail` rows; `need`: the rows the map
        gets before the list gets more than 3 (and before the results); `bare`: the card for
        a list shown whole (without an odds line the list says again)."""
        order = _priority(blocks)
        first = _first_results(blocks, order)
        least = _fitting(blocks, first, max(0, avail - need))
        list_rows = min(wanted, max(3, avail - len(least) - need))
        if bare is not None and list_rows >= wanted:
            card = bare
        room = max(0, avail - list_rows)
        chosen = _choose(blocks, first, room - need)
        recent = _titled(blocks, chosen, self.renderer, width) if room - need >= 1 else []
        room -= len(recent)
        board_room = room
        board, kind = self.fitting_board(width, room)
        if kind == "map" and card and room - len(card) >= max(need, MIN_MAP_ROWS):  # it grows
            smaller, kind = self.fitting_board(width, room - len(card))  # to any room: card too
            board = smaller if kind == "map" else board
            kind = "map"
        room -= len(board)
        shown_card = bool(card) and len(card) <= room
        room -= len(card) if shown_card else 0
        if blocks and room + len(recent) >= 1:  # older results in the rows still left
            chosen = _choose(blocks, order, room + len(recent), chosen)
            recent = _titled(blocks, chosen, self.renderer, width)
        lines = [*board, *recent, *(card if shown_card else [])]
        layout = Layout(lines, kind, shown_card, max(0, len(recent) - 1), list_rows)
        layout.board_rows = len(board)
        layout.wanted = wanted
        layout.board_room = board_room
        layout.results = sum(1 for i in chosen if not blocks[i].heading)
        layout.grid_rows = self._grid_rows if kind == "map" else 0
        return layout

    def fitting_board(self, width: int, rows: int) -> tuple[list[str], str]:
        """The board in `rows` rows at most: the one map at the largest scale that fits, for a
        view with one; else the full board when it fits, else the compact one (cut to the
        rows, when even it does not fit); its lines and which it is."""
        if rows <= 0:
            return [], ""
        if self._has_map:
            made = self._map(width, rows)
            drawn = made[0] if made is not None else []
            self._grid_rows = made[1].rows if made is not None else 0
            if drawn and len(drawn) <= rows:
                return drawn, "map"
            return no_room(self.renderer, width), "note"  # results and the question first
        full_height = self._full_height.get(width)
        if full_height is None or full_height <= rows:  # not known not to fit: try it
            full = self.board_lines(width, compact=False) or []
            if full and len(full) <= rows:
                return full, "full"
        for middle in self.middle_lines(width):  # largest first
            if len(middle) <= rows:
                return middle, "middle"
        compact = self.board_lines(width, compact=True)
        if compact is not None:
            return compact[:rows], "compact"
        full = self.board_lines(width, compact=False) or []
        return (full[:rows], "full") if full else ([], "")

    def middle_lines(self, width: int) -> list[list[str]]:
        """The view's boards between the full and the compact one (`View.middle_boards`),
        laid out at `width`, largest first; drawn again only when the state changed."""
        state = self.state
        if state is None:
            return []
        key = (self._fingerprint(), width, self._side)
        if self._middle.key != key:
            shown = self.view.middle_boards(state, self.names)
            self._middle.key = key
            self._middle.boards = [self.renderer.lines(board, width) for board in shown]
        return self._middle.boards

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
        barred = [o for o in choice.options if o.disabled] if choice is not None else []
        if barred:  # what a folded list leaves out, and why
            told = Text("\n".join(f"{clean(o.label)}: {clean(o.disabled)}" for o in barred))
            out.append(Look(NOT_POSSIBLE, told))
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


def drawn_map(
    renderer: Renderer, facts: MapFacts, width: int, rows: int, named: Sequence[str] = ()
) -> list[str]:
    """The largest map of `facts` that fits `width` x `rows`, as ANSI lines, with the notes
    under it when the map still has `MIN_MAP_ROWS` (the decision screen's and the replay's);
    `named`: the pieces the key names first."""
    return drawn_map_rows(renderer, facts, width, rows, named)[0]


def drawn_map_rows(
    renderer: Renderer,
    facts: MapFacts,
    width: int,
    rows: int,
    named: Sequence[str] = (),
    notes: list[str] | None = None,
) -> tuple[list[str], Grid]:
    """`drawn_map`, and the map's grid of cells; `notes`: the notes already laid out."""
    from wargame_cli.ui.map import fitted

    if notes is None:
        notes = renderer.lines(Group(*facts.notes), width) if facts.notes else []
    if rows - len(notes) < MIN_MAP_ROWS:  # the map before the notes under it
        notes = []
    drawing = fitted(facts, width, max(1, rows - len(notes)), named)
    console = renderer.console(width)
    return drawing.ansi(width, console.color_system, console.no_color) + notes, drawing.grid


def _said(name: str) -> str:
    """A piece's name as questions and results say it: without the side a map's name adds in
    brackets (`Eyox (Swords)` is said `Eyox`)."""
    return name.rsplit(" (", 1)[0] if name.endswith(")") and " (" in name else name


def within_reach(facts: MapFacts, choice: Any) -> list[Marker]:
    """The pieces a question's piece (`facts.origin`) can reach: itself and those as near as
    the farthest spot or target its options name."""
    origin = facts.origin
    if origin is None:
        return []
    spots = [spot for _, spot in facts.targets]
    for option in choice.options if choice is not None else ():
        try:
            spots.append(Point.parse(str(option.key)))
        except (ValueError, TypeError):
            continue
    reach = max((origin.pos.distance(spot) for spot in spots), default=0.0)
    return [m for m in facts.markers if origin.pos.distance(m.pos) <= reach + 1e-9]


def crowded(grid: Grid, choice: Any) -> bool:
    """Is the question's piece, or a piece within its reach, folded into a marked cell?"""
    near = {id(m) for m in within_reach(grid.facts, choice)}
    return any(id(m) in near for c in grid.conflicts for m in c.who)


def fitting_map(renderer: Renderer, facts: MapFacts, width: int, rows: int) -> list[str]:
    """The map of `facts` in `rows` rows, or the one-line note that it needs more."""
    if rows <= 0:
        return []
    drawn = drawn_map(renderer, facts, width, rows)
    return drawn if len(drawn) <= rows else no_room(renderer, width)


def no_room(renderer: Renderer, width: int) -> list[str]:
    """The one-line note standing for a map the rows left cannot hold."""
    return renderer.lines(Text(NO_ROOM_FOR_MAP, style="dim"), width)[:1]


# -- choosing what happened to show ---------------------------------------------------------
def _priority(blocks: list[_Block]) -> list[int]:
    """The order results earn rows in: the headings after the newest (the step under way),
    then every result newest first, so what folds is always the oldest (the side's own last
    results too: what the enemy did since, and what caused the newest result, never fold
    before them). Other headings come with the results under them."""
    results = [i for i, block in enumerate(blocks) if not block.heading]
    newest = results[-1] if results else -1
    now = [i for i in range(newest + 1, len(blocks))]  # headings of the step under way
    return now + list(reversed(results))


def _first_results(blocks: list[_Block], order: list[int]) -> list[int]:
    """The start of `order` that holds `MIN_RESULTS` results (and the headings before)."""
    count = 0
    for n, index in enumerate(order):
        count += not blocks[index].heading
        if count == MIN_RESULTS:
            return order[: n + 1]
    return order


def _with_headings(blocks: list[_Block], chosen: set[int], index: int) -> set[int]:
    """`chosen` and block `index`, with the headings right above it."""
    out = chosen | {index}
    k = index - 1
    while k >= 0 and blocks[k].heading:
        out.add(k)
        k -= 1
    return out


def _choose(
    blocks: list[_Block], order: list[int], rows: int, chosen: set[int] | None = None
) -> set[int]:
    """The blocks to show, whole, in `rows` rows (with the title): `chosen` and then those
    of `order` while they fit."""
    out = set(chosen or ())
    for index in order:
        if index in out:
            continue
        tried = _with_headings(blocks, out, index)
        if 1 + len(_shown(blocks, tried)) > rows:
            break
        out = tried
    return out


def _fitting(blocks: list[_Block], order: list[int], rows: int) -> list[str]:
    """The lines (with the title) of the blocks of `order` that fit in `rows`."""
    chosen = _choose(blocks, order, rows)
    return [""] + _shown(blocks, chosen) if chosen else []


def _shown(blocks: list[_Block], chosen: set[int]) -> list[str]:
    """The chosen blocks in order, each under its heading; a gap says how many lines are
    left out there (the lines before the first are told in the title)."""
    out: list[str] = []
    gap = 0
    previous = False
    for index, block in enumerate(blocks):
        if index not in chosen:
            gap += len(block.lines)
            previous = False
            continue
        if gap and out:
            out.append(f"\x1b[2m  … {_count(gap)} (Look…)\x1b[0m")
        gap = 0
        if not previous and not block.headed:
            out.extend(block.under)
        out.extend(block.lines)
        previous = True
    if gap and out:
        out.append(f"\x1b[2m  … {_count(gap)} since (Look…)\x1b[0m")
    return out


def _unwrapped(part: Any) -> Any:
    """A line of text kept to one row (cut with an ellipsis); a rule as it is."""
    if not isinstance(part, Text):
        return part
    one = part.copy()
    one.no_wrap = True
    one.overflow = "ellipsis"
    return one


def _count(lines: int) -> str:
    return f"{lines} line{'s' if lines != 1 else ''}"


def _titled(blocks: list[_Block], chosen: set[int], renderer: Renderer, width: int) -> list[str]:
    """The chosen blocks under the title, which says how many lines before them are not
    shown; nothing when none is chosen (with a one-row note when some happened)."""
    if not blocks:
        return []
    if not chosen:
        total = sum(len(block.lines) for block in blocks)
        note = f"{RECENT_TITLE}: {_count(total)} (Look… to read them)"
        return renderer.lines(Text(note, style="dim"), width)[:1]
    first = min(chosen)
    while first > 0 and blocks[first - 1].heading and first - 1 in chosen:
        first -= 1
    before = sum(len(block.lines) for block in blocks[:first])
    more = f" (the {_count(before)} before: Look…)" if before else ""
    title = renderer.lines(Text(f"{RECENT_TITLE}{more}:", style="dim"), width)[:1]
    return title + _shown(blocks, chosen)
