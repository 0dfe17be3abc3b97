"""The two sides of every game, "A" and "B", and each one's opponent."""

from __future__ import annotations

SIDES = ("A", "B")
_OPPONENT = {"A": "B", "B": "A"}


def other(side: str) -> str:
    """The opposing side: `other("A") == "B"`; a KeyError for anything but a side."""
    return _OPPONENT[side]
