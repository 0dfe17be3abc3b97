"""Team text as every ruleset reads it: entries separated by commas, each with an optional
count. One count grammar for all: `3 Trooper`, `3x Trooper`, `3 x Trooper` and `Trooper x3`
(or `Trooper x 3`, `Trooperx3`) all mean three of them; what an entry names is the
ruleset's business."""

from __future__ import annotations

import re
from dataclasses import dataclass

from wargame_cli.errors import TeamError

# A leading count is digits, an optional x, then a space: `3 Trooper`, `3x Trooper`.
_LEADING = re.compile(r"(\d+)\s*x?\s+(.+)", flags=re.I)
# A trailing count is an x, then digits that end the entry: `Trooper x3`, `Trooperx3`.
_TRAILING = re.compile(r"(.+?)\s*x\s*(\d+)", flags=re.I)


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of team text: what it names and how many (1 when no count is written)."""

    text: str  # the entry without its count, trimmed
    count: int = 1
    counted: bool = False  # a count was written (`1 Trooper` is counted, `Trooper` is not)


def parts(text: str) -> list[str]:
    """The entries of `text` as written: split at commas, trimmed, empty ones skipped."""
    return [part for part in (p.strip() for p in text.split(",")) if part]


def counted(part: str) -> Entry:
    """An entry with its count read off: a leading count, or else a trailing one; both at
    once, or a count of 0, is refused (`TeamError`)."""
    part = part.strip()
    match = _LEADING.fullmatch(part)
    if match is not None:
        count, rest = int(match.group(1)), match.group(2).strip()
        if _TRAILING.fullmatch(rest):
            raise TeamError(f"{part!r}: two counts; write one, before or after the name")
    elif (match := _TRAILING.fullmatch(part)) is not None:
        count, rest = int(match.group(2)), match.group(1).strip()
    else:
        return Entry(part)
    if count < 1:
        raise TeamError(f"{part!r}: a count of {count}; leave the entry out instead")
    return Entry(rest, count, counted=True)


def entries(text: str) -> list[Entry]:
    """Every entry of `text` with its count (`parts`, then `counted`)."""
    return [counted(part) for part in parts(text)]


def counts_help(example: str) -> str:
    """The count grammar in a ruleset's team syntax, shown by `wargame rules ID`, on the
    ruleset's own `example` entry."""
    return (
        f'A count before or after an entry adds that many: "3 {example}", "3x {example}" and '
        f'"{example} x3" are all three (a leading number is always a count).'
    )


# A pronoun ends an entry in parentheses: `Kuote:5 (she)`, `Hawk regular 2 (xe/xem/xyr)`.
_PRONOUN = re.compile(r"(.*?)\s*\(\s*([^()]*?)\s*\)")


def pronounced(part: str) -> tuple[str, str | None]:
    """An entry and the pronoun written after it in parentheses (checked and normalised,
    `pronouns.normal`), or None when it names none."""
    from wargame_cli.kit import pronouns

    match = _PRONOUN.fullmatch(part.strip())
    if match is None:
        return part.strip(), None
    rest = match.group(1).strip()
    return rest, pronouns.normal(match.group(2), rest)


def pronoun_help(example: str) -> str:
    """The pronoun grammar in a ruleset's team syntax (`wargame rules ID`)."""
    return (
        f' A pronoun for the battle report may follow an entry in parentheses: "{example} (she)"; '
        'she, he, they, it, or a custom set such as (xe/xem/xyr); in a team file, `pronoun = "she"`'
        " (the rules never read it)."
    )


def spoken(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Team text without its pronouns, and (entry, pronoun) for each entry that had one (the
    entry without its count), for rulesets whose teams list types rather than named models
    and keep a team's pronouns by name (`pronouns_by_name`)."""
    plain, said = [], []
    for part in parts(text):
        rest, pronoun = pronounced(part)
        plain.append(rest)
        if pronoun is not None:
            said.append((counted(rest).text, pronoun))
    return ", ".join(plain), said


def pronouns_by_name(data: object) -> dict[str, str]:
    """A team file's or saved team's `pronouns = {NAME = "she"}`, checked (`TeamError`)."""
    from wargame_cli.kit import pronouns

    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        raise TeamError('`pronouns` is a table of names, e.g. pronouns = { Asar = "he" }')
    return {name: pronouns.normal(value, name) for name, value in data.items()}
