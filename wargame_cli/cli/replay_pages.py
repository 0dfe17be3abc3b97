"""What a replay shows: the header (sides, players, teams, result), a page per turn rendered
once as the log replays, and the line of each side's chances."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wargame_cli.ruleset import Ruleset

from wargame_cli.engine.entries import Shown
from wargame_cli.kit.sides import SIDES


def names_of(data: dict[str, Any]) -> dict[str, str]:
    return {s: data["setup"]["names"].get(s, f"Side {s}") for s in SIDES}


def players_of(data: dict[str, Any]) -> dict[str, str]:
    """Who played each side ("human" or "bot"), as the save records it; where its setup does
    not (an older save), as its log records who made each decision: a side all of whose
    decisions a bot made was a bot's. A side with neither is left out (not known)."""
    recorded = data["setup"].get("players")
    players = {s: str(p) for s, p in recorded.items()} if isinstance(recorded, dict) else {}
    by: dict[str, set[str]] = {}
    for entry in data.get("log") or []:
        if isinstance(entry, dict) and entry.get("t") == "choice":
            by.setdefault(str(entry.get("side")), set()).add(str(entry.get("by", "human")))
    for side in ("A", "B"):
        if side not in players and side in by:
            players[side] = "bot" if by[side] == {"bot"} else "human"
    return players


def header(session: Any, path: Path) -> Any:
    """The sides, who played them, their teams, how the game came out as the replay gives it
    (never the file's own words), where the dice came from and who decided."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from wargame_cli.bots.base import computer_words
    from wargame_cli.saves import provenance
    from wargame_cli.text import SIDE_STYLE, clean, shown

    ruleset, data = session.ruleset, session.meta["saved"]
    names = names_of(data)
    title = Text(f"{clean(ruleset.name)}: {shown(path.name)}", style="bold")
    parent = data.get("forked_from")
    if parent:
        title.append(
            f"  (forked from {shown(parent['save'])} after {ruleset.turn_word} {parent['turn']})",
            style="dim",
        )
    told = provenance.of_session(session)
    sides = Table.grid(padding=(0, 2))
    players = data["setup"].get("players") or {}  # as recorded: an older save's are blank
    for side in SIDES:
        who = {"bot": computer_words(data["setup"], side), "human": "person"}.get(
            players.get(side, ""), ""
        )
        sides.add_row(
            Text(side, style=SIDE_STYLE[side]),
            Text(clean(names[side]), style=SIDE_STYLE[side]),
            Text(who, style="dim"),
            Text(clean(ruleset.describe_team(data["setup"]["teams"][side]))),
            Text(f"decisions: {told.decision_words(side)}", style="dim"),
        )
    outcome = session.runner.outcome
    word, turns = ruleset.turn_word, session.runner.turn
    if outcome is not None:
        head = f"{clean(names[outcome.winner])} won" if outcome.winner else "A draw"
        result = Text(f"{head} in {word} {turns}: {clean(outcome.reason)}")
    else:
        result = Text(f"In progress after {word} {turns}")
    facts = [Text(line[0].upper() + line[1:], style="dim") for line in told.lines(decisions=False)]
    return Group(title, sides, result, *facts)


def odds_line(row: dict[str, Any], names: dict[str, str], word: str) -> Any:
    from rich.text import Text

    from wargame_cli.simulate.chances import line
    from wargame_cli.text import clean
    from wargame_cli.wording import plural

    bots = plural(int(row.get("games") or 0), "bot game")
    how = {"exact": "exact", "bots": bots, "result": "result"}
    when = turn_name(row["turn"], word)
    text = Text(f"Chances at the end of {when} ({how[row['method']]}): ", "dim")
    text.append(clean(line(row, names)), style="bold")
    return text


def buffered(out: Any) -> tuple[Any, io.StringIO]:
    """A console that writes as `out` would, into a buffer: what a replay shows is written
    as the log replays, and printed once the replay has given the result."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=out.width,
        force_terminal=out.is_terminal,
        color_system=out.color_system,
        no_color=out.no_color,
        highlight=False,
    )
    return console, buffer


class Pages:
    """Each turn's entries and the table at its end, rendered once as the log replays."""

    def __init__(
        self,
        out: Any,
        ruleset: Ruleset,
        names: dict[str, str],
        with_rules: bool,
        players: dict[str, str] | None = None,
    ) -> None:
        from wargame_cli.ui.live import LiveView

        self.console, self.buffer = buffered(out)
        self.view = LiveView(
            self.console, ruleset, names, with_rules=with_rules, players=players or {}
        )
        self.names = names
        self.word = ruleset.turn_word
        self.pages: list[str] = []

    def entry(self, entry: dict[str, Any], game: Any) -> None:
        self.view(entry, game)

    def turn_end(self, turn: int, game: Any) -> None:
        from rich.rule import Rule

        page = self.buffer.getvalue()
        board = self.view.view.board(game.state, self.names)
        if board is not None:
            self.buffer.seek(0)
            self.buffer.truncate()
            self.console.print(board)
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
