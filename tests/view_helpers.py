"""Games stopped at real decisions, for testing what a view shows there."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from wargame_cli import registry
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.requests import Choice
from wargame_cli.engine.session import start
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.ui.redraw import Memory
from wargame_cli.view import View

IDS = ("tug-of-wargods", "squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale")


def setup(ruleset_id: str, options: dict[str, Any] | None = None) -> tuple[Any, Any, Any]:
    ruleset = registry.get(ruleset_id)
    opts = resolve_options(ruleset.options, options or {})
    teams = {s: ruleset.default_team(s, opts) for s in "AB"}
    names = {s: teams[s][1] for s in "AB"}
    return ruleset, opts, Setup(names, {s: teams[s][0] for s in "AB"})


def watched_game(ruleset_id: str, seed: int) -> tuple[Any, Any]:
    """A seeded bot-against-bot game and a decision screen following it: (screen, runner),
    the runner not yet stepped."""
    from wargame_cli.engine.dice import RngDice
    from wargame_cli.ui.screen import DecisionScreen

    ruleset, options, game_setup = setup(ruleset_id)
    screen = DecisionScreen(ruleset, dict(game_setup.names), Console(force_terminal=True))
    bots = {side: BotController() for side in "AB"}
    session = start(ruleset, game_setup, options, seed, RngDice(seed), bots, None)
    session.runner.observer = screen.observe
    return screen, session.runner


def at_decisions(
    ruleset_id: str,
    render: Any,
    seed: int = 3,
    options: dict[str, Any] | None = None,
    limit: int = 400,
) -> list[Any]:
    """`render(state, choice, names)` at each decision of a bot game (up to `limit`), called
    while the game waits for that answer."""
    ruleset, opts, game_setup = setup(ruleset_id, options)
    out: list[Any] = []

    class Watcher(BotController):
        def choose(self, choice: Choice, game: Any) -> str:
            if len(out) < limit:
                out.append(render(game.state, choice, game_setup.names))
            return choice.default

    session = start(ruleset, game_setup, opts, seed, controllers={s: Watcher() for s in "AB"})
    session.runner.run()
    return out


def at_events(
    ruleset_id: str, render: Any, seed: int = 3, options: dict[str, Any] | None = None
) -> list[Any]:
    """`render(entry, state, names)` after each log entry of a bot game."""
    ruleset, opts, game_setup = setup(ruleset_id, options)
    out: list[Any] = []

    def observe(entry: dict[str, Any], game: Any) -> None:
        out.append(render(entry, game.state, game_setup.names))

    session = start(ruleset, game_setup, opts, seed, observer=observe)
    session.runner.run()
    return out


def text_of(renderable: Any, width: int = 80, no_color: bool = True) -> list[str]:
    """The lines a terminal `width` columns wide shows (no colour)."""
    console = Console(
        width=width, file=io.StringIO(), no_color=no_color, color_system=None, record=True
    )
    console.print(renderable)
    return console.export_text().splitlines()


class Watching:
    """A view's entries as the live log shows them: through the ui's redraw policy, which
    remembers what was drawn (the view itself keeps nothing)."""

    def __init__(self, view: View, players: dict[str, str] | None = None) -> None:
        self.view = view
        self.players = players or {}
        self.memory = Memory()

    def __call__(self, entry: dict[str, Any], state: Any, names: dict[str, str]) -> Any:
        shown = self.view.render_entry(entry, state, names, self.players)
        return self.memory.shown(entry, shown)
