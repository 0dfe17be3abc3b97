"""Small pieces of English every ruleset and view shares, so that no text reads "1 units",
"Knights's" or "Swords wins"."""

from __future__ import annotations

import math


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`1 unit`, `2 units`; `plural(1, "die", "dice")` for irregular nouns."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def possessive(name: str) -> str:
    """`Ann's`, `Knights'`: a name ending in s takes the apostrophe alone."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def victory(name: str) -> str:
    """The heading of a won game: reads right for plural team names ("Victory to Swords")."""
    return f"Victory to {name}"


def percent(p: float) -> str:
    """A chance for players, the one way every menu, card and report writes it: whole
    percents, but only a sure thing reads 100% and only an impossible one 0% (99.5% reads
    99.5%, 0.4% reads 0.4%; nearer still, >99.9% and <0.1%)."""
    if p >= 1.0 or p <= 0.0:
        return "100%" if p >= 1.0 else "0%"
    whole = round(p * 100)
    if 0 < whole < 100:
        return f"{whole}%"
    if whole >= 100:
        return f"{math.floor(p * 1000) / 10:.1f}%" if p < 0.999 else ">99.9%"
    return f"{math.ceil(p * 1000) / 10:.1f}%" if p > 0.001 else "<0.1%"


def fine_percent(p: float) -> str:
    """A chance to two decimals, for odds tables (`wargame dice`): only a sure thing reads
    100.00% and only an impossible one 0.00% (nearer still, >99.99% and <0.01%)."""
    shown = f"{100 * p:.2f}%"
    if shown == "100.00%" and p < 1:
        return ">99.99%"
    if shown == "0.00%" and p > 0:
        return "<0.01%"
    return shown


def either(names: list[str]) -> str:
    """`A`, `A or B`, `A, B or C`: choices offered in a sentence."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
