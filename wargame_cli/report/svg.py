"""SVG by plain templates: every piece of text and every attribute goes through `html.escape`,
so a name from a save can never become markup. No dependency, no script, nothing external."""

from __future__ import annotations

from html import escape
from typing import Any

from wargame_cli.text import clean

# Side colours in the pictures (the terminal's cyan and red, darkened to print well).
SIDE_FILL = {"A": "#1f77b4", "B": "#c0392b"}
DOWN_FILL = "#9a9a9a"


def _attrs(attrs: dict[str, Any]) -> str:
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = f"{value:.2f}".rstrip("0").rstrip(".")
        out.append(f' {key.rstrip("_").replace("_", "-")}="{escape(str(value), quote=True)}"')
    return "".join(out)


def tag(name: str, body: str = "", **attrs: Any) -> str:
    """`<name attrs>body</name>`: `body` is markup already made by these functions."""
    return f"<{name}{_attrs(attrs)}>{body}</{name}>" if body else f"<{name}{_attrs(attrs)}/>"


def text(value: object, **attrs: Any) -> str:
    """A `<text>` element: the words escaped (control characters removed first)."""
    return f"<text{_attrs(attrs)}>{escape(clean(value))}</text>"


def title(value: object) -> str:
    """A tooltip for the element it is in."""
    return f"<title>{escape(clean(value))}</title>"


def svg(width: float, height: float, body: str, label: str) -> str:
    """A whole picture, sized in pixels, with an accessible name."""
    return tag(
        "svg",
        title(label) + body,
        xmlns="http://www.w3.org/2000/svg",
        width=round(width),
        height=round(height),
        viewBox=f"0 0 {round(width)} {round(height)}",
        role="img",
        aria_label=clean(label),
    )
