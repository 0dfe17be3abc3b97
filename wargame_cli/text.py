"""Text from players and saves is shown literally: no markup, no terminal control codes."""

from __future__ import annotations

import re

_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, screen clears
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: titles, hyperlinks
    r"|\x1b[@-Z\\-_]"  # other two-character escapes
)
# C0 and C1 controls, then characters that hide or reorder text: soft hyphen, Arabic letter
# mark, Mongolian vowel separator, zero-width and direction marks, line/paragraph separators,
# invisible operators, the byte-order mark, interlinear annotations, and tag characters.
_HIDDEN = (
    "\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\ufeff\ufff9-\ufffb\U000e0000-\U000e007f"
)
_CONTROL = re.compile(f"[\x00-\x1f{_HIDDEN}]")
_JSON_UNSAFE = re.compile(f"[{_HIDDEN}]")  # json itself escapes C0 controls
_MARKUP = re.compile(r"\[/?[A-Za-z#@/][^\[\]]*\]")


def clean(text: object) -> str:
    """Remove control characters (ESC among them: rich passes it through untouched)."""
    return _CONTROL.sub("", _ESCAPE_SEQUENCE.sub("", str(text)))


def json_safe(text: str) -> str:
    """A JSON document with every invisible or control character written as a \\u escape:
    the same data, nothing a terminal acts on (they can only occur inside strings)."""

    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        if code > 0xFFFF:
            code -= 0x10000
            return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
        return f"\\u{code:04x}"

    return _JSON_UNSAFE.sub(escape, text)


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
