"""`simulate` on screen: the progress bar, the result tables and the odds matrix (rich)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import JustifyMethod
from rich.padding import Padding
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.style import Style
from rich.table import Table
from rich.text import Text

from wargame_cli.cli import simulated_charts as charts
from wargame_cli.cli.output import console
from wargame_cli.ruleset import SIDES, Ruleset
from wargame_cli.text import SIDE_STYLE, clean, shown
from wargame_cli.wording import plural

STYLE = {**SIDE_STYLE, "draw": "bold"}


@contextmanager
def progress_bar(total: int) -> Iterator[Callable[[int], None]]:
    """A transient bar on stderr, advanced once per chunk of games (about a hundred times):
    games done, their rate and the time left."""
    bar = Progress(
        TextColumn("games"),
        BarColumn(bar_width=20),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task("games", total=total, rate="")
        started = time.monotonic()
        done = 0

        def advance(n: int) -> None:
            nonlocal done
            done += n
            rate = done / max(1e-9, time.monotonic() - started)
            bar.update(task, advance=n, rate=f"{rate:,.0f}/s" if rate >= 10 else f"{rate:.1f}/s")

        yield advance


def _percent(p: float) -> str:
    return f"{100 * p:.1f}%"


def _rule_text(ruleset: Ruleset, how: str) -> str:
    """`a17` -> `a17: Two members of a team across the line...` when the reference has it; an
    ending with its cause (`surrendered (d16+d17)`) is shown as it is."""
    if "(" in how:
        return how
    try:
        reference = ruleset.reference()
    except (OSError, ValueError, KeyError):
        return how
    texts = [reference.text_of(rule) for rule in how.split("+")]
    if not all(texts):
        return how
    text = " ".join(t for t in texts if t)
    return f"{how}: {text if len(text) <= 48 else text[:47] + '…'}"


def settings_lines(ruleset: Ruleset, result: dict[str, Any]) -> None:
    """The run's unit changes (`--unit`) and the teams `--budget` built, where there are."""
    from wargame_cli.kit.unitstats import shown as changes_shown

    out = console()
    if result.get("unit_changes"):
        out.print(Text(f"Unit changes: {changes_shown(result['unit_changes'])}"))
    budget = result.get("budget")
    if budget is not None:
        out.print(Text(f"Teams built to {budget['points']} points ({budget['values']} values):"))
        for side in SIDES:
            team = result["teams"][side]["team"]
            cost = budget["cost"][side]
            out.print(Text(f"  {side}: {ruleset.describe_team(team)} ({cost:g} points)"))


def report(ruleset: Ruleset, result: dict[str, Any]) -> None:
    out = console()
    teams = result["teams"]
    settings_lines(ruleset, result)
    if "from" in result:  # simulate --from SAVE
        start = result["from"]
        out.print(
            Text(f"Played on from {shown(start['save'])} after {ruleset.turn_word} {start['turn']}")
        )
    if "games" in result:
        out.print(
            Text(
                f"{ruleset.name}: {plural(result['games'], 'bot-vs-bot game')}, "
                f"seed {result['seed']}",
                style="bold",
            )
        )
        if result.get("swap"):
            out.print(
                "Both seats: each team sat as side A in half the games; A and B below are "
                "the teams (--team-a's is A), over both seats"
            )
        out.print(_wins_table(ruleset, result))
        if "seat_advantage" in result:
            out.print(seat_line(result["seat_advantage"]))
        lengths(ruleset, result)
        if result["endings"]:
            out.print(_endings_table(ruleset, result))
        if result["figures"]:
            figures = Table(title="Per game (mean)", title_justify="left")
            figures.add_column("figure")
            figures.add_column("mean", justify="right")
            for name, value in result["figures"].items():
                figures.add_row(figure_words(name, teams), f"{value:.2f}")
            out.print(figures)
        if "units" in result:
            out.print(units_table(result["units"]))
        for contest, row in result.get("firsts", {}).items():
            lo, hi = row["ci95"]
            out.print(
                f"The side that won the {contest} won {_percent(row['win_rate'])} of "
                f"{plural(row['games'], 'game')} (95% interval {_percent(lo)} - {_percent(hi)})"
            )
    if "exact" in result:
        exact = result["exact"]
        line = Text("Exact odds of winning: ", style="bold")
        for side in SIDES:
            line.append(_side_named(teams, side), style=STYLE[side])
            line.append(f" {exact[side]:.6f}")
            line.append("; " if side == "A" else "")
        out.print(line)
        out.print(f"Expected game length: {result['exact_turns']:.3f} {ruleset.turn_word}s")
        if "exact_lengths" in result:
            listed = ", ".join(f"{k} {v}" for k, v in result["exact_lengths"].items())
            out.print(f"Exact length percentiles ({ruleset.turn_word}s): {listed}")
            table = Table(title="How the games end, exactly", title_justify="left")
            for column in ("winner", "by", "chance"):
                table.add_column(column, justify="right" if column == "chance" else "left")
            for side, endings in result["exact_endings"].items():
                for how, chance in endings.items():
                    table.add_row(
                        Text(side, style=STYLE.get(side, "")),
                        clean(_rule_text(ruleset, how)),
                        f"{100 * chance:.3f}%",
                    )
            out.print(table)


def seat_line(seat: dict[str, Any]) -> Text:
    """Side A's seat share of the decisive games, and whether that is more than chance."""
    lo, hi = seat["ci95"]
    line = Text("Seat advantage: ", style="bold")
    line.append(
        f"the team in seat A won {_percent(seat['share_a'])} of "
        f"{plural(seat['A'] + seat['B'], 'decisive game')} "
        f"(95% interval {_percent(lo)} - {_percent(hi)}); "
    )
    line.append(
        "no seat wins more than chance allows" if seat["fair"] else "more than chance allows",
        style="" if seat["fair"] else "bold",
    )
    return line


def lengths(ruleset: Ruleset, result: dict[str, Any]) -> None:
    """Game length in figures (the mean with its interval) and as a histogram."""
    out = console()
    t = result["turns"]
    lo, hi = result["turns_mean_ci95"]
    turns = f"{ruleset.turn_word}s"
    out.print(
        f"Game length: mean {t['mean']:.2f} {turns} (95% interval {lo:.2f}-{hi:.2f}, "
        f"sd {t['sd']:.2f}), median {t['median']}, 90% of games within {t['p90']}, "
        f"range {t['min']}-{t['max']}"
    )
    counts = {int(k): v for k, v in result["lengths"].items()}
    if len(counts) > 1:
        width = max(8, min(40, out.width - 30))
        out.print(charts.histogram("Game length", turns, counts, width))


def units_table(units: dict[str, Any]) -> Table:
    """Per unit type, over both sides: games it fought in, units fielded, kills and damage
    dealt per unit fielded, deaths and the share that survived."""
    table = Table(title="Per unit type", title_justify="left")
    for column in ("unit", "games", "fielded", "kills", "deaths", "survived"):
        table.add_column(column, justify="left" if column == "unit" else "right")
    damage = any(row["damage"] is not None for row in units.values())
    if damage:
        table.add_column("damage", justify="right")
    for kind, row in units.items():
        cells = [
            clean(kind),
            str(row["games"]),
            str(row["fielded"]),
            f"{row['kills']:.2f}",
            str(row["deaths"]),
            _percent(row["survival"]),
        ]
        if damage:
            cells.append("-" if row["damage"] is None else f"{row['damage']:.2f}")
        table.add_row(*cells)
    table.caption = "kills and damage: per unit fielded"
    return table


def figure_words(name: str, teams: dict[str, Any]) -> str:
    """A per-game figure's dotted key in words: `after_battle.A` -> `after battle: Swords (A)`;
    the key itself stays in `--json`."""
    words = []
    for part in name.split("."):
        if part in SIDES and part in teams:
            words.append(_side_named(teams, part))
        else:
            words.append(clean(part.replace("_", " ")))
    return ": ".join(words)


def _side_named(teams: dict[str, Any], side: str) -> str:
    """`Swords (B)`, or `Side B` alone where the team has no name of its own."""
    name = clean(teams[side]["name"])
    return name if name == f"Side {side}" else f"{name} ({side})"


def _wins_table(ruleset: Ruleset, result: dict[str, Any]) -> Table:
    table = Table()
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("side", "left"),
        ("team", "left"),
        ("wins", "right"),
        ("win rate", "right"),
        ("95% interval", "right"),
    )
    for column, justify in columns:
        table.add_column(column, justify=justify)
    for side in SIDES:
        team = result["teams"][side]
        lo, hi = result["ci95"][side]
        table.add_row(
            Text(side, style=STYLE[side]),
            Text(f"{clean(team['name'])}: {clean(ruleset.describe_team(team['team']))}"),
            str(result["wins"][side]),
            _percent(result["win_rate"][side]),
            f"{_percent(lo)} - {_percent(hi)}",
        )
    if result["wins"]["draw"]:
        lo, hi = result["ci95"]["draw"]
        draws = result["wins"]["draw"]
        table.add_row(
            "draw",
            "",
            str(draws),
            _percent(draws / result["games"]),
            f"{_percent(lo)} - {_percent(hi)}",
        )
    return table


def _endings_table(ruleset: Ruleset, result: dict[str, Any]) -> Table:
    table = Table(title="How the games ended", title_justify="left")
    table.add_column("winner")
    table.add_column("by")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    table.add_column("", no_wrap=True)
    top = max(c for endings in result["endings"].values() for c in endings.values())
    for side, endings in result["endings"].items():
        for how, count in endings.items():
            table.add_row(
                Text(side, style=STYLE.get(side, "")),
                clean(_rule_text(ruleset, how)),
                str(count),
                _percent(count / result["games"]),
                charts.bar(count / top, 10),
            )
    return table


def _shade(p: float) -> Style:
    """Red (the row's pool loses) through yellow to green (it wins)."""
    if p < 0.5:
        r, g = 200, int(60 + 280 * p)
    else:
        r, g = int(200 - 280 * (p - 0.5)), 200
    return Style(bgcolor=f"rgb({r},{g},60)", color="black")


def _cell(p: float) -> Text:
    """Three characters a cell: the percentage, held within 1-99 so that columns never touch
    ("99" reads as 99% or more: no dice pool is ever certain to win)."""
    return Text(f"{min(99, max(1, round(100 * p))):3d}", style=_shade(p))


MATRIX_LEFT = 21  # the rank, pool and mean columns
MATRIX_CELL = 3


def matrix(ruleset: Ruleset, table: Any, order: list[int]) -> None:
    """Rows and columns strongest first: the tier list, with each cell the row's chance. When
    every column does not fit the terminal, the columns come in blocks, each with all rows."""
    out = console()
    per_block = max(1, (out.width - MATRIX_LEFT) // MATRIX_CELL)
    blocks = [order[i : i + per_block] for i in range(0, len(order), per_block)]
    rank_of = {i: rank for rank, i in enumerate(order, start=1)}
    title = f"{ruleset.name}: chance (%) that the row's dice (side A) beat the column's, exact"
    for n, block in enumerate(blocks):
        if len(blocks) > 1:
            first, last = rank_of[block[0]], rank_of[block[-1]]
            part = f"columns {first}-{last} of {len(order)}"
            heading = f"{title} ({part})" if n == 0 else f"... {part}"
        else:
            heading = title
        grid = Table(title=heading, title_justify="left", box=None, padding=(0, 0))
        grid.add_column("#", justify="right", min_width=3, no_wrap=True)
        grid.add_column(" pool", no_wrap=True, min_width=12)
        grid.add_column("mean ", justify="right", min_width=6, no_wrap=True)
        for i in block:
            grid.add_column(f"{rank_of[i]:3d}", justify="right", no_wrap=True, min_width=3)
        for rank, i in enumerate(order, start=1):
            grid.add_row(
                str(rank),
                f" {table.labels[i]}",
                f"{100 * table.strength(i):5.1f} ",
                *(_cell(table.p[i][j]) for j in block),
            )
        out.print(grid)
    out.print(
        "Columns are numbered by the rows' ranks; mean is the chance against every pool; "
        "1 and 99 mean 1% or less and 99% or more. A team for each pool: "
        + "; ".join(f"{table.labels[i]} = {', '.join(table.examples[i])}" for i in order)
    )


def about_block(run: dict[str, Any]) -> None:
    """What the result was measured with (`simulate/about.py`): the program and rules, the
    seed and games, the bots, every setting and both teams unit by unit."""
    from wargame_cli.simulate.about import bots_line, settings_lines

    out = console()
    rules = run["ruleset"]
    head = f"This run: {run['program']}, {rules['name']} rules version {rules['version']}"
    if run.get("seed") is not None:
        head += f", seed {run['seed']}"
    if run.get("games") is not None:
        head += f", {plural(run['games'], 'game')}"
    out.print(Text(head, style="bold"))
    out.print(Text(bots_line(run["bots"])))
    if run.get("studied"):
        out.print(Text("Settings compared: " + "; ".join(run["studied"])))
    settings = settings_lines(run["settings"])
    if settings:
        out.print(Text("Settings: " + "; ".join(settings)))
    if run.get("by_setting"):  # each setting's own teams: none stands for them all
        for row in run["by_setting"]:
            out.print(Text(f"Setting {clean(row['setting'])}:", style="bold"))
            _rosters(out, row["teams"], 2)
        return
    _rosters(out, run["teams"], 0)


def _rosters(out: Any, teams: dict[str, Any] | list[dict[str, Any]], indent: int) -> None:
    """Each team's name, then its roster a unit a line."""
    entries = list(teams.items()) if isinstance(teams, dict) else [(None, t) for t in teams]
    for side, team in entries:
        name = _side_named(teams, side) if side and isinstance(teams, dict) else clean(team["name"])
        heading = Text(f"{name}:", style=STYLE.get(side or "", ""))
        out.print(Padding(heading, (0, 0, 0, indent), expand=False))
        for line in team["roster"]:  # a wrapped line stays under its unit's name
            depth = indent + 2 + len(line) - len(line.lstrip(" "))
            out.print(Padding(Text(clean(line.strip())), (0, 0, 0, depth), expand=False))


def diff_report(found: dict[str, Any]) -> None:
    """Two saved runs compared: each run's figures, the difference with its interval
    (paired over shared seeds, or independent, as it says) and what changed between them."""
    out = console()
    first, then = found["files"]
    out.print(Text(f"{shown(then)} against {shown(first)}", style="bold"))
    table = Table()
    for column in ("", "games", "team A wins", "length"):
        table.add_column(column, justify="left" if not column else "right")
    for n, path in enumerate(found["files"]):
        table.add_row(
            clean(shown(path)),
            f"{found['games'][n]:,}",
            _percent(found["win_rate_a"][n]),
            f"{found['length'][n]:.2f}",
        )
    out.print(table)
    w, t = found["win_rate_a_difference"], found["length_difference"]
    out.print(
        f"Difference (second - first): team A wins {100 * w['estimate']:+.1f} points "
        f"(95% interval {100 * w['lo']:+.1f} to {100 * w['hi']:+.1f}); length "
        f"{t['estimate']:+.2f} (95% interval {t['lo']:+.2f} to {t['hi']:+.2f})"
    )
    if found["paired"]:
        left = max(found["games"]) - found["shared_games"]
        out.print(
            f"Paired game by game over the {plural(found['shared_games'], 'game')} both runs "
            "played on the same seeds (the same dice)"
            + (f"; {plural(left, 'game')} only one run played left out" if left else "")
        )
    else:
        out.print(
            "Unpaired: the runs share no seeds, so they are compared as independent samples "
            "(a wider interval than the same seeds would give)"
        )
    if found["changes"]:
        out.print(Text("What changed: " + "; ".join(clean(c) for c in found["changes"])))
    else:
        out.print("What changed: nothing in the settings, teams or bots")
