"""Formatted text (prompt_toolkit tokens) wrapped at word boundaries: an option's label is
never cut mid-word, and its later rows start under its text."""

from __future__ import annotations


def _breaks(line: str, width: int, indent: int) -> list[tuple[int, int]]:
    """Where a line wraps at `width` (later rows start after `indent`): (end, next start)
    pairs, at spaces when there is one, so words stay whole."""
    out: list[tuple[int, int]] = []
    start, limit = 0, width
    while len(line) - start > limit and limit > 0:
        cut = line.rfind(" ", start + 1, start + limit + 1)
        if cut <= start:
            cut, after = start + limit, start + limit
        else:
            after = cut + 1
        out.append((cut, after))
        start, limit = after, width - indent
    return out


def wrap_tokens(tokens: list[tuple[str, str]], width: int, indent: int) -> list[tuple[str, str]]:
    """Formatted text wrapped at word boundaries; a wrapped row starts under the text."""
    lines: list[list[tuple[str, str]]] = [[]]
    for style, text in tokens:
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if i:
                lines.append([])
            if part or style.startswith("["):
                lines[-1].append((style, part))
    out: list[tuple[str, str]] = []
    for number, line in enumerate(lines):
        if number:
            out.append(("", "\n"))
        breaks = _breaks("".join(text for _, text in line), width, indent)
        if not breaks:
            out.extend(line)
            continue
        position = 0
        queue = list(breaks)
        for style, text in line:
            for char in text:
                if queue and position == queue[0][0]:
                    out.append(("", "\n" + " " * indent))
                if queue and queue[0][0] <= position < queue[0][1]:
                    pass  # the space a row breaks at
                else:
                    out.append((style, char))
                position += 1
                if queue and position >= queue[0][1]:
                    queue.pop(0)
            if not text:
                out.append((style, text))
    return _merge(out)


def _merge(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for style, text in tokens:
        if out and out[-1][0] == style and not style.startswith("["):
            out[-1] = (style, out[-1][1] + text)
        else:
            out.append((style, text))
    return out


def rows(tokens: list[tuple[str, str]]) -> int:
    return 1 + sum(text.count("\n") for _, text in tokens)
