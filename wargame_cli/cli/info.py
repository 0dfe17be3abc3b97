"""The read-only commands: `rulesets`, `rules ID`, `saves`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.cli.output import console, emit_json
from wargame_cli.cli.which_save import in_folder
from wargame_cli.errors import BadInput
from wargame_cli.invoked import command
from wargame_cli.ruleset import OptionSpec, Reference
from wargame_cli.text import shown


def list_rulesets(json_out: bool) -> None:
    infos = registry.all_infos()
    if json_out:
        emit_json(
            [
                {"id": i.id, "name": i.name, "seed_file": i.seed_file, "summary": i.summary}
                for i in infos
            ]
        )
        return
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    out = console()
    if out.width >= WIDE_RULESETS:
        table = Table(title="Rulesets")
        for column in ("id", "name", "seed file", "summary"):
            table.add_column(column, no_wrap=column in ("id", "seed file"))
        for i in infos:
            table.add_row(i.id, i.name, i.seed_file, i.summary)
        out.print(table)
        return
    # narrower: one block per ruleset, so no id or file name is ever cut
    out.print(Text("Rulesets", style="bold"))
    for i in infos:
        head = Text(i.id, style="bold")
        head.append(f"  {i.name}")
        out.print(head)
        out.print(Padding(Text(f"seed file {i.seed_file}\n{i.summary}"), (0, 0, 0, 4)))


def _unit_stats_json(ruleset: Any) -> dict[str, Any] | None:
    """Every unit type's numeric stats (`simulate --unit UNIT.STAT=V`); None: none declared."""
    sheet = ruleset.unit_sheet()
    if sheet is None:
        return None
    return {
        unit: {
            s.name: {"stock": s.stock, "minimum": s.minimum, "maximum": s.maximum, "whole": s.whole}
            for s in stats.values()
        }
        for unit, stats in sheet.items()
    }


def _unit_stats_line(ruleset: Any) -> str:
    """`die (2 to 20)`: the stats `--unit UNIT.STAT=V` changes, each with its widest range."""
    sheet = ruleset.unit_sheet()
    if not sheet:
        return ""
    ranges: dict[str, tuple[float, float]] = {}
    for stats in sheet.values():
        for s in stats.values():
            lo, hi = ranges.get(s.name, (s.minimum, s.maximum))
            ranges[s.name] = (min(lo, s.minimum), max(hi, s.maximum))
    listed = ", ".join(f"{name} ({lo:g} to {hi:g})" for name, (lo, hi) in ranges.items())
    example = f"{next(iter(sheet))}.{next(iter(ranges))}=N"
    if " " in example:
        example = f'"{example}"'
    return (
        f"{listed}; e.g. `wargame simulate {ruleset.id} --unit {example}`, "
        "or the same change in a team file"
    )


def show_rules(ruleset_id: str, json_out: bool, only: list[str] | None = None) -> None:
    info = registry.info(ruleset_id)
    ruleset = info.load()
    reference = ruleset.reference()
    if only:
        _show_points(reference, only, json_out, ruleset)
        return
    if json_out:
        emit_json(
            {
                "id": info.id,
                "name": info.name,
                "seed_file": info.seed_file,
                "summary": info.summary,
                "rules": [{"id": p.id, "text": p.text} for p in reference.points],
                "units": ruleset.units(),
                "options": [_option_json(o) for o in ruleset.options],
                "campaign_options": [_option_json(o) for o in ruleset.carrying().options],
                "team_syntax": ruleset.team_syntax,
                "edits": ruleset.edit_actions(),
                "ready_teams": [
                    {"name": name, "team": team} for name, team in _ready_teams(ruleset)
                ],
                "notes": reference.notes,
                "exact_odds": ruleset.odds() is not None,
                "unit_stats": _unit_stats_json(ruleset),
            }
        )
        return
    from rich.markup import escape
    from rich.table import Table

    out = console()
    out.rule(f"{escape(info.name)}  ({info.id})")
    out.print(f"{escape(info.summary)}\nSeed: {escape(info.seed_file)}")
    out.print(f"Odds: {escape(_odds_line(ruleset))}\n")
    points = Table(title="Rule points", show_lines=False)
    points.add_column("id", style="bold")
    points.add_column("rule")
    for point in reference.points:
        points.add_row(point.id, point.text)
    out.print(points)
    units = ruleset.units()
    if units:
        table = Table(title="Units")
        for column in units[0]:
            table.add_column(str(column))
        for row in units:
            table.add_row(*(str(v) for v in row.values()))
        out.print(table)
    out.print(_options(ruleset.options, out.width))
    if campaign := ruleset.carrying().options:
        out.print(_options(campaign, out.width, CAMPAIGN_TITLE))
    stats = _unit_stats_line(ruleset)
    if stats:
        out.print(f"[bold]Unit stats[/] a run may change: {escape(stats)}\n")
    out.print(f"[bold]Teams:[/] {escape(ruleset.team_syntax)}\n")
    out.print(
        f"[bold]Table edits[/] ({escape(command('edit SAVE ACTION ... --why TEXT'))}, or the "
        "Table item at a question):"
    )
    for words in ruleset.edit_actions().values():
        out.print(f"  {escape(words)}")
    out.print()
    ready = _ready_teams(ruleset)
    if ready:
        out.print("[bold]Ready teams[/] (--team-a NAME; case and spaces do not matter):")
        for name, team in ready:
            out.print(f"- [bold]{escape(name)}[/]: {escape(team)}")
        out.print()
    if reference.json_state:
        out.print(f"[bold]--json state:[/] {escape(reference.json_state)}\n")
    if reference.notes:
        out.print("[bold]Gaps in the text and the readings chosen:[/]")
        for note in reference.notes:
            out.print(f"- {escape(note)}")


WIDE_RULESETS = 110  # narrower terminals get one block per ruleset instead of the table
OPTIONS_TITLE = "Options (--option KEY=VALUE; stored in every save)"
WIDE_OPTIONS = 110  # narrower terminals get one block per option instead of the table
CAMPAIGN_TITLE = "Campaign options (wargame campaign new NAME ID --option KEY=VALUE)"


def _option_json(o: OptionSpec) -> dict[str, Any]:
    return {
        "name": o.name,
        "default": o.default,
        "choices": o.choices,
        "minimum": o.minimum,
        "maximum": o.maximum,
        "at_most": o.at_most,
        "rule": o.rule,
        "doc": o.doc,
    }


def _options(options: tuple[OptionSpec, ...], width: int, title: str = OPTIONS_TITLE) -> Any:
    """The options as a table on a wide terminal; on a narrow one, each option's name, default,
    choices and rule on one line and its meaning under it, so no name or word is cut."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    def choices_of(o: Any) -> str:
        return ", ".join(str(c) for c in o.choices) if o.choices else _kind_and_range(o)

    if width >= WIDE_OPTIONS:
        table = Table(title=title)
        table.add_column("option", no_wrap=True)  # a name to type: whole, never cut
        for column in ("default", "choices", "rule", "meaning"):
            table.add_column(column, overflow="fold")
        for o in options:
            table.add_row(o.name, _shown(o.default), choices_of(o), o.rule, o.doc)
        return table
    parts: list[Any] = [Text(title, style="bold")]
    for o in options:
        line = Text(o.name, style="bold")
        line.append(f"  default {_shown(o.default)}; {choices_of(o)}; rule {o.rule}")
        parts.append(line)
        parts.append(Padding(Text(o.doc, overflow="fold"), (0, 0, 0, 4)))
    return Group(*parts)


def _kind(value: object) -> str:
    return "file" if isinstance(value, dict) else type(value).__name__


def _kind_and_range(option: Any) -> str:
    """`int 1-8`, `int -10 to 20, at most rating_max`, `float from 0`: every number option
    shows its bounds, and the option it may not exceed."""
    kind = _kind(option.default)
    low, high = (_number(v) for v in (option.minimum, option.maximum))
    if low is not None and high is not None:
        kind += f" {low} to {high}" if low.startswith("-") else f" {low}-{high}"
    elif low is not None:
        kind += f" from {low}"
    elif high is not None:
        kind += f" up to {high}"
    if option.at_most is not None:
        kind += f", at most {option.at_most}"
    return kind


def _number(value: float | None) -> str | None:
    if value is None:
        return None
    return str(int(value)) if float(value).is_integer() else str(value)


def _ready_teams(ruleset: Any) -> list[tuple[str, str]]:
    """Each ready team the menus offer and `--team-a NAME` takes, described as the game
    describes a team (under the default options)."""
    options = {o.name: o.default for o in ruleset.options}
    ready = []
    for name, data in ruleset.preset_teams(options).items():
        try:
            team = ruleset.describe_team(ruleset.team_from_data(data, options))
        except Exception:  # noqa: BLE001 - a preset the default options refuse is still named
            team = "(not legal under the default options)"
        ready.append((name, team))
    return ready


def _shown(value: object) -> str:
    """Data options (a table loaded from a file) show their name, not their contents."""
    if isinstance(value, dict):
        return f"built-in: {value.get('name', 'default')}"
    return str(value)


def _readings(reference: Reference, ruleset: Any, point_id: str) -> tuple[list[str], list[Any]]:
    """The notes that cite a point (the reading chosen where the text is silent) and the
    options that settle it."""
    cited = re.compile(rf"\b{re.escape(point_id)}\b", re.IGNORECASE)
    notes = [n for n in reference.notes if cited.search(n)]
    options = [o for o in ruleset.options if point_id.lower() in o.rule.lower().split(",")]
    return notes, options


def _odds_line(ruleset: Any) -> str:
    """Whether `simulate --exact` works here, so its help can name no ruleset."""
    if ruleset.odds() is not None:
        return f"exact ({command(f'simulate {ruleset.id} --exact')}; --matrix without --games)"
    return f"by seeded games only ({command(f'simulate {ruleset.id} --games 400')})"


def _show_points(reference: Reference, only: list[str], json_out: bool, ruleset: Any) -> None:
    """`wargame rules ID a13 a16`: the rule points a log entry cites, each with the reading
    chosen for it (the notes citing it, and the options that settle it)."""
    wanted = [p.strip().lower() for item in only for p in item.split(",") if p.strip()]
    known = {p.id.lower(): p for p in reference.points}
    missing = [w for w in wanted if w not in known]
    if missing:
        raise BadInput(f"no rule point {missing[0]!r}; points: {', '.join(known)}")
    points = [known[w] for w in wanted]
    readings = {p.id: _readings(reference, ruleset, p.id) for p in points}
    if json_out:
        emit_json(
            [
                {
                    "id": p.id,
                    "text": p.text,
                    "readings": readings[p.id][0],
                    "options": [
                        {"name": o.name, "default": o.default, "doc": o.doc}
                        for o in readings[p.id][1]
                    ],
                }
                for p in points
            ]
        )
        return
    from rich.markup import escape

    out = console()
    for point in points:
        out.print(f"[bold]{point.id}[/]  {escape(point.text)}")
        notes, options = readings[point.id]
        for note in notes:
            out.print(f"  reading: {escape(note)}")
        for o in options:
            out.print(
                f"  option {escape(o.name)} (default {escape(_shown(o.default))}): {escape(o.doc)}"
            )


def list_saves(saves_dir: Path | None, json_out: bool) -> None:
    """Numbered rows, newest first (the numbers `wargame resume N` takes); each row's path whole
    on a line of its own, never cut, so it can be copied for `resume` and `replay`. Each save
    is replayed: the row shows the status and winner the rules give, not the file's words."""
    from wargame_cli.saves import games, store

    folder = store.saves_dir(saves_dir)
    rows = [games.as_replayed(row) for row in store.listing(folder)]
    if json_out:
        emit_json([{"number": i + 1, **row} for i, row in enumerate(rows)])
        return
    from rich.text import Text

    from wargame_cli.text import clean

    out = console()
    if not rows:
        out.print(Text(f"No saves in {shown(folder)}."))
        return
    resume = command("resume N" + in_folder(saves_dir))
    out.print(Text(f"Saves in {shown(folder)}, newest first ({resume}, or a path):"))
    width = len(str(len(rows)))
    for i, row in enumerate(rows, start=1):
        head = Text(f"{i:>{width}}. ", style="bold")
        sides = " vs ".join(clean(v) for v in row["sides"].values())
        status = str(row["status"] or "").replace("_", " ")
        facts = [str(row["ruleset"] or "?"), sides]
        if row["turns"] is not None:
            facts.append(f"{_turn_word(row['ruleset'])} {row['turns']}")
        facts.append(status)
        if row["winner"]:
            winner = str(row["winner"])
            name = row["sides"].get(winner)
            facts.append(f"won by {clean(name)} ({winner})" if name else f"won by {winner}")
        elif row["status"] == "finished":
            facts.append("a draw")
        if row.get("sealed") is False:
            facts.append("unsealed")
        if isinstance(row.get("forked_from"), dict):
            parent = row["forked_from"]
            word = _turn_word(row["ruleset"])
            facts.append(f"a fork of {shown(parent.get('save'))} after {word} {parent.get('turn')}")
        if row["updated"]:
            facts.append(str(row["updated"])[:16].replace("T", " "))
        head.append(", ".join(f for f in facts if f))
        out.print(head)
        # the path on its own line, never wrapped by rich: a long one runs on past the edge
        # of the terminal (which folds it) and still copies whole
        out.print(Text(" " * (width + 2) + shown(row["path"])), soft_wrap=True)
        if row.get("error"):
            out.print(
                Text(" " * (width + 2) + "unreadable: " + clean(row["error"])), soft_wrap=True
            )


def _turn_word(ruleset_id: object) -> str:
    """What the save's ruleset calls a turn ("round"); "turn" for a ruleset not installed."""
    from wargame_cli.errors import UnknownRuleset

    try:
        return registry.get(str(ruleset_id)).turn_word
    except UnknownRuleset:
        return "turn"
