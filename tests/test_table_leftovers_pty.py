"""Issue 33's leftovers at the player's hand, played in a real pseudo-terminal: a scrolled
option list never shows a label cut at its edge."""

from __future__ import annotations

import re

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, Terminal, drawn, settle
from tests.test_table_screen_pty import _play

pytestmark = pytest.mark.pty

DOWN, UP, ENTER = "\x1b[B", "\x1b[A", "\r"


def _answer(child: pexpect.spawn, keys: str) -> None:
    """At the question drawn now: `keys`, the last of them Enter."""
    drawn(child)
    settle(child, 0.1)
    child.send(keys)
    child.expect_exact(ANSWERED)


def _list_rows(term: Terminal) -> list[str]:
    """The rows of the question's list: those under the question's header (its message
    wraps with 2 spaces in front, an option starts at the 4th column, a label's wrapped rows
    at the 6th)."""
    lines = term.lines()
    row = max(i for i, line in enumerate(lines) if line.startswith("? "))
    rows = lines[row + 1 :]
    while rows and rows[0][2:3].strip():  # the header's own wrapped rows
        rows.pop(0)
    return [line for line in rows if line.strip()]


def test_a_scrolled_list_shows_whole_options_only_at_80x24(tmp_path):
    """Seeds of Wars' movement question at 80x24 scrolls; an option's wrapped label
    ("… (engaged in melee: it leaves only / by retreating before combat (d13))") once showed
    its second row alone at the window's top."""
    args = ["seeds-of-wars", "--bot", "B", "--bot-level", "search", "--seed", "5"]
    child, term = _play(tmp_path, args, (24, 80))
    for keys in (DOWN + ENTER, ENTER, UP + ENTER, ENTER, DOWN + ENTER, ENTER, DOWN * 2 + ENTER):
        _answer(child, keys)
    drawn(child)
    settle(child, 0.2)
    assert "scrolls" in " ".join(term.lines()), term.text()
    seen_wrapped = False
    for _ in range(12):  # down through the whole list and round to its top
        rows = _list_rows(term)
        assert rows and rows[0][3:4].strip(), term.text()  # the top row starts an option
        assert sum("»" in line for line in rows) == 1, term.text()
        seen_wrapped |= any(re.match(r" {5}\S", line) for line in rows)
        child.send(DOWN)
        settle(child, 0.08)
    assert seen_wrapped, "the wrapped option never came into the window"
    child.sendintr()
    child.expect(pexpect.EOF)


def test_deployment_spots_are_said_in_words_at_80x24(tmp_path):
    """Squad Alpha's deployment list once read `3.5,7.5: in Crates (hard cover), …`: the
    spot goes to the cursor's facts line, the label says the words."""
    args = ["squad-alpha", "--bot", "B", "--seed", "7", "--team-a", "Commandos"]
    child, term = _play(tmp_path, [*args, "--team-b", "Recruits"], (24, 80))
    _answer(child, ENTER)  # Major Steel deploys first
    drawn(child)
    settle(child, 0.2)
    rows = _list_rows(term)
    assert any("In Crates (hard cover)" in line for line in rows), term.text()
    assert not any(re.search(r"\d+(\.\d+)?,\d+(\.\d+)?", line) for line in rows), term.text()
    child.send("p")  # the cursor's facts say where
    child.expect(r"cursor at \(3\.5,7\.5\)")
    child.sendintr()
    child.expect(pexpect.EOF)


def test_the_hint_says_where_the_option_pointed_at_stands_where_it_has_room(tmp_path):
    """At 120 columns the question's row has room: its hint says the spot of the option
    under the pointer (its label says only the words), and follows the pointer."""
    args = ["squad-alpha", "--bot", "B", "--seed", "7", "--team-a", "Commandos"]
    child, term = _play(tmp_path, [*args, "--team-b", "Recruits"], (45, 120))
    _answer(child, ENTER)  # Major Steel deploys first
    drawn(child)
    settle(child, 0.2)
    header = next(line for line in term.lines() if line.startswith("? "))
    assert re.search(r"\(Use arrow keys\) at 3\.5,7\.5$", header), term.text()
    child.send(DOWN)
    settle(child, 0.3)
    header = next(line for line in term.lines() if line.startswith("? "))
    assert re.search(r"\) at \d", header) and "3.5,7.5" not in header, term.text()
    child.sendintr()
    child.expect(pexpect.EOF)


def _until_screen(child: pexpect.spawn, term: Terminal, *words: str, limit: int = 200) -> None:
    """Enter at every question until a screen shows every one of `words` (patterns)."""
    for _ in range(limit):
        drawn(child)
        settle(child, 0.05)
        if all(re.search(word, term.text()) for word in words):
            return
        child.send(ENTER)
        child.expect_exact(ANSWERED)
    raise AssertionError(f"no screen with {words!r}")


def test_the_pointing_key_says_no_deployment_once_it_is_over(tmp_path):
    """Mobs and Morale's cursor screen kept `A deploys in y 0-6 (e1)  B deploys in y 18-24`
    in its key after deployment; the key says only what applies now."""
    child, term = _play(tmp_path, ["mobs-and-morale", "--bot", "B", "--seed", "5"], (24, 80))
    _until_screen(child, term, r"\(round 0\)", "Point on the map")
    child.send("p")  # while deploying, the key says where
    child.expect_exact("cursor at (")
    settle(child, 0.2)
    assert "deploys in y 0-6 (e1)" in term.text(), term.text()
    child.send("\x1b")
    _until_screen(child, term, r"\(round [1-9]\)", "Point on the map")
    child.send("p")
    child.expect_exact("cursor at (")
    settle(child, 0.2)
    assert "cursor at (" in term.text() and "deploys in" not in term.text(), term.text()
    child.sendintr()
    child.expect(pexpect.EOF)


def test_ixu_dice_odds_are_not_said_twice_when_the_list_is_whole(tmp_path):
    """The Battle of Ixu's dice assignment: every option's label states its chances; with the
    whole list on screen an `odds:` line would repeat it word for word."""
    child, term = _play(tmp_path, ["battle-of-ixu", "--bot", "B", "--seed", "3"], (45, 120))
    _until_screen(child, term, r"rolled [\d, ]+: movement, combat, defence\?")
    lines = term.lines()
    assert "scrolls" not in term.text(), term.text()  # the whole list
    assert any("(beaten 17% a die)" in line for line in lines), term.text()
    assert not any(line.startswith("odds:") for line in lines), term.text()
    child.sendintr()
    child.expect(pexpect.EOF)


GRID_ROW = re.compile(r"^ *[\d.]+\|(.*)\|")
LEGEND = re.compile(r"(?:^|  )([*@&%=~^$!?][1-9+]) ((?:(?!  ).)+)")


def test_a_cell_of_several_pieces_says_how_many_at_80x24(tmp_path):
    """Mobs and Morale at 80x24: figures in base contact share a 3" row; the cell says how
    many it holds (`*2`, `@2` the next such cell) and the legend names them (`*2 r1 13.1,15.5
    + r2 13.1,14.3`)."""
    child, term = _play(tmp_path, ["mobs-and-morale", "--bot", "B", "--seed", "5"], (24, 80))
    for _ in range(80):
        drawn(child)
        settle(child, 0.05)
        lines = term.lines()
        cells = " ".join(m.group(1) for line in lines if (m := GRID_ROW.match(line)))
        shared = [
            (mark, words)
            for line in lines
            if not GRID_ROW.match(line)
            for mark, words in LEGEND.findall(line)
            if re.search(r" \+ |, ", words)
        ]
        if shared:
            break
        child.send(ENTER)
        child.expect_exact(ANSWERED)
    else:
        raise AssertionError("no cell of several pieces came")
    for mark, words in shared:
        names = re.split(r" \+ |, ", words)
        assert int(mark[1]) == len(names), (mark, words)  # the cell says how many
        assert mark in cells, term.text()
    child.sendintr()
    child.expect(pexpect.EOF)
