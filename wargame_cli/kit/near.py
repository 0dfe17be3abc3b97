"""Names that come close to a mistyped one (`--team-b Bravo` for "Bravo Squad"), so that a
refusal can say what the player probably meant."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

COMMON = frozenset({"the", "team", "of", "and", "squad"})  # words too common to point at a name


def plain(name: str) -> str:
    """A name with case, spaces and punctuation aside: how names are matched."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def near_names(wanted: str, names: Iterable[str], limit: int = 3) -> list[str]:
    """The names close to `wanted` (but not equal to it), closest first: one of a name's words,
    the start of the name, or a near spelling of it."""
    key = plain(wanted)
    if not key:
        return []
    scored: list[tuple[float, str]] = []
    for name in names:
        whole = plain(name)
        if whole == key:
            continue
        words = [plain(word) for word in name.split()]
        if len(key) < 3:
            words = []
        if (key in words and key not in COMMON) or (len(key) >= 3 and whole.startswith(key)):
            scored.append((2.0, name))
            continue
        ratio = difflib.SequenceMatcher(None, key, whole).ratio()
        if ratio >= 0.75:
            scored.append((ratio, name))
    scored.sort(key=lambda pair: -pair[0])
    return [name for _, name in scored[:limit]]
