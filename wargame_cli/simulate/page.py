"""`simulate --html FILE`: the study as one self-contained page (the battle report's style,
inline SVG, no script): the same tables as the terminal, with charts of game length, endings
and, for settings, win rate and length against the setting."""

from __future__ import annotations

from typing import Any

from wargame_cli.kit.sides import SIDES
from wargame_cli.report.html import STYLE, h
from wargame_cli.simulate.charts_svg import bars, intervals
from wargame_cli.wording import plural

TABLE_STYLE = """
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
"""


def page(result: dict[str, Any], ruleset_name: str) -> str:
    """The whole page for any study's result (the JSON `simulate --json` prints)."""
    heading = f"{ruleset_name}: simulation"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{h(heading)}</title><style>{STYLE}{TABLE_STYLE}</style></head><body>",
        f"<h1>{h(heading)}</h1>",
        f'<p class="meta">{h(result["ruleset"])}, seed {h(result.get("seed", "?"))}'
        + (" (stopped early: the games finished so far)" if result.get("stopped") else "")
        + ".</p>",
    ]
    if "settings" in result:
        out += _settings(result)
    elif "matrix" in result:
        out += _matrix(result)
    else:
        out += _match(result)
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _table(head: list[str], rows: list[list[str]]) -> str:
    cells = "".join(f"<th>{h(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{h(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


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
    rows.append(["draw", "", str(result["wins"]["draw"]), "", ""])
    out = [f"<h2>{h(plural(result['games'], 'game'))}</h2>"]
    if result.get("swap"):
        out.append("<p>Both seats: each team sat as side A in half the games.</p>")
    out.append(_table(["side", "team", "wins", "win rate", "95% interval"], rows))
    out += _seat(result.get("seat_advantage"))
    out += _lengths(result)
    ends = [
        (f"{side}: {how}", count)
        for side, endings in result["endings"].items()
        for how, count in endings.items()
    ]
    out.append(f"<h2>How the games ended</h2><figure>{bars(ends, 'Endings')}</figure>")
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
            _table(["unit", "games", "fielded", "kills", "deaths", "survived", "damage"], rows)
        )
    for contest, row in result.get("firsts", {}).items():
        lo, hi = row["ci95"]
        out.append(
            f"<p>The side that won the {h(contest)} won {_pct(row['win_rate'])} of "
            f"{plural(row['games'], 'game')} (95% interval {_pct(lo)} - {_pct(hi)}).</p>"
        )
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
    table = []
    for row in rows:
        lo, hi = row["ci95"]["A"]
        diff = row.get("difference") or {}
        d = diff.get("win_rate_a")
        t = diff.get("turns")
        table.append(
            [
                row["label"],
                _pct(row["win_rate"]["A"]),
                f"{_pct(lo)} - {_pct(hi)}",
                f"{100 * d['estimate']:+.1f} ({100 * d['lo']:+.1f}..{100 * d['hi']:+.1f})"
                if d
                else "-",
                f"{row['turns']['mean']:.2f}",
                f"{t['estimate']:+.2f} ({t['lo']:+.2f}..{t['hi']:+.2f})" if t else "-",
            ]
        )
    names = f"{result['teams']['A']['name']} (A) against {result['teams']['B']['name']} (B)"
    wins = [(r["label"], r["win_rate"]["A"], *r["ci95"]["A"]) for r in rows]
    length = [(r["label"], r["turns"]["mean"], *r["turns_mean_ci95"]) for r in rows]
    pad = (max(r[3] for r in length) - min(r[2] for r in length)) * 0.05 or 0.5
    low = min(r[2] for r in length) - pad
    high = max(r[3] for r in length) + pad
    return [
        f"<h2>{h(names)}: {h(plural(result['games'], 'game'))} per setting, on the same seeds</h2>",
        _table(
            ["setting", "A wins", "95% interval", "vs first (points)", "length", "vs first"],
            table,
        ),
        "<p>vs first: the difference from the first setting, game by game on the same dice, "
        "with its 95% interval.</p>",
        f"<figure>{intervals(wins, (0.0, 1.0), 'Side A wins', True)}</figure>",
        f"<figure>{intervals(length, (low, high), 'Game length (mean)', False)}</figure>",
    ]


def _matrix(result: dict[str, Any]) -> list[str]:
    m = result["matrix"]
    names = m["teams"]
    order = [names.index(n) for n in m["ranking"]]
    head = ["team", "mean", *(str(r) for r in range(1, len(order) + 1))]
    rows = []
    for rank, i in enumerate(order, start=1):
        cells = ["-" if m["score"][i][j] is None else _pct(m["score"][i][j]) for j in order]
        rows.append([f"{rank}. {names[i]}", _pct(m["strength"][i]), *cells])
    return [
        f"<h2>Every team against every other, {h(plural(result['games'], 'game'))} a match-up "
        "in both seats</h2>",
        _table(head, rows),
        "<p>Each cell: the row team's share of the games against the column team (a draw "
        "counts half).</p>",
        *_seat(m["seat_advantage"]),
    ]
