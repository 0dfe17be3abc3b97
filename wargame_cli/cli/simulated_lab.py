"""The studies on screen: settings side by side (`--compare`, `--sweep`, with a plot of win
rate and length against the setting) and the ranked matrix of teams (`--matrix --games`)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from wargame_cli.cli import simulated_charts as charts
from wargame_cli.cli.output import console
from wargame_cli.cli.simulated import STYLE, _cell, _percent, seat_line
from wargame_cli.ruleset import Ruleset
from wargame_cli.text import clean
from wargame_cli.wording import plural


def _signed(value: float, percent: bool) -> str:
    return f"{100 * value:+.1f}" if percent else f"{value:+.2f}"


def _delta(diff: dict[str, Any] | None, key: str, percent: bool) -> str:
    """`+3.1 (-0.4..+6.6)`: the difference from the first setting and its 95% interval."""
    if not diff or key not in diff:
        return "-"
    d = diff[key]
    half = (d["hi"] - d["lo"]) / 2
    return f"{_signed(d['estimate'], percent)} ±{_signed(half, percent)[1:]}"


def _changes_line(result: dict[str, Any]) -> None:
    """The run's `--unit` changes, over every setting and team."""
    from wargame_cli.kit.unitstats import shown as changes_shown

    if result.get("unit_changes"):
        console().print(Text(f"Unit changes: {changes_shown(result['unit_changes'])}"))


def settings(ruleset: Ruleset, result: dict[str, Any]) -> None:
    out = console()
    _changes_line(result)
    rows = result["settings"]
    team = result["teams"]
    what = f"sweep of {result['key']}" if result["mode"] == "sweep" else "settings compared"
    out.print(
        Text(
            f"{ruleset.name}: {what}, {plural(result['games'], 'game')} each on the same seeds "
            f"(seed {result['seed']}); {clean(team['A']['name'])} (A) against "
            f"{clean(team['B']['name'])} (B)",
            style="bold",
        )
    )
    turns = f"{ruleset.turn_word}s"
    table = Table(title_justify="left")
    table.add_column("setting")
    table.add_column("A wins", justify="right")
    table.add_column("95%", justify="right")
    table.add_column("vs first, points", justify="right")
    table.add_column(turns, justify="right")
    table.add_column(f"vs first, {turns}", justify="right")
    for row in rows:
        lo, hi = row["ci95"]["A"]
        table.add_row(
            clean(row["label"]),
            _percent(row["win_rate"]["A"]),
            f"{100 * lo:.0f}-{100 * hi:.0f}",
            _delta(row.get("difference"), "win_rate_a", True),
            f"{row['turns']['mean']:.2f}",
            _delta(row.get("difference"), "turns", False),
        )
    out.print(table)
    out.print(
        "vs first: the difference from the first setting, game by game on the same dice, "
        "± its 95% interval"
    )
    out.print(plot(rows, turns, out.width))
    out.print(endings(rows))


def plot(rows: list[dict[str, Any]], turns: str, width: int) -> Table:
    """Side A's win rate (0-100%, `┊` at 50%) and the mean length against the setting, each
    a dot with its 95% interval."""
    cells = max(10, (width - 20) // 2 - 2)
    low = min(r["turns_mean_ci95"][0] for r in rows)
    high = max(r["turns_mean_ci95"][1] for r in rows)
    pad = (high - low) * 0.05 or 0.5
    scale = (low - pad, high + pad)
    grid = Table(box=None, padding=(0, 1), title="Plot", title_justify="left")
    grid.add_column("setting", no_wrap=True, max_width=16)
    grid.add_column("A wins 0% ┊ 100%", no_wrap=True)
    grid.add_column(f"{turns} {scale[0]:.1f}-{scale[1]:.1f}", no_wrap=True)
    for row in rows:
        lo, hi = row["ci95"]["A"]
        tlo, thi = row["turns_mean_ci95"]
        grid.add_row(
            clean(row["label"]),
            charts.dot(row["win_rate"]["A"], lo, hi, (0.0, 1.0), cells),
            charts.dot(row["turns"]["mean"], tlo, thi, scale, cells),
        )
    return grid


def endings(rows: list[dict[str, Any]]) -> Table:
    """How the games ended, a column per setting (share of its games)."""
    table = Table(title="How the games ended (share of games)", title_justify="left")
    table.add_column("winner: by")
    found: dict[str, None] = {}
    for row in rows:
        for side, ends in row["endings"].items():
            for how in ends:
                found[f"{side}: {how}"] = None
    for n, _ in enumerate(rows, start=1):
        table.add_column(f"#{n}", justify="right")
    for key in found:
        side, how = key.split(": ", 1)
        shares = [row["endings"].get(side, {}).get(how, 0) / row["games"] for row in rows]
        table.add_row(Text(clean(key), style=STYLE.get(side, "")), *(_percent(p) for p in shares))
    table.caption = "  ".join(f"#{n} {clean(r['label'])}" for n, r in enumerate(rows, start=1))
    return table


def team_matrix(ruleset: Ruleset, result: dict[str, Any]) -> None:
    """Rows and columns strongest first; each cell the row team's share against the column
    team over both seats (a draw counts half)."""
    out = console()
    _changes_line(result)
    m = result["matrix"]
    names = m["teams"]
    order = [names.index(name) for name in m["ranking"]]
    out.print(
        Text(
            f"{ruleset.name}: every team against every other, {plural(result['games'], 'game')} a "
            f"match-up in both seats (seed {result['seed']}); cell: the row's share (%)",
            style="bold",
        )
    )
    grid = Table(box=None, padding=(0, 0))
    grid.add_column("#", justify="right", min_width=3)
    grid.add_column(" team", no_wrap=True, max_width=24)
    grid.add_column("mean ", justify="right", min_width=6)
    for rank, _ in enumerate(order, start=1):
        grid.add_column(f"{rank:3d}", justify="right", min_width=3)
    for rank, i in enumerate(order, start=1):
        cells = [
            _cell(m["score"][i][j]) if m["score"][i][j] is not None else Text("  -") for j in order
        ]
        grid.add_row(str(rank), f" {clean(names[i])}", f"{100 * m['strength'][i]:5.1f} ", *cells)
    out.print(grid)
    out.print(
        "Columns are numbered by the rows' ranks; mean is the share against every other team "
        "(a draw counts half)"
    )
    out.print(seat_line(m["seat_advantage"]))
