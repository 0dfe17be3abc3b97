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
def test_at_80x24_the_compact_board_leaves_room_for_the_whole_question(ruleset_id):
    screen, choice = mid_game(ruleset_id)
    layout = screen.compose(80, 24, 1, 9, choice, choice.side)
    assert layout.board == "compact"
    assert layout.list_rows == 9  # the whole list
    assert len(layout.lines) + 1 + layout.list_rows <= 24
    compact = screen.renderer.lines(screen.view.compact_board(screen.state, screen.names), 80)
    assert layout.lines[: len(compact)] == compact  # the board first, whole


def test_a_larger_terminal_shows_the_full_board_and_what_happened_since():
    screen, choice = mid_game("squad-alpha")
    layout = screen.compose(120, 60, 1, 9, choice, choice.side)
    assert layout.board == "full"
    plain = [PLAIN.sub("", line) for line in layout.lines]
    assert any(line.startswith(RECENT_TITLE) for line in plain)
    assert layout.recent >= 1
    assert len(layout.lines) + 1 + 9 <= 60


def test_a_list_longer_than_the_room_scrolls_but_the_board_stays():
    screen, choice = mid_game("squad-alpha")
    layout = screen.compose(80, 24, 1, 30, choice, choice.side)
    assert layout.board == "compact"
    assert layout.list_rows >= 3
    assert len(layout.lines) + 1 + layout.list_rows <= 24


def test_recent_events_are_only_those_since_this_side_last_decided():
    screen, choice = mid_game("squad-alpha")
    before = len(screen.recent_lines(choice.side, 80))
    screen.mark(choice.side)
    assert screen.recent_lines(choice.side, 80) == []
    screen.unmark()  # a refused answer: asked again, seeing the same
    assert len(screen.recent_lines(choice.side, 80)) == before > 0
