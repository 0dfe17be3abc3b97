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
from wargame_cli.report.credit import Credit
from wargame_cli.report.voice import Voice

if TYPE_CHECKING:
    from wargame_cli.report.reading import Line, Section
    from wargame_cli.report.scenes import Fact

STYLES = ("full", "brief")  # `replay --style`: every blow, or a page


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

    def __init__(self, save: dict[str, Any], voice: Voice) -> None:
        self.save = save
        self.voice = voice
        names = save.get("setup", {}).get("names", {})
        self.sides = {s: str(names.get(s, f"Side {s}")) for s in ("A", "B")}  # sides' names
        self.turn = 0  # the turn being told, kept up by the reader
        self.turn_word = "turn"  # what the ruleset calls a turn ("round"), for the titles
        self.pronouns = _pronouns(save)  # a figure's name -> the pronoun its team gives it
        self.credit = Credit()  # who dealt whom how much, kept up as blows are told

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
