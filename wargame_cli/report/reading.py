"""Reading a game's log as a story: turns of beats, each line an event told in prose.

Generic by design: it reads only the log (events' `kind` and `data`, and the rolls and choices
between them); the words come from the ruleset's story hook (`hooks.Teller`), so every ruleset
gets a report, and one with a `story.py` gets a story. What it makes of the log:

- **Beats.** Each bullet is one beat of the story: an event, then whatever follows from it
  with no decision in between (an attack, the target's wound, its death; after dice, an
  event of the same actor or of nobody named, like a save or a defence roll), and any later
  events of the same actor (a miniature's activation, its test, its move); kinds in
  `OPENING_KINDS` (a step, the initiative, an activation, a health or morale check) always
  start a bullet.
- **Workings apart.** An event the teller does not tell (every model's dice, a step's order)
  is workings: kept out of the beats, listed after its turn's story only with the rules.
- **Terse where the log repeats itself.** Three or more one-line beats of the same kind in a
  row share one bullet; turns of a single beat (a tug of war) share one section, a line per
  turn. Events that change nothing (kinds in `QUIET_KINDS`, a side passing) are left out, and
  a figure standing still (`STAND_KINDS`) is told only when it keeps out of that turn's fight.
- **Losses.** Events of a kind in `LOSS_KINDS` are marked (☠ a death, ⚑ one who left the
  field alive: `LEFT_KINDS`), head their turn's title and are listed in order at the end,
  each subject once (a figure moved from a dead pool to a casualty pool is not lost twice; a
  `flee` whose `data` has a `to` is a move, not a loss).

A ruleset makes its report good by writing events with kinds and `data` from the one
vocabulary (`engine/events.py`: its families, and the keys naming who acted and who was
lost), and a `story.py` telling them (see `hooks.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from wargame_cli.engine import events
from wargame_cli.engine.edits import edit_words
from wargame_cli.report.hooks import Teller

# The vocabulary (kinds by family, the keys naming who) is `engine/events.py`'s, shared with
# the pictures, the per-unit figures and sampled odds.
LOSS_KINDS, LEFT_KINDS, QUIET_KINDS = events.LOSS, events.LEFT, events.QUIET
STAND_KINDS, FIGHT_KINDS, OPENING_KINDS = events.STAND, events.FIGHT, events.OPENING
DEATH, LEFT = "☠", "⚑"
FOLD_RUN = 3  # this many one-line beats of one kind in a row share a bullet
_NAME_WORD = re.compile(r"[A-Z0-9]")
ARTICLES = frozenset({"A", "An", "The"})


@dataclass
class Line:
    """One event: the story's words for it (None: workings), its log text, the rules behind
    it, the dice rolled for it."""

    text: str
    rules: list[str]
    loss: str = ""  # DEATH or LEFT for a loss
    dice: list[str] = field(default_factory=list)
    kind: str = ""
    actor: str = ""
    names: frozenset[str] = frozenset()
    prose: str | None = None
    data: dict[str, Any] = field(default_factory=dict)  # the event's own data
    parts: list[Line] = field(default_factory=list)  # the events a joined line tells

    @property
    def workings(self) -> bool:
        return self.prose is None


def joined(lines: list[Line], prose: str) -> Line:
    """Several events told as one sentence (a joint attack, an exchange): their log texts,
    rules and dice kept together for `--with-rules`."""
    rules: list[str] = []
    for line in lines:
        rules += [r for r in line.rules if r not in rules]
    return Line(
        "; ".join(line.text for line in lines),
        rules,
        dice=[d for line in lines for d in line.dice],
        kind=lines[0].kind,
        actor=lines[0].actor,
        names=frozenset().union(*(line.names for line in lines)),
        prose=prose,
        parts=[part for line in lines for part in (line.parts or [line])],
    )


@dataclass
class Beat:
    """A bullet: an event and what follows from it."""

    lines: list[Line] = field(default_factory=list)


@dataclass
class Section:
    title: str
    turn: int = 0  # the (last) turn it tells
    beats: list[Beat] = field(default_factory=list)
    losses: list[tuple[str, str]] = field(default_factory=list)  # (mark, who)
    workings: list[Line] = field(default_factory=list)  # events the story does not tell
    first: int = 0  # the first turn of a run of turns told as one (0: this section's own)

    @property
    def lines(self) -> list[Line]:
        return [line for beat in self.beats for line in beat.lines]


@dataclass(frozen=True, slots=True)
class Fallen:
    """A figure lost: when, how (`DEATH` or `LEFT`), and whose blows brought it about (the
    most damaging first, as the story credits them)."""

    who: str
    turn: int
    mark: str
    authors: tuple[tuple[str, int], ...] = ()

    @property
    def killer(self) -> str:
        """Who is credited with the kill: the most damaging author of a death, or ""."""
        return self.authors[0][0] if self.mark == DEATH and self.authors else ""


@dataclass
class Reading:
    """What one pass over the log found."""

    sections: list[Section]
    losses: list[tuple[int, str]]  # (turn, the story's words): what the aftermath lists
    end: dict[str, Any] | None = None
    fallen: list[Fallen] = field(default_factory=list)  # every figure lost, in order
    edits: list[tuple[int, str]] = field(default_factory=list)  # (turn, the bookkeeping)


def _faces(entry: dict[str, Any]) -> str:
    faces = "+".join(str(f) for f in entry.get("faces", []))
    return f"{entry.get('reason', 'roll')}: {faces}"


_actor, _names = events.subject, events.named


def _lost(data: dict[str, Any]) -> set[str]:
    """Who a loss event takes, as far as its data says."""
    return set(events.lost(data))


def _loss(kind: str, data: dict[str, Any], gone: set[str]) -> str:
    """A new loss's mark, or "": a loss kind (a flee that goes somewhere is a move), of
    someone not yet lost (a dead-pool figure moved to the casualty pool is not lost again)."""
    if not events.is_loss(kind, data):
        return ""
    who = _lost(data)
    if who and who <= gone:
        return ""
    return LEFT if kind in LEFT_KINDS else DEATH


def _who(text: str, data: dict[str, Any] | None = None, teller: Teller | None = None) -> str:
    """The name a loss line begins with ("Sgt Rook is killed ..." -> "Sgt Rook"): the whole
    name its data gives (as the teller names it: "A4" is "A4 Archers") when the line starts
    with it ("Odda's hounds 1"), else its leading capitalised words, or, when it starts
    otherwise, the line itself, cut short."""
    keys = _lost(data or {}) | {_actor(data or {})}
    told = {teller.name(key) for key in keys if key} if teller is not None else set()
    named = sorted(keys | told, key=len, reverse=True)
    for name in named:
        if name and text.startswith(name):
            return name
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


def _data(entry: dict[str, Any]) -> dict[str, Any]:
    data = entry.get("data") or {}
    return data if isinstance(data, dict) else {}


def fighters(log: list[dict[str, Any]]) -> dict[int, frozenset[str]]:
    """Everyone named in a fight, turn by turn."""
    out: dict[int, set[str]] = {}
    turn = 0
    for entry in log:
        if entry.get("t") == "turn":
            turn = int(entry.get("n", turn + 1))
        elif entry.get("t") == "event" and entry.get("kind") in FIGHT_KINDS:
            out.setdefault(turn, set()).update(_names(_data(entry)))
    return {turn: frozenset(names) for turn, names in out.items()}


def read_log(log: list[dict[str, Any]], teller: Teller) -> Reading:
    """Group the log into turns of beats, each line carrying the rolls made for it."""
    reading = Reading(sections=[Section("Before the battle")], losses=[])
    fighting = fighters(log)
    pending: list[dict[str, Any]] = []
    decided = True  # a decision since the last event: the next event starts a new beat
    rolled = False  # dice since the last event: the next starts a new beat if about others
    gone: set[str] = set()
    turn = 0
    for entry in log:
        kind = entry.get("t")
        if kind == "turn":
            turn = teller.turn = int(entry.get("n", turn + 1))
            reading.sections.append(Section(f"{teller.turn_word.capitalize()} {turn}", turn))
            pending, decided = [], True
        elif kind == "roll":
            rolled = True
            pending.append(entry)
        elif kind == "choice":
            decided = True
        elif kind == "event":
            event_kind = str(entry.get("kind") or "")
            data = _data(entry)
            actor = _actor(data)
            if event_kind in QUIET_KINDS or (
                event_kind in STAND_KINDS and actor in fighting.get(turn, ())
            ):
                pending = []
                continue
            rules = list(entry.get("rules", []))
            dice: list[str] = []
            if not any(key in data for key in events.OWN_DICE):
                dice = [_faces(r) for r in pending]
            for roll in pending:
                rules += [r for r in roll.get("rules", []) if r not in rules]
            text = str(entry.get("text", ""))
            prose = teller.tell(event_kind, data, text)
            loss = _loss(event_kind, data, gone)
            line = Line(text, rules, loss, dice, event_kind, actor, _names(data), prose, data)
            section = reading.sections[-1]
            beat = section.beats[-1] if section.beats else None
            if line.workings:
                section.workings.append(line)
            elif beat is not None and _follows(beat, line, decided, rolled):
                beat.lines.append(line)
            else:
                section.beats.append(Beat([line]))
            told = prose if prose is not None else text
            if loss:
                for key in events.lost(data):
                    if key not in gone:
                        who = teller.name(key)  # "A4" is "A4 Archers", as the story names it
                        authors = tuple(teller.credit.authors(who))
                        reading.fallen.append(Fallen(who, turn, loss, authors))
                gone |= _lost(data)
                section.losses.append((loss, _who(text, data, teller)))
                if not teller.tally_kinds:
                    reading.losses.append((turn, teller.fallen(event_kind, data, told)))
            if event_kind in teller.tally_kinds:
                reading.losses.append((turn, teller.fallen(event_kind, data, told)))
            pending, decided, rolled = [], False, False
        elif kind == "edit":  # told in the world's words where it was made; listed apart
            _edit(entry, turn, teller, reading, gone)
            pending, decided, rolled = [], True, False
        elif kind == "end":
            reading.end = entry
    return reading


def _edit(
    entry: dict[str, Any], turn: int, teller: Teller, reading: Reading, gone: set[str]
) -> None:
    """A table edit: its bookkeeping (who edited, what the log says changed, why) listed
    apart, and in the story, a bullet of its own in the world's words: a figure it felled
    falls as to a blow, marked and listed in the Aftermath like any loss."""
    book = f"Table edit {edit_words(entry, teller.sides)}"
    reading.edits.append((turn, book))
    section = reading.sections[-1]
    told = teller.edit(dict(entry))
    if told.prose is None:
        section.workings.append(Line(book, [], kind="edit"))
        return
    loss = "" if told.who in gone else DEATH if told.fell else LEFT if told.left else ""
    names = frozenset({told.who} - {""})
    line = Line(book, [], loss, kind="edit", actor=told.who, names=names, prose=told.prose)
    section.beats.append(Beat([line]))
    if loss:
        gone.add(told.who)
        section.losses.append((loss, told.who))
        reading.fallen.append(Fallen(told.who, turn, loss, tuple(teller.credit.authors(told.who))))
        reading.losses.append((turn, teller.fallen_by_edit(told, dict(entry))))


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
