"""The decision screen's layout, in-process: what goes above a question at 80x24 and 120x45."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from wargame_cli import registry
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.dice import RngDice
from wargame_cli.engine.requests import Choice
from wargame_cli.engine.session import start
from wargame_cli.ruleset import SIDES, Setup, resolve_options
from wargame_cli.ui.screen import NO_ROOM_FOR_MAP, RECENT_TITLE, DecisionScreen

PLAIN = re.compile(r"\x1b\[[0-9;]*m")


def mid_game(ruleset_id: str, decisions: int = 30) -> tuple[DecisionScreen, Choice]:
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    screen = DecisionScreen(ruleset, names, Console(force_terminal=True))
    bots = {side: BotController() for side in SIDES}
    session = start(ruleset, Setup(names=names, teams=teams), options, 7, RngDice(7), bots, None)
    runner = session.runner
    runner.observer = screen.observe
    asked = 0
    while True:
        if isinstance(runner.pending, Choice):
            asked += 1
            if asked == decisions:
                return screen, runner.pending
            if asked == decisions - 6:
                screen.mark(runner.pending.side)
        runner.step()


def _plain(lines):
    return [PLAIN.sub("", line) for line in lines]


def _whole(blocks, shown):
    """Every block either shown whole (its lines in a row) or not at all; how many were."""
    count = 0
    for block in blocks:
        lines = _plain(block.lines)
        starts = [i for i in range(len(shown)) if shown[i : i + len(lines)] == lines]
        if starts:
            count += not block.heading
        else:  # not shown: not one of its lines may be there alone
            assert not any(line in shown for line in lines if len(line) > 20), lines
    return count


@pytest.mark.parametrize("ruleset_id", ["squad-alpha", "battle-of-ixu", "mobs-and-morale"])
def test_at_80x24_the_map_gets_its_rows_before_the_list(ruleset_id):
    """At the first decision (little to tell yet) the map fits whole with the whole question;
    later the map keeps 8 rows of cells and its key whatever the results and the list would
    like: the list scrolls (3 rows at least) rather than the map going."""
    screen, choice = mid_game(ruleset_id, 1)
    layout = screen.compose(80, 24, 1, 9, choice, choice.side)
    assert layout.board == "map" and layout.grid_rows >= 8
    assert layout.list_rows == 9 or layout.results  # the whole list, unless results came
    assert len(layout.lines) + 1 + layout.list_rows <= 24
    plain = [PLAIN.sub("", line) for line in layout.lines]
    assert any("key: " in line for line in plain)  # the map whole, its key too (maybe beside)
    assert any("south edge" in line for line in plain)
    screen, choice = mid_game(ruleset_id)
    for wanted in (9, 16):
        layout = screen.compose(80, 24, 1, wanted, choice, choice.side)
        assert layout.board == "map" and layout.grid_rows >= 8, _plain(layout.lines)
        assert NO_ROOM_FOR_MAP not in _plain(layout.lines)
        assert 3 <= layout.list_rows <= wanted
        assert len(layout.lines) + 1 + layout.list_rows <= 24


@pytest.mark.parametrize("ruleset_id", ["squad-alpha", "battle-of-ixu", "mobs-and-morale"])
def test_at_80x24_the_newest_results_show_under_the_map_a_line_each(ruleset_id):
    screen, choice = mid_game(ruleset_id)
    layout = screen.compose(80, 24, 1, 9, choice, choice.side)
    assert len(layout.lines) + 1 + layout.list_rows <= 24
    blocks = screen._blocks(choice.side, 80)
    results = sum(1 for block in blocks if not block.heading)
    assert results >= 3
    plain = _plain(layout.lines)
    assert any(line.startswith(RECENT_TITLE) for line in plain)
    title = plain.index(next(p for p in plain if p.startswith(RECENT_TITLE)))
    board = plain[:title]
    assert any("key: " in line for line in board)  # the one map above, whole
    told = plain[title + 1 :]
    newest = _plain(screen._blocks(choice.side, 80, one=True)[-1].lines)
    whole = _plain(blocks[-1].lines)
    assert told[-len(newest) :] == newest or told[-len(whole) :] == whole or layout.card
    assert layout.results >= min(3, results)
    assert all(len(line) <= 80 for line in told)


def test_disabled_options_fold_only_when_room_is_short():
    screen, choice = mid_game("squad-alpha")
    short = screen.compose(80, 24, 1, 16, choice, choice.side, folded=8)
    assert short.fold and 3 <= short.list_rows <= 8
    roomy = screen.compose(120, 80, 1, 16, choice, choice.side, folded=8)
    assert not roomy.fold and roomy.list_rows == 16
    plain = screen.compose(80, 24, 1, 16, choice, choice.side)  # nothing to fold
    assert not plain.fold


def test_each_line_sits_under_the_heading_of_the_step_it_happened_in():
    """Seeds of Wars: melee lines under a melee heading, though the question after them is
    asked in another step (the heading was taken from the question's step)."""
    screen, choice = mid_game("seeds-of-wars", 60)
    screen._marks = {"": 0, choice.side: 0}  # everything since the start
    lines = _plain(screen.recent_lines(choice.side, 120))
    heading = None
    attacks = 0
    for line in lines:
        if line.startswith("Round ") and ", step " in line:
            heading = line
        elif " attacks " in line:
            attacks += 1
            assert heading is not None and "melee" in heading, (heading, line)
    assert attacks > 0


def test_a_window_starting_inside_a_step_opens_with_its_heading():
    screen, choice = mid_game("seeds-of-wars", 60)
    for first in range(len(screen.entries)):
        screen._marks = {"": first, choice.side: first}
        blocks = screen._blocks(choice.side, 120)
        if blocks and not blocks[0].headed and blocks[0].under:
            lines = _plain(screen.recent_lines(choice.side, 120))
            assert lines[0] == _plain(blocks[0].under)[0]
            assert lines[0].startswith("Round ")
            return
    raise AssertionError("no window starts inside a step")


def _grid_rows(lines: list[str]) -> int:
    return sum(1 for line in lines if re.match(r"^ *[0-9.]+\|", PLAIN.sub("", line)))


@pytest.mark.parametrize("ruleset_id", ["squad-alpha", "battle-of-ixu", "mobs-and-morale"])
def test_a_larger_terminal_gets_a_larger_map(ruleset_id):
    screen, choice = mid_game(ruleset_id)
    small = screen.compose(100, 30, 1, 9, choice, choice.side)
    large = screen.compose(120, 45, 1, 9, choice, choice.side)
    assert _grid_rows(large.lines) > _grid_rows(small.lines) >= 2
    assert len(large.lines) + 1 + 9 <= 45


def test_a_large_terminal_shows_the_map_and_what_happened_since():
    screen, choice = mid_game("squad-alpha")
    layout = screen.compose(120, 60, 1, 9, choice, choice.side)
    assert layout.board == "map"
    plain = [PLAIN.sub("", line) for line in layout.lines]
    assert any(line.startswith(RECENT_TITLE) for line in plain)
    assert layout.recent >= 1
    assert _grid_rows(layout.lines) == 24  # the 24" table an inch a row
    assert len(layout.lines) + 1 + 9 <= 60


def test_a_list_longer_than_the_room_scrolls_the_results_and_the_map_stay():
    screen, choice = mid_game("squad-alpha")
    layout = screen.compose(80, 24, 1, 30, choice, choice.side)
    assert layout.board == "map" and layout.grid_rows >= 8
    blocks = screen._blocks(choice.side, 80)
    assert layout.results >= min(4, sum(1 for block in blocks if not block.heading))
    assert layout.list_rows >= 3
    assert len(layout.lines) + 1 + layout.list_rows <= 24


def test_recent_events_are_only_those_since_this_side_last_decided():
    screen, choice = mid_game("squad-alpha")
    before = len(screen.recent_lines(choice.side, 80))
    screen.mark(choice.side)
    assert screen.recent_lines(choice.side, 80) == []
    screen.unmark()  # a refused answer: asked again, seeing the same
    assert len(screen.recent_lines(choice.side, 80)) == before > 0


def test_the_heading_of_the_step_under_way_shows_though_nothing_happened_in_it_yet():
    screen, choice = mid_game("seeds-of-wars", 60)
    for end in range(len(screen.entries), 0, -1):
        del screen.entries[end:]  # the game as it stood when entry `end` was the newest
        screen._marks = {"": max(0, end - 4), choice.side: max(0, end - 4)}
        blocks = screen._blocks(choice.side, 100)
        if len(blocks) > 1 and blocks[-1].heading and not blocks[-2].heading:
            plain = _plain(screen.compose(100, 40, 1, 6, choice, choice.side).lines)
            heading = _plain(blocks[-1].lines)[0]
            assert heading.startswith("Round ") and heading in plain
            assert not any("since (Look" in line for line in plain)
            return
    raise AssertionError("no window ends with a step's heading")


def test_what_the_enemy_did_since_shows_and_the_oldest_folds_first():
    """However much the other side did since the side last decided, the newest results show
    (what caused the newest result among them), and what folds into "the N lines before:
    Look…" is the oldest: never a gap between them hiding a result."""
    screen, choice = mid_game("squad-alpha", 60)
    side = choice.side
    for at in range(len(screen.entries) - 1, 0, -1):
        entry = screen.entries[at]
        if entry["t"] != "choice" or entry["side"] != side:
            continue
        screen._marks = {"": at, side: at}
        blocks = screen._blocks(side, 80)
        own = [b for b in blocks if b.own and not b.heading]
        others = [b for b in blocks if not b.own and not b.heading]
        if own and len(others) >= 6:
            layout = screen.compose(80, 24, 1, 6, choice, side)
            plain = _plain(layout.lines)
            assert not any(re.match(r"\s+… \d+ lines? \(Look…\)$", line) for line in plain)
            assert layout.results >= 2
            short = screen._blocks(side, 80, one=True)
            for n in range(1, layout.results + 1):  # the newest, each whole or a line each
                i = [k for k, b in enumerate(blocks) if not b.heading][-n]
                whole, one = _plain(blocks[i].lines), _plain(short[i].lines)
                assert any(plain[k : k + len(whole)] == whole for k in range(len(plain))) or any(
                    plain[k : k + len(one)] == one for k in range(len(plain))
                ), (one, plain)
            return
    raise AssertionError("no window with the side's own results and six others")
