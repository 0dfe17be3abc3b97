"""The decision screen at the 80x24 floor, as a person sees it (a terminal emulator fed the
program's output): at a mid-game decision of every ruleset, the board (the one map with 8 rows
of cells at least) and the question, every option label whole, on one screen (a long list
scrolls, in a window of whole options). Also "Look…" and the names clash, in a real
pseudo-terminal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pexpect
import pytest

from tests.pty_helpers import (
    ANSWERED,
    Terminal,
    drawn,
    press_enter_until_done,
    settle,
    spawn,
)
from tests.test_map_truth import PIECES, check_truth
from wargame_cli.engine.requests import Choice, TurnStart
from wargame_cli.saves import games
from wargame_cli.ui.app import folded_line
from wargame_cli.ui.pointing import can_point
from wargame_cli.ui.screen import NO_ROOM_FOR_MAP, Renderer

pytestmark = pytest.mark.pty

ROWS, COLUMNS = 24, 80
DOWN, UP = "\x1b[B", "\x1b[A"

# (ruleset, arguments, the first question of this kind is the mid-game decision looked at)
CASES = [
    ("squad-alpha", ["--seed", "3"], r"move or shoot\?"),
    ("battle-of-ixu", ["--seed", "4"], r"fight whom\?"),
    ("seeds-of-wars", ["--seed", "3"], r"movement: where does"),
    ("mobs-and-morale", ["--seed", "5"], r"move or act"),
    ("tug-of-wargods", ["--seed", "5"], r"Turn 1 is over"),
]


def question(term: Terminal) -> tuple[int, str]:
    """The row and text of the question on screen (the last line marked "?")."""
    lines = term.lines()
    rows = [i for i, line in enumerate(lines) if line.startswith("? ")]
    assert rows, term.text()
    return rows[-1], lines[rows[-1]]


def items_below(term: Terminal, row: int) -> list[str]:
    """The list under the question, each item's wrapped rows joined again."""
    items: list[str] = []
    lines = term.lines()[row + 1 :]
    while lines and re.match(r"^  \S", lines[0]):  # the question itself, wrapped
        lines.pop(0)
    for line in lines:
        if not line.strip():
            break
        if line.startswith("     ") and items:
            items[-1] += " " + line.strip()
        elif "Take back" in line:  # the short items share the last row
            items.extend(part for part in re.split(r"\s*»\s+|\s{3,}", line) if part.strip())
        else:
            items.append(re.sub(r"^ [» ] ", "", line).strip())
    return [item.strip() for item in items]


def expected_items(pending: object, facts: object = None, folded: bool = False) -> list[str]:
    """The list as asked; `folded`: its disabled options folded into one line."""
    if isinstance(pending, TurnStart):
        return [f"Play turn {pending.number}", "Save and quit", "Table…", "Look…", "Take back"]
    assert isinstance(pending, Choice)
    out = []
    barred = sum(1 for option in pending.options if option.disabled)
    for option in pending.options:
        title = ("(suggested) " if option.key == pending.default else "") + option.label
        if option.disabled and folded:
            line = f"- {folded_line(barred)}"
            out.extend([line] if line not in out else [])
            continue
        out.append(f"- {title} ({option.disabled})" if option.disabled else title)
    if can_point(facts, pending):  # a spot or a target on the map: the cursor
        out.append("Point on the map… (p)")
    out.append("Table…")  # a game under way: the table can be edited
    if pending.free_hint is not None:
        out.append(f"Type it ({pending.free_hint})")
    return [*out, "Look…", "Take back"]


def reach(child: pexpect.spawn, term: Terminal, pattern: str, limit: int = 400) -> None:
    """Enter (the suggestion) at every question until one matching `pattern` is on screen."""
    for _ in range(limit):
        drawn(child)
        if re.search(pattern, question(term)[1]):
            return
        child.send("\r")
        child.expect_exact(ANSWERED)
    raise AssertionError(f"no question matching {pattern!r}")


def board_lines(session: object, compact: bool) -> list[str]:
    view = session.ruleset.view()
    hook = getattr(view, "compact_board", None) if compact else view.board
    if hook is None:
        return []
    lines = Renderer().lines(hook(session.game.state, session.meta_names), COLUMNS)
    return [re.sub(r"\x1b\[[0-9;]*m", "", line).rstrip() for line in lines]


@pytest.mark.parametrize(("ruleset", "args", "pattern"), CASES, ids=[c[0] for c in CASES])
def test_the_board_and_the_whole_question_fit_80x24(tmp_path, ruleset, args, pattern):
    saves = tmp_path / "saves"
    child = spawn(["play", ruleset, *args], str(tmp_path), str(saves), 90, (ROWS, COLUMNS))
    child.delaybeforesend = None
    term = Terminal(ROWS, COLUMNS)
    child.logfile_read = term
    reach(child, term, pattern)
    row, _ = question(term)
    shown_items = items_below(term, row)
    screen = term.lines()
    child.sendintr()  # saves the game at this very question
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    [save] = list(saves.glob("*.json"))
    session = games.open_save(save)
    session.meta_names = json.loads(save.read_text())["setup"]["names"]
    pending = session.runner.pending
    # the whole question: every option, every label whole, the list ending with Take back
    facts = None
    if isinstance(pending, Choice):
        state = session.game.state
        facts = session.ruleset.view().map_facts(state, session.meta_names, pending)
    folded = any(item.endswith("not possible: Look… for why") for item in shown_items)
    expected = expected_items(pending, facts, folded)
    if "scrolls)" in " ".join(screen[row : row + 2]):  # a window on it, every label whole
        assert len(shown_items) >= 3, "\n".join(screen)
        first = expected.index(shown_items[0])
        assert shown_items == expected[first : first + len(shown_items)], "\n".join(screen)
    else:
        assert shown_items == expected, "\n".join(screen)
    # the board above it, drawn from the game at this decision
    top = screen[:row]
    if ruleset in PIECES:  # the one map, 8 rows of cells at least: every piece in truth
        assert not any(line.startswith(NO_ROOM_FOR_MAP[:40]) for line in top)
        assert any("key: " in line for line in top), "\n".join(screen)
        assert sum(1 for line in top if re.match(r"^ *[\d.]+\|", line)) >= 8, "\n".join(top)
        check_truth(top, PIECES[ruleset](session.game.state), ruleset)
        return
    full, compact = board_lines(session, False), board_lines(session, True)
    view = session.ruleset.view()
    middle = [  # the boards between the full and the compact one, where one fits
        [re.sub(r"\x1b\[[0-9;]*m", "", line).rstrip() for line in Renderer().lines(b, COLUMNS)]
        for b in view.middle_boards(session.game.state, session.meta_names)
    ]
    boards = (full, *middle, compact)
    assert any(board and top[: len(board)] == board for board in boards), "\n".join(screen)


def test_look_shows_a_card_and_comes_back_to_the_same_question(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        ["play", "squad-alpha", "--seed", "3", "--bot", "B"],
        str(tmp_path),
        str(saves),
        90,
        (ROWS, COLUMNS),
    )
    child.delaybeforesend = None
    term = Terminal(ROWS, COLUMNS)
    child.logfile_read = term
    reach(child, term, r"move or shoot\?")
    row, asked = question(term)
    before = items_below(term, row)
    child.send(UP + UP + "\r")  # up from the suggestion: "Take back", then "Look…"
    child.expect("Look at what")
    settle(child)
    _, look = question(term)
    assert look.startswith("? Look at what?")
    looks = items_below(term, question(term)[0])
    assert looks[0] == "Back to the question" and looks[1] == "The full board"
    for _ in range(40):  # from "The full board" down to Sgt Rook's card (the list scrolls)
        if "Rook" in next(line for line in term.lines() if "»" in line):
            break
        child.send(DOWN)
        settle(child, 0.2)
    child.send("\r")
    settle(child)
    assert "Rook" in "\n".join(term.lines()[: question(term)[0]])
    child.send("\x1b")  # Esc: back to the question
    settle(child, 1.0)  # Esc waits to be sure it is not the start of a key sequence
    row, again = question(term)
    assert again == asked
    assert items_below(term, row) == before
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_a_name_prompt_refuses_the_other_sides_name(tmp_path):
    saves = tmp_path / "saves"
    child = spawn(
        ["play", "battle-of-ixu", "--seed", "1", "--bot", "B", "--turns", "1"],
        str(tmp_path),
        str(saves),
    )
    term = Terminal(50, 120)
    child.logfile_read = term
    child.expect("pick a warband")
    child.send("\r")
    child.expect("Name for side A")
    child.send("\x15  swords \r")  # side B (the computer) is Swords
    child.expect("the other side is already called Swords")
    child.send("\x15Spears\r")
    child.expect_exact(ANSWERED)
    answered = [line for line in term.lines() if "Name for side A" in line]
    assert answered and answered[-1].endswith("Name for side A Spears")  # shown once, not twice
    press_enter_until_done(child)
    child.close()
    assert child.exitstatus == 0
    [save] = list(Path(saves).glob("*.json"))
    assert json.loads(save.read_text())["setup"]["names"] == {"A": "Spears", "B": "Swords"}


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--name-a", "Mira", "--name-b", " mira "], "--name-a and --name-b"),
        (["--name-a", "Clearsky"], "--name-a"),  # side B's default team is Clearsky
    ],
)
def test_names_from_the_flags_never_clash(wargame, flags, named):
    done = wargame("play", "tug-of-wargods", "--no-input", "--seed", "1", *flags)
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert "cannot share a name" in line and named in line
    assert "Traceback" not in done.stderr


def test_the_same_preset_twice_gets_a_distinct_second_name(wargame, tmp_path):
    path = tmp_path / "g.json"
    done = wargame(
        "play",
        "tug-of-wargods",
        "--no-input",
        "--seed",
        "1",
        "--team-a",
        "Sebeki,Asar,Asar",
        "--team-b",
        "Sebeki,Asar,Asar",
        "--save",
        str(path),
    )
    assert done.returncode == 0, done.stderr
    names = json.loads(path.read_text())["setup"]["names"]
    assert names["A"] != names["B"]


def test_take_back_is_the_last_item_and_asks_the_decision_again(tmp_path):
    """Take back takes back the latest decision, which is asked again, and again the one
    before; with nothing left to take back, the refusal is shown above the same question."""
    saves = tmp_path / "saves"
    child = spawn(
        ["play", "squad-alpha", "--seed", "3", "--bot", "B", "--turns", "1"],
        str(tmp_path),
        str(saves),
        90,
        (ROWS, COLUMNS),
    )
    child.delaybeforesend = None
    term = Terminal(ROWS, COLUMNS)
    child.logfile_read = term
    reach(child, term, r"which miniature deploys next\?")
    child.send("\r")  # Sgt Rook, the suggestion
    child.expect_exact(ANSWERED)
    reach(child, term, r"where does Sgt Rook deploy\?")
    child.send("\r")
    child.expect_exact(ANSWERED)
    reach(child, term, r"which miniature deploys next\?")  # the second one
    row, _ = question(term)
    assert items_below(term, row)[-1] == "Take back"
    child.send(UP + "\r")  # up from the suggestion wraps round to "Take back"
    child.expect_exact(ANSWERED)
    reach(child, term, r"where does Sgt Rook deploy\?", limit=1)  # asked again
    child.send(UP + "\r")
    child.expect_exact(ANSWERED)
    reach(child, term, r"which miniature deploys next\?", limit=1)  # the first, again
    child.send(UP + "\r")  # nothing before it to take back
    child.expect("Refused: ")
    settle(child)
    _, again = question(term)
    assert "which miniature deploys next?" in again
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
