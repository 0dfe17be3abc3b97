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
from wargame_cli.ui.screen import RECENT_TITLE, DecisionScreen

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


@pytest.mark.parametrize("ruleset_id", ["squad-alpha", "battle-of-ixu", "mobs-and-morale"])
def test_at_80x24_the_map_leaves_room_for_the_whole_question(ruleset_id):
    screen, choice = mid_game(ruleset_id)
    layout = screen.compose(80, 24, 1, 9, choice, choice.side)
    assert layout.board == "map"
    assert layout.list_rows == 9  # the whole list
    assert len(layout.lines) + 1 + layout.list_rows <= 24
    plain = [PLAIN.sub("", line) for line in layout.lines]
    assert any(line.startswith("key: ") for line in plain)  # the map whole, its key too
    assert any("south edge" in line for line in plain)


def _grid_rows(lines: list[str]) -> int:
    return sum(1 for line in lines if re.match(r"^ *[0-9.]+\|", PLAIN.sub("", line)))


@pytest.mark.parametrize("ruleset_id", ["squad-alpha", "battle-of-ixu", "mobs-and-morale"])
def test_a_larger_terminal_gets_a_larger_map(ruleset_id):
    screen, choice = mid_game(ruleset_id)
    small = screen.compose(80, 24, 1, 9, choice, choice.side)
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


def test_a_list_longer_than_the_room_scrolls_but_the_map_stays():
    screen, choice = mid_game("squad-alpha")
    layout = screen.compose(80, 24, 1, 30, choice, choice.side)
    assert layout.board == "map"
    assert layout.list_rows >= 3
    assert _grid_rows(layout.lines) >= 2
    assert len(layout.lines) + 1 + layout.list_rows <= 24


def test_recent_events_are_only_those_since_this_side_last_decided():
    screen, choice = mid_game("squad-alpha")
    before = len(screen.recent_lines(choice.side, 80))
    screen.mark(choice.side)
    assert screen.recent_lines(choice.side, 80) == []
    screen.unmark()  # a refused answer: asked again, seeing the same
    assert len(screen.recent_lines(choice.side, 80)) == before > 0
