"""`wargame dice`: the exact odds of one roll, AnyDice style: a dice expression
(`wargame_cli/kit/dice_expr.py`), or a ruleset's roll by name with its parameters
(`Ruleset.named_rolls`), as a table with a bar chart, one JSON object, or an HTML page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.cli.output import console, emit_json
from wargame_cli.errors import BadInput, OptionError
from wargame_cli.kit.dice_expr import Odds, odds, parse, show
from wargame_cli.kit.near import near_names
from wargame_cli.ruleset import NamedRoll, OptionSpec, Ruleset, resolve_options
from wargame_cli.wording import either, fine_percent

BAR = 40  # the longest bar, in cells, on a terminal wide enough
_NAME_LIKE = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+|[a-z]{3,}")


@dataclass(frozen=True)
class DiceArgs:
    words: list[str]
    options: list[str]
    json_out: bool = False
    html: Path | None = None
    force: bool = False


def dice(args: DiceArgs) -> None:
    if not args.words:
        raise BadInput('give a dice expression (e.g. "2d10+d8") or a ruleset\'s id')
    ids = [i.id for i in registry.all_infos()]
    first = args.words[0]
    if first in ids:
        _ruleset_roll(registry.get(first), args)
        return
    if args.options:
        raise BadInput("--option goes with a ruleset's roll: wargame dice RULESET ROLL ...")
    flags = [w for w in args.words if w.startswith("--")]
    if flags:
        raise BadInput(f"no such option: {flags[0]} (a roll's parameters follow a ruleset's roll)")
    text = " ".join(args.words)
    if _NAME_LIKE.fullmatch(first.lower()) and first.lower() not in ("pool",):
        near = near_names(first, ids)
        if near:
            raise BadInput(
                f"{first!r} is neither a dice expression nor a ruleset; "
                f"did you mean {either(near)}?"
            )
    _show(odds(text), args, {})


def _ruleset_roll(ruleset: Ruleset, args: DiceArgs) -> None:
    options = resolve_options(ruleset.options, args.options)
    rolls = ruleset.named_rolls(options)
    if len(args.words) == 1:
        if args.html is not None:
            raise BadInput("--html draws a roll: name one (wargame dice RULESET ROLL)")
        if args.json_out:
            emit_json(_listing(ruleset, rolls))
        else:
            _list(ruleset, rolls)
        return
    name = args.words[1]
    by_name = {r.name: r for r in rolls}
    if name not in by_name:
        if not rolls:
            raise BadInput(f"{ruleset.name} names no rolls; give a dice expression instead")
        near = near_names(name, by_name)
        hint = f"did you mean {either(near)}? " if near else ""
        raise BadInput(f"{ruleset.id} has no roll {name!r}; {hint}its rolls: {', '.join(by_name)}")
    roll = by_name[name]
    values = _params(roll, args.words[2:])
    expression = roll.expression(values)
    heading = {
        "ruleset": ruleset.id,
        "ruleset_name": ruleset.name,
        "roll": roll.name,
        "doc": roll.doc,
        "rules": list(roll.rules),
        "params": values,
        "options": {k: v for k, v in options.items() if not isinstance(v, dict | list)},
    }
    _show(odds(expression), args, heading)


def _params(roll: NamedRoll, words: list[str]) -> dict[str, Any]:
    """`--name VALUE`, `--name=VALUE`, or `--name` alone for a true/false parameter."""
    specs = {p.name: p for p in roll.params}
    values = {p.name: p.default for p in roll.params}
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("--"):
            raise OptionError(f"roll {roll.name}: {word!r} is not a --PARAMETER")
        key, eq, given = word[2:].partition("=")
        if key not in specs:
            known = ", ".join(f"--{p}" for p in specs) or "none"
            raise OptionError(f"roll {roll.name} takes no --{key}; its parameters: {known}")
        spec = specs[key]
        if not eq and spec.kind is bool:
            given = "true"
            if i + 1 < len(words) and not words[i + 1].startswith("--"):
                i += 1
                given = words[i]
        elif not eq:
            if i + 1 >= len(words):
                raise OptionError(f"roll {roll.name}: --{key} needs a value")
            i += 1
            given = words[i]
        values[key] = _parse(spec, roll, given)
        i += 1
    return values


def _parse(spec: OptionSpec, roll: NamedRoll, given: str) -> Any:
    try:
        return spec.parse(given)
    except OptionError as exc:
        raise OptionError(f"roll {roll.name}: {str(exc).removeprefix('option ')}") from None


# -- the result as data: what --json prints and the page shows -------------------------------
def exact(p: Fraction) -> str:
    """An exact chance as "p/q", always with its denominator."""
    return f"{p.numerator}/{p.denominator}"


def result_of(found: Odds, heading: dict[str, Any]) -> dict[str, Any]:
    dist = found.dist
    rows = []
    below = Fraction(0)
    for value, p in dist.chances().items():
        above = 1 - below
        below += p
        row: dict[str, Any] = {
            "value": value,
            "exact": exact(p),
            "chance": float(p),
            "at_least_exact": exact(above),
            "at_least": float(above),
            "at_most_exact": exact(below),
            "at_most": float(below),
        }
        if found.passing is not None:
            row["holds"] = value in found.passing
        rows.append(row)
    mean = dist.mean()
    out: dict[str, Any] = {
        **heading,
        "expression": found.expression,
        "of": found.shown,
        "mean_exact": exact(mean),
        "mean": float(mean),
        "chance_exact": exact(found.chance) if found.chance is not None else None,
        "chance": float(found.chance) if found.chance is not None else None,
        "distribution": rows,
    }
    return out


def _listing(ruleset: Ruleset, rolls: tuple[NamedRoll, ...]) -> dict[str, Any]:
    return {
        "ruleset": ruleset.id,
        "rolls": [
            {
                "name": r.name,
                "doc": r.doc,
                "rules": list(r.rules),
                "params": [
                    {
                        "name": p.name,
                        "default": p.default,
                        "choices": p.choices,
                        "minimum": p.minimum,
                        "maximum": p.maximum,
                        "doc": p.doc,
                    }
                    for p in r.params
                ],
                "expression": show(parse(r.expression({p.name: p.default for p in r.params}))),
            }
            for r in rolls
        ],
    }


# -- showing it -------------------------------------------------------------------------------
def _show(found: Odds, args: DiceArgs, heading: dict[str, Any]) -> None:
    result = result_of(found, heading)
    if args.html is not None:
        from wargame_cli.report import output
        from wargame_cli.report.dice_page import page

        output.write(args.html, page(result), None, args.force, "--html")
    if args.json_out:
        emit_json(result)
        return
    _table(result)
    if args.html is not None:
        from wargame_cli.text import shown

        console().print(f"Chart written to {shown(args.html)}", markup=False, highlight=False)


def _title(result: dict[str, Any]) -> str:
    if "roll" not in result:
        return result["expression"]
    params = ", ".join(f"{k} {_word(v)}" for k, v in result["params"].items())
    what = f"{result['ruleset_name']}: {result['roll']}" + (f" ({params})" if params else "")
    return f"{what}: {result['expression']}"


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


MAX_ROWS = 100  # rows on a terminal; more values are grouped (every one in --json and --html)


def _table(result: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    out = console()
    from wargame_cli.report.dice_page import rows_shown

    rows, note = rows_shown(result["distribution"], MAX_ROWS)
    values = max(len("value"), *(len(str(r["value"])) for r in rows))
    heads = ("exact %", "at least %", "at most %")
    width = min(BAR, out.width - 42 - values)  # the bars take what the numbers leave
    if width < 6:  # a narrow terminal: short headings leave the bars room
        heads = ("%", ">= %", "<= %")
        width = min(BAR, out.width - 37 - values)  # under 2: no room for bars at all
    top = max(r["chance"] for r in rows)
    table = Table(title=Text(_title(result)), title_justify="left")
    captions = []
    if result["of"] != result["expression"]:
        captions.append(f"value: {result['of']}")
    if note:
        captions.append(note)
    if captions:
        table.caption = Text("\n".join(captions))
        table.caption_justify = "left"
    table.add_column("value", justify="right", no_wrap=True)
    for column in heads:
        table.add_column(column, justify="right", no_wrap=True)
    if width >= 2:
        table.add_column("", no_wrap=True)
    for r in rows:
        cells = round(width * r["chance"] / top) if top else 0
        bar = "█" * cells or ("▏" if r["chance"] > 0 else "")
        style = "green" if r.get("holds") else ("dim" if r.get("holds") is False else "cyan")
        cells_shown = [
            str(r["value"]),
            fine_percent(r["chance"]),
            fine_percent(r["at_least"]),
            fine_percent(r["at_most"]),
        ]
        table.add_row(*cells_shown, *([Text(bar, style=style)] if width >= 2 else []))
    out.print(table)
    lines = [f"Mean {float(result['mean']):.4g} ({result['mean_exact']})"]
    if result["chance"] is not None:
        lines.append(
            f"Chance of {result['expression']}: {fine_percent(result['chance'])} "
            f"({result['chance_exact']})"
        )
    for line in lines:
        out.print(Text(line))


def _list(ruleset: Ruleset, rolls: tuple[NamedRoll, ...]) -> None:
    from rich.table import Table
    from rich.text import Text

    out = console()
    if not rolls:
        out.print(Text(f"{ruleset.name} names no rolls; give a dice expression instead."))
        return
    table = Table(title=Text(f"{ruleset.name}: rolls"), title_justify="left", show_lines=True)
    table.add_column("roll (rules)", no_wrap=True)
    table.add_column("parameters (default)", overflow="fold", ratio=1)
    table.add_column("what it rolls", overflow="fold", ratio=1)
    for r in rolls:
        params = "\n".join(f"--{p.name} {_word(p.default)}: {_range(p)}" for p in r.params)
        expression = show(parse(r.expression({p.name: p.default for p in r.params})))
        table.add_row(
            Text(f"{r.name}\n{' '.join(r.rules)}"),
            Text(params or "none"),
            Text(f"{r.doc}\n{expression}"),
        )
    out.print(table)
    example = rolls[0]
    out.print(
        Text(
            f"e.g. wargame dice {ruleset.id} {example.name}"
            + "".join(
                f" --{p.name} {_word(p.default)}" for p in example.params if p.kind is not bool
            )
        )
    )


def _range(spec: OptionSpec) -> str:
    if spec.choices is not None:
        if all(str(c) in spec.doc for c in spec.choices):  # the doc names them already
            return spec.doc
        return f"{spec.doc} ({', '.join(str(c) for c in spec.choices)})"
    if spec.kind is bool:
        return f"{spec.doc} (--{spec.name} alone: yes)"
    if spec.minimum is not None and spec.maximum is not None:
        return f"{spec.doc} ({spec.minimum:g} to {spec.maximum:g})"
    return spec.doc
