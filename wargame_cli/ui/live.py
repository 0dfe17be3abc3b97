"""Renders a game as its log grows: the same view serves live play and replays."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from wargame_cli.text import SIDE_STYLE, clean
from wargame_cli.ui.redraw import Memory
from wargame_cli.view import NOBODY_KNOWN, Players
from wargame_cli.wording import victory

if TYPE_CHECKING:
    from wargame_cli.ruleset import Ruleset
    from wargame_cli.ui.screen import DecisionScreen


def generic(entry: Mapping[str, Any], names: dict[str, str], turn_word: str = "turn") -> Any:
    """A plain rendering of any log entry, used where a ruleset's view has nothing better."""
    kind = entry["t"]
    if kind == "turn":
        return Rule(f"{turn_word.capitalize()} {entry['n']}")
    if kind == "roll":
        who = names.get(entry.get("side") or "", "")
        faces = " ".join(str(f) for f in entry["faces"])
        dice = " ".join(f"d{d}" for d in entry["dice"])
        line = Text()
        if who:
            line.append(clean(who), style=SIDE_STYLE.get(entry.get("side") or "", ""))
            line.append(": ")
        line.append(f"{clean(entry['reason'])}: {dice} -> ", style="dim")
        line.append(faces, style="bold")
        return line
    if kind == "choice":
        line = Text()
        line.append(
            clean(names.get(entry["side"], entry["side"])), style=SIDE_STYLE.get(entry["side"], "")
        )
        line.append(f": {clean(entry['label'])}")
        if entry.get("by") == "bot":
            line.append("  (computer)", style="dim")
        return line
    if kind == "event":
        return Text(clean(entry["text"]))
    if kind in ("takeback", "note"):  # told by the engine, not the rules' log
        mark = "↶ " if kind == "takeback" else "! "
        text = entry.get("text", "")
        if kind == "takeback" and "taken" in entry:  # the side by its name, not its letter
            from wargame_cli.engine.takeback import describe

            text = describe(entry, names, turn_word, open_question=bool(entry.get("live")))
        return Text(mark + clean(text), style="bold yellow")
    if kind == "edit":  # a table edit, by the GM or a side's owner
        from wargame_cli.engine.edits import edit_words

        return Text("✎ Table edit " + clean(edit_words(entry, names)), style="bold yellow")
    if kind == "end":
        return Panel(Text(clean(entry["reason"])), title=end_title(entry, names), expand=False)
    return None


def end_title(entry: Mapping[str, Any], names: dict[str, str]) -> str:
    """How the game ended, in a few words: who won, or a draw."""
    winner = entry.get("winner")
    return victory(clean(names.get(winner, winner))) if winner else "A draw"


class LiveView:
    """An observer for the runner: prints each log entry through the ruleset's view. With a
    decision `screen` (a person plays at a real terminal) the entries go to the screen instead,
    drawn at the next question; only the end of the game is printed. `players` (each side's
    "human" or "bot", from the session) goes to the view; `once_a_turn` keeps a picture drawn
    beside a line once a turn for each kind of entry (a replay written to a file)."""

    def __init__(
        self,
        console: Console,
        ruleset: Ruleset,
        names: dict[str, str],
        with_rules: bool = False,
        screen: DecisionScreen | None = None,
        players: Players = NOBODY_KNOWN,
        once_a_turn: bool = False,
    ) -> None:
        self.console = console
        self.view = ruleset.view()
        self.turn_word = ruleset.turn_word
        self.names = names
        self.with_rules = with_rules
        self.screen = screen
        self.players = players
        self.memory = screen.memory if screen is not None else Memory()
        self.memory.once_a_turn = once_a_turn
        # what of a state this log shows: all of it, or (remote play, a spectator) only what
        # a side may see now (`View.seen_by`: a hidden deployment's other side left out)
        self.sees: Callable[[Any], Any] = _whole

    def __call__(self, entry: Mapping[str, Any], game: Any) -> None:
        if self.screen is not None:
            self.screen.observe(entry, game)
            if entry["t"] != "end":
                return
            self._ending(entry, game)
            return
        self._print(entry, game)

    def shown(self, entry: Mapping[str, Any], game: Any) -> Any:
        """What the view shows for `entry`, after the redraw policy."""
        shown = self.view.render_entry(entry, self.sees(game.state), self.names, self.players)
        return self.memory.shown(entry, shown)

    def _ending(self, entry: Mapping[str, Any], game: Any) -> None:
        """After the last question: what happened since, the board, the result."""
        assert self.screen is not None
        for line in self.screen.recent_lines(None, self.console.width, last=entry):
            self.console.print(Text.from_ansi(line))
        shown = self.shown(entry, game)
        if shown is None or shown is False:
            self.board(game)
            shown = generic(entry, self.names, self.turn_word)
        self.console.print(shown)

    def _print(self, entry: Mapping[str, Any], game: Any) -> None:
        if entry["t"] in ("takeback", "note"):
            self.console.print(generic(entry, self.names, self.turn_word))
            if entry.get("live"):
                self.board(game)  # the position the question is asked in again
            return
        shown = self.shown(entry, game)
        if shown is False:
            return
        if shown is None:
            shown = generic(entry, self.names, self.turn_word)
        if shown is not None:
            self.console.print(shown)
        if self.with_rules and entry.get("rules"):
            self.console.print(Text(f"  why: {', '.join(entry['rules'])}", style="dim"))

    def board(self, game: Any) -> None:
        board = self.view.board(self.sees(game.state), self.names)
        if board is not None:
            self.console.print(board)


def _whole(state: Any) -> Any:
    return state
