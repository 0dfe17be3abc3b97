"""The read-only commands: `rulesets`, `rules ID`, `saves`."""

from __future__ import annotations

from pathlib import Path

from wargame_cli import registry
from wargame_cli.cli.output import console, emit_json
from wargame_cli.errors import BadInput
from wargame_cli.ruleset import Reference


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
    from rich.table import Table

    table = Table(title="Rulesets")
    for column in ("id", "name", "seed file", "summary"):
        table.add_column(column)
    for i in infos:
        table.add_row(i.id, i.name, i.seed_file, i.summary)
    console().print(table)


def show_rules(ruleset_id: str, json_out: bool, only: list[str] | None = None) -> None:
    info = registry.info(ruleset_id)
    ruleset = info.load()
    reference = ruleset.reference()
    if only:
        _show_points(reference, only, json_out)
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
                "options": [
                    {
                        "name": o.name,
                        "default": o.default,
                        "choices": o.choices,
                        "rule": o.rule,
                        "doc": o.doc,
                    }
                    for o in ruleset.options
                ],
                "team_syntax": ruleset.team_syntax,
                "notes": reference.notes,
            }
        )
        return
    from rich.markup import escape
    from rich.table import Table

    out = console()
    out.rule(f"{escape(info.name)}  ({info.id})")
    out.print(f"{escape(info.summary)}\nSeed: {escape(info.seed_file)}\n")
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
    options = Table(title="Options (--option KEY=VALUE; stored in every save)")
    for column in ("option", "default", "choices", "rule", "meaning"):
        options.add_column(column)
    for o in ruleset.options:
        choices = ", ".join(str(c) for c in o.choices) if o.choices else _kind(o.default)
        options.add_row(o.name, _shown(o.default), choices, o.rule, o.doc)
    out.print(options)
    out.print(f"[bold]Teams:[/] {escape(ruleset.team_syntax)}\n")
    if reference.json_state:
        out.print(f"[bold]--json state:[/] {escape(reference.json_state)}\n")
    if reference.notes:
        out.print("[bold]Gaps in the text and the readings chosen:[/]")
        for note in reference.notes:
            out.print(f"- {escape(note)}")


def _kind(value: object) -> str:
    return "file" if isinstance(value, dict) else type(value).__name__


def _shown(value: object) -> str:
    """Data options (a table loaded from a file) show their name, not their contents."""
    if isinstance(value, dict):
        return f"built-in: {value.get('name', 'default')}"
    return str(value)


def _show_points(reference: Reference, only: list[str], json_out: bool) -> None:
    """`wargame rules ID a13 a16`: the rule points a log entry cites."""
    wanted = [p.strip().lower() for item in only for p in item.split(",") if p.strip()]
    known = {p.id.lower(): p for p in reference.points}
    missing = [w for w in wanted if w not in known]
    if missing:
        raise BadInput(f"no rule point {missing[0]!r}; points: {', '.join(known)}")
    points = [known[w] for w in wanted]
    if json_out:
        emit_json([{"id": p.id, "text": p.text} for p in points])
        return
    from rich.markup import escape

    out = console()
    for point in points:
        out.print(f"[bold]{point.id}[/]  {escape(point.text)}")


def list_saves(saves_dir: Path | None, json_out: bool) -> None:
    from wargame_cli.saves import store

    rows = store.listing(store.saves_dir(saves_dir))
    if json_out:
        emit_json(rows)
        return
    from rich.table import Table
    from rich.text import Text

    from wargame_cli.ui.text import clean

    table = Table(title=f"Saves in {store.saves_dir(saves_dir)}")
    for column in ("file", "ruleset", "sides", "turn", "status", "winner", "updated"):
        table.add_column(column)
    for row in rows:
        sides = " vs ".join(clean(v) for v in row["sides"].values())
        table.add_row(
            Text(clean(Path(row["path"]).name)),
            Text(str(row["ruleset"] or "")),
            Text(sides),
            str(row["turns"] if row["turns"] is not None else ""),
            row["status"],
            str(row["winner"] or ""),
            str(row["updated"] or ""),
        )
    if not rows:
        console().print(f"No saves in {store.saves_dir(saves_dir)}.")
        return
    console().print(table)
    for row in rows:
        if row.get("error"):
            console().print(Text(f"unreadable: {clean(row['error'])}"))
