"""The battle report as one self-contained HTML page: inline CSS and SVG, no script, nothing
fetched from anywhere. The same story as the Markdown report (the same reading of the replayed
log), a section per turn with a picture of the table at its end, and for a ruleset that can
reckon it, the chance of winning over the game. Every word from a save is escaped."""

from __future__ import annotations

from html import escape
from typing import Any

from wargame_cli.engine import takeback
from wargame_cli.kit.sides import SIDES
from wargame_cli.report import facts
from wargame_cli.report.chart import chance_chart
from wargame_cli.report.hooks import teller
from wargame_cli.report.reading import DEATH, LEFT, Beat, Line, Section, fold, read_log
from wargame_cli.report.replayed import Replayed
from wargame_cli.saves import provenance
from wargame_cli.text import clean
from wargame_cli.wording import plural

STYLE = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 60rem; margin: 2rem auto;
       padding: 0 1rem; color: #222; background: #fdfbf6; line-height: 1.45; }
h1 { font-size: 1.8rem; margin-bottom: .2rem; }
h2 { border-bottom: 1px solid #ccc; margin-top: 2rem; }
.meta { color: #666; font-style: italic; }
.side-A { color: #1f77b4; } .side-B { color: #c0392b; }
.loss { font-weight: bold; }
.rules { color: #777; font-size: .85em; font-family: monospace; }
figure { margin: 1rem 0; } figcaption { color: #666; font-size: .9em; }
figure svg { max-width: 100%; height: auto; border: 1px solid #ddd; background: #fff; }
"""


def h(value: object) -> str:
    """Text from a save, shown literally."""
    return escape(clean(value))


def _sentence(line: Line, with_rules: bool) -> str:
    out = h(facts.words(line))
    if line.loss:
        out = f'<span class="loss">{h(line.loss)} {out}</span>'
    for part in line.parts or [line] if with_rules else []:  # a scene: each event's workings
        workings = facts.ledger(part)
        if workings:
            out += f' <span class="rules">({h(workings)})</span>'
        if part.rules:
            rules = ", ".join(sorted(part.rules, key=facts.rule_key))
            out += f' <span class="rules">[{h(rules)}]</span>'
    return out


def _item(beat: Beat, with_rules: bool, prefix: str = "") -> str:
    return f"<li>{prefix}{' '.join(_sentence(line, with_rules) for line in beat.lines)}</li>"


def _title(section: Section) -> str:
    marks = [
        f"{mark} {', '.join(who for m, who in section.losses if m == mark)}"
        for mark in (DEATH, LEFT)
        if any(m == mark for m, _ in section.losses)
    ]
    return h(" · ".join([section.title, *marks]))


def _section(section: Section, picture: str | None, word: str, with_rules: bool) -> str:
    beats = fold(section.beats)
    items = [_item(beat, with_rules) for beat in beats]
    if with_rules and section.workings:
        items.append(_item(Beat(section.workings), with_rules, "<em>Workings:</em> "))
    body = f"<ul>{''.join(items)}</ul>" if items else ""
    if picture is not None:
        caption = (
            "The table after deployment"
            if section.turn == 0
            else f"The table at the end of {word} {section.turn}"
        )
        body += f"<figure>{picture}<figcaption>{h(caption)}</figcaption></figure>"
    return (
        f'<section class="turn" id="turn-{section.turn}"><h2>{_title(section)}</h2>{body}</section>'
    )


def _result(save: dict[str, Any], end: dict[str, Any] | None) -> str:
    how, who, reason = facts.result(save, end)
    turns = plural(int(save.get("turns", 0) or 0), "turn")
    if how == "open":
        return f"<p>The battle is not over: {h(reason)}.</p>"
    if how == "draw":
        return f"<p><strong>A draw</strong> after {turns}: {h(reason)}.</p>"
    return f"<p><strong>{h(who)} won</strong> after {turns}: {h(reason)}.</p>"


def html_report(
    replayed: Replayed, with_rules: bool = False, turn_word: str = "turn", style: str = "full"
) -> str:
    save = replayed.save
    told = replayed.told if replayed.told is not None else provenance.of_save(save)
    ruleset_id = str(save.get("ruleset", {}).get("id", "?"))
    names = facts.names_of(save)
    story = teller(save)
    reading = read_log(save.get("log", []), story)
    heading = f"Battle report: {names['A']} against {names['B']}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{h(heading)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{h(heading)}</h1>",
        f'<p class="meta">{h(facts.ruleset_name(ruleset_id))} ({h(ruleset_id)}), '
        f"played {h(facts.when(save.get('created', '?')))}. "
        + " ".join(h(line) for line in facts.provenance_lines(told))
        + "</p>",
        _result(save, reading.end),
        "<h2>The sides</h2><ul>",
    ]
    for side in SIDES:
        tail = f" ({h(facts.player(save, side, told))})"
        out.append(
            f'<li><strong class="side-{side}">{side}: {h(names[side])}</strong>{tail}: '
            f"{h(facts.team(save, side))}</li>"
        )
    out.append("</ul>")
    options = save.get("options") or {}
    if options:
        shown = ", ".join(f"{k}={facts.option(v)}" for k, v in options.items())
        out.append(f"<p>Options: {h(shown)}.</p>")
    if len(replayed.chances) > 1:
        out.append(
            f"<h2>{h(names['A'])}'s chance of winning</h2><figure>"
            f"{chance_chart(replayed.chances, names)}<figcaption>Exact chance after each "
            f"{h(turn_word)}, from the position on the table.</figcaption></figure>"
        )
    for section in story.scenes(reading.sections, style):
        picture = replayed.pictures.get(section.turn)
        if section.turn == 0 and not section.beats and picture is None:
            continue
        out.append(_section(section, picture, turn_word, with_rules))
    if taken := takeback.lines(save, turn_word):  # so the opponent sees them
        out += ["<h2>Take-backs</h2><ol>", *(f"<li>{h(t)}</li>" for t in taken), "</ol>"]
    if reading.edits:  # the bookkeeping, apart from the story
        word = story.turn_word.capitalize()
        out.append('<h2>Table edits</h2><ol class="edits">')
        out += [
            f"<li>{h(f'{word} {turn}' if turn else 'Before the battle')}: {h(t)}.</li>"
            for turn, t in reading.edits
        ]
        out.append("</ol>")
    out += ["<h2>Aftermath</h2>", _result(save, reading.end)]
    if reading.losses:
        out.append(f"<p>{h(story.tally_title)}</p><ol>")
        word = story.turn_word.capitalize()
        out += [f"<li>{word} {turn}: {h(text.rstrip('.'))}</li>" for turn, text in reading.losses]
        out.append("</ol>")
    else:
        out.append(f"<p>{h(story.no_tally)}</p>")
    if standing := facts.standing(reading, story):
        out.append(f'<p class="standing">Still standing: {h(", ".join(standing))}.</p>')
    out.append(f"<p>{h(facts.tally(told))}</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
