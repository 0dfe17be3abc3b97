"""What a replay shows: the header (sides, players, teams, result), a page per turn rendered
once as the log replays, and the line of each side's chances."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from wargame_cli.engine.entries import Shown


def names_of(data: dict[str, Any]) -> dict[str, str]:
    return {s: data["setup"]["names"].get(s, f"Side {s}") for s in ("A", "B")}


def header(data: dict[str, Any], ruleset: Any, path: Path) -> Any:
    """The sides, who played them, their teams and how the game came out."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from wargame_cli.ui.text import SIDE_STYLE, clean

    names = names_of(data)
    title = Text(f"{clean(ruleset.name)}: {clean(path.name)}", style="bold")
    parent = data.get("forked_from")
    if parent:
        title.append(
            f"  (forked from {clean(parent['save'])} after {ruleset.turn_word} {parent['turn']})",
            style="dim",
        )
    sides = Table.grid(padding=(0, 2))
    players = data["setup"].get("players") or {}
    for side in ("A", "B"):
        who = {"bot": "computer", "human": "person"}.get(players.get(side, ""), "")
        sides.add_row(
            Text(side, style=SIDE_STYLE[side]),
            Text(clean(names[side]), style=SIDE_STYLE[side]),
            Text(who, style="dim"),
            Text(clean(ruleset.describe_team(data["setup"]["teams"][side]))),
        )
    result = data.get("result")
    word = ruleset.turn_word
    if data["status"] == "finished" and result:
        winner = result.get("winner")
        head = f"{clean(names[winner])} won" if winner else "A draw"
        outcome = Text(f"{head} in {word} {data['turns']}: {clean(result['reason'])}")
    else:
        outcome = Text(f"In progress after {word} {data['turns']}")
    return Group(title, sides, outcome)


def odds_line(row: dict[str, Any], names: dict[str, str], word: str) -> Any:
    from rich.text import Text

    from wargame_cli.simulate.chances import line
    from wargame_cli.ui.text import clean

    how = {"exact": "exact", "bots": f"{row.get('games')} bot games", "result": "result"}
    when = turn_name(row["turn"], word)
    text = Text(f"Chances at the end of {when} ({how[row['method']]}): ", "dim")
    text.append(clean(line(row, names)), style="bold")
    return text


class Pages:
    """Each turn's entries and the table at its end, rendered once as the log replays."""

    def __init__(self, out: Any, ruleset: Any, names: dict[str, str], with_rules: bool) -> None:
        from rich.console import Console

        from wargame_cli.ui.live import LiveView

        self.buffer = io.StringIO()
        self.console = Console(
            file=self.buffer,
            width=out.width,
            force_terminal=out.is_terminal,
            color_system=out.color_system,
            no_color=out.no_color,
            highlight=False,
        )
        self.view = LiveView(self.console, ruleset, names, with_rules=with_rules)
        self.board = getattr(ruleset.view(), "board", None)
        self.names = names
        self.word = ruleset.turn_word
        self.pages: list[str] = []

    def entry(self, entry: dict[str, Any], game: Any) -> None:
        self.view(entry, game)

    def turn_end(self, turn: int, game: Any) -> None:
        from rich.rule import Rule

        page = self.buffer.getvalue()
        if self.board is not None:
            self.buffer.seek(0)
            self.buffer.truncate()
            self.console.print(self.board(game.state, self.names))
            table = self.buffer.getvalue()
            if not page.strip():  # nothing happened before it: the table alone
                page = table
            elif table not in page:  # some views draw the table after every move already
                what = "the deployment" if turn == 0 else f"{self.word} {turn}"
                with self.console.capture() as rule:
                    self.console.print(Rule(f"The table at the end of {what}", style="dim"))
                page += rule.get() + table
        self.pages.append(page)
        self.buffer.seek(0)
        self.buffer.truncate()


def turn_name(turn: int, word: str) -> str:
    return "the deployment" if turn == 0 else f"{word} {turn}"


class TakeBacks:
    """Take-backs recorded in the save, shown where they happened: before the log entry at
    their place (`at`), or after the last one when taken back at the open question."""

    def __init__(self, data: dict[str, Any], word: str, show: Any) -> None:
        self.lines: dict[int, list[str]] = {}
        if data.get("takebacks"):
            from wargame_cli.engine.takeback import describe

            names = data["setup"]["names"]
            for done in data["takebacks"]:
                self.lines.setdefault(done["at"], []).append(describe(done, names, word))
        self.show = show
        self.seen = 0

    def __call__(self, entry: Shown, game: Any) -> None:
        if entry.get("t") in ("turn", "roll", "choice", "event", "end"):
            self._before(self.seen, game)
            self.seen += 1
        self.show(entry, game)

    def finish(self, game: Any) -> None:
        self._before(self.seen, game)

    def _before(self, index: int, game: Any) -> None:
        for line in self.lines.pop(index, []):
            self.show({"t": "takeback", "text": line}, game)
