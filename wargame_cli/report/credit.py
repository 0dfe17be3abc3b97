"""Who brought a death about: the damage every attacker dealt every target, as the story
tells the blows, so a death at a health check names its authors as one in combat does.

A ruleset's teller records each blow (`Credit.blow`) as it tells it; at a death it asks
`Credit.authors` (most damaging first, ties by who struck first) and words them with `by`."""

from __future__ import annotations

from dataclasses import dataclass, field

from wargame_cli import wording
from wargame_cli.report.voice import listing


@dataclass
class Credit:
    """Damage dealt, target by target, attacker by attacker (in the order they first hit)."""

    dealt: dict[str, dict[str, int]] = field(default_factory=dict)
    last: dict[str, str] = field(default_factory=dict)  # target -> who struck it last

    def blow(self, target: str, attacker: str, damage: int = 1) -> None:
        if not target or not attacker or damage <= 0:
            return
        by = self.dealt.setdefault(target, {})
        by[attacker] = by.get(attacker, 0) + damage
        self.last[target] = attacker

    def finish(self, target: str, attacker: str) -> None:
        """`attacker` finished `target` without a counted wound (a table edit's `remove`
        credited to it): it is among the authors, first when none did more."""
        if target and attacker:
            self.dealt.setdefault(target, {}).setdefault(attacker, 0)
            self.last[target] = attacker

    def authors(self, target: str) -> list[tuple[str, int]]:
        """(attacker, damage) for everyone who hurt `target`, the most damaging first."""
        by = self.dealt.get(target, {})
        order = list(by)
        return sorted(by.items(), key=lambda item: (-item[1], order.index(item[0])))

    def killer(self, target: str) -> str:
        """The one who did the most (the first of equals), or "" when no blow is known."""
        found = self.authors(target)
        return found[0][0] if found else ""


def by(authors: list[tuple[str, int]], unit: str = "wound") -> str:
    """The authors in words, for after a death: "at Keryx's hands (6 wounds)", "at the hands
    of Tuze (3 wounds) and Eyox (2)"; "" when nobody is known."""
    if not authors:
        return ""

    def count(n: int) -> str:
        return f" ({n} {unit}{'s' * (n != 1)})" if n else ""

    if len(authors) == 1:
        who, n = authors[0]
        return f"at {wording.possessive(who)} hands{count(n)}"
    first, *rest = authors
    others = [f"{who} ({n})" for who, n in rest]
    return f"at the hands of {listing([f'{first[0]}{count(first[1])}', *others])}"


def killed_by(authors: list[tuple[str, int]], unit: str = "wound") -> str:
    """For the Aftermath: "killed by Keryx (6 wounds)", "killed by Eyox (4 wounds) and Tuze
    (2)"; "no blow of the story's felled it" when none is known."""
    if not authors:
        return "felled by no blow the story saw"
    first, *rest = authors
    n = first[1]
    count = f" ({n} {unit}{'s' * (n != 1)})" if n else ""
    return "killed by " + listing([f"{first[0]}{count}", *(f"{w} ({k})" for w, k in rest)])


def credited(said: str, authors: list[tuple[str, int]], unit: str = "wound") -> str:
    """A death's sentence with its authors after it: "Tutok bleeds out, at Keryx's hands
    (6 wounds)"."""
    named = by(authors, unit)
    return f"{said}, {named}" if named else said


def fallen(name: str, authors: list[tuple[str, int]], how: str = "", unit: str = "wound") -> str:
    """An Aftermath entry: "Tutok, killed by Keryx (6 wounds); died of his wounds"."""
    return f"{name}, {killed_by(authors, unit)}" + (f"; {how}" if how else "")
