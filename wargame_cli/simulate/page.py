"""`simulate --html FILE`: the study as one self-contained page (the battle report's style,
inline SVG, no script): every table the terminal shows (wins, endings, per-game figures, per
unit type, the matrix shaded, exact odds), the charts of what was asked (a sweep against its
value with the exact curve where there is one, a comparison as paired differences), and what
the run measured (`about.py`). Labels are never cut: tables wrap long names, and each chart's
label column is as wide as its longest label."""

from __future__ import annotations

from typing import Any

from wargame_cli.kit.sides import SIDES
from wargame_cli.report.html import STYLE, h
from wargame_cli.simulate.about import bots_line, settings_lines, versus
from wargame_cli.simulate.charts_svg import bars, intervals, sweep
from wargame_cli.wording import plural

TABLE_STYLE = """
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: right; }
th:first-child, td:first-child { text-align: left; overflow-wrap: anywhere; }
td.shade { color: #000; }
ul.roster { margin: .2rem 0 .6rem; font-size: .9em; }
"""


def page(result: dict[str, Any], ruleset_name: str) -> str:
    """The whole page for any study's result (the JSON `simulate --json` prints)."""
    heading = f"{ruleset_name}: simulation"
    seed = result.get("seed")
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{h(heading)}</title><style>{STYLE}{TABLE_STYLE}</style></head><body>",
        f"<h1>{h(heading)}</h1>",
        f'<p class="meta">{h(result["ruleset"])}'
        + (f", seed {h(seed)}" if seed is not None else "")
        + (" (stopped early: the games finished so far)" if result.get("stopped") else "")
        + ".</p>",
    ]
    if "mirrors" in result:
        out += _mirrors(result)
    elif "settings" in result:
        out += _settings(result)
    elif "matrix" in result and "pools" in result["matrix"]:
        out += _exact_matrix(result)
    elif "matrix" in result:
        out += _matrix(result)
    else:
        if "from" in result:
            start = result["from"]
            out.append(f"<p>Played on from {h(start['save'])} after turn {h(start['turn'])}.</p>")
        if "games" in result:
            out += _match(result)
        if "exact" in result:
            out += _exact(result)
    if "run" in result:
        out += _about(result["run"])
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    cells = "".join(f"<th>{h(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{h(c)}</td>" for c in row) + "</tr>" for row in rows)
    klass = f' class="{cls}"' if cls else ""
    return f"<table{klass}><tr>{cells}</tr>{body}</table>"


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _side_named(teams: dict[str, Any], side: str) -> str:
    name = str(teams[side]["name"])
    return name if name == f"Side {side}" else f"{name} ({side})"


def _figure_words(name: str, teams: dict[str, Any]) -> str:
    return ": ".join(
        _side_named(teams, part) if part in SIDES and part in teams else part.replace("_", " ")
        for part in name.split(".")
    )


def _match(result: dict[str, Any]) -> list[str]:
    teams = result["teams"]
    rows = []
    for side in SIDES:
        lo, hi = result["ci95"][side]
        rows.append(
            [
                side,
                teams[side]["name"],
                str(result["wins"][side]),
                _pct(result["win_rate"][side]),
                f"{_pct(lo)} - {_pct(hi)}",
            ]
        )
    lo, hi = result["ci95"]["draw"]
    draws = result["wins"]["draw"]
    rows.append(["draw", "", str(draws), _pct(draws / result["games"]), f"{_pct(lo)} - {_pct(hi)}"])
    out = [f"<h2>{h(plural(result['games'], 'bot-vs-bot game'))}</h2>"]
    if result.get("swap"):
        out.append("<p>Both seats: each team sat as side A in half the games.</p>")
    out.append(_table(["side", "team", "wins", "win rate", "95% interval"], rows, "wins"))
    out += _seat(result.get("seat_advantage"))
    out += _lengths(result)
    ends = [
        (f"{_side_named(teams, side) if side in teams else side}: {how}", count)
        for side, endings in result["endings"].items()
        for how, count in endings.items()
    ]
    out.append("<h2>How the games ended</h2>")
    out.append(
        _table(
            ["winner: by", "games", "share"],
            [[name, str(count), _pct(count / result["games"])] for name, count in ends],
            "endings",
        )
    )
    out.append(f"<figure>{bars(ends, 'Endings')}</figure>")
    if result["figures"]:
        out.append("<h2>Per game (mean)</h2>")
        out.append(
            _table(
                ["figure", "mean"],
                [[_figure_words(k, teams), f"{v:.2f}"] for k, v in result["figures"].items()],
                "figures",
            )
        )
    if "units" in result:
        rows = [
            [
                kind,
                str(u["games"]),
                str(u["fielded"]),
                f"{u['kills']:.2f}",
                str(u["deaths"]),
                _pct(u["survival"]),
                "-" if u["damage"] is None else f"{u['damage']:.2f}",
            ]
            for kind, u in result["units"].items()
        ]
        out.append("<h2>Per unit type</h2>")
        out.append(
            _table(
                ["unit", "games", "fielded", "kills", "deaths", "survived", "damage"], rows, "units"
            )
        )
        out.append("<p>kills and damage: per unit fielded.</p>")
    for contest, row in result.get("firsts", {}).items():
        lo, hi = row["ci95"]
        out.append(
            f"<p>The side that won the {h(contest)} won {_pct(row['win_rate'])} of "
            f"{plural(row['games'], 'game')} (95% interval {_pct(lo)} - {_pct(hi)}).</p>"
        )
    return out


def _exact(result: dict[str, Any]) -> list[str]:
    teams = result["teams"]
    exact = result["exact"]
    out = [
        "<h2>Exact odds</h2>",
        _table(
            ["side", "team", "chance of winning"],
            [[side, teams[side]["name"], f"{exact[side]:.6f}"] for side in SIDES],
            "exact",
        ),
        f"<p>Expected game length: {result['exact_turns']:.3f} turns.</p>",
    ]
    if "exact_lengths" in result:
        listed = ", ".join(f"{k} {v}" for k, v in result["exact_lengths"].items())
        out.append(f"<p>Exact length percentiles: {h(listed)}.</p>")
        rows = [
            [side, how, f"{100 * chance:.3f}%"]
            for side, endings in result["exact_endings"].items()
            for how, chance in endings.items()
        ]
        out.append("<h3>How the games end, exactly</h3>")
        out.append(_table(["winner", "by", "chance"], rows, "exact-endings"))
    return out


def _seat(seat: dict[str, Any] | None) -> list[str]:
    if seat is None:
        return []
    lo, hi = seat["ci95"]
    verdict = "no seat wins more than chance allows" if seat["fair"] else "more than chance allows"
    return [
        f"<p><strong>Seat advantage:</strong> the team in seat A won {_pct(seat['share_a'])} "
        f"of {plural(seat['A'] + seat['B'], 'decisive game')} "
        f"(95% interval {_pct(lo)} - {_pct(hi)}); "
        f"{h(verdict)}.</p>"
    ]


def _lengths(result: dict[str, Any]) -> list[str]:
    t = result["turns"]
    lo, hi = result["turns_mean_ci95"]
    counts = [(k, v) for k, v in result["lengths"].items()]
    return [
        f"<p>Game length: mean {t['mean']:.2f} (95% interval {lo:.2f}-{hi:.2f}, sd "
        f"{t['sd']:.2f}), median {t['median']}, 90% within {t['p90']}, range "
        f"{t['min']}-{t['max']}.</p>",
        f"<figure>{bars(counts, 'Game length (turns): games')}</figure>",
    ]


def _settings(result: dict[str, Any]) -> list[str]:
    rows = result["settings"]
    exact = all("exact" in row for row in rows)
    table = []
    for row in rows:
        lo, hi = row["ci95"]["A"]
        diff = row.get("difference") or {}
        d = diff.get("win_rate_a")
        t = diff.get("turns")
        cells = [
            row["label"],
            _pct(row["win_rate"]["A"]),
            f"{_pct(lo)} - {_pct(hi)}",
            f"{100 * d['estimate']:+.1f} ({100 * d['lo']:+.1f}..{100 * d['hi']:+.1f})"
            if d
            else "-",
            f"{row['turns']['mean']:.2f}",
            f"{t['estimate']:+.2f} ({t['lo']:+.2f}..{t['hi']:+.2f})" if t else "-",
        ]
        if exact:
            cells.insert(3, f"{100 * row['exact']['A']:.2f}%")
        table.append(cells)
    head = ["setting", "A wins", "95% interval", "vs first (points)", "length", "vs first"]
    if exact:
        head.insert(3, "exact")
    names = versus(result["teams"], result["run"].get("by_setting"))
    out = [
        f"<h2>{h(names)}: {h(plural(result['games'], 'game'))} per setting, on the same seeds</h2>",
        _table(head, table, "settings"),
        "<p>vs first: the difference from the first setting, game by game on the same dice, "
        "with its 95% interval.</p>",
    ]
    if result["mode"] == "sweep":
        out.append(f"<figure>{_sweep_chart(result)}</figure>")
    else:
        out.append(f"<figure>{_difference_chart(rows)}</figure>")
    length = [(r["label"], r["turns"]["mean"], *r["turns_mean_ci95"]) for r in rows]
    pad = (max(r[3] for r in length) - min(r[2] for r in length)) * 0.05 or 0.5
    low = min(r[2] for r in length) - pad
    high = max(r[3] for r in length) + pad
    out.append(f"<figure>{intervals(length, (low, high), 'Game length (mean)', False)}</figure>")
    out += _settings_endings(rows)
    seats_found = [(r["label"], r["seat_advantage"]) for r in rows if "seat_advantage" in r]
    if seats_found:
        out.append("<h2>Seat advantage per setting (a mirror match)</h2>")
        out.append(
            _table(
                ["setting", "seat A's share", "95% interval", "p"],
                [
                    [
                        label,
                        _pct(s["share_a"]),
                        f"{_pct(s['ci95'][0])} - {_pct(s['ci95'][1])}",
                        f"{s['p']:.3f}",
                    ]
                    for label, s in seats_found
                ],
                "seats",
            )
        )
    family = result.get("seat_tests")
    if family:
        out.append(
            f"<p>{family['tests']} seat tests at 95% each: about one in twenty flags a fair seat "
            f"by chance alone ({family['expected_by_chance']:.1f} expected here; "
            f"{family['flagged']} flagged). At a family-wise 95% (Holm; Bonferroni: each at "
            f"{100 * family['bonferroni_level']:.2f}%), {sum(family['holm_flagged'])} flagged.</p>"
        )
    return out


def _sweep_chart(result: dict[str, Any]) -> str:
    key = result["key"]
    rows = result["settings"]
    values = [row["setting"][key] for row in rows]
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        wins = [(r["label"], r["win_rate"]["A"], *r["ci95"]["A"]) for r in rows]
        return intervals(wins, (0.0, 1.0), "Side A wins", True)
    points = [
        (float(v), r["win_rate"]["A"], *r["ci95"]["A"]) for v, r in zip(values, rows, strict=True)
    ]
    exact = [(float(v), r["exact"]["A"]) for v, r in zip(values, rows, strict=True) if "exact" in r]
    return sweep(points, exact, key, f"Side A wins against {key}")


def _difference_chart(rows: list[dict[str, Any]]) -> str:
    """Each setting's paired difference from the first in side A's wins, with its interval,
    on a scale centred on no difference: what the table's significance reads as."""
    diffs = [
        (r["label"], d["estimate"], d["lo"], d["hi"])
        for r in rows[1:]
        if (d := (r.get("difference") or {}).get("win_rate_a"))
    ]
    if not diffs:
        return ""
    half = max(max(abs(d[2]), abs(d[3])) for d in diffs) * 1.1 or 0.01
    title = f"Side A wins, difference from {rows[0]['label']} (paired, 95% interval)"
    return intervals(diffs, (-half, half), title, True, zero=0.0, joined=False)


def _settings_endings(rows: list[dict[str, Any]]) -> list[str]:
    found: dict[str, None] = {}
    for row in rows:
        for side, ends in row["endings"].items():
            for how in ends:
                found[f"{side}: {how}"] = None
    table = []
    for key in found:
        side, how = key.split(": ", 1)
        table.append(
            [key, *(_pct(row["endings"].get(side, {}).get(how, 0) / row["games"]) for row in rows)]
        )
    return [
        "<h2>How the games ended (share of games)</h2>",
        _table(["winner: by", *(row["label"] for row in rows)], table, "endings"),
    ]


def _shade(p: float) -> str:
    """Red (the row loses) through yellow to green (it wins), as the terminal's matrix."""
    if p < 0.5:
        r, g = 200, int(60 + 280 * p)
    else:
        r, g = int(200 - 280 * (p - 0.5)), 200
    return f"background: rgb({r},{g},60)"


def _shaded(head: list[str], rows: list[tuple[list[str], list[float | None]]], cls: str) -> str:
    """A table whose trailing cells are shaded by their chance."""
    cells = "".join(f"<th>{h(c)}</th>" for c in head)
    body = []
    for lead, chances in rows:
        tds = "".join(f"<td>{h(c)}</td>" for c in lead)
        for p in chances:
            if p is None:
                tds += "<td>-</td>"
            else:
                tds += f'<td class="shade" style="{_shade(p)}">{100 * p:.0f}</td>'
        body.append(f"<tr>{tds}</tr>")
    return f'<table class="{cls}"><tr>{cells}</tr>{"".join(body)}</table>'


def _matrix(result: dict[str, Any]) -> list[str]:
    m = result["matrix"]
    names = m["teams"]
    order = [names.index(n) for n in m["ranking"]]
    head = ["team", "mean", *(str(r) for r in range(1, len(order) + 1))]
    rows = [
        ([f"{rank}. {names[i]}", _pct(m["strength"][i])], [m["score"][i][j] for j in order])
        for rank, i in enumerate(order, start=1)
    ]
    return [
        f"<h2>Every team against every other, {h(plural(result['games'], 'game'))} a match-up "
        "in both seats</h2>",
        _shaded(head, rows, "matrix"),
        "<p>Each cell: the row team's share (%) of the games against the column team (a draw "
        "counts half); columns are numbered by the rows' ranks.</p>",
        *_seat(m["seat_advantage"]),
    ]


def _exact_matrix(result: dict[str, Any]) -> list[str]:
    m = result["matrix"]
    labels = m["pools"]
    order = [labels.index(pool) for pool in m["tiers"]]
    head = ["pool", "mean", *(str(r) for r in range(1, len(order) + 1))]
    rows = [
        ([f"{rank}. {labels[i]}", _pct(m["strength"][i])], [m["p"][i][j] for j in order])
        for rank, i in enumerate(order, start=1)
    ]
    examples = "; ".join(f"{labels[i]} = {', '.join(m['teams'][i])}" for i in order)
    return [
        "<h2>Every legal dice pool against every other, exactly</h2>",
        _shaded(head, rows, "matrix"),
        "<p>Each cell: the chance (%) that the row's dice (side A) beat the column's; mean is "
        f"the chance against every pool. A team for each pool: {h(examples)}.</p>",
    ]


def _mirrors(result: dict[str, Any]) -> list[str]:
    rows = result["mirrors"]
    family = result.get("seat_tests")
    held = family["holm_flagged"] if family else [not r["fair"] for r in rows]
    table = [
        [
            row["team"],
            row["level"],
            str(row["A"] + row["B"]),
            _pct(row["share_a"]),
            f"{_pct(row['ci95'][0])} - {_pct(row['ci95'][1])}",
            f"{row['p']:.3f}",
            "corrected" if flag else ("95% only" if not row["fair"] else ""),
        ]
        for row, flag in zip(rows, held, strict=True)
    ]
    out = [
        f"<h2>Every ready team against itself, {h(plural(result['games'], 'game'))} a mirror "
        f"at each bot level ({h(', '.join(result['levels']))})</h2>",
        _table(
            ["team", "bots", "decisive", "seat A", "95% interval", "p", "flag"], table, "mirrors"
        ),
    ]
    if family:
        out.append(
            f"<p>{family['tests']} seat tests at 95% each: about one in twenty flags a fair seat "
            f"by chance alone ({family['expected_by_chance']:.1f} expected here; "
            f"{family['flagged']} flagged). At a family-wise 95% (Holm; Bonferroni: each at "
            f"{100 * family['bonferroni_level']:.2f}%), {sum(family['holm_flagged'])} flagged.</p>"
        )
    return out


def _about(run: dict[str, Any]) -> list[str]:
    rules = run["ruleset"]
    facts = [f"{run['program']}", f"{rules['name']} rules version {rules['version']}"]
    if run.get("seed") is not None:
        facts.append(f"seed {run['seed']}")
    if run.get("games") is not None:
        facts.append(plural(run["games"], "game"))
    out = ["<h2>This run</h2>", f"<p>{h(', '.join(facts))}. {h(bots_line(run['bots']))}.</p>"]
    if run.get("studied"):
        out.append(f"<p>Settings compared: {h('; '.join(run['studied']))}.</p>")
    lines = settings_lines(run["settings"])
    if lines:
        out.append(
            _table(["setting", "value"], [list(line.split(" = ", 1)) for line in lines], "about")
        )
    if run.get("by_setting"):  # each setting's own teams: none stands for them all
        for row in run["by_setting"]:
            out.append(f"<h3>Setting {h(row['setting'])}</h3>")
            out += _rosters(row["teams"])
        return out
    return out + _rosters(run["teams"])


def _rosters(teams: dict[str, Any] | list[dict[str, Any]]) -> list[str]:
    out = []
    entries = list(teams.items()) if isinstance(teams, dict) else [("", t) for t in teams]
    for side, team in entries:
        name = _side_named(teams, side) if side and isinstance(teams, dict) else team["name"]
        items = "".join(f"<li>{h(line.strip())}</li>" for line in team["roster"])
        heading = f'<p class="side-{h(side)}"><strong>{h(name)}</strong></p>'
        out.append(f'{heading}<ul class="roster">{items}</ul>')
    return out
