"""Runs that travel: one row per game (`--csv`), a run saved whole (`--out RUN.json`), and two
saved runs compared (`--diff A.json B.json`).

A saved run holds its result (with its description, `about.py`) and every game's row: its
index, its own seed (`stream_seed(run seed, index)`), winner, ending, length and figures. Two
runs that played the same seeds played the same dice, so their difference is paired game by
game over the seeds they share (common random numbers, as `--compare`); runs that share no
seeds are compared as independent samples, and the report says which it did.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from wargame_cli.errors import BadInput
from wargame_cli.simulate.stats import Z95, Difference, paired_difference, proportion_difference
from wargame_cli.text import shown

FORMAT = "wargame-simulate-run"
VERSION = 1
FIRST = ("game", "seed", "winner", "ending", "length")
REPLAY = "replay"  # the command that plays the row's game again (`simulate/replay.py`), last


def csv_text(rows: list[dict[str, Any]]) -> str:
    """One row per game; the columns every game has first, then each figure as first met
    (a unit type a game did not field is an empty cell), then the command that plays the
    game again."""
    columns: dict[str, None] = {}
    for row in rows:
        for key in row:
            if key not in FIRST:
                columns.setdefault(key, None)
    columns.pop(REPLAY, None)
    labels = [k for k in columns if not isinstance(rows[0].get(k, 0), int | float)] if rows else []
    rest = [k for k in columns if k not in labels]
    again = [REPLAY] if any(REPLAY in row for row in rows) else []
    header = [*labels, *FIRST, *rest, *again]
    out = io.StringIO()
    writer = csv.DictWriter(out, header, restval="", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(v) for k, v in row.items()})
    return out.getvalue()


def _cell(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def saved_text(result: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    return json.dumps(
        {"format": FORMAT, "version": VERSION, "result": result, "games": rows},
        ensure_ascii=False,
        allow_nan=False,
    )


def load(path: Path) -> dict[str, Any]:
    """A saved run, checked: its format and a version this program reads."""
    where = shown(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput(f"--diff {where}: no such file") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BadInput(f"--diff {where}: not a saved run ({exc.__class__.__name__})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadInput(f"--diff {where}: not a run saved by `wargame simulate --out`")
    version = data.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise BadInput(
            f"--diff {where}: a run of format version {version}; this program reads {VERSION}"
        )
    if not isinstance(data.get("games"), list) or not isinstance(data.get("result"), dict):
        raise BadInput(f"--diff {where}: the saved run is incomplete")
    return data


def _team_a_won(row: dict[str, Any]) -> float:
    """1 when the team given as A won (seats exchanged in a `--swap` run's second half)."""
    seat = "B" if row.get("seats") == "swapped" else "A"
    return 1.0 if row["winner"] == seat else 0.0


def unpaired_mean(first: Sequence[float], then: Sequence[float], z: float = Z95) -> Difference:
    """`mean(then) - mean(first)` of independent samples, with its normal interval."""

    def moments(xs: Sequence[float]) -> tuple[float, float]:
        m = sum(xs) / len(xs)
        return m, sum((x - m) ** 2 for x in xs) / (len(xs) - 1)

    m1, v1 = moments(first)
    m2, v2 = moments(then)
    half = z * math.sqrt(v1 / len(first) + v2 / len(then))
    d = m2 - m1
    return Difference(d, d - half, d + half)


def diff(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """B's run against A's: team A's win rate and the game length, paired over the seeds the
    runs share (at least two), else as independent runs; and what differs in their setup."""
    for data in (a, b):
        labels = {row.get("setting") for row in data["games"]} | {
            row.get("team_a") for row in data["games"]
        }
        if labels - {None}:
            raise BadInput(
                "--diff compares runs of one match-up (with or without --swap), "
                "not --compare, --sweep or --matrix runs"
            )
    ra, rb = a["result"], b["result"]
    if ra.get("ruleset") != rb.get("ruleset"):
        raise BadInput(f"--diff: a {ra.get('ruleset')} run and a {rb.get('ruleset')} run")
    by_seed = {row["seed"]: row for row in a["games"]}
    shared = [(by_seed[row["seed"]], row) for row in b["games"] if row["seed"] in by_seed]
    out: dict[str, Any] = {
        "mode": "diff",
        "ruleset": ra.get("ruleset"),
        "runs": [ra.get("run", {}), rb.get("run", {})],
        "games": [len(a["games"]), len(b["games"])],
        "win_rate_a": [
            _mean([_team_a_won(r) for r in a["games"]]),
            _mean([_team_a_won(r) for r in b["games"]]),
        ],
        "length": [
            _mean([float(r["length"]) for r in a["games"]]),
            _mean([float(r["length"]) for r in b["games"]]),
        ],
        "changes": changes(ra.get("run", {}), rb.get("run", {})),
    }
    if len(shared) >= 2:
        first, then = zip(*shared, strict=True)
        out["paired"] = True
        out["shared_games"] = len(shared)
        out["win_rate_a_difference"] = paired_difference(
            [_team_a_won(r) for r in first], [_team_a_won(r) for r in then]
        ).as_json()
        out["length_difference"] = paired_difference(
            [float(r["length"]) for r in first], [float(r["length"]) for r in then]
        ).as_json()
        return out
    if min(out["games"]) < 2:
        raise BadInput("--diff: each run needs at least 2 games to compare")
    wins = [int(sum(_team_a_won(r) for r in data["games"])) for data in (a, b)]
    out["paired"] = False
    out["shared_games"] = len(shared)
    out["win_rate_a_difference"] = proportion_difference(
        wins[0], out["games"][0], wins[1], out["games"][1]
    ).as_json()
    out["length_difference"] = unpaired_mean(
        [float(r["length"]) for r in a["games"]], [float(r["length"]) for r in b["games"]]
    ).as_json()
    return out


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def changes(first: dict[str, Any], then: dict[str, Any]) -> list[str]:
    """What the second run changed: program, ruleset version, settings, teams, bots."""
    from wargame_cli.simulate.about import settings_lines

    out = []
    for key in ("program",):
        if first.get(key) != then.get(key):
            out.append(f"{key}: {first.get(key)} -> {then.get(key)}")
    if (first.get("ruleset") or {}).get("version") != (then.get("ruleset") or {}).get("version"):
        out.append(
            f"ruleset version: {(first.get('ruleset') or {}).get('version')} -> "
            f"{(then.get('ruleset') or {}).get('version')}"
        )
    one = dict(_split(settings_lines(first.get("settings") or {})))
    two = dict(_split(settings_lines(then.get("settings") or {})))
    for key in [*one, *(k for k in two if k not in one)]:
        if one.get(key) != two.get(key):
            out.append(f"{key}: {one.get(key, '(none)')} -> {two.get(key, '(none)')}")
    teams_1, teams_2 = first.get("teams") or {}, then.get("teams") or {}
    if isinstance(teams_1, dict) and isinstance(teams_2, dict):
        for side in ("A", "B"):
            t1, t2 = teams_1.get(side) or {}, teams_2.get(side) or {}
            if t1 != t2:
                out.append(
                    f"team {side}: {t1.get('name')} -> {t2.get('name')}"
                    + (" (its units differ)" if t1.get("roster") != t2.get("roster") else "")
                )
    if first.get("bots") != then.get("bots"):
        out.append(f"bots: {first.get('bots')} -> {then.get('bots')}")
    if first.get("seed") != then.get("seed"):
        out.append(f"seed: {first.get('seed')} -> {then.get('seed')}")
    return out


def _split(lines: list[str]) -> list[tuple[str, str]]:
    return [(line.partition(" = ")[0], line.partition(" = ")[2]) for line in lines]
