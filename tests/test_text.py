"""Text from players and saves: escape sequences and control characters never reach the
terminal; names with markup or escapes are refused at input."""

from __future__ import annotations

import pytest

from wargame_cli.text import clean, name_problem, safe


@pytest.mark.parametrize(
    "raw,shown",
    [
        ("Bad\x1b[2J\x07Name", "BadName"),
        ("a\x1b]0;owned\x07b", "ab"),
        ("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),
        ("x\x1b[1;31mred\x1b[0m", "xred"),
        ("tab\there\r\n", "tabhere"),
        ("\u202eevil", "evil"),
        ("[bold]kept[/]", "[bold]kept[/]"),
    ],
)
def test_clean_removes_escapes_and_controls(raw, shown):
    assert clean(raw) == shown


def test_safe_escapes_markup():
    from rich.text import Text

    assert Text.from_markup(safe("[bold]x[/]")).plain == "[bold]x[/]"


@pytest.mark.parametrize("name", ["[red]x[/]", "a\x1b[2Jb", "", "x" * 41])
def test_names_refused(name):
    assert name_problem(name)


@pytest.mark.parametrize("name", ["Greentoe", "Mira [the Bold", "Ana-Lu 2", "Ünsal"])
def test_names_accepted(name):
    assert name_problem(name) is None
