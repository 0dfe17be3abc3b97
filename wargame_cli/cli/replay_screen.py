"""`wargame replay` at a terminal: a screen, as a decision is. The board as it stood (the one
map, sized to the rows the turn's lines leave, for a view with one), the turn's lines paged to
the rows left (PgUp/PgDn), the navigation below them, always in view.
It steps decision by decision (Enter reads on) and turn by turn. The log is replayed once;
every entry is told as it happened, and at every decision and at every turn's end the board
is kept as it stood (laid out then: a view's board may read the state when it is drawn)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wargame_cli.cli.replay_pages import turn_name
from wargame_cli.text import clean

if TYPE_CHECKING:
    from rich.console import Console

    from wargame_cli.ruleset import Ruleset

NEXT, PREVIOUS, NEXT_TURN, PREVIOUS_TURN = "next", "previous", "next turn", "previous turn"
JUMP, FIRST, LAST, QUIT = "jump", "first", "last", "quit"
FOOTER = frozenset({JUMP, FIRST, LAST, QUIT})  # short items sharing the list's last row
MIN_LINES = 4  # rows of the turn's lines kept before the board gets the rest
PAGE = 8  # lines a PgUp/PgDn moves


@dataclass
class Stop:
    """A place the reader stops at: a decision (`decision` its number in the turn) or the end
    of a turn (`decision` 0); the entries told up to it, and the board as it stood."""

    turn: int
    end: int
    board: list[str]
    decision: int = 0
    label: str = ""
    facts: Any = None  # the one map's facts as they stood (a view with `map_facts`)


def _asked(entry: Any) -> Any:
    """The decision a log entry records, as a question with the one option taken: what a
    view's `map_facts` reads of the question a piece was asked (its prompt, side, kind)."""
    from wargame_cli.engine.requests import Choice, Option

    key = str(entry.get("key", ""))
    return Choice(
        str(entry.get("side", "")),
        str(entry.get("prompt", "")),
        (Option(key, str(entry.get("label", key))),),
        key,
        tuple(entry.get("rules", ())),
        str(entry.get("kind", "")),
    )


class Book:
    """Built as the log replays (its `entry` the observer, its `turn_end` called at each
    turn's end): every entry told by a decision screen, a stop at every decision and at the
    end of every turn."""

    def __init__(
        self,
        ruleset: Ruleset,
        names: dict[str, str],
        players: dict[str, str],
        base: Console,
        board_rows: int,
    ) -> None:
        from wargame_cli.ui.screen import DecisionScreen

        self.screen = DecisionScreen(ruleset, names, base, players)
        self.view = self.screen.view
        self.names = names
        self.board_rows = board_rows  # the full board is kept when it fits in this many rows
        self.width = base.width
        self.compact: bool | None = None
        self.starts = [0]  # where each turn's entries start
        self.stops: list[Stop] = []
        self.turn = 0
        self.decisions = 0
        self.after: dict[int, list[Any]] = {}  # lines told after a turn's entries (odds, end)

    def entry(self, entry: Any, game: Any) -> None:
        self.screen.observe(entry, game)
        if entry.get("t") == "choice":
            self.decisions += 1
            label = clean(str(entry.get("label", "")))
            who = clean(self.names.get(str(entry.get("side")), ""))
            # the map of the decision: the piece it names (its key names it first) and the
            # option taken (a target it names), as they stood: values, kept
            facts = self.view.map_facts(game.state, self.names, _asked(entry))
            board = self._board(game, True) if facts is None else []
            self.stops.append(
                Stop(self.turn, len(self.screen.entries), board, self.decisions,
                     f"{who}: {label}" if who else label, facts)
            )  # fmt: skip
        elif entry.get("t") == "end":
            from rich.text import Text

            from wargame_cli.ui.live import end_title

            line = f"{end_title(entry, self.names)}: {clean(entry['reason'])}"
            self.after.setdefault(self.turn, []).append(Text(line, style="bold"))

    def turn_end(self, turn: int, game: Any) -> None:
        facts = self.view.map_facts(game.state, self.names)
        board = self._board(game) if facts is None else []
        self.stops.append(Stop(turn, len(self.screen.entries), board, facts=facts))
        self.starts.append(len(self.screen.entries))
        self.turn, self.decisions = turn + 1, 0

    def _board(self, game: Any, decision: bool = False) -> list[str]:
        """The board as it stands, laid out: at a turn's end the full one when it fits the
        terminal (judged once), else the compact one; at a decision the compact one (a full
        board costs a tenth of a second and more to lay out, and a game has hundreds of
        decisions)."""
        state = game.state
        lines = self.screen.renderer.lines
        if self.compact is None:
            full = self.view.board(state, self.names)
            drawn = lines(full, self.width) if full is not None else []
            compact = self.view.compact_board(state, self.names)
            self.compact = compact is not None and len(drawn) > self.board_rows
            if not decision:
                return lines(compact, self.width) if self.compact else drawn
        shown = self.view.compact_board(state, self.names) if decision or self.compact else None
        if shown is None:
            shown = self.view.board(state, self.names)
        return lines(shown, self.width) if shown is not None else []

    def lines(self, stop: Stop, width: int, head: list[str]) -> list[str]:
        """The turn's lines up to `stop` (the whole turn at its end), under `head`; a turn's
        own heading is left out (the screen's title names the turn)."""
        start = self.starts[stop.turn] + (1 if stop.turn > 0 else 0)
        lines = list(head) + self.screen.told_lines(start, stop.end, width)
        if stop.decision == 0:
            for part in self.after.get(stop.turn, []):
                lines.extend(self.screen.renderer.lines(part, width))
        return lines

    def turn_stop(self, turn: int) -> int:
        """The index of turn `turn`'s end."""
        return next(i for i, s in enumerate(self.stops) if s.turn == turn and s.decision == 0)


class Reader:
    """Where the reader is in the book, and the screen for it: title, board, the turn's lines
    paged to the rows left, and a position line when they do not all fit."""

    def __init__(self, book: Book, word: str, last: int, head: list[Any]) -> None:
        self.book = book
        self.word = word
        self.last = last
        self.head = head  # the replay's header (sides, teams, result), atop the deployment
        self.at = book.turn_stop(0)
        self.scroll: int | None = None  # None: a decision's newest lines, a turn's first
        self.shown_first = 0  # the first of the turn's lines on screen now
        self.complete = True  # False: the save stops in the middle of its last turn
        self._maps: dict[tuple[int, int, int], list[str]] = {}

    @property
    def stop(self) -> Stop:
        return self.book.stops[self.at]

    def title(self) -> str:
        stop = self.stop
        turn = "The deployment" if stop.turn == 0 else f"{self.word.capitalize()} {stop.turn}"
        turn += "" if stop.turn == 0 else f" of {self.last}"
        if stop.decision == 0 and not self.complete and self.at == len(self.book.stops) - 1:
            return f"{turn}: where the save stops, in the middle of it"
        if stop.decision == 0:
            return f"{turn}: the end of {turn_name(stop.turn, self.word)}"
        count = sum(1 for s in self.book.stops if s.turn == stop.turn and s.decision)
        return f"{turn}, decision {stop.decision} of {count}: {stop.label}"

    def name(self, index: int) -> str:
        stop = self.book.stops[index]
        if stop.decision == 0:
            return f"the end of {turn_name(stop.turn, self.word)}"
        return f"decision {stop.decision} of {turn_name(stop.turn, self.word)}"

    def top(self, width: int, height: int, fixed: int, wanted: int, folded: int | None) -> Any:
        from wargame_cli.ui.app import Fit

        screen = self.book.screen
        renderer = screen.renderer
        list_rows = min(wanted, max(3, height - fixed - 1 - MIN_LINES))
        room = max(0, height - fixed - list_rows)
        title = renderer.lines(_one_row(self.title(), width), width)[:1]
        room -= len(title)
        stop = self.stop
        head: list[str] = []
        if stop.turn == 0:
            for part in self.head:
                head.extend(renderer.lines(part, width))
        text = self.book.lines(stop, width, head)
        rows = max(0, room - min(len(text), MIN_LINES + 1))
        board = self._map(width, rows) if stop.facts is not None else stop.board[:rows]
        room -= len(board)
        shown = _page(text, room, self.scroll, newest=stop.decision > 0)
        self.shown_first = shown.first
        return Fit([*title, *board, *shown.lines], list_rows)

    def _map(self, width: int, rows: int) -> list[str]:
        """The one map as it stood at this stop, the largest that fits `rows` (the decision
        screen's own drawing), drawn once for each place and size."""
        from wargame_cli.ui.screen import fitting_map

        key = (self.at, width, rows)
        if key not in self._maps:
            if len(self._maps) > 32:
                self._maps.clear()
            self._maps[key] = fitting_map(self.book.screen.renderer, self.stop.facts, width, rows)
        return self._maps[key]

    def page(self, step: int) -> None:
        """PgUp/PgDn: a few lines earlier or later than those on screen (clamped when laid
        out)."""
        self.scroll = max(0, self.shown_first + step * PAGE)

    def menu(self) -> tuple[list[Any], Any]:
        import questionary

        items: list[Any] = []
        count = len(self.book.stops)
        if self.at + 1 < count:
            items.append(questionary.Choice(f"Next: {self.name(self.at + 1)}", NEXT))
        if self.at > 0:
            items.append(questionary.Choice(f"Previous: {self.name(self.at - 1)}", PREVIOUS))
        ahead, back = self._turns()
        if ahead is not None:
            following = f"Next {self.word}: the end of {turn_name(ahead, self.word)}"
            items.append(questionary.Choice(following, NEXT_TURN))
        if back is not None:
            earlier = f"Previous {self.word}: the end of {turn_name(back, self.word)}"
            items.append(questionary.Choice(earlier, PREVIOUS_TURN))
        items.append(questionary.Choice(f"Jump to a {self.word}", JUMP))
        items.append(questionary.Choice("First", FIRST))
        items.append(questionary.Choice("Last", LAST))
        items.append(questionary.Choice("Quit", QUIT))
        default = items[0] if self.at + 1 < count else items[-1]  # Enter reads on, then quits
        return items, default

    def _turns(self) -> tuple[int | None, int | None]:
        """The turns whose ends are the next and the previous turn from here: at a decision,
        the end of its own turn and of the one before."""
        stop = self.stop
        ahead = stop.turn if stop.decision else stop.turn + 1
        back = stop.turn - 1
        return (ahead if ahead <= self.last else None), (back if back >= 0 else None)

    def go(self, pick: str, jump: Any) -> bool:
        """Move as `pick` says (`jump()` asks which turn); False: quit."""
        stop = self.stop
        if pick == QUIT:
            return False
        if pick == NEXT:
            self.at += 1
        elif pick == PREVIOUS:
            self.at -= 1
        elif pick in (NEXT_TURN, PREVIOUS_TURN):
            ahead, back = self._turns()
            turn = ahead if pick == NEXT_TURN else back
            self.at = self.book.turn_stop(turn if turn is not None else stop.turn)
        elif pick == FIRST:
            self.at = self.book.turn_stop(0)
        elif pick == LAST:
            self.at = self.book.turn_stop(self.last)
        elif pick == JUMP:
            self.at = self.book.turn_stop(jump())
        self.scroll = None
        return True


def _one_row(text: str, width: int) -> Any:
    """A title in one row: cut at a word, with an ellipsis, when longer."""
    from rich.text import Text

    if len(text) > width:
        cut = text.rfind(" ", 0, width - 1)
        text = text[: cut if cut > width // 2 else width - 1] + "…"
    return Text(text, style="bold reverse")


@dataclass
class _Shown:
    lines: list[str]
    first: int


def _page(text: list[str], rows: int, first: int | None, newest: bool) -> _Shown:
    """`text` in `rows` rows from line `first` (None: the newest lines when `newest`, else
    the first), with a last row saying which lines these are and the keys, when not all fit."""
    from wargame_cli.ui.app import page_position

    if rows <= 0:
        return _Shown([], 0)
    if len(text) <= rows:
        return _Shown(text, 0)
    rows -= 1
    top = max(0, len(text) - rows)
    start = (top if newest else 0) if first is None else min(first, top)
    shown = text[start : start + rows]
    return _Shown([*shown, page_position(start, len(shown), len(text))], start)
