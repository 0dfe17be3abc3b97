"""The Squad Alpha board drawn from kept parts (`wargame_cli/ui/drawn.py`) is, character for
character and colour for colour, the board rich lays out afresh: over seeded games, at the
widths a terminal has, in colour, with NO_COLOR and off a terminal."""

from __future__ import annotations

import io

import pytest
from rich.console import Console, Group
from rich.measure import Measurement
from rich.table import Table as RichTable
from rich.text import Text
from wargame_cli.rulesets.squad_alpha import view

from wargame_cli import registry
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.dice import RngDice
from wargame_cli.engine.requests import Choice
from wargame_cli.engine.session import start
from wargame_cli.ruleset import SIDES, Setup, resolve_options
from wargame_cli.tabletop.view import legend, table_map
from wargame_cli.ui.drawn import DRAWN


def fresh(state) -> object:
    """The board as rich lays it out from scratch: map and rosters in a grid, or stacked."""
    rosters = [view.roster(state, state.squads[s], state.acting) for s in ("A", "B")]
    side = Group(
        rosters[0],
        Text(""),
        rosters[1],
        Text(""),
        legend([], state.table),
        Text(view.LEGEND_NOTE, style="dim"),
    )
    shown = table_map(state.table, view.markers(state), view.headline(state))

    class Fresh:
        def __rich_console__(self, console, options):
            map_width = 2 * round(state.table.width) + 8
            side_width = max(Measurement.get(console, options, r).maximum for r in rosters)
            if options.max_width < map_width + 2 + max(view.SIDE_COLUMN, side_width):
                yield Group(shown, side)
                return
            grid = RichTable.grid(padding=(0, 2))
            grid.add_column(no_wrap=True)
            grid.add_column()
            grid.add_row(shown, side)
            yield grid

    return Fresh()


def consoles(width: int) -> list[Console]:
    return [
        Console(file=io.StringIO(), width=width, force_terminal=True, color_system="truecolor"),
        Console(file=io.StringIO(), width=width, force_terminal=True, no_color=True),
        Console(file=io.StringIO(), width=width, force_terminal=False, highlight=False),
    ]


def drawn(console: Console, thing: object) -> str:
    with console.capture() as capture:
        console.print(thing)
    return capture.get()


def positions(seed: int, every: int):
    """The game state at every `every`-th decision of a seeded bot game."""
    ruleset = registry.get("squad-alpha")
    options = resolve_options(ruleset.options, None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    bots = {side: BotController() for side in SIDES}
    session = start(ruleset, Setup(names=names, teams=teams), options, seed, RngDice(seed), bots)
    runner, decisions = session.runner, 0
    while runner.pending is not None:
        if isinstance(runner.pending, Choice):
            decisions += 1
            if decisions % every == 0:
                yield session.game.state
        runner.step()
    yield session.game.state


@pytest.mark.parametrize("seed", [3, 8])
def test_the_kept_board_is_the_fresh_board(seed):
    widths = {width: consoles(width) for width in (80, 119, 120, 150)}
    compared = 0
    for state in positions(seed, 20):  # one decision in 20: the map, rosters and legend change
        for width, shown_on in widths.items():
            for console in shown_on:
                kept = drawn(console, view.board(state))
                again = drawn(console, view.board(state))  # every part kept now
                assert kept == again == drawn(console, fresh(state)), (seed, width)
                compared += 1
    assert compared > 50


def test_kept_parts_are_bounded_and_per_console():
    console = consoles(120)[0]
    for state in positions(3, 2):
        drawn(console, view.board(state))
    kept = DRAWN._by_console[console]
    assert 0 < len(kept) <= 512
    other = consoles(120)[1]
    assert other not in DRAWN._by_console  # nothing drawn on it yet
