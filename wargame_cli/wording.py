"""Small pieces of English every ruleset and view shares, so that no text reads "1 units",
"Knights's" or "Swords wins"."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`1 unit`, `2 units`; `plural(1, "die", "dice")` for irregular nouns."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def possessive(name: str) -> str:
    """`Ann's`, `Knights'`: a name ending in s takes the apostrophe alone."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def victory(name: str) -> str:
    """The heading of a won game: reads right for plural team names ("Victory to Swords")."""
    return f"Victory to {name}"
