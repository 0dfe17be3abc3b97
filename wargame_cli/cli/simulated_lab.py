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
    from wargame_cli.simulate.about import versus

    out = console()
    _changes_line(result)
    rows = result["settings"]
    teams = versus(result["teams"], result["run"].get("by_setting"))
    what = f"sweep of {result['key']}" if result["mode"] == "sweep" else "settings compared"
    out.print(
        Text(
            f"{ruleset.name}: {what}, {plural(result['games'], 'game')} each on the same seeds "
            f"(seed {result['seed']}); {clean(teams)}",
            style="bold",
        )
    )
    turns = f"{ruleset.turn_word}s"
    table = Table(title_justify="left")
    table.add_column("setting")
    table.add_column("A wins", justify="right")
    table.add_column("95%", justify="right")
    exact = all("exact" in row for row in rows)
    if exact:
        table.add_column("exact", justify="right")
    table.add_column("vs first, points", justify="right")
    table.add_column(turns, justify="right")
    table.add_column(f"vs first, {turns}", justify="right")
    for row in rows:
        lo, hi = row["ci95"]["A"]
        cells = [
            clean(row["label"]),
            _percent(row["win_rate"]["A"]),
            f"{100 * lo:.0f}-{100 * hi:.0f}",
            *([_percent(row["exact"]["A"])] if exact else []),
            _delta(row.get("difference"), "win_rate_a", True),
            f"{row['turns']['mean']:.2f}",
            _delta(row.get("difference"), "turns", False),
        ]
        table.add_row(*cells)
    out.print(table)
    out.print(
        "vs first: the difference from the first setting, game by game on the same dice, "
        "± its 95% interval"
    )
    if result["mode"] == "sweep":
        sweep_chart(result, out)
    out.print(plot(rows, turns, out.width, result["mode"] == "compare"))
    if "seat_tests" in result:
        out.print(seat_family_line(result["seat_tests"], rows))
    out.print(endings(rows))


def sweep_chart(result: dict[str, Any], out: Any) -> None:
    """Side A's wins against the swept value (the value along the x axis), with the exact
    chance where the ruleset has one."""
    key = result["key"]
    points = []
    for row in result["settings"]:
        value = row["setting"][key]
        label = f"{value:g}" if isinstance(value, float) else str(value)
        exact = row["exact"]["A"] if "exact" in row else None
        points.append((label, row["win_rate"]["A"], *row["ci95"]["A"], exact))
    chart = charts.against(points, out.width)
    if chart is None:
        return
    out.print(Text(f"Side A wins against {key}", style="bold"))
    out.print(chart)
    exact = " ◆ exact odds (◈: on the dot)" if any(p[4] is not None for p in points) else ""
    out.print(f"  ● bot games  │ 95% interval{exact}")


def scale_of(lows: list[float], highs: list[float], floor: float) -> tuple[float, float]:
    """A plot's scale: the intervals shown, padded a little, at least `floor` wide, so a
    cell is a fraction of what the rows differ by (not a fixed 0-100%)."""
    low, high = min(lows), max(highs)
    pad = max((high - low) * 0.05, (floor - (high - low)) / 2, 0.0)
    return low - pad, high + pad


def _centred(scale: tuple[float, float], middle: float) -> tuple[float, float]:
    """The scale widened to have `middle` (no difference: 0) at its centre."""
    half = max(abs(scale[0] - middle), abs(scale[1] - middle))
    return middle - half, middle + half


def plot(rows: list[dict[str, Any]], turns: str, width: int, paired: bool = False) -> Table:
    """Side A's win rate and the mean length against the setting, each a dot with its 95%
    interval, on scales fitted to the rows (the header gives each end; a cell is well
    under a point where the settings are close). `paired` (`--compare`): side A's wins as
    the paired difference from the first setting, `┊` at no difference."""
    cells = max(10, (width - 20) // 2 - 2)
    grid = Table(box=None, padding=(0, 1), title="Plot", title_justify="left")
    grid.add_column("setting", no_wrap=True, max_width=16)
    lows = [r["turns_mean_ci95"][0] for r in rows]
    highs = [r["turns_mean_ci95"][1] for r in rows]
    tscale = scale_of(lows, highs, 0.5)
    if paired:
        diffs = [r.get("difference", {}).get("win_rate_a") for r in rows]
        found = [d for d in diffs if d] or [{"lo": 0.0, "hi": 0.0}]
        wscale = _centred(scale_of([d["lo"] for d in found], [d["hi"] for d in found], 0.02), 0.0)
        head = f"A wins vs first {100 * wscale[0]:+.1f}..{100 * wscale[1]:+.1f} points"
    else:
        wscale = scale_of(
            [r["ci95"]["A"][0] for r in rows], [r["ci95"]["A"][1] for r in rows], 0.04
        )
        head = f"A wins {100 * wscale[0]:.1f}%-{100 * wscale[1]:.1f}%"
    grid.add_column(head, no_wrap=True)
    grid.add_column(f"{turns} {tscale[0]:.2f}-{tscale[1]:.2f}", no_wrap=True)
    for row in rows:
        tlo, thi = row["turns_mean_ci95"]
        if paired:
            d = row.get("difference", {}).get("win_rate_a") or {
                "estimate": 0.0,
                "lo": 0.0,
                "hi": 0.0,
            }
            wins = charts.dot(d["estimate"], d["lo"], d["hi"], wscale, cells, 0.0)
        else:
            lo, hi = row["ci95"]["A"]
            wins = charts.dot(row["win_rate"]["A"], lo, hi, wscale, cells, 0.5)
        grid.add_row(
            clean(row["label"]), wins, charts.dot(row["turns"]["mean"], tlo, thi, tscale, cells)
        )
    cell = (wscale[1] - wscale[0]) / max(1, cells - 1)
    mark = "no difference" if paired else "50%"
    grid.caption = f"a cell: {100 * cell:.2f} points of A's wins; ┊ {mark} (and the mid-length)"
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


def seat_family_line(family: dict[str, Any], rows: list[dict[str, Any]]) -> Text:
    """Several seat tests at once: how many flag by chance alone, and which still flag at
    the corrected level (Holm's, family-wise 95%)."""
    count = family["tests"]
    held = [r["label"] for r, flag in zip(rows, family["holm_flagged"], strict=False) if flag]
    line = Text(f"{count} seat tests at 95% each: ", style="bold")
    expected = family["expected_by_chance"]
    line.append(
        f"about one in twenty flags a fair seat by chance alone ({expected:.1f} "
        f"expected here; {family['flagged']} flagged). At a family-wise 95% (Holm; Bonferroni: "
        f"each at {100 * family['bonferroni_level']:.2f}%): "
        + (", ".join(clean(h) for h in held) + " still flagged" if held else "none flagged")
    )
    return line


def mirrors(ruleset: Ruleset, result: dict[str, Any]) -> None:
    """Each ready team against itself at each bot level: seat A's share of the decisive
    games, its interval, and whether it still flags once corrected for the number of tests."""
    out = console()
    _changes_line(result)
    rows = result["mirrors"]
    out.print(
        Text(
            f"{ruleset.name}: every ready team against itself, {plural(result['games'], 'game')} "
            f"a mirror at each bot level ({', '.join(result['levels'])}; seed {result['seed']})",
            style="bold",
        )
    )
    family = result.get("seat_tests")
    held = family["holm_flagged"] if family else [not r["fair"] for r in rows]
    table = Table(title_justify="left")
    for column in ("team", "bots", "decisive", "seat A", "95%", "p", "flag"):
        table.add_column(column, justify="left" if column in ("team", "bots") else "right")
    for row, flag in zip(rows, held, strict=True):
        lo, hi = row["ci95"]
        mark = "corrected" if flag else ("95% only" if not row["fair"] else "")
        table.add_row(
            clean(row["team"]),
            row["level"],
            str(row["A"] + row["B"]),
            _percent(row["share_a"]),
            f"{100 * lo:.1f}-{100 * hi:.1f}",
            f"{row['p']:.3f}",
            Text(mark, style="bold" if flag else ""),
        )
    out.print(table)
    if family:
        out.print(
            seat_family_line(family, [{"label": f"{r['team']} ({r['level']})"} for r in rows])
        )
