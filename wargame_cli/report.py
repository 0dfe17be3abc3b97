"""Battle reports: any save's log written up as Markdown a writer can work from.

Generic by design: it reads only the log (events' `kind`, `data` and `text`, and the rolls and
choices between them), so every ruleset gets a report without code of its own. What it makes of
the log:

- **Beats.** Each bullet is one beat of the story: an event, then whatever follows from it
  with no decision in between (an attack, the target's wound, its death; after dice, an
  event of the same actor or of nobody named, like a save or a defence roll), and any later
  events of the same actor (a miniature's activation, its test, its move); kinds in
  `OPENING_KINDS` (a step, the initiative, an activation, a health or morale check) always
  start a bullet. Sentences join as prose.
- **Terse where the log repeats itself.** Three or more one-line beats of the same kind in a
  row (every model's dice, a line of moves, a run of missed blows) share one bullet; turns of a
  single beat (a tug of war) share one section, a line per turn. Events that change nothing
  (kinds in `QUIET_KINDS`, e.g. a model standing still, a side passing) are left out.
- **Losses.** Events of a kind in `LOSS_KINDS` are set in bold (☠ a death, ⚑ one who left the
  field alive: `LEFT_KINDS`), head their turn's title and are listed in order at the end,
  each subject once (a figure moved from a dead pool to a casualty pool is not lost twice; a
  `flee` whose `data` has a `to` is a move, not a loss).
- **Workings on request.** `with_rules` adds each sentence's rule ids and the dice rolled for it
  (unless the event states its own faces).

A ruleset makes its report good by writing events that say what happened in words, with kinds
from these vocabularies and `data` naming who acted (`attacker`, `model`, `creature`, `unit`,
`id`) and who was lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from wargame_cli.ui.text import clean

# Event kinds that mean a model or unit left the battle for good: highlighted and listed.
# Deaths are marked ☠; those who left the field alive (fled, escaped, captured) ⚑.
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
        "flee",
        "escape",
        "straggler",
    }
)
LEFT_KINDS = frozenset({"flee", "escape", "straggler", "captured", "removed"})
DEATH, LEFT = "☠", "⚑"
# Event kinds where nothing happens (a model stands still, a side passes): left out.
QUIET_KINDS = frozenset({"stand", "pass"})
# `data` keys showing an event states its own dice, so the rolls before it are not repeated.
OWN_DICE = ("faces", "roll", "rolls")
# `data` keys naming who an event is about, most specific first.
ACTOR_KEYS = ("attacker", "model", "creature", "unit", "id")
# Other `data` keys naming who else an event concerns (lists allowed).
NAME_KEYS = ("target", "by", "attackers", "mob")
# Event kinds that open a stage of a turn (a step, the initiative, a miniature's activation)
# or a check of their own (a health or morale check at the end of a turn): they always start
# a bullet.
OPENING_KINDS = frozenset(
    {"step", "phase", "order", "initiative", "activate", "health", "morale", "recovery"}
)
# `data` keys naming who a loss takes (lists allowed).
LOST_KEYS = ("model", "creature", "unit", "id", "moved")
FOLD_RUN = 3  # this many one-line beats of one kind in a row share a bullet
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|#~])")
_NAME_WORD = re.compile(r"[A-Z0-9]")
ARTICLES = frozenset({"A", "An", "The"})


def md(text: object) -> str:
    """Text from a save shown literally: control characters removed, Markdown escaped."""
    return _MARKDOWN.sub(r"\\\1", clean(text)).replace("\n", " ")


@dataclass
class Line:
    """One event: its words, the rules behind it, the dice rolled for it."""

    text: str
    rules: list[str]
    loss: str = ""  # DEATH or LEFT for a loss
    dice: list[str] = field(default_factory=list)
    kind: str = ""
    actor: str = ""
    names: frozenset[str] = frozenset()


@dataclass
class Beat:
    """A bullet: an event and what follows from it."""

    lines: list[Line] = field(default_factory=list)


@dataclass
class Section:
    title: str
    turn: int = 0
    beats: list[Beat] = field(default_factory=list)
    losses: list[tuple[str, str]] = field(default_factory=list)  # (mark, who)

    @property
    def lines(self) -> list[Line]:
        return [line for beat in self.beats for line in beat.lines]


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


def _actor(data: dict[str, Any]) -> str:
    for key in ACTOR_KEYS:
        if isinstance(data.get(key), str):
            return str(data[key])
    attackers = data.get("attackers")
    if isinstance(attackers, list) and attackers:
        return str(attackers[0])
    return ""


def _names(data: dict[str, Any]) -> frozenset[str]:
    """Everyone an event's data names: actors, targets, attackers."""
    out: set[str] = set()
    for key in (*ACTOR_KEYS, *NAME_KEYS):
        value = data.get(key)
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, list):
            out |= {v for v in value if isinstance(v, str)}
    return frozenset(out)


def _lost(data: dict[str, Any]) -> set[str]:
    """Who a loss event takes, as far as its data says."""
    out: set[str] = set()
    for key in LOST_KEYS:
        value = data.get(key)
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, list):
            out |= {str(v) for v in value}
    return out


def _loss(kind: str, data: dict[str, Any], gone: set[str]) -> str:
    """A new loss's mark, or "": a loss kind (a flee that goes somewhere is a move), of
    someone not yet lost (a dead-pool figure moved to the casualty pool is not lost again)."""
    if kind not in LOSS_KINDS or (kind == "flee" and "to" in data):
        return ""
    who = _lost(data)
    if who and who <= gone:
        return ""
    return LEFT if kind in LEFT_KINDS else DEATH


def _who(text: str) -> str:
    """The name a loss line begins with ("Sgt Rook is killed ..." -> "Sgt Rook"): its leading
    capitalised words, or, when it starts otherwise, the line itself, cut short."""
    words = []
    for word in text.split():
        if not _NAME_WORD.match(word) or word in ARTICLES:
            break
        words.append(word.rstrip(",:;"))
    if words:
        return " ".join(words)
    return text if len(text) <= 40 else text[:39].rstrip() + "…"


def _follows(beat: Beat, line: Line, decided: bool, rolled: bool) -> bool:
    """Does `line` carry on `beat`? It does when the same actor goes on (its test, its move);
    otherwise only when nothing was decided since, the line does not open a new stage, and it
    is about nobody named, or (with no dice since) about someone the beat names (the target
    hit, the model killed), or (after dice) about the actor of the line before (a save)."""
    if line.kind in OPENING_KINDS:
        return False
    if line.actor and line.actor == beat.lines[0].actor:
        return True
    if decided:
        return False
    if not line.actor:
        return True
    if rolled:
        return line.actor == beat.lines[-1].actor
    return any(line.actor in other.names for other in beat.lines)


def read_log(log: list[dict[str, Any]]) -> Reading:
    """Group the log into turns of beats, each line carrying the rolls made for it."""
    reading = Reading(sections=[Section("Before the battle")], losses=[])
    pending: list[dict[str, Any]] = []
    decided = True  # a decision since the last event: the next event starts a new beat
    rolled = False  # dice since the last event: the next starts a new beat if about others
    gone: set[str] = set()
    turn = 0
    for entry in log:
        kind = entry.get("t")
        if kind == "turn":
            turn = int(entry.get("n", turn + 1))
            reading.sections.append(Section(f"Turn {turn}", turn))
            pending, decided = [], True
        elif kind == "roll":
            rolled = True
            reading.rolls += 1
            reading.dice += len(entry.get("faces", []))
            pending.append(entry)
        elif kind == "choice":
            by = str(entry.get("by", "human"))
            reading.decisions[by] = reading.decisions.get(by, 0) + 1
            decided = True
        elif kind == "event":
            event_kind = str(entry.get("kind") or "")
            if event_kind in QUIET_KINDS:
                pending = []
                continue
            data = entry.get("data") or {}
            if not isinstance(data, dict):
                data = {}
            rules = list(entry.get("rules", []))
            dice: list[str] = []
            if not any(key in data for key in OWN_DICE):
                dice = [_faces(r) for r in pending]
            for roll in pending:
                rules += [r for r in roll.get("rules", []) if r not in rules]
            text = str(entry.get("text", ""))
            loss = _loss(event_kind, data, gone)
            line = Line(text, rules, loss, dice, event_kind, _actor(data), _names(data))
            section = reading.sections[-1]
            beat = section.beats[-1] if section.beats else None
            if beat is not None and _follows(beat, line, decided, rolled):
                beat.lines.append(line)
            else:
                section.beats.append(Beat([line]))
            if loss:
                gone |= _lost(data)
                reading.losses.append((turn, text))
                section.losses.append((loss, _who(text)))
            pending, decided, rolled = [], False, False
        elif kind == "end":
            reading.end = entry
    return reading


def fold(beats: list[Beat]) -> list[Beat]:
    """Runs of `FOLD_RUN` or more one-line beats of one kind share a bullet."""
    out: list[Beat] = []
    run: list[Beat] = []

    def flush() -> None:
        if len(run) >= FOLD_RUN:
            out.append(Beat([line for beat in run for line in beat.lines]))
        else:
            out.extend(run)
        run.clear()

    for beat in beats:
        single = len(beat.lines) == 1 and not beat.lines[0].loss
        if single and run and beat.lines[0].kind == run[0].lines[0].kind:
            run.append(beat)
            continue
        flush()
        if single:
            run.append(beat)
        else:
            out.append(beat)
    flush()
    return out


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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _result(save: dict[str, Any], names: dict[str, str], end: dict[str, Any] | None) -> str:
    result = save.get("result") or end
    turns = int(save.get("turns", 0) or 0)
    if not result:
        return f"The battle is not over: {_plural(turns, 'turn')} played so far."
    winner = result.get("winner")
    reason = md(result.get("reason", ""))
    if winner is None:
        return f"**A draw** after {_plural(turns, 'turn')}: {reason}."
    return f"**{md(names.get(winner, winner))} won** after {_plural(turns, 'turn')}: {reason}."


def _rule_key(rule: str) -> tuple[str, int, str]:
    """`c2` before `c10`: letters, then the number, then the rest."""
    match = re.match(r"([A-Za-z]*)(\d*)(.*)", rule)
    assert match is not None  # the pattern matches any string
    letters, number, rest = match.groups()
    return letters, int(number or 0), rest


def _sentence(line: Line, with_rules: bool) -> str:
    text = md(line.text)
    if not text.endswith((".", "!", "?")):
        text += "."
    if line.loss:
        text = f"**{line.loss} {text}**"
    if with_rules and line.dice:
        text += f" *(dice: {md('; '.join(line.dice))})*"
    if with_rules and line.rules:
        text += f" `[{', '.join(clean(r) for r in sorted(line.rules, key=_rule_key))}]`"
    return text


def _bullet(beat: Beat, with_rules: bool, prefix: str = "") -> str:
    return f"- {prefix}" + " ".join(_sentence(line, with_rules) for line in beat.lines)


def _title(section: Section) -> str:
    marks = [
        f"{mark} {', '.join(md(who) for m, who in section.losses if m == mark)}"
        for mark in (DEATH, LEFT)
        if any(m == mark for m, _ in section.losses)
    ]
    return " · ".join([section.title, *marks])


def _story(sections: list[Section], with_rules: bool) -> list[str]:
    """A section per turn; consecutive turns of a single beat share one, a line per turn."""
    out: list[str] = []
    quick: list[tuple[Section, Beat]] = []

    def flush() -> None:
        if not quick:
            return
        first, last = quick[0][0], quick[-1][0]
        if len(quick) == 1:
            out.extend(["", f"## {_title(first)}", "", _bullet(quick[0][1], with_rules)])
        else:
            out.extend(["", f"## Turns {first.turn}-{last.turn}", ""])
            out.extend(_bullet(b, with_rules, f"**Turn {s.turn}.** ") for s, b in quick)
        quick.clear()

    for section in sections:
        beats = fold(section.beats)
        if not beats:
            continue
        if section.turn and len(beats) == 1 and not section.losses:
            quick.append((section, beats[0]))
            continue
        flush()
        out.extend(["", f"## {_title(section)}", ""])
        out.extend(_bullet(beat, with_rules) for beat in beats)
    flush()
    return out


def _option(value: Any) -> str:
    """An option's value in a few words: a table option by its name."""
    if isinstance(value, dict):
        return md(value.get("name", "(a table)"))
    if isinstance(value, list):
        return "(a list)"
    return md(value)


def _when(created: Any) -> str:
    try:
        moment = datetime.fromisoformat(str(created))
    except ValueError:
        return md(created)
    return moment.strftime("%Y-%m-%d %H:%M") + (" UTC" if moment.utcoffset() is not None else "")


def takebacks_section(save_data: dict[str, Any], names: dict[str, str]) -> list[str]:
    """The decisions taken back, in order, so the opponent sees each; none, no section."""
    from wargame_cli.engine.takeback import describe

    takebacks = save_data.get("takebacks") or []
    if not takebacks:
        return []
    out = ["", "## Take-backs", ""]
    out += [f"{i}. {md(describe(t, names))}." for i, t in enumerate(takebacks, 1)]
    return out


def battle_report(save_data: dict[str, Any], with_rules: bool = False) -> str:
    """The whole game as Markdown: header, sides, a section per turn with a bullet per beat
    (losses in bold), and the aftermath. `with_rules` adds each sentence's rule ids and dice."""
    ruleset_id = str(save_data.get("ruleset", {}).get("id", "?"))
    setup = save_data.get("setup", {})
    names = {s: str(setup.get("names", {}).get(s, f"Side {s}")) for s in ("A", "B")}
    players = setup.get("players", {})
    reading = read_log(save_data.get("log", []))

    out = [f"# Battle report: {md(names['A'])} against {md(names['B'])}", ""]
    out.append(
        f"*{md(_ruleset_name(ruleset_id))}* (`{ruleset_id}`), seed {save_data.get('seed')}, "
        f"played {_when(save_data.get('created', '?'))}."
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
        shown = ", ".join(f"{md(k)}={_option(v)}" for k, v in options.items())
        out += ["", f"Options: {shown}."]
    out += _story(reading.sections, with_rules)
    out += takebacks_section(save_data, names)
    out += ["", "## Aftermath", "", _result(save_data, names, reading.end), ""]
    if reading.losses:
        out += ["Losses, in order:", ""]
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
