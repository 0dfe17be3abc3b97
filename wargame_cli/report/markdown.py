"""The battle report as Markdown a writer can work from: the sides, a section per turn told
as prose beats (losses in bold), and the aftermath. Rule ids and dice only on request."""

from __future__ import annotations

import re
from typing import Any

from wargame_cli.engine import takeback
from wargame_cli.kit.sides import SIDES
from wargame_cli.report import facts
from wargame_cli.report.hooks import teller
from wargame_cli.report.reading import DEATH, LEFT, Beat, Line, Section, fold, read_log
from wargame_cli.saves import provenance
from wargame_cli.saves.provenance import Provenance
from wargame_cli.text import clean
from wargame_cli.wording import plural

_MARKDOWN = re.compile(r"([\\`*_\[\]<>|#~])")


def md(text: object) -> str:
    """Text from a save shown literally: control characters removed, Markdown escaped."""
    return _MARKDOWN.sub(r"\\\1", clean(text)).replace("\n", " ")


def _sentence(line: Line, with_rules: bool) -> str:
    text = md(facts.words(line))
    if line.loss:
        text = f"**{line.loss} {text}**"
    for part in line.parts or [line] if with_rules else []:  # a scene: each event's workings
        workings = facts.ledger(part)
        if workings:
            text += f" *({md(workings)})*"
        if part.rules:
            text += f" `[{', '.join(clean(r) for r in sorted(part.rules, key=facts.rule_key))}]`"
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


def _turns(section: Section, word: str) -> str:
    """ "Turn 3", or for a run of quiet turns told as one "Turns 6-7"."""
    if section.first and section.first != section.turn:
        return f"{word}s {section.first}-{section.turn}"
    return f"{word} {section.turn}"


def _picture(turn: int, pictures: dict[int, str], word: str) -> list[str]:
    """The table's picture at the end of `turn` (a file beside the report), if drawn."""
    if turn not in pictures:
        return []
    what = "after deployment" if turn == 0 else f"at the end of {word.lower()} {turn}"
    return ["", f"![The table {what}]({pictures[turn]})"]


def _story(
    sections: list[Section], with_rules: bool, word: str, pictures: dict[int, str]
) -> list[str]:
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
            out.extend(["", f"## {word}s {first.first or first.turn}-{last.turn}", ""])
            out.extend(_bullet(b, with_rules, f"**{_turns(s, word)}.** ") for s, b in quick)
        for section, _ in quick:
            out.extend(_picture(section.turn, pictures, word))
        quick.clear()

    for section in sections:
        beats = fold(section.beats)
        workings = section.workings if with_rules else []
        if not beats and not workings:
            out.extend(_picture(section.turn, pictures, word) if section.turn == 0 else [])
            continue
        if section.turn and len(beats) == 1 and not section.losses and not workings:
            quick.append((section, beats[0]))
            continue
        flush()
        out.extend(["", f"## {_title(section)}", ""])
        out.extend(_bullet(beat, with_rules) for beat in beats)
        if workings:
            out.append(_bullet(Beat(workings), with_rules, "*Workings:* "))
        out.extend(_picture(section.turn, pictures, word))
    flush()
    return out


def _result(save: dict[str, Any], end: dict[str, Any] | None) -> str:
    how, who, reason = facts.result(save, end)
    turns = plural(int(save.get("turns", 0) or 0), "turn")
    if how == "open":
        return f"The battle is not over: {md(reason)}."
    if how == "draw":
        return f"**A draw** after {turns}: {md(reason)}."
    return f"**{md(who)} won** after {turns}: {md(reason)}."


def _when(turn: int, word: str) -> str:
    return f"{word} {turn}" if turn else "Before the battle"


def battle_report(
    save_data: dict[str, Any],
    with_rules: bool = False,
    told: Provenance | None = None,
    style: str = "full",
    pictures: dict[int, str] | None = None,
) -> str:
    """The whole game as Markdown: header, sides, a section per turn with a bullet per beat
    (losses in bold), and the aftermath. `with_rules` adds the workings (every roll), each
    sentence's rule ids and dice. `told`: where the dice came from and who decided (by
    default counted from `save_data`). `style`: "full" (every blow) or "brief" (a page).
    `pictures`: turn -> the address of its picture, shown under the turn."""
    told = told if told is not None else provenance.of_save(save_data)
    ruleset_id = str(save_data.get("ruleset", {}).get("id", "?"))
    names = facts.names_of(save_data)
    story = teller(save_data)
    reading = read_log(save_data.get("log", []), story)

    out = [f"# Battle report: {md(names['A'])} against {md(names['B'])}", ""]
    out.append(
        f"*{md(facts.ruleset_name(ruleset_id))}* (`{md(ruleset_id)}`), "
        f"played {md(facts.when(save_data.get('created', '?')))}. "
        + " ".join(md(line) for line in facts.provenance_lines(told))
    )
    out += ["", _result(save_data, reading.end), "", "## The sides", ""]
    for side in SIDES:
        who = md(facts.player(save_data, side, told))
        out.append(f"- **{side}: {md(names[side])}** ({who}): {md(facts.team(save_data, side))}")
    options = save_data.get("options") or {}
    if options:
        shown_options = ", ".join(f"{md(k)}={md(facts.option(v))}" for k, v in options.items())
        out += ["", f"Options: {shown_options}."]
    sections = story.scenes(reading.sections, style)
    out += _story(sections, with_rules, story.turn_word.capitalize(), pictures or {})
    if taken := takeback.lines(save_data, story.turn_word):  # so the opponent sees them
        out += ["", "## Take-backs", "", *(f"{i}. {md(t)}." for i, t in enumerate(taken, 1))]
    if reading.edits:  # the bookkeeping, apart from the story
        word = story.turn_word.capitalize()
        out += ["", "## Table edits", ""]
        out += [
            f"{i}. {_when(turn, word)}: {md(t)}." for i, (turn, t) in enumerate(reading.edits, 1)
        ]
    out += ["", "## Aftermath", "", _result(save_data, reading.end), ""]
    if reading.losses:
        out += [story.tally_title, ""]
        out += [
            f"{i}. {story.turn_word.capitalize()} {turn}: {md(text.rstrip('.'))}"
            for i, (turn, text) in enumerate(reading.losses, 1)
        ]
    else:
        out.append(story.no_tally)
    if standing := facts.standing(reading, story):
        out += ["", f"Still standing: {', '.join(md(s) for s in standing)}."]
    out += ["", md(facts.tally(told))]
    return "\n".join(out) + "\n"
