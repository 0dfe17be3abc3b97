"""A chronicle: several battles of one ruleset told as one story, for a writer who builds a
world on them (issue 34, item 3). Each battle is named (and placed), with its turning points
and a picture of the field at its end; each figure's deeds and fate follow it from battle to
battle, and a roster table sums them up (battles, kills, wounds, fate).

Its facts are the logs' facts, read as the battle report reads them: every save is replayed
and verified (`replayed.replay`), its log read by the ruleset's own storyteller
(`reading.read_log`), so a death, its killer and a figure's wounds are the ones the report
tells. A figure is the same figure across battles when its side's name (its team's) and its
own name are the same; a figure whose side is not known is known by its name alone. A band's
numbered figure ("Red Spears 2": a band is numbered afresh in each battle) is one battle's,
and its band is followed across battles.

`write_chronicle(battles, title, fmt)` is the whole of it; `wargame campaign report` calls
it for a campaign's battles."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from wargame_cli.errors import BadInput
from wargame_cli.kit.sides import SIDES
from wargame_cli.report import facts
from wargame_cli.report.hooks import Teller, teller
from wargame_cli.report.html import STYLE, h
from wargame_cli.report.markdown import md
from wargame_cli.report.reading import DEATH, Fallen, Reading, read_log
from wargame_cli.report.replayed import replay
from wargame_cli.report.voice import listing
from wargame_cli.wording import plural

Format = Literal["markdown", "html"]


class ChronicleRefused(BadInput):
    """Battles that cannot be told as one story: none, or of different rulesets."""


@dataclass(frozen=True, slots=True)
class ChronicleBattle:
    """One battle of the chronicle: its save, and the name and place the writer gives it
    (by default "Battle N", and the table's own name where it has one)."""

    save: Path
    name: str | None = None
    place: str | None = None


@dataclass(frozen=True, slots=True)
class Point:
    """A turning point: the turn, and what happened, in the story's words."""

    turn: int
    said: str


@dataclass
class Battle:
    """One battle as read: its facts, its turning points, its picture at the end."""

    number: int
    name: str
    place: str
    save: dict[str, Any]
    reading: Reading
    story: Teller
    names: dict[str, str]
    points: list[Point]
    picture: str | None

    @property
    def title(self) -> str:
        return f"{self.name}, at {self.place}" if self.place else self.name

    def result(self) -> str:
        how, who, reason = facts.result(self.save, self.reading.end)
        turns = plural(int(self.save.get("turns", 0) or 0), self.story.turn_word)
        if how == "open":
            return f"Not over: {reason}"
        if how == "draw":
            return f"A draw after {turns}: {reason}"
        return f"{who} won after {turns}: {reason}"


@dataclass
class Deed:
    """What one figure did in one battle and how it came out of it."""

    battle: int
    side: str
    victims: list[str] = field(default_factory=list)
    dealt: int = 0
    fate: str = ""
    fell: bool = False
    wounds: str = ""


@dataclass
class Figure:
    """A figure across the battles, known by its side's name and its own."""

    name: str
    team: str
    deeds: list[Deed] = field(default_factory=list)

    @property
    def kills(self) -> int:
        return sum(len(d.victims) for d in self.deeds)

    @property
    def fate(self) -> str:
        return self.deeds[-1].fate if self.deeds else ""


def write_chronicle(
    battles: Sequence[ChronicleBattle],
    title: str,
    fmt: Format = "markdown",
    pictures: Path | None = None,
    home: Path | None = None,
    force: bool = False,
) -> str:
    """The battles as one story, in Markdown (`fmt="markdown"`) or as one self-contained
    HTML page with a picture of the field at the end of each battle (`fmt="html"`). The
    Markdown's pictures are files: with `pictures`, each battle's as `pictures/battle-N.svg`
    (an existing one replaced only with `force`), linked from `home`, the folder the
    Markdown is written to (by default the current one). Every save is replayed and
    verified first; a save that does not verify, battles of different rulesets or none at
    all are refused (`BadInput`: one line)."""
    if not battles:
        raise ChronicleRefused("a chronicle needs at least one battle")
    if fmt not in ("markdown", "html"):
        raise ChronicleRefused(f"a chronicle is written as markdown or html, not {fmt!r}")
    drawn = fmt == "html" or pictures is not None
    read = [_read(i, b, pictures=drawn) for i, b in enumerate(battles, 1)]
    rulesets = {str(b.save.get("ruleset", {}).get("id", "?")) for b in read}
    if len(rulesets) > 1:
        raise ChronicleRefused(
            f"the battles are of different rulesets ({', '.join(sorted(rulesets))}): a "
            "chronicle tells battles of one"
        )
    figures = _figures(read)
    if fmt == "html":
        return _html(title, read, figures)
    links = _draw(read, pictures, home or Path.cwd(), force) if pictures is not None else {}
    return _markdown(title, read, figures, links)


def _draw(battles: list[Battle], folder: Path, home: Path, force: bool) -> dict[int, str]:
    """Each battle's picture as `folder/battle-N.svg`; battle -> its address from `home`."""
    import os

    from wargame_cli.report.output import ReportRefused, write

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportRefused(f"{folder}: cannot make it ({exc.strerror})") from None
    out = {}
    for b in battles:
        if b.picture is None:
            continue
        target = folder / f"battle-{b.number}.svg"
        write(target, b.picture + "\n", None, force, "--pictures")
        out[b.number] = Path(os.path.relpath(target.absolute(), home.absolute())).as_posix()
    return out


# -- reading ---------------------------------------------------------------------------------
def _read(number: int, battle: ChronicleBattle, pictures: bool) -> Battle:
    replayed = replay(battle.save, pictures=pictures)
    save = replayed.save
    story = teller(save)
    reading = read_log(save.get("log", []), story)
    last = max(replayed.pictures) if replayed.pictures else None
    return Battle(
        number=number,
        name=(battle.name or "").strip() or f"Battle {number}",
        place=(battle.place or "").strip() or _table_name(save),
        save=save,
        reading=reading,
        story=story,
        names=facts.names_of(save),
        points=_points(reading),
        picture=replayed.pictures.get(last) if last is not None else None,
    )


def _table_name(save: dict[str, Any]) -> str:
    table = (save.get("options") or {}).get("table")
    return str(table.get("name", "")) if isinstance(table, dict) else ""


def _points(reading: Reading) -> list[Point]:
    """The turns that changed the battle: every loss and every figure an edit felled, in the
    story's words; with none, the first blow that landed."""
    points = [
        Point(section.turn, facts.words(line))
        for section in reading.sections
        for line in section.lines
        if line.loss and line.prose
    ]
    if not points:
        hurt = next(
            (
                Point(section.turn, facts.words(line))
                for section in reading.sections
                for line in section.lines
                if line.prose and line.kind in ("wound", "damage", "hit")
            ),
            None,
        )
        points = [hurt] if hurt is not None else []
    return points


def _figures(battles: list[Battle]) -> dict[tuple[str, str], Figure]:
    """Every figure of every battle, by (its side's name, its name), in the order first
    met, with its deed in each battle it fought; a band's numbered figure (`band_of`) is
    one battle's, its band followed across them."""
    out: dict[tuple[str, str], Figure] = {}
    for battle in battles:
        story, reading = battle.story, battle.reading
        lost = {f.who: f for f in reading.fallen}
        victims: dict[str, list[str]] = {}
        for f in reading.fallen:
            if f.killer:
                victims.setdefault(f.killer, []).append(f.who)
        dealt: dict[str, int] = {}
        for by in story.credit.dealt.values():
            for who, n in by.items():
                dealt[who] = dealt.get(who, 0) + n
        roster = story.roster()
        cast = dict(roster)
        for who in [*victims, *dealt]:  # a mob credited as one, a figure the teams list
            if who in story.members:
                cast.setdefault(who, story.members[who])
        after = _after_battle(battle.reading)
        for who, side in cast.items():
            team = battle.names.get(side, "") if side in SIDES else ""
            # a band's numbered figure is this battle's only: "Red Spears 1" of the next
            # battle is whoever of the band is mustered first then
            key = (team, who) if story.band_of(who) is None else (team, f"{who}#{battle.number}")
            figure = out.setdefault(key, Figure(who, team))
            deed = Deed(battle.number, side, victims.get(who, []), dealt.get(who, 0))
            deed.wounds = story.wounds(who)
            deed.fate, deed.fell = _fate(battle, lost.get(who), deed.wounds)
            members = [n for n in roster if n.startswith(f"{who} ")] if who not in roster else []
            if members:  # a mob, told by its figures
                deed.fate, deed.fell = _band(members, lost)
            if who in after:
                deed.fate += f"; after the battle: {after[who]}"
            figure.deeds.append(deed)
    return out


def _band(members: list[str], lost: dict[str, Fallen]) -> tuple[str, bool]:
    """A mob's fate, from its figures': how many stand at the end, or that none does."""
    standing = [n for n in members if n not in lost]
    if not standing:
        return f"every one of its {len(members)} figures fell or fled", True
    return f"{len(standing)} of its {len(members)} figures standing at the end", False


def _after_battle(reading: Reading) -> dict[str, str]:
    """What the rules' after-battle rolls made of each casualty (Mobs and Morale's survival
    rolls: "wounded", "missing", "dead"), as the ending records them."""
    data = (reading.end or {}).get("data") or {}
    rows = data.get("after_battle") if isinstance(data, dict) else None
    out: dict[str, str] = {}
    for listed in rows.values() if isinstance(rows, dict) else []:
        for row in listed if isinstance(listed, list) else []:
            if isinstance(row, dict) and row.get("creature") and row.get("fate"):
                out[str(row["creature"])] = str(row["fate"])
    return out


def _fate(battle: Battle, lost: Fallen | None, wounds: str) -> tuple[str, bool]:
    word = battle.story.turn_word
    if lost is None:
        return f"standing at the end ({wounds or 'unhurt'})", False
    when = f"{word} {lost.turn}" if lost.turn else "before the battle"
    if lost.mark != DEATH:
        return f"left the field in {when}", False
    by = listing(who for who, _ in lost.authors)
    return f"fell in {when}" + (f", at the hands of {by}" if by else ""), True


# -- words -----------------------------------------------------------------------------------
def _introduction(battles: list[Battle], figures: dict[tuple[str, str], Figure]) -> str:
    ruleset = str(battles[0].save.get("ruleset", {}).get("id", "?"))
    fallen = sum(1 for f in figures.values() if f.deeds and f.deeds[-1].fell)
    return (
        f"{plural(len(battles), 'battle')} of {facts.ruleset_name(ruleset)}, "
        f"{plural(len(figures), 'figure')} named in them, {fallen} fallen in the last they fought."
    )


def _sides(battle: Battle) -> str:
    return " against ".join(battle.names[s] for s in SIDES)


def _deed_words(deed: Deed, battles: list[Battle]) -> str:
    battle = battles[deed.battle - 1]
    parts = []
    if deed.victims:
        parts.append(f"slew {listing(deed.victims)}")
    if deed.dealt:
        parts.append(f"dealt {plural(deed.dealt, battle.story.wound_word)}")
    parts.append(deed.fate)
    return f"{battle.name}: {'; '.join(parts)}"


def _roster_rows(battles: list[Battle], figures: dict[tuple[str, str], Figure]) -> list[list[str]]:
    rows = []
    for figure in figures.values():
        fought = ", ".join(battles[d.battle - 1].name for d in figure.deeds)
        last = figure.deeds[-1]
        rows.append(
            [
                figure.name + (f" ({figure.team})" if figure.team else ""),
                fought,
                str(figure.kills),
                last.wounds or "none",
                f"{battles[last.battle - 1].name}: {figure.fate}",
            ]
        )
    return rows


HEAD = ["Figure", "Battles", "Kills", "Wounds", "Fate"]


def _markdown(
    title: str,
    battles: list[Battle],
    figures: dict[tuple[str, str], Figure],
    links: dict[int, str],
) -> str:
    out = [f"# {md(title)}", "", md(_introduction(battles, figures))]
    for b in battles:
        word = b.story.turn_word.capitalize()
        out += ["", f"## {b.number}. {md(b.title)}", ""]
        out.append(f"*{md(_sides(b))}*, played {md(facts.when(b.save.get('created', '?')))}.")
        out += ["", f"**{md(b.result())}.**", "", "Turning points:", ""]
        out += [f"- {word} {p.turn}: {md(p.said)}" for p in b.points] or ["- None told."]
        if b.number in links:
            out += ["", f"![{md(b.title)}: the field at the end]({links[b.number]})"]
    out += ["", "## Deeds and fates", ""]
    for figure in figures.values():
        who = f"**{md(figure.name)}**" + (f" ({md(figure.team)})" if figure.team else "")
        deeds = " ".join(f"{md(_deed_words(d, battles))}." for d in figure.deeds)
        out.append(f"- {who}: {deeds}")
    out += ["", "## Roster", "", "| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    out += ["| " + " | ".join(md(c) for c in row) + " |" for row in _roster_rows(battles, figures)]
    return "\n".join(out) + "\n"


def _html(title: str, battles: list[Battle], figures: dict[tuple[str, str], Figure]) -> str:
    table_style = (
        "table { border-collapse: collapse; } th, td { border: 1px solid #ccc; "
        "padding: .2rem .5rem; text-align: left; }"
    )
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{h(title)}</title><style>{STYLE}{table_style}</style></head><body>",
        f"<h1>{h(title)}</h1>",
        f'<p class="meta">{h(_introduction(battles, figures))}</p>',
    ]
    for b in battles:
        word = b.story.turn_word.capitalize()
        out.append(f'<section class="battle" id="battle-{b.number}">')
        out.append(f"<h2>{b.number}. {h(b.title)}</h2>")
        out.append(
            f'<p class="meta">{h(_sides(b))}, played '
            f"{h(facts.when(b.save.get('created', '?')))}.</p>"
        )
        out.append(f"<p><strong>{h(b.result())}.</strong></p><p>Turning points:</p><ol>")
        out += [f"<li>{h(word)} {p.turn}: {h(p.said)}</li>" for p in b.points]
        out.append("</ol>")
        if b.picture is not None:
            out.append(
                f"<figure>{b.picture}<figcaption>{h(b.title)}: the field at the end"
                "</figcaption></figure>"
            )
        out.append("</section>")
    out.append('<h2>Deeds and fates</h2><ul class="deeds">')
    for figure in figures.values():
        team = f" ({h(figure.team)})" if figure.team else ""
        deeds = " ".join(f"{h(_deed_words(d, battles))}." for d in figure.deeds)
        out.append(f"<li><strong>{h(figure.name)}</strong>{team}: {deeds}</li>")
    out.append('</ul><h2>Roster</h2><table class="roster"><thead><tr>')
    out += [f"<th>{h(c)}</th>" for c in HEAD]
    out.append("</tr></thead><tbody>")
    for row in _roster_rows(battles, figures):
        out.append("<tr>" + "".join(f"<td>{h(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table></body></html>")
    return "\n".join(out) + "\n"
