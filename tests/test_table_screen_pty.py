"""The decision screen at the player's hand (issue 33), played in a real pseudo-terminal at
80x24 and 120x45: a map of 8 rows of cells at every move and target question with the acting
piece in its own cell, a "who:" legend that says what it leaves out, the map cursor starting on
the suggested spot, no `odds:` line repeating a list of spots, no deployment words in the key
once deployment is over."""

from __future__ import annotations

import re

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, DRAWN, PROMPT, Terminal, drawn, settle, spawn

pytestmark = pytest.mark.pty

GRID_ROW = re.compile(r"^ *[\d.]+\|(.*)\|")


def _play(tmp_path, args: list[str], size: tuple[int, int]) -> tuple[pexpect.spawn, Terminal]:
    child = spawn(["play", *args, "--no-save"], str(tmp_path), str(tmp_path / "saves"), 90, size)
    child.delaybeforesend = None
    term = Terminal(*size)
    child.logfile_read = term
    return child, term


def _question(term: Terminal) -> tuple[int, str]:
    lines = term.lines()
    rows = [i for i, line in enumerate(lines) if line.startswith("? ")]
    assert rows, term.text()
    return rows[-1], " ".join(lines[rows[-1] : rows[-1] + 2])


def _until(child, term, pattern: str, limit: int = 300) -> int:
    """Enter at every question until one matching `pattern` is asked; its row."""
    for _ in range(limit):
        drawn(child)
        settle(child, 0.2)
        row, asked = _question(term)
        if re.search(pattern, asked):
            return row
        child.send("\r")
        child.expect_exact(ANSWERED)
    raise AssertionError(f"no question matching {pattern!r}")


def _legend(top: list[str]) -> str:
    """The map's key and legend (beside the cells or under them), as one line."""
    said = []
    for line in top:
        match = GRID_ROW.match(line)
        said.append(line[match.end() :] if match else line)
    return "  ".join(said)


# (ruleset, arguments, a move or target question)
MOVES = [
    (
        "squad-alpha",
        ["--seed", "7", "--team-a", "Commandos", "--team-b", "Recruits"],
        r"where to\?",
    ),
    ("squad-alpha", ["--seed", "3"], r"move or shoot\?"),
    ("battle-of-ixu", ["--seed", "3"], r"move up to"),
    ("battle-of-ixu", ["--seed", "4"], r"fight whom\?"),
    ("mobs-and-morale", ["--seed", "5"], r"move or act"),
]


@pytest.mark.parametrize(("ruleset", "args", "pattern"), MOVES, ids=[m[2] for m in MOVES])
def test_every_move_and_target_question_at_80x24_has_a_map_of_8_rows(
    tmp_path, ruleset, args, pattern
):
    child, term = _play(tmp_path, [ruleset, "--bot", "B", *args], (24, 80))
    row = _until(child, term, pattern)
    top = term.lines()[:row]
    cells = [GRID_ROW.match(line) for line in top]
    grid = [m.group(1) for m in cells if m is not None]
    assert len(grid) >= 8, "\n".join(term.lines())
    assert not any("needs more rows" in line for line in top)
    legend = _legend(top)
    who = re.search(r"who: (\S+) ", legend)  # the question's piece is named first
    assert who is not None, "\n".join(term.lines())
    label = who.group(1)
    marked = re.search(rf"([*@&%=~^$!?][1-9+])(?:(?!  )[^*])*\b{re.escape(label)}\b", legend)
    if marked is None:  # in its own cell: its label in the cells
        assert any(label in row_ for row_ in grid), "\n".join(term.lines())
    else:  # in base contact at 80x24 (a cell for both): the mark in the cells names it
        assert any(marked.group(1) in row_ for row_ in grid), "\n".join(term.lines())
        assert "contact" in legend
    assert len(term.lines()) == 24
    child.sendintr()
    child.expect(pexpect.EOF)


def test_the_who_legend_says_how_many_it_leaves_out(tmp_path):
    """13 miniatures at 80x24: the legend names those it can and says `+N more (Look…)`."""
    args = ["squad-alpha", "--bot", "B", "--seed", "7"]
    child, term = _play(
        tmp_path, [*args, "--team-a", "Commandos", "--team-b", "Recruits"], (24, 80)
    )
    row = _until(child, term, r"where to\?")
    legend = _legend(term.lines()[:row])
    named = re.findall(r"\b[ABab]\d [A-Z][a-z]+(?: [A-Z][a-z]+)?", legend)
    more = re.search(r"\+(\d+) more \(Look…\)", legend)
    assert more is not None, "\n".join(term.lines())
    assert len(named) + int(more.group(1)) == 13, (named, legend)
    child.sendintr()
    child.expect(pexpect.EOF)


def test_seeds_of_wars_at_80x24_says_which_id_is_which_unit(tmp_path):
    child, term = _play(tmp_path, ["seeds-of-wars", "--bot", "B", "--seed", "3"], (24, 80))
    seen = 0
    for _ in range(40):
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            break  # the battle is over
        child.expect_exact(DRAWN)
        settle(child, 0.2)
        row, _ = _question(term)
        top = term.lines()[:row]
        spaces = [line for line in top if re.search(r"\b[a-c][1-4]:", line)]
        ids = {i for line in spaces for i in re.findall(r"\b([AB]\d+)\b", line)}
        named = " ".join(top)
        if ids and not any(re.search(rf"\b{i} [A-Z][a-z]", " ".join(spaces)) for i in ids):
            seen += 1  # ids alone on the grid: a who: line names each
            for uid in ids:
                assert re.search(rf"who:.*\b{uid} [A-Z][a-z]", named, re.S), named
        child.send("\r")
        child.expect_exact(ANSWERED)
    assert seen, "the compact grid never came"
    child.close()


@pytest.mark.parametrize("size", [(24, 80), (45, 120)])
def test_the_cursor_starts_on_the_suggested_spot_which_the_rules_allow(tmp_path, size):
    args = ["squad-alpha", "--bot", "B", "--seed", "7", "--team-a", "Commandos"]
    child, term = _play(tmp_path, [*args, "--team-b", "Recruits"], size)
    row = _until(child, term, r"where to\?")
    pointed = next(line for line in term.lines()[row:] if "»" in line)
    assert "(suggested)" in pointed
    assert not re.search(r"\(\d+(\.\d+)?,\d+(\.\d+)?\)", pointed)  # no spot in the label
    child.send("p")
    child.expect_exact("cursor at (")
    settle(child, 0.3)
    text = " ".join(term.lines())
    spot = re.search(r"cursor at \(([\d.]+,[\d.]+)\)", text)
    assert spot is not None, text
    verdict = re.search(r"(allowed|not allowed): (.*?)\s{2,}", text)
    assert verdict is not None and verdict.group(1) == "allowed", text
    assert f"({spot.group(1)})" in verdict.group(2) or spot.group(1) in text
    child.send("\r")  # Enter picks the suggested spot itself
    child.expect_exact(ANSWERED)
    drawn(child)
    child.sendintr()
    child.expect(pexpect.EOF)


def test_deployment_has_no_odds_line_repeating_the_spots(tmp_path):
    args = ["squad-alpha", "--bot", "B", "--seed", "7", "--team-a", "Commandos"]
    child, term = _play(tmp_path, [*args, "--team-b", "Recruits"], (45, 120))
    row = _until(child, term, r"where does .* deploy\?")
    top = term.lines()[:row]
    assert any("deploy: out of the enemy's sight" in line for line in top)  # while deploying
    assert not any(line.startswith("odds:") for line in top), "\n".join(top)
    child.send("\r")
    child.expect_exact(ANSWERED)
    row = _until(child, term, r"where to\?")  # turn 1: deployment is over
    assert not any("deploy: out of" in line for line in term.lines()[:row])
    child.sendintr()
    child.expect(pexpect.EOF)
