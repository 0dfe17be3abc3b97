"""A turn told as whole scenes, for every ruleset: several attackers on one target become one
joint attack ("Tuze and Eyox fall on Ijoi together"), blows between the same two an exchange
("Tuze and Kuote trade blows: Tuze cuts Kuote; her blows glance off him"), any other blow
stands alone in the ruleset's own words. In the brief style the workings a reader can do
without are left out (`ASIDE`), the exchanges where nothing landed share one line, and a run
of quiet turns is told in one ("For two turns, blows glance off shields").

The ruleset supplies only facts: its teller's `fact(line)` says which told lines open a blow
(who struck whom, how many hits), which add hits to it, which the scene's sentence covers and
which the brief style may drop. Everything else here is shared; the words use each figure's
pronoun (`Teller.they`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wargame_cli.kit import pronouns
from wargame_cli.report.reading import Beat, Line, Section, joined
from wargame_cli.report.voice import listing, number, sentence
from wargame_cli.wording import possessive

if TYPE_CHECKING:
    from wargame_cli.report.hooks import Teller

# What a told line is to a scene (`Fact.role`).
BLOW = "blow"  # opens an attack: `attacker` struck `target`, landing `hits`
HIT = "hit"  # adds `hits` to the open blow (a wound dealt, a save failed)
TOLD = "told"  # part of the open blow the scene's sentence says (a miss, a save, a defence)
STATE = "state"  # where the open blow left its target ("Ijoi bleeds (2 of 10 damage)")
ASIDE = "aside"  # the brief style leaves it to the workings (who moves first, a hesitation)
LULL = "lull"  # told, but a turn of nothing else is a quiet one (a stalemate, a held blade)
MOVE = "move"  # a figure moves: the moves in a row between the blows share one beat
FOLLOWS = (HIT, TOLD, STATE)

JOINT = ("{a} fall on {y} together", "{a} set upon {y} together", "{a} close on {y} as one")
VOLLEY = ("{a} all fire on {y}", "{a} pour fire on {y}", "{a} open up on {y} together")
TRADE = ("{x} and {y} trade blows", "{x} and {y} exchange blows", "{x} and {y} go at each other")
DUEL = ("{x} and {y} trade shots", "{x} and {y} exchange fire")
IN_VAIN = ("{x} and {y} trade blows to no effect", "{x} and {y} parry each other's blows")
QUIET_SHOTS = ("shots go wide", "nobody is hit", "the shots find nothing")
SAVED_ONE = ("a hit lands but is saved", "the one hit that lands is saved")
SAVED_MANY = ("{n} hits land but are saved", "{n} hits land, and every one is saved")
AGAIN_QUIET = ("for {n} {turns}, {what}",)


@dataclass(frozen=True, slots=True)
class Fact:
    """What one told line is to a scene (`role`, one of the roles above), and for a blow or
    a hit who struck whom and how many hits it landed; `shot`: fired, not struck."""

    role: str
    attacker: str = ""
    target: str = ""
    hits: int = 0
    shot: bool = False


@dataclass
class Blow:
    """One attack: who struck whom, how many hits landed; its lines (the attack and what the
    scene's sentence covers) and what followed from it (a wound, a death)."""

    attacker: str
    target: str
    hits: int
    lines: list[Line]
    after: list[Line] = field(default_factory=list)
    shot: bool = False
    at: int = 0  # its place among the turn's items
    saved: int = 0  # hits that landed and were taken back by a save

    @property
    def idle(self) -> bool:
        """Nothing landed and nothing followed."""
        return self.hits == 0 and not self.after

    @property
    def killed(self) -> bool:
        return any(line.loss for line in self.after)


@dataclass
class Scene:
    kind: str  # "joint", "exchange" or "single"
    blows: list[Blow]
    target: str = ""  # a joint attack's target

    def sentence(self, teller: Teller) -> str:
        """The scene as one sentence (no full stop); "" for a single blow."""
        if self.kind == "joint":
            return _joint(self.target, self.blows, teller)
        if self.kind == "exchange":
            return _exchange(self.blows, teller)
        return ""

    @property
    def names(self) -> list[str]:
        return list(dict.fromkeys(n for b in self.blows for n in (b.attacker, b.target)))


# -- words -------------------------------------------------------------------------------------
def _lands(teller: Teller, who: str) -> str:
    return teller.agree(who, "lands", "land")


def _result(blow: Blow, teller: Teller) -> str:
    if blow.hits == 0:
        owner = possessive(blow.attacker)
        return f"{owner} {'shot does no harm' if blow.shot else 'blows glance off'}"
    if blow.shot:
        hits = teller.agree(blow.attacker, "hits", "hit")
        return f"{blow.attacker} {hits} {teller.they(blow.target).object}"
    return f"{blow.attacker} {_lands(teller, blow.attacker)} {number(blow.hits)}"


def _joint(target: str, blows: list[Blow], teller: Teller) -> str:
    on = [b for b in blows if b.target == target]
    back = [b for b in blows if b.attacker == target]
    attackers = listing(dict.fromkeys(b.attacker for b in on))
    pool = VOLLEY if all(b.shot for b in on) else JOINT
    said = teller.say(pool, a=attackers, y=target)
    if all(b.hits == 0 for b in on):
        said += f", but {target} {teller.agree(target, 'comes', 'come')} through unhurt"
    else:
        said += ": " + ", ".join(_result(b, teller) for b in on)
    for b in back:
        p = teller.they(target)
        miss = "misses" if b.hits == 0 else f"lands {number(b.hits)}"
        if b.shot and b.hits:
            miss = f"hits {teller.they(b.target).object}"
        verb = "fires" if b.shot else "strikes"
        if any(teller.they(a.attacker) == p for a in on):  # "he" would not say which
            said += f"; {target} {teller.agree(target, verb, verb[:-1])} back at {b.target}"
            said += f" and {teller.agree(target, *_verbs(miss))}"
            continue
        said += f"; {p.subject} {p.verb(verb, verb[:-1])} back at {b.target}"
        said += f" and {p.verb(*_verbs(miss))}"
    return said


def _verbs(phrase: str) -> tuple[str, str]:
    """ "misses" -> ("misses", "miss"); "lands two" -> ("lands two", "land two")."""
    verb, _, rest = phrase.partition(" ")
    plural = verb[:-2] if verb.endswith("sses") else verb[:-1]
    return phrase, f"{plural} {rest}".strip()


def _exchange(blows: list[Blow], teller: Teller) -> str:
    first, *rest = blows
    shots = all(b.shot for b in blows)
    if all(b.hits == 0 for b in blows):
        if shots:
            return f"{first.attacker} and {first.target} trade shots to no effect"
        return teller.say(IN_VAIN, x=first.attacker, y=first.target)
    said = teller.say(DUEL if shots else TRADE, x=first.attacker, y=first.target) + ": "
    parts = [_named(first, teller)]
    for b in rest:
        p, q = teller.they(b.attacker), teller.they(b.target)
        if pronouns.THEY in (p, q) or p == q == pronouns.IT:  # "them", "it": say who
            parts.append(_named(b, teller))
        elif p == q:  # "his blows glance off him" would not say whose: name the striker
            parts.append(_named(b, teller).replace(f" {b.target}", f" {q.object}"))
        elif b.hits == 0:
            what = "shot misses" if b.shot else "blows glance off"  # his, her: not a name
            parts.append(f"{p.possessive} {what} {q.object}")
        elif b.shot:
            parts.append(f"{p.subject} {p.verb('hits', 'hit')} {q.object}")
        else:
            parts.append(f"{p.subject} {p.verb('lands', 'land')} {number(b.hits)} on {q.object}")
    return said + "; ".join(parts)


def _named(blow: Blow, teller: Teller) -> str:
    x, y = blow.attacker, blow.target
    if blow.hits == 0:
        return f"{possessive(x)} {'shot misses' if blow.shot else 'blows glance off'} {y}"
    if blow.hits == 1:
        verb = ("hits", "hit") if blow.shot else ("cuts", "cut")
        return f"{x} {teller.agree(x, *verb)} {y}"
    return f"{x} {_lands(teller, x)} {number(blow.hits)} {'hits' if blow.shot else 'blows'} on {y}"


# -- finding the scenes ------------------------------------------------------------------------
Item = Beat | Blow  # a turn's story in order: beats of their own, and blows


def items(section: Section, teller: Teller) -> list[Item]:
    """The turn's beats with every blow taken out as a `Blow`: the line that opens it, then
    the lines that follow from it (its hits, what the sentence covers, the rest of its beat,
    and the next beats while they carry on the blow)."""
    out: list[Item] = []
    blow: Blow | None = None
    for beat in section.beats:
        kept: list[Line] = []
        in_beat = False  # the open blow goes on in this beat
        for line in beat.lines:
            fact = teller.fact(line)
            role = fact.role if fact else ""
            if fact is not None and role == BLOW:
                if kept:
                    out.append(Beat(kept))
                    kept = []
                blow = Blow(
                    fact.attacker, fact.target, fact.hits, [line], shot=fact.shot, at=len(out)
                )
                out.append(blow)
                in_beat = True
            elif blow is not None and (role in FOLLOWS or in_beat):
                if role == HIT and fact is not None:
                    blow.hits += fact.hits
                    blow.saved -= min(fact.hits, 0)  # a save made takes a hit back
                (blow.lines if role in (HIT, TOLD) else blow.after).append(line)
                in_beat = True
            else:
                blow = None
                kept.append(line)
        if kept:
            out.append(Beat(kept))
        if not in_beat:
            blow = None
    return out


def _clear(found: list[Item], start: int, blow: Blow) -> bool:
    """May `blow` be told at `start` (with a scene begun there)? Not past a beat about its
    fighters (the attacker's own move) nor past any loss, so the deaths keep their order."""
    fighters = {blow.attacker, blow.target}
    for item in found[start + 1 : blow.at]:
        if isinstance(item, Blow):
            if item.killed:
                return False
        elif any(line.actor in fighters or line.loss for line in item.lines):
            return False
    return True


def scenes_of(blows: list[Blow], found: list[Item] | None = None) -> list[Scene]:
    """Joint attacks first (a target two or more struck, with its blows back at them), then
    exchanges (a struck b, b struck a), then single blows; in the order they began. A scene
    ends at its first death, and takes no blow it would tell before a beat about its
    fighters (`found`: the turn's items, in order)."""
    listed = found or []
    used: set[int] = set()
    scenes: list[tuple[int, Scene]] = []

    def takes(scene: list[int], j: int) -> bool:
        first = blows[scene[0]]
        ok = not any(blows[i].killed for i in scene)
        return ok and (not listed or _clear(listed, first.at, blows[j]))

    for i, b in enumerate(blows):
        if i in used:
            continue
        target = b.target
        mine = [i]
        for j in range(i + 1, len(blows)):  # the blows on the target, in turn
            if j not in used and blows[j].target == target and takes(mine, j):
                mine.append(j)
        attackers = {blows[k].attacker for k in mine}
        mine = [i]
        for j in range(i + 1, len(blows)):  # and the target's blows back at them
            c = blows[j]
            on = c.target == target or (c.attacker == target and c.target in attackers)
            if j not in used and on and takes(mine, j):
                mine.append(j)
        if len({blows[k].attacker for k in mine if blows[k].target == target}) >= 2:
            used |= set(mine)
            scenes.append((i, Scene("joint", [blows[k] for k in mine], target)))
    for i, b in enumerate(blows):
        if i in used:
            continue
        reply = next(
            (
                j
                for j in range(i + 1, len(blows))
                if j not in used
                and blows[j].attacker == b.target
                and blows[j].target == b.attacker
                and takes([i], j)
            ),
            None,
        )
        used.add(i)
        if reply is not None:
            used.add(reply)
            scenes.append((i, Scene("exchange", [b, blows[reply]])))
        else:
            scenes.append((i, Scene("single", [b])))
    return [scene for _, scene in sorted(scenes, key=lambda f: f[0])]


# -- telling a turn ----------------------------------------------------------------------------
def told(section: Section, teller: Teller, style: str) -> Section:
    """The turn as scenes (`style` brief: without the workings a reader can do without, and
    the scenes where nothing landed in one line, told where the first of them began)."""
    found = items(section, teller)
    blows = [item for item in found if isinstance(item, Blow)]
    scenes = scenes_of(blows, found)
    left_out: list[Line] = []
    idle: list[Scene] = []
    starts = {id(scene.blows[0]): scene for scene in scenes}
    beats: list[Beat] = []
    moved: Beat | None = None  # the beat of moves the next move joins
    idle_at = 0
    for item in found:
        if isinstance(item, Beat):
            if style == "brief":
                kept = [ln for ln in item.lines if not _role(teller, ln, ASIDE)]
                left_out += [ln for ln in item.lines if _role(teller, ln, ASIDE)]
                item = Beat(kept)
            moving = item.lines and all(_role(teller, ln, MOVE) for ln in item.lines)
            if moving and moved is not None and beats and moved is beats[-1]:
                beats[-1] = moved = Beat([*moved.lines, *item.lines])
            elif item.lines:
                beats.append(item)
                moved = item if moving else None
            continue
        scene = starts.get(id(item))
        if scene is None:
            continue  # told in the scene it joined
        if style == "brief" and all(b.idle for b in scene.blows):
            idle_at = len(beats) if not idle else idle_at
            idle.append(scene)
            continue
        beats += _beats(scene, teller, style)
    if idle:  # told where the first of them began
        beats.insert(idle_at, _idle(idle, teller))
    return Section(
        section.title,
        section.turn,
        beats,
        section.losses,
        [*left_out, *section.workings],
        section.first,
    )


def _nothing_landed(blows: list[Blow], teller: Teller) -> str:
    """What happened in attacks where nothing landed: misses, or hits a save took back
    (never "nobody is hit" when someone was, and saved)."""
    saved = sum(b.saved for b in blows)
    if saved:
        return teller.voice.pick(SAVED_ONE if saved == 1 else SAVED_MANY).format(n=saved)
    shots = bool(blows) and all(b.shot for b in blows)
    return teller.voice.pick(QUIET_SHOTS if shots else teller.quiet)


def _idle(idle: list[Scene], teller: Teller) -> Beat:
    """The scenes where nothing landed, in one line: "Between Tuze and Kuote, blades clash
    and nobody bleeds"; "Moss and Mako against Dusty; Tiny and Fang: shots go wide"."""
    lines = [line for scene in idle for b in scene.blows for line in b.lines]
    what = _nothing_landed([b for scene in idle for b in scene.blows], teller)
    pairs = [
        f"{listing(dict.fromkeys(b.attacker for b in sc.blows if b.target == sc.target))} "
        f"against {sc.target}"
        if sc.kind == "joint"
        else listing(sc.names)
        for sc in idle
    ]
    if len(pairs) == 1 and idle[0].kind != "joint":
        said = f"Between {pairs[0]}, {what}"
    else:
        said = f"{'; '.join(pairs)}: {what}"
    return Beat([joined(lines, sentence(said))])


def _beats(scene: Scene, teller: Teller, style: str) -> list[Beat]:
    if scene.kind == "single":
        blow = scene.blows[0]
        return [Beat([*blow.lines, *blow.after])]
    said = scene.sentence(teller)
    lines = [line for blow in scene.blows for line in blow.lines]
    after = [line for blow in scene.blows for line in blow.after]
    states = [line for line in after if _role(teller, line, STATE)]
    last: dict[str, str | None] = {}  # each target's last state
    for line in states:
        fact = teller.fact(line)
        last[fact.target if fact and fact.target else line.actor] = line.prose
    prose = said + "." + "".join(f" {sentence(p.rstrip('.'))}." for p in last.values() if p)
    deaths = [line for line in after if line.loss]
    stated = {id(line) for line in states}
    rest = [ln for ln in after if not ln.loss and id(ln) not in stated]  # what followed
    if style == "brief":
        rest = [line for line in rest if not _role(teller, line, ASIDE)]
    return [Beat([joined([*lines, *states], prose.rstrip(".")), *deaths, *rest])]


def _role(teller: Teller, line: Line, role: str) -> bool:
    fact = teller.fact(line)
    return fact is not None and fact.role == role


def quiet(section: Section, teller: Teller) -> bool:
    """No loss, no hit landed and nothing else worth a line: a turn of misses, asides and
    lulls."""
    if section.losses or not section.beats:
        return False
    for item in items(section, teller):
        if isinstance(item, Blow):
            if not item.idle:
                return False
        elif not all(_role(teller, ln, ASIDE) or _role(teller, ln, LULL) for ln in item.lines):
            return False
    return True


def brief_runs(sections: list[Section], teller: Teller) -> list[Section]:
    """The brief style's turns: runs of two or more quiet turns as one section of one line."""
    out: list[Section] = []
    run: list[Section] = []

    def flush() -> None:
        if len(run) < 2:
            out.extend(told(s, teller, "brief") for s in run)
        else:
            fought = [b for s in run for b in items(s, teller) if isinstance(b, Blow)]
            pairs = dict.fromkeys(" and ".join(sorted((b.attacker, b.target))) for b in fought)
            word, what = teller.turn_word, _nothing_landed(fought, teller)
            said = teller.say(AGAIN_QUIET, n=number(len(run)), turns=f"{word}s", what=what)
            if pairs:
                said += f" ({'; '.join(pairs)})"
            lines = [ln for s in run for ln in s.lines]
            title = f"{word.capitalize()}s {run[0].turn}-{run[-1].turn}"
            beat = Beat([joined(lines, said)])
            out.append(Section(title, run[-1].turn, [beat], [], [], run[0].turn))
        run.clear()

    for section in sections:
        if section.turn and quiet(section, teller):
            run.append(section)
            continue
        flush()
        out.append(told(section, teller, "brief"))
    flush()
    return out


AGAIN = ("Again, ", "Once more, ", "As before, ", "Yet again, ")
LOWER = frozenset({"The", "A", "An", "For", "Between", "Nothing", "Neither", "Fear", "That"})


def vary(sections: list[Section]) -> list[Section]:
    """A sentence the story already told is not told in the same words again: each repeat
    says it is one ("Again, Tutok and Keryx parry each other's blows", "Once more, ...")."""
    seen: dict[str, int] = {}
    for section in sections:
        for line in section.lines:
            if not line.prose:
                continue
            said = line.prose
            n = seen.get(said, 0)
            seen[said] = n + 1
            if n:
                first, _, rest = said.partition(" ")
                opening = first.lower() if first in LOWER else first
                line.prose = f"{AGAIN[(n - 1) % len(AGAIN)]}{opening} {rest}".rstrip()
    return sections


def tell(sections: list[Section], teller: Teller, style: str) -> list[Section]:
    """Every turn as scenes; in brief, quiet runs as one; no sentence twice in one battle."""
    if style == "brief":
        return vary(brief_runs(sections, teller))
    return vary([told(section, teller, style) for section in sections])
