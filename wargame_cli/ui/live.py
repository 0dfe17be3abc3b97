"""Renders a game as its log grows: the same view serves live play and replays."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from wargame_cli.ui.text import SIDE_STYLE, clean


def generic(entry: dict[str, Any], names: dict[str, str], turn_word: str = "turn") -> Any:
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
    if kind == "end":
        winner = entry.get("winner")
        title = f"{clean(names.get(winner, winner))} wins" if winner else "A draw"
        return Panel(Text(clean(entry["reason"])), title=title, expand=False)
    return None


class LiveView:
    """An observer for the runner: prints each log entry through the ruleset's view."""

    def __init__(
        self, console: Console, ruleset: Any, names: dict[str, str], with_rules: bool = False
    ) -> None:
        self.console = console
        self.view = ruleset.view()
        self.turn_word = ruleset.turn_word
        self.names = names
        self.with_rules = with_rules

    def __call__(self, entry: dict[str, Any], game: Any) -> None:
        if entry["t"] in ("takeback", "note"):  # told by the engine, not the rules' log
            mark = "↶ " if entry["t"] == "takeback" else "! "
            self.console.print(Text(mark + clean(entry["text"]), style="bold yellow"))
            if entry.get("live"):
                self.board(game)  # the position the question is asked in again
            return
        render = getattr(self.view, "render_entry", None)
        shown = render(entry, game.state, self.names) if render is not None else None
        if shown is False:
            return
        if shown is None:
            shown = generic(entry, self.names, self.turn_word)
        if shown is not None:
            self.console.print(shown)
        if self.with_rules and entry.get("rules"):
            self.console.print(Text(f"  why: {', '.join(entry['rules'])}", style="dim"))

    def board(self, game: Any) -> None:
        board = getattr(self.view, "board", None)
        if board is not None:
            self.console.print(board(game.state, self.names))
