"""Remote play's lines about the connection, as a person reads them at a terminal."""

from __future__ import annotations

import io

from rich.console import Console

from wargame_cli.cli import remote

LINE = (
    "Hosting Super Toy Soldier Squad Alpha (version 4) as side A. Give the other player this line:"
)


def _told(monkeypatch, terminal: bool) -> str:
    out = io.StringIO()
    shown = Console(file=out, width=80, force_terminal=terminal, color_system=None)
    monkeypatch.setattr(remote, "console", lambda: shown)
    remote.tell_for(remote.Local())(LINE)
    return out.getvalue()


def test_a_line_wraps_at_words_at_an_80_column_terminal(monkeypatch):
    told = _told(monkeypatch, terminal=True)
    rows = told.splitlines()
    assert len(rows) == 2 and all(len(row) <= 80 for row in rows)
    assert "player" in rows[0].split() or "player" in rows[1].split()  # never 'play|er'
    assert " ".join(row.strip() for row in rows) == LINE


def test_a_piped_line_stays_one_line(monkeypatch):
    assert _told(monkeypatch, terminal=False).splitlines() == [LINE]
