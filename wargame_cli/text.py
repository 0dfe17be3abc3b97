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


_SHELL_PLAIN = re.compile(r"[\w@%+=:,./-]+")  # a word a shell takes as it stands
_C_ESCAPES = {"\x1b": "\\e", "\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escaped(code: int) -> str:
    if code < 0x80:
        return f"\\x{code:02x}"
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, as Python reads file names
        return f"\\x{code - 0xDC00:02x}"
    return f"\\U{code:08x}"


def shown(path: object) -> str:
    """THE way a path or file name is printed, anywhere: as a shell word that names exactly
    that file, so a `Replay it with: wargame replay …` line can be copied as it is. A plain
    name as it stands; one with spaces or quotes in single quotes; one with any control or
    invisible character as `$'…'`, each such character written as an escape (`\\e`, `\\x07`,
    `\\U0000200b`; see `visible`): nothing a terminal would act on reaches it."""
    text = str(path)
    if _SHELL_PLAIN.fullmatch(text) and not _CONTROL.search(text):
        return text
    if not _hidden(text):
        return "'" + text.replace("'", "'\\''") + "'"
    return "$'" + _escapes(text, quote=True) + "'"


def visible(text: object) -> str:
    """A line with every control or invisible character written as the escape `shown` uses
    for it (`\\e`, `\\a`, `\\x07`, `\\U0000200b`): for error lines, which may name a file
    in their own words."""
    text = str(text)
    return _escapes(text, quote=False) if _hidden(text) else text


def _hidden(text: str) -> bool:
    return bool(_CONTROL.search(text)) or not all(c.isprintable() for c in text)


def _escapes(text: str, quote: bool) -> str:
    out = []
    for char in text:
        if quote and char in "\\'":
            out.append("\\" + char)
        elif char in _C_ESCAPES:
            out.append(_C_ESCAPES[char])
        elif _CONTROL.match(char) or not char.isprintable():
            out.append(_escaped(ord(char)))
        else:
            out.append(char)
    return "".join(out)


def control_problem(text: str) -> str | None:
    """Why text typed in to be kept (a name, an edit's words and reason) is refused: a
    control character (a newline among them), a terminal escape, or a character that hides
    or reorders text; or a byte that is not UTF-8. None: it may be kept."""
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return "it is not UTF-8 text"
    if _CONTROL.search(text):
        return "it cannot contain control characters, newlines or terminal escapes"
    return None


def name_problem(name: str) -> str | None:
    """Why a player-given name is refused (markup or terminal escapes), or None."""
    if not name.strip():
        return "a name cannot be empty"
    if control_problem(name):
        return "a name cannot contain control characters or terminal escapes"
    if _MARKUP.search(name):
        return "a name cannot contain [markup] tags"
    if len(name) > 40:
        return "a name has at most 40 characters"
    return None


_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)


def whole_number(text: str) -> int | None:
    """The whole number `text` is written as in plain digits 0-9 (blanks around it allowed),
    else None: never Python's looser reading (`1_000`, digits of other scripts)."""
    text = text.strip()
    return int(text) if _WHOLE.fullmatch(text) else None


def decimal_number(text: str) -> float | None:
    """A number written plainly (`12`, `-3.5`, `.5`), else None: no `1_000`, no exponent,
    no digits of other scripts, no inf or nan."""
    text = text.strip()
    return float(text) if _DECIMAL.fullmatch(text) else None


SIDE_STYLE = {"A": "bold cyan", "B": "bold red"}  # every view colours the sides alike
