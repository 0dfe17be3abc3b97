"""The storyteller of battle reports: `Teller`, which a ruleset's `teller(save, voice)` hook
subclasses to tell events as prose (`Ruleset.teller`, `Ruleset.picture` and `Ruleset.chance`
are the report's hooks, declared with the others in `wargame_cli/ruleset.py`).

A ruleset without them still gets a report: every event told by its own text, no pictures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wargame_cli.errors import UnknownRuleset
from wargame_cli.kit import pronouns
from wargame_cli.kit.pronouns import Pronoun
from wargame_cli.report import voice as voice_pools
from wargame_cli.report.credit import Credit
from wargame_cli.report.voice import Voice

if TYPE_CHECKING:
    from wargame_cli.report.reading import Line, Section
    from wargame_cli.report.scenes import Fact

STYLES = ("full", "brief")  # `replay --style`: every blow, or a page
GONE_WORDS = {"fled", "escaped", "captured", "removed", "routed", "surrendered", "missing"}


@dataclass(frozen=True, slots=True)
class EditTold:
    """A table edit as the story tells it: its sentence in the world's words (None: only
    bookkeeping, listed apart), the figure it is about, and whether it felled that figure
    (`fell`) or took it off the field alive (`left`)."""

    prose: str | None
    who: str = ""
    fell: bool = False
    left: bool = False


@dataclass
class Hurt:
    """The damage a figure carries now, and its health when the log says it."""

    taken: int = 0
    health: int | None = None


class Teller:
    """Tells one event as a sentence of the story (plain text, unescaped), or None when the
    event is workings (dice, bookkeeping) shown only with the rules. This default tells every
    event by its own text."""

    # Event kinds listed in the aftermath; empty: the losses (deaths and those who left).
    tally_kinds: frozenset[str] = frozenset()
    tally_title = "Losses, in order:"
    no_tally = "No one fell."
    # The words for a turn where nothing landed ("For two turns, blows glance off shields").
    quiet: tuple[str, ...] = (
        "blows glance off shields",
        "neither side draws blood",
        "blades clash and nobody bleeds",
    )
    # The pronoun of a figure its team gives none (a unit of soldiers may be "it").
    default_pronoun: Pronoun = pronouns.THEY
    # Words in the text of a `damage` edit (the ruleset's own line) saying its figure fell.
    fell_words: tuple[str, ...] = ()
    # The words for damage taken: a count of blows ("4 wounds"), a share of health ("3 of
    # 10 damage", Seeds of Wars' "1 of 3 Ht").
    wound_word = "wound"
    health_word = "damage"

    def __init__(self, save: dict[str, Any], voice: Voice) -> None:
        self.save = save
        self.voice = voice
        names = save.get("setup", {}).get("names", {})
        self.sides = {s: str(names.get(s, f"Side {s}")) for s in ("A", "B")}  # sides' names
        self.turn = 0  # the turn being told, kept up by the reader
        self.turn_word = "turn"  # what the ruleset calls a turn ("round"), for the titles
        self.pronouns = _pronouns(save)  # a figure's name -> the pronoun its team gives it
        self.credit = Credit()  # who dealt whom how much, kept up as blows are told
        self.hurt: dict[str, Hurt] = {}  # the damage each figure carries, as told so far
        self.members = _cast(save)  # every named figure of the teams -> its side

    # -- what the story keeps of each figure -------------------------------------------
    def took(
        self, who: str, damage: int, total: int | None = None, health: int | None = None
    ) -> None:
        """`who` took `damage` (negative: healed); `total`, when the log states it, is the
        damage it now carries, and `health` what it can take."""
        if not who:
            return
        hurt = self.hurt.setdefault(who, Hurt())
        hurt.taken = max(0, total if total is not None else hurt.taken + damage)
        if health is not None:
            hurt.health = health

    def wounds(self, who: str) -> str:
        """The damage `who` carries in words ("3 of 10 damage", "2 wounds"), "" if none."""
        hurt = self.hurt.get(who)
        if hurt is None or hurt.taken <= 0:
            return ""
        if hurt.health:
            return f"{hurt.taken} of {hurt.health} {self.health_word}"
        return f"{hurt.taken} {self.wound_word}{'s' * (hurt.taken != 1)}"

    def roster(self) -> dict[str, str]:
        """Every figure the story knows of -> its side: the teams' named figures, and
        those the log showed (a mob's members)."""
        return dict(self.members)

    def band_of(self, who: str) -> str | None:
        """The band `who` is a numbered figure of ("Red Spears 2" of "Red Spears"), or None
        for a figure known by a name of its own. A band's figures are numbered afresh in
        each battle, so a chronicle follows the band from battle to battle, not the number."""
        return None

    def figure(self, word: str, text: str = "") -> str:
        """The figure an edit's word names, as the story names it: the known name the
        ruleset's line starts with (the word may be an id or lower case), else the name
        equal to the word in any case, else the word."""
        known = sorted(self.roster(), key=len, reverse=True)
        for name in known:
            if text.startswith(f"{name} ") or text == name:
                return name
        found = next((n for n in known if n.lower() == word.strip().lower()), None)
        return found if found is not None else self.name(word)

    def edit(self, entry: dict[str, Any]) -> EditTold:
        """A table edit in the story's words (the GM's hand is not named: the log's line and
        who made it are listed apart, as bookkeeping). A figure it felled falls as to a
        blow, credited to the figure a `credit=NAME` word named."""
        action = str(entry.get("action", ""))
        args = [str(a) for a in entry.get("args") or []]
        text = str(entry.get("text", ""))
        why = " ".join(str(entry.get("why", "")).split())
        cause = f" ({why})" if why else ""
        data = entry.get("data")
        by = str(data.get("credit", "")) if isinstance(data, dict) else ""
        by = self.figure(by) if by else ""
        if action == "die" or not args:
            return EditTold(None)
        if action == "end":
            return EditTold(f"The fighting stops{cause}")
        who = self.figure(args[0], text)
        if action in ("damage", "heal"):
            n = _count(args[1] if len(args) > 1 else "")
            if action == "heal":
                known = self.hurt.get(who)
                n = min(n, known.taken) if known is not None else n  # no more than it had
                self.took(who, -n)
                return EditTold(f"{who} recovers from {self._wounds(n)}{cause}", who)
            known = self.hurt.get(who)
            if known is not None and known.health:  # no more than it had left to lose
                n = min(n, max(0, known.health - known.taken))
            self.took(who, n)
            if by:
                self.credit.blow(who, by, n)
            fell = any(word in text for word in self.fell_words)
            hurt = f"{by} wounds {who}" if by else f"{who} is wounded"
            said = f"{hurt}{cause}: {self._wounds(n)}"
            if fell:
                said += f". {self.voice.say(voice_pools.STRUCK_DOWN, x=who)}"
            return EditTold(said, who, fell=fell)
        if action == "remove":
            how = args[1].lower() if len(args) > 1 else "killed"
            if how in GONE_WORDS:
                return EditTold(f"{who} {_gone(how)}{cause}", who, left=True)
            if by:
                self.credit.finish(who, by)
            said = f"{by} slays {who}" if by else self.voice.say(voice_pools.STRUCK_DOWN, x=who)
            return EditTold(f"{said}{cause}", who, fell=True)
        if action == "move":
            return EditTold(f"{who} turns up elsewhere on the field{cause}", who)
        if action == "add":
            return EditTold(f"{_first(text)} joins the battle{cause}", _first(text))
        return EditTold(f"{text[:1].upper()}{text[1:]}{cause}", who)

    def _wounds(self, n: int) -> str:
        return f"{n} {self.wound_word}{'s' * (n != 1)}"

    def fallen_by_edit(self, told: EditTold, entry: dict[str, Any]) -> str:
        """A figure an edit felled, as the Aftermath lists it: its killer when credited,
        and the cause the edit gave."""
        from wargame_cli.report.credit import fallen

        why = " ".join(str(entry.get("why", "")).split())
        if told.left:
            return f"{told.who}, left the field" + (f": {why}" if why else "")
        authors = self.credit.authors(told.who)
        if not authors:
            return f"{told.who}, struck down" + (f": {why}" if why else "")
        return fallen(told.who, authors, why, self.wound_word)

    def tell(self, kind: str, data: dict[str, Any], text: str) -> str | None:
        return text

    def fact(self, line: Line) -> Fact | None:
        """What a told line is to a scene (`wargame_cli.report.scenes`): a blow opened (who
        struck whom, hits landed), hits added to it, a part its sentence covers, a line the
        brief style may leave out; None: a line of its own. By default none: no scenes."""
        return None

    def scenes(self, sections: list[Section], style: str) -> list[Section]:
        """The turns as the report tells them in `style` (one of `STYLES`): the turn's
        blows as scenes (`fact` says which lines are blows) and, in brief, quiet turns in
        one line; the same shared telling for every ruleset."""
        from wargame_cli.report import scenes

        return scenes.tell(sections, self, style)

    def name(self, key: object) -> str:
        """A figure or unit as the story names it ("A4" is "A4 Archers"); by default the key."""
        return str(key)

    def plural(self, name: object) -> bool:
        """Does a name take a plural verb ("Red Spears press on")? A mob's does."""
        return False

    def agree(self, name: object, singular: str, plural: str) -> str:
        """The verb form that agrees with a name: `agree("Red Spears", "turns", "turn")`."""
        return plural if self.plural(name) else singular

    def fallen(self, kind: str, data: dict[str, Any], told: str) -> str:
        """A loss as the Aftermath lists it (`told`: the story's sentence for it); a ruleset
        names the killer here."""
        return told

    def they(self, name: object) -> Pronoun:
        """The pronoun of a named figure: its team's, or singular they."""
        return self.pronouns.get(str(name), self.default_pronoun)

    def forms(self, **names: object) -> dict[str, object]:
        """Names for a phrase with their pronouns: `x="Kuote"` adds `xs` (she), `xo` (her),
        `xp` (her), `x_is` ("is"/"are" as the pronoun wants) and `xv`, a verb agreeing
        with the name: `{xv:holds|hold}` ("Red Spears hold")."""
        out: dict[str, object] = dict(names)
        for key, name in names.items():
            p = self.they(name)
            out |= {f"{key}s": p.subject, f"{key}o": p.object, f"{key}p": p.possessive}
            out[f"{key}_is"] = p.verb("is", "are")
            out[f"{key}v"] = _Agree(self.plural(name))
        return out

    def say(self, pool: Sequence[str], **names: object) -> str:
        """The voice's next phrase of `pool`, with the named figures' pronouns at hand."""
        return self.voice.say(pool, **self.forms(**names))

    def pieces(self, key: str, label: Callable[[str, dict[str, Any]], str]) -> dict[str, str]:
        """Each side's pieces by id (A1, A2, ... B1, ...): the team's list `key` in the save,
        each named by `label(id, piece)`; anything malformed is left out."""
        cast: dict[str, str] = {}
        for side in ("A", "B"):
            team = self.save.get("setup", {}).get("teams", {}).get(side) or {}
            listed = team.get(key, []) if isinstance(team, dict) else []
            for i, piece in enumerate(listed):
                if isinstance(piece, dict):
                    cast[f"{side}{i + 1}"] = label(f"{side}{i + 1}", piece)
        return cast


@dataclass(frozen=True, slots=True)
class _Agree:
    """A verb in a phrase, `{xv:holds|hold}`: the form that agrees with the name."""

    plural: bool

    def __format__(self, spec: str) -> str:
        singular, _, plural = spec.partition("|")
        return plural if self.plural and plural else singular


def _count(word: str) -> int:
    try:
        return max(0, int(word))
    except ValueError:
        return 0


def _gone(how: str) -> str:
    """A figure off the field alive, in words: "flees the field", "is captured"."""
    return {
        "fled": "flees the field",
        "escaped": "slips away from the field",
        "captured": "is taken captive",
        "routed": "breaks and runs from the field",
        "surrendered": "surrenders",
        "missing": "goes missing",
        "removed": "is taken from the field",
    }.get(how, f"leaves the field ({how})")


def _first(text: str) -> str:
    """The name an `add` edit's line begins with ("Wolf 5 (Wolf) joins side B ...")."""
    return text.split(" joins ", 1)[0].split(" (", 1)[0].strip() or text


def _cast(save: dict[str, Any]) -> dict[str, str]:
    """Every named figure in the teams' lists (models, characters, soldiers, mobs) -> its
    side."""
    out: dict[str, str] = {}
    for side, team in (save.get("setup", {}).get("teams") or {}).items():
        lists = team.values() if isinstance(team, dict) else [team]
        for listed in lists:
            for piece in listed if isinstance(listed, list) else []:
                if isinstance(piece, dict) and isinstance(piece.get("name"), str):
                    out.setdefault(piece["name"], str(side))
    return out


def _pronouns(save: dict[str, Any]) -> dict[str, Pronoun]:
    """Every named figure of both teams that carries a `pronoun`, whatever list its team
    keeps it in (models, miniatures, characters)."""
    out: dict[str, Pronoun] = {}
    for side, team in (save.get("setup", {}).get("teams") or {}).items():
        said = team.get("pronouns") if isinstance(team, dict) else None
        for name, value in said.items() if isinstance(said, dict) else ():
            out[str(name)] = pronouns.of(value)
        lists = team.values() if isinstance(team, dict) else [team]
        for listed in lists:
            for piece in listed if isinstance(listed, list) else []:
                if (
                    isinstance(piece, dict)
                    and isinstance(piece.get("name"), str)
                    and ("pronoun" in piece)
                ):
                    p = pronouns.of(piece["pronoun"])
                    out[piece["name"]] = out[f"{piece['name']} ({side})"] = p
    return out


def teller(save: dict[str, Any]) -> Teller:
    """The save's ruleset's storyteller, or the plain one (a save of a ruleset that is not
    installed: every event by its own text, turns called turns)."""
    from wargame_cli import registry

    voice = Voice(save.get("seed", 0))
    try:
        ruleset = registry.get(str(save.get("ruleset", {}).get("id", "")))
    except UnknownRuleset:
        return Teller(save, voice)
    made = ruleset.teller(save, voice) or Teller(save, voice)
    made.turn_word = ruleset.turn_word
    return made
