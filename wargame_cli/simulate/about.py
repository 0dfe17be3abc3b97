"""What a simulation's result was measured with, so that it travels: the program and ruleset
versions, every setting (the options as played, and any other setting a study adds to them),
both teams unit by unit with every stat and power, the bots, the seed and the game count.

Pure: the same dict goes into `--json`, `--out`, the terminal and the page. Generic over
rulesets: a team's roster is read from its data (every key of every unit), so a power or a
changed stat shows without any code in the ruleset, and two teams that differ only in their
powers never print the same roster.
"""

from __future__ import annotations

from typing import Any

from wargame_cli.kit.sides import SIDES

NAME_KEYS = ("name", "type", "unit", "profile", "training")
MAX_DEPTH = 4


def program() -> str:
    from wargame_cli import __version__

    return f"wargame_cli {__version__}"


def about(
    ruleset: Any,
    options: dict[str, Any],
    teams: dict[str, tuple[str, Any]] | list[tuple[str, Any]],
    seed: int | None,
    games: int | None,
    bots: dict[str, str],
) -> dict[str, Any]:
    """The run's description. `teams`: per side (name, team), or a list of them (a matrix);
    `bots`: each side's level."""
    if isinstance(teams, dict):
        shown: Any = {side: team_entry(ruleset, *teams[side]) for side in SIDES}
    else:
        shown = [team_entry(ruleset, name, team) for name, team in teams]
    return {
        "program": program(),
        "ruleset": {"id": ruleset.id, "name": ruleset.name, "version": str(ruleset.version)},
        "settings": options,
        "teams": shown,
        "bots": dict(bots),
        "seed": seed,
        "games": games,
    }


def by_setting(
    ruleset: Any, settings: list[tuple[str, dict[str, tuple[str, Any]]]]
) -> list[dict[str, Any]] | None:
    """Each setting's two teams (`--compare team-a=...`, a sweep of a unit's stat), where
    some setting plays other teams or other stats than the first: `[{"setting", "teams":
    {side: {"name", "roster"}}}]`. None where every setting plays the first's teams (then
    the run's `teams` are every setting's)."""
    rows = [
        {
            "setting": label,
            "teams": {side: team_entry(ruleset, *teams[side]) for side in SIDES},
        }
        for label, teams in settings
    ]
    if all(row["teams"] == rows[0]["teams"] for row in rows):
        return None
    return rows


def varying(rows: list[dict[str, Any]] | None) -> list[str]:
    """The sides whose team differs between settings."""
    if not rows:
        return []
    first = rows[0]["teams"]
    return [side for side in SIDES if any(row["teams"][side] != first[side] for row in rows)]


def versus(teams: dict[str, Any], rows: list[dict[str, Any]] | None) -> str:
    """`Axes (A) against Swords (B)`, or where a side's team changes with the setting,
    `each setting's team (A) against Clearsky (B)`: never one setting's team named as if
    it played them all."""
    sides = varying(rows)
    named = ["each setting's team" if side in sides else str(teams[side]["name"]) for side in SIDES]
    return f"{named[0]} (A) against {named[1]} (B)"


def team_entry(ruleset: Any, name: str, team: Any) -> dict[str, Any]:
    return {"name": name, "roster": roster(ruleset, team)}


def roster(ruleset: Any, team: Any) -> list[str]:
    """One line per unit with every stat and power it has: from the team's data, a unit
    named only by its type (`"Sebeki"`) with the stats of that type in the ruleset's unit
    table (`Sebeki: die d10, limit 0-2, line Aegyptus`)."""
    table = _unit_table(ruleset)
    lines: list[str] = []
    _walk(team, lines, table, "", 0)
    return lines


def _unit_table(ruleset: Any) -> dict[str, dict[str, Any]]:
    try:
        rows = ruleset.units()
    except (OSError, ValueError, KeyError):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        for value in row.values():
            if isinstance(value, str):
                out.setdefault(value, row)
                break
    return out


def _walk(
    value: Any, lines: list[str], table: dict[str, dict[str, Any]], indent: str, depth: int
) -> None:
    if depth > MAX_DEPTH:
        return
    if isinstance(value, dict):
        units = {k: v for k, v in value.items() if _is_units(v, depth)}
        own = {k: v for k, v in value.items() if k not in units and v != []}
        if own and (depth > 0 or not units):
            lines.append(indent + unit_line(own))
        elif own:  # the team's own keys (its order...): its name is the heading already
            shown = ", ".join(f"{k} {_value(v)}" for k, v in own.items() if k != "name")
            if shown:
                lines.append(indent + shown)
        for key, items in units.items():
            if len(units) > 1 or depth > 0:
                lines.append(f"{indent}{key}:")
                inner = indent + "  "
            else:
                inner = indent
            for item in items:
                _walk(item, lines, table, inner, depth + 1)
    elif isinstance(value, str) and value in table:
        lines.append(indent + unit_line(table[value]))
    else:
        lines.append(indent + _value(value))


def _is_units(value: Any, depth: int) -> bool:
    """A list of units: of tables, or at the top of a team of names (Tug's `models`); a
    list of words inside a unit (its tags, traits) is one of its stats."""
    if not isinstance(value, list) or not value:
        return False
    return all(isinstance(v, dict) for v in value) or (
        depth == 0 and all(isinstance(v, str) for v in value)
    )


def unit_line(unit: dict[str, Any]) -> str:
    """`Brakka: profile Warrior, fierce 4, ..., reach 2`: the name first, then every other
    key as it is (a list of units inside, such as a mob's members, in brackets)."""
    name = next((unit[k] for k in NAME_KEYS if isinstance(unit.get(k), str)), None)
    parts = []
    for key, value in unit.items():
        if value == name:
            continue
        parts.append(f"{key} {_value(value)}")
    body = ", ".join(parts)
    return f"{name}: {body}" if name is not None and body else str(name or body)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict):
        return "{" + unit_line(value) + "}"
    if isinstance(value, list | tuple):
        return "[" + "; ".join(_value(v) for v in value) + "]"
    return str(value)


def settings_lines(settings: dict[str, Any]) -> list[str]:
    """Every setting as `key = value`, nested tables flattened to dotted keys."""
    out: list[str] = []
    for key, value in settings.items():
        if isinstance(value, dict):
            out += [f"{key}.{line}" for line in settings_lines(value)]
        else:
            out.append(f"{key} = {_value(value)}")
    return out


def bots_line(bots: dict[str, str]) -> str:
    """`Bots: default level on both sides` or `Bots: search (A), default (B)`: which bots
    played, since every figure of a simulation measures them as well as the rules."""
    if not bots:
        return "Bots: none (exact odds, no games played)"
    levels = [bots.get(side, "default") for side in SIDES]
    if levels[0] == levels[1]:
        return f"Bots: {levels[0]} level on both sides"
    return "Bots: " + ", ".join(
        f"{level} level ({side})" for side, level in zip(SIDES, levels, strict=True)
    )
