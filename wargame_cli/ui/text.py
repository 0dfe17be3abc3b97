"""Text from players and saves is shown literally: no markup, no terminal control codes."""

from __future__ import annotations

import re

_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, screen clears
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: titles, hyperlinks
    r"|\x1b[@-Z\\-_]"  # other two-character escapes
)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
_MARKUP = re.compile(r"\[/?[A-Za-z#@/][^\[\]]*\]")


def clean(text: object) -> str:
    """Remove control characters (ESC among them: rich passes it through untouched)."""
    return _CONTROL.sub("", _ESCAPE_SEQUENCE.sub("", str(text)))


def safe(text: object) -> str:
    """`clean`, then rich markup escaped: for text placed inside markup strings."""
    from rich.markup import escape

    return escape(clean(text))


def name_problem(name: str) -> str | None:
    """Why a player-given name is refused (markup or terminal escapes), or None."""
    if not name.strip():
        return "a name cannot be empty"
    if _CONTROL.search(name):
        return "a name cannot contain control characters or terminal escapes"
    if _MARKUP.search(name):
        return "a name cannot contain [markup] tags"
    if len(name) > 40:
        return "a name has at most 40 characters"
    return None


SIDE_STYLE = {"A": "bold cyan", "B": "bold red"}  # every view colours the sides alike
