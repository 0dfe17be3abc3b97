"""Pieces the rulesets' views share for the decision screen: a piece's card (a titled column
of facts), the piece a question is about, and the odds its options state."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypeVar

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from wargame_cli.text import SIDE_STYLE, clean
from wargame_cli.ui.pointing import takes_spot


class Piece(Protocol):
    """A piece on the table: it belongs to a side."""

    side: str


T = TypeVar("T", bound=Piece)

_PERCENT = re.compile(r"([<>]?\d+(?:\.\d+)?%)")  # as `wording.percent` writes one
HEAD = 28  # characters of an option's label before its chances
DANGLING = {"a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to", "tries"}


def side_mark(side: str) -> str:
    """How a side reads without colour: its letter (`A`, `B`)."""
    return side


def card(
    title: str,
    side: str | None,
    rows: Iterable[tuple[str, Any]],
    note: str = "",
    brief: bool = False,
) -> Any:
    """A piece's card: a title in its side's colour (with the side letter, readable without
    colour), then one `key  value` line per fact; values wrap, keys never. `brief`: the same
    facts as one paragraph (`[A] A4 Sparks: training ...; command ...`), a few lines above a
    question."""
    head = Text()
    if side:
        head.append(f"[{side_mark(side)}] ", style=SIDE_STYLE.get(side, "bold"))
    head.append(clean(title), style=SIDE_STYLE.get(side or "", "bold"))
    if brief:
        for i, (key, value) in enumerate(rows):
            head.append(": " if i == 0 else "; ")
            head.append(f"{key} ", style="dim")
            head.append_text(value if isinstance(value, Text) else Text(clean(value)))
        return head
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column(overflow="fold")
    for key, value in rows:
        grid.add_row(key, value if isinstance(value, Text) else Text(clean(value)))
    parts: list[Any] = [head, grid]
    if note:
        parts.append(Text(clean(note), style="dim"))
    return Group(*parts)


def actor(
    prompt: str, pieces: Mapping[str, T] | Iterable[tuple[str, T]], side: str | None = None
) -> T | None:
    """The piece a question is about: the first the prompt names (the longest name among
    names that start at the same place), one of `side`'s pieces first if it names any (a
    question asked of side A is about A's piece, even after it names the attacker). `pieces`:
    by name, or (name, piece) pairs where two sides' pieces share a name (a mirror match)."""
    best: tuple[int, int, int, T] | None = None
    for name, piece in pieces.items() if isinstance(pieces, Mapping) else pieces:
        if not name:
            continue
        match = re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", prompt)
        if match is None:
            continue
        other = int(side is not None and piece.side != side)
        rank = (other, match.start(), -len(name))
        if best is None or rank < best[:3]:
            best = (*rank, piece)
    return best[3] if best is not None else None


class ListedOdds(Text):
    """An `odds:` line made of the options' own words (`odds`): the decision screen leaves it
    out when the list shows every option whole, as it would say the same twice."""


def odds_line(lines: list[str], kind: type[Text] = Text) -> Text | None:
    """`odds: a; b; c` as one paragraph (a `kind` of Text), or None."""
    if not lines:
        return None
    line = kind("odds: ", style="dim")
    line.append("; ".join(lines))
    return line


def _clauses(text: str) -> list[str]:
    """`text` split at the commas and semicolons outside brackets (`a (b, c), d` is two)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in ",;" and text[i + 1 : i + 2] == " ":
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _groups(text: str) -> list[tuple[int, int]]:
    """The spans of `text`'s outermost bracketed groups, brackets included."""
    spans, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            start = i if depth == 0 else start
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    return spans


def _bare(text: str) -> str:
    """`text` without its bracketed groups that state no chance (`(b17)`, `(12,3)`)."""
    for start, end in reversed(_groups(text)):
        if not _PERCENT.search(text[start:end]):
            after = text[end:]
            gap = "" if after[:1] in ",;:)" or not after else " "
            text = (text[:start].rstrip() + gap + after.lstrip()).strip()
    return text


def _name(label: str) -> str:
    """What names an option: its first clause up to any bracket or colon (`Attack Tuze`,
    `Toward Hudson`, `move 4"`, `3`)."""
    return _clauses(label)[0].split(" (")[0].split(": ")[0]


def _cut(name: str) -> str:
    """`name`'s whole words up to `HEAD` characters (never a word cut; the question beside
    it gives the whole label)."""
    if len(name) <= HEAD:
        return name
    words = name[: HEAD + 1].rsplit(" ", 1)[0].rstrip(",;:").split(" ")
    while len(words) > 1 and words[-1].lower() in DANGLING:  # not `A2 Swordsmen tries to`
        words.pop()
    return " ".join(words)


def _phrases(text: str, name: str = "") -> list[str]:
    """The parts of `text` that state a chance, each with the words that say what of:
    `kills 40%` of `Shoot Bo (Hedge: save 5+; kills 40%)`, and `defence 2 (beaten 67% a die)`
    of `move 4", combat 3 dice, defence 2 (beaten 67% a die)` (a chance alone would read as
    the option's). The words that name the option (`name`) are left out."""
    found = []
    for i, clause in enumerate(_clauses(text)):
        if not _PERCENT.search(clause):
            continue
        clause = _bare(clause)
        rest = clause[len(name) :].strip(" :") if i == 0 and name else clause
        groups = _groups(rest)
        if not groups or groups[-1][1] != len(rest):
            found.append(rest)
            continue
        start = groups[-1][0]  # it ends in a bracket stating a chance: what inside does
        inner, lead = ", ".join(_phrases(rest[start + 1 : -1])), rest[:start].strip()
        found.append(f"{lead} ({inner})" if lead else inner)
    return found


def odds(choice: Any, limit: int = 6) -> Text | None:
    """The chances the options of `choice` state, each with what it is the chance of
    (`Move: up to 4" if the test passes: 58%`), as one `odds:` paragraph, or None when they
    state none, or at a question that takes a spot: its options are spots, each label its
    chances, and a line of them would repeat the list word for word (Squad Alpha's
    deployment)."""
    if takes_spot(choice):
        return None
    lines = []
    for option in choice.options:
        if option.disabled is not None:
            continue
        label = clean(option.label)
        if _PERCENT.search(label):
            name = _name(label)
            lines.append(f"{_cut(name)}: {', '.join(_phrases(label, name))}")
    shown = lines[:limit]
    if len(lines) > limit:
        shown.append(f"{len(lines) - limit} more in the question")
    return odds_line(shown, ListedOdds)


def without_listed_odds(shown: Any) -> Any:
    """A card without its `ListedOdds` line (None when nothing else is left), or None when it
    has no such line."""
    if isinstance(shown, ListedOdds):
        return None
    if not isinstance(shown, Group) or not any(
        isinstance(part, ListedOdds) for part in shown.renderables
    ):
        return None
    rest = [part for part in shown.renderables if not isinstance(part, ListedOdds)]
    return Group(*rest) if rest else None


class Fit:
    """`wide` when it fits the width at its natural size, else `narrow` (a stacked form), so a
    table is never cut mid-word on a narrow terminal."""

    def __init__(self, wide: Any, narrow: Any) -> None:
        self.wide, self.narrow = wide, narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        need = Measurement.get(console, options.update(width=10_000), self.wide).maximum
        yield self.wide if need <= options.max_width else self.narrow

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        need = Measurement.get(console, options.update(width=10_000), self.wide)
        chosen = self.wide if need.maximum <= options.max_width else self.narrow
        return Measurement.get(console, options, chosen)
