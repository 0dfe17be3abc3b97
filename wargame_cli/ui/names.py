"""Two sides never share a name: the same letters, whatever the case or surrounding spaces."""

from __future__ import annotations


def same_name(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def distinct_default(name: str, other: str, side: str) -> str:
    """A default name made distinct from the other side's (both sides took the same preset)."""
    return f"{name.strip()} ({side})" if same_name(name, other) else name
