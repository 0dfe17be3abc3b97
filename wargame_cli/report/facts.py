"""The report's facts about a save that both forms (Markdown, HTML) state: the sides' names
and teams, the ruleset's name, the result, the date, the options in a few words."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from wargame_cli.kit.sides import SIDES
from wargame_cli.report.hooks import Teller
from wargame_cli.report.reading import Line, Reading
from wargame_cli.saves.provenance import Provenance
from wargame_cli.wording import plural


def names_of(save: dict[str, Any]) -> dict[str, str]:
    setup = save.get("setup", {})
    return {s: str(setup.get("names", {}).get(s, f"Side {s}")) for s in SIDES}


def team(save: dict[str, Any], side: str) -> str:
    """A side's team in words: the ruleset's own description when it can be loaded."""
    team = save.get("setup", {}).get("teams", {}).get(side)
    try:
        from wargame_cli import registry

        return str(registry.get(save["ruleset"]["id"]).describe_team(team))
    except Exception:  # an unknown ruleset or a team it cannot describe: list what is there
        models = team.get("models", team) if isinstance(team, dict) else team
        if isinstance(models, list):
            return ", ".join(
                str(m.get("name") or m.get("unit") or m) if isinstance(m, dict) else str(m)
                for m in models
            )
        return str(team)


def player(save: dict[str, Any], side: str, told: Provenance) -> str:
    """Who played a side (as the setup says) and who made its decisions (as the log says)."""
    from wargame_cli.bots.base import computer_words

    setup = save.get("setup", {})
    kind = setup.get("players", {}).get(side, "")
    bot = f"played by the {computer_words(setup, side)}"
    who = {"bot": bot, "human": "played by a person"}.get(kind, "")
    decided = f"decisions: {told.decision_words(side)}"
    return f"{who}; {decided}" if who else decided


def provenance_lines(told: Provenance) -> list[str]:
    """The dice's origin (and an unsealed record) as sentences, for the report's head."""
    return [f"{line[0].upper()}{line[1:]}." for line in told.lines(decisions=False)]


def tally(told: Provenance) -> str:
    """The closing count: dice, rolls and decisions."""
    rolls = plural(told.rolls, "roll")
    dice = plural(told.dice_total, "die", "dice")
    return f"{dice} thrown in {rolls}; decisions: {told.decision_words()}."


def ruleset_name(ruleset_id: str) -> str:
    try:
        from wargame_cli import registry

        return registry.info(ruleset_id).name
    except Exception:  # a report of a save whose ruleset is not installed still works
        return ruleset_id


def result(save: dict[str, Any], end: dict[str, Any] | None) -> tuple[str, str, str]:
    """(headline, who, reason): "won"/"A draw"/"not over", the winner's name, the reason."""
    outcome = save.get("result") or end
    turns = int(save.get("turns", 0) or 0)
    if not outcome:
        return "open", "", f"{plural(turns, 'turn')} played so far"
    winner = outcome.get("winner")
    reason = str(outcome.get("reason", ""))
    if winner is None:
        return "draw", "", reason
    return "won", names_of(save).get(winner, str(winner)), reason


def rule_key(rule: str) -> tuple[str, int, str]:
    """`c2` before `c10`: letters, then the number, then the rest."""
    match = re.match(r"([A-Za-z]*)(\d*)(.*)", rule)
    assert match is not None  # the pattern matches any string
    letters, number, rest = match.groups()
    return letters, int(number or 0), rest


def words(line: Line) -> str:
    """A line as a sentence: the story's prose, or (workings) the log's own text."""
    text = line.prose if line.prose is not None else line.text
    text = " ".join(str(text).split())
    if text and not text.endswith((".", "!", "?")):
        text += "."
    return text


def option(value: Any) -> str:
    """An option's value in a few words: a table option by its name."""
    if isinstance(value, dict):
        return str(value.get("name", "(a table)"))
    if isinstance(value, list):
        return "(a list)"
    return str(value)


def when(created: Any) -> str:
    try:
        moment = datetime.fromisoformat(str(created))
    except ValueError:
        return str(created)
    return moment.strftime("%Y-%m-%d %H:%M") + (" UTC" if moment.utcoffset() is not None else "")


def ledger(line: Line) -> str:
    """What `--with-rules` adds to a told line: the dice rolled for it, or, when the event
    states its own (an attack's faces), the log's own words with their numbers; "" if none."""
    if line.dice:
        return "dice: " + "; ".join(line.dice)
    if line.prose is not None and " ".join(line.text.split()) != line.prose:
        return line.text
    return ""


def standing(reading: Reading, teller: Teller) -> list[str]:
    """Who is still standing at the end, each with the damage it carries ("Tuze (3 of 10
    damage)", "Eyox (unhurt)"): as the rules' ending names them, else every figure of the
    teams the story did not see lost; [] for a ruleset whose Aftermath is not of losses."""
    data = (reading.end or {}).get("data") or {}
    named = data.get("standing") if isinstance(data, dict) else None
    if isinstance(named, dict):
        names = [str(n) for side in SIDES for n in named.get(side) or []]
    elif isinstance(named, list):
        names = [str(n) for n in named]
    elif teller.tally_kinds:
        return []
    else:
        lost = {f.who for f in reading.fallen}
        names = [n for n in teller.roster() if n not in lost]
    return [f"{n} ({teller.wounds(n) or 'unhurt'})" for n in names]
