"""Battle reports: any save's log written up as Markdown a person can read.

Generic by design: it reads only the log (events' `kind`, `data` and `text`, and the rolls and
choices around them), so every ruleset gets a report without code of its own. A ruleset makes
its report good by writing events that say what happened in words, with kinds a report can
recognise (`death`, `destroyed`, ... for losses) and `data` carrying any faces it states.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from wargame_cli.ui.text import clean

# Event kinds that mean a model or unit left the battle for good: highlighted and listed.
LOSS_KINDS = frozenset(
    {
        "death",
        "kill",
        "killed",
        "slain",
        "casualty",
        "destroyed",
        "eliminated",
        "removed",
        "captured",
    }
)
# `data` keys showing an event states its own dice, so the rolls before it are not repeated.
OWN_DICE = ("faces", "roll", "rolls")
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|#~])")


def md(text: object) -> str:
    """Text from a save shown literally: control characters removed, Markdown escaped."""
    return _MARKDOWN.sub(r"\\\1", clean(text)).replace("\n", " ")


@dataclass
class Line:
    text: str
    rules: list[str]
    loss: bool = False
    dice: list[str] = field(default_factory=list)


@dataclass
class Section:
    title: str
    lines: list[Line] = field(default_factory=list)


@dataclass
class Reading:
    """What one pass over the log found."""

    sections: list[Section]
    losses: list[tuple[int, str]]
    rolls: int = 0
    dice: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    end: dict[str, Any] | None = None


def _faces(entry: dict[str, Any]) -> str:
    faces = "+".join(str(f) for f in entry.get("faces", []))
    return f"{entry.get('reason', 'roll')}: {faces}"


def read_log(log: list[dict[str, Any]]) -> Reading:
    """Group the log into turns of event lines, each carrying the rolls made for it."""
    reading = Reading(sections=[Section("Before the battle")], losses=[])
    pending: list[dict[str, Any]] = []
    turn = 0
    for entry in log:
        kind = entry.get("t")
        if kind == "turn":
            turn = int(entry.get("n", turn + 1))
            reading.sections.append(Section(f"Turn {turn}"))
            pending = []
        elif kind == "roll":
            reading.rolls += 1
            reading.dice += len(entry.get("faces", []))
            pending.append(entry)
        elif kind == "choice":
            by = str(entry.get("by", "human"))
            reading.decisions[by] = reading.decisions.get(by, 0) + 1
        elif kind == "event":
            data = entry.get("data") or {}
            rules = list(entry.get("rules", []))
            dice: list[str] = []
            if not any(key in data for key in OWN_DICE):
                dice = [_faces(r) for r in pending]
            for roll in pending:
                rules += [r for r in roll.get("rules", []) if r not in rules]
            loss = entry.get("kind") in LOSS_KINDS
            reading.sections[-1].lines.append(Line(str(entry.get("text", "")), rules, loss, dice))
            if loss:
                reading.losses.append((turn, str(entry.get("text", ""))))
            pending = []
        elif kind == "end":
            reading.end = entry
    return reading


def _team(save: dict[str, Any], side: str) -> str:
    """A side's team in words: the ruleset's own description when it can be loaded."""
    team = save.get("setup", {}).get("teams", {}).get(side)
    try:
        from wargame_cli import registry

        return registry.get(save["ruleset"]["id"]).describe_team(team)
    except Exception:  # an unknown ruleset or a team it cannot describe: list what is there
        models = team.get("models", team) if isinstance(team, dict) else team
        if isinstance(models, list):
            return ", ".join(
                str(m.get("name") or m.get("unit") or m) if isinstance(m, dict) else str(m)
                for m in models
            )
        return str(team)


def _ruleset_name(ruleset_id: str) -> str:
    try:
        from wargame_cli import registry

        return registry.info(ruleset_id).name
    except Exception:  # a report of a save whose ruleset is not installed still works
        return ruleset_id


def _result(save: dict[str, Any], names: dict[str, str], end: dict[str, Any] | None) -> str:
    result = save.get("result") or end
    turns = save.get("turns", 0)
    if not result:
        return f"The battle is not over: {turns} turn{'s' * (turns != 1)} played so far."
    winner = result.get("winner")
    reason = md(result.get("reason", ""))
    if winner is None:
        return f"**A draw** after {turns} turn{'s' * (turns != 1)}: {reason}."
    return (
        f"**{md(names.get(winner, winner))} won** after {turns} turn{'s' * (turns != 1)}: {reason}."
    )


def _rule_key(rule: str) -> tuple[str, int, str]:
    """`c2` before `c10`: letters, then the number, then the rest."""
    match = re.match(r"([A-Za-z]*)(\d*)(.*)", rule)
    assert match is not None  # the pattern matches any string
    letters, number, rest = match.groups()
    return letters, int(number or 0), rest


def _line(line: Line, with_rules: bool) -> str:
    text = md(line.text)
    text = f"**☠ {text}**" if line.loss else text
    if line.dice:
        text += f" *(dice: {md('; '.join(line.dice))})*"
    if with_rules and line.rules:
        text += f" `[{', '.join(clean(r) for r in sorted(line.rules, key=_rule_key))}]`"
    return f"- {text}"


def battle_report(save_data: dict[str, Any], with_rules: bool = False) -> str:
    """The whole game as Markdown: header, sides, a section per turn with a line per event
    (losses in bold), and the aftermath. `with_rules` adds each line's rule ids."""
    ruleset_id = str(save_data.get("ruleset", {}).get("id", "?"))
    setup = save_data.get("setup", {})
    names = {s: str(setup.get("names", {}).get(s, f"Side {s}")) for s in ("A", "B")}
    players = setup.get("players", {})
    reading = read_log(save_data.get("log", []))

    out = [f"# Battle report: {md(names['A'])} against {md(names['B'])}", ""]
    out.append(
        f"*{md(_ruleset_name(ruleset_id))}* (`{ruleset_id}`), seed {save_data.get('seed')}, "
        f"started {md(save_data.get('created', '?'))}."
    )
    out += ["", _result(save_data, names, reading.end), "", "## The sides", ""]
    for side in ("A", "B"):
        who = {"bot": "played by the computer", "human": "played by a person"}.get(
            players.get(side, ""), ""
        )
        tail = f" ({who})" if who else ""
        out.append(f"- **{side}: {md(names[side])}**{tail}: {md(_team(save_data, side))}")
    options = save_data.get("options") or {}
    if options:
        shown = ", ".join(f"{md(k)}={md(v)}" for k, v in options.items())
        out += ["", f"Options: {shown}."]
    for section in reading.sections:
        if not section.lines:
            continue
        out += ["", f"## {section.title}", ""]
        out += [_line(line, with_rules) for line in section.lines]
    out += ["", "## Aftermath", "", _result(save_data, names, reading.end), ""]
    if reading.losses:
        out += ["The fallen, in order:", ""]
        out += [f"{i}. Turn {turn}: {md(text)}" for i, (turn, text) in enumerate(reading.losses, 1)]
    else:
        out.append("No one fell.")
    standing = ((reading.end or {}).get("data") or {}).get("standing")
    if isinstance(standing, list) and standing:
        out += ["", f"Still standing: {', '.join(md(s) for s in standing)}."]
    by = reading.decisions
    tally = ", ".join(
        f"{n} {who}"
        for who, n in (
            ("by players", by.get("human", 0)),
            ("by the computer", by.get("bot", 0)),
            ("scripted", by.get("script", 0)),
        )
        if n
    )
    dice = f"{reading.dice} dice thrown in {reading.rolls} rolls"
    out += ["", dice + (f"; decisions: {tally}." if tally else ".")]
    return "\n".join(out) + "\n"
