"""A bigger terminal gets a bigger board in a ruleset without the one map: Seeds of Wars'
grid at 120x45 is drawn with every space a box and each unit's name and state, the rows
labelled and each side's edge named; at 80x24 the compact grid stays, as before."""

from __future__ import annotations

import re

from tests.test_decision_screen import mid_game

PLAIN = re.compile(r"\x1b\[[0-9;]*m")


def _board(width: int, height: int) -> tuple[str, list[str], list[str]]:
    screen, choice = mid_game("seeds-of-wars", 20)
    layout = screen.compose(width, height, 1, len(choice.options) + 1, choice, choice.side)
    assert len(layout.lines) + 1 + layout.list_rows <= height
    units = [f"{u.uid} {u.kind.name}" for u in screen.state.fighting() if u.space is not None]
    return layout.board, [PLAIN.sub("", line) for line in layout.lines], units


def test_seeds_of_wars_at_120x45_draws_each_space_as_a_box_with_names_and_states():
    kind, lines, units = _board(120, 45)
    assert kind == "middle"
    text = "\n".join(lines)
    assert units and all(unit in text for unit in units), text
    assert "Steady" in text or "Shaken" in text or "Routed" in text
    assert "^ top: side B's edge" in text and "v bottom: side A's edge" in text
    assert any(line.startswith("│ 1 A Reserve") or "1 A Reserve" in line for line in lines)


def test_a_bigger_screen_never_gets_a_smaller_board():
    rows = []
    for width, height in ((80, 24), (100, 30), (120, 45)):
        _, lines, _ = _board(width, height)
        board = lines[: next(i for i, line in enumerate(lines) if line.startswith("Since your"))]
        rows.append(len(board))
    assert rows[0] <= rows[1] <= rows[2] and rows[0] < rows[2], rows
    assert _board(80, 24)[0] == "compact"
