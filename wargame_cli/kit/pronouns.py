"""Pronouns a model or character may carry in its team (`pronoun = "she"`, or inline
`Kuote:5 (she)`), for the battle report's prose only: the rules never read them.

A pronoun is written as one of the common words (she, he, they, it, or their pairs like
`she/her`) or as a custom set `SUBJECT/OBJECT/POSSESSIVE` (`xe/xem/xyr`). Team data keeps
the written form, trimmed and lower-cased, so a save shows what the player wrote."""

from __future__ import annotations

import re
from dataclasses import dataclass

from wargame_cli.errors import TeamError


@dataclass(frozen=True, slots=True)
class Pronoun:
    """The words the story uses for one figure."""

    subject: str  # she
    object: str  # her
    possessive: str  # her (sword)
    plural: bool = False  # they *are*, they *fight*

    def verb(self, singular: str, plural: str) -> str:
        """The verb form that agrees: `verb("is", "are")`."""
        return plural if self.plural else singular


SHE = Pronoun("she", "her", "her")
HE = Pronoun("he", "him", "his")
THEY = Pronoun("they", "them", "their", plural=True)
IT = Pronoun("it", "it", "its")
COMMON = {"she": SHE, "he": HE, "they": THEY, "it": IT}
# The pairs people write: `she/her`, `he/him`, `they/them`, `it/its`.
PAIRS = {f"{p.subject}/{p.object}": p for p in COMMON.values()} | {"it/its": IT}
_WORD = re.compile(r"[a-z][a-z'-]{0,15}")

HELP = (
    "A model may carry a pronoun for the battle report: she, he, they, it, or a custom "
    "set SUBJECT/OBJECT/POSSESSIVE such as xe/xem/xyr"
)


def normal(value: object, who: str = "") -> str:
    """The pronoun as team data keeps it (trimmed, lower case), or `TeamError`."""
    where = f"{who}: " if who else ""
    if not isinstance(value, str):
        raise TeamError(f"{where}pronoun {value!r}: {HELP.lower()}")
    text = "/".join(part.strip() for part in value.strip().lower().split("/"))
    if text in COMMON or text in PAIRS:
        return text
    parts = text.split("/")
    if len(parts) == 3 and all(_WORD.fullmatch(p) for p in parts):
        return text
    raise TeamError(f"{where}pronoun {value!r}: {HELP.lower()}")


def of(value: object) -> Pronoun:
    """The words for a pronoun as team data keeps it; singular they for anything else."""
    if not isinstance(value, str):
        return THEY
    text = value.strip().lower()
    if text in COMMON:
        return COMMON[text]
    if text in PAIRS:
        return PAIRS[text]
    parts = text.split("/")
    if len(parts) == 3 and all(_WORD.fullmatch(p) for p in parts):
        return Pronoun(parts[0], parts[1], parts[2])
    return THEY
