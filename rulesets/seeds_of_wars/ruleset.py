"""Seeds of Wars as a `Ruleset`: the options that fill the card's gaps (`options.toml`),
armies and games."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rulesets.seeds_of_wars import army
from rulesets.seeds_of_wars.rules import SeedsGame, fast_play, new_battle
from wargame_cli import versions
from wargame_cli.engine.requests import Outcome
from wargame_cli.ruleset import Ruleset, Setup, TeamBuilder, load_options


class SeedsOfWars(Ruleset):
    id = "seeds-of-wars"
    name = "Seeds of Wars: Tactical Combat"
    # 2: one question per attack (unit and target), auto_attack. 3: surrender between rounds,
    # only a chosen pass ends a step; wording. Version 2 is kept: `Battle.rules_version`.
    version = "3"
    turn_word = "round"
    has_decisions = True
    folder = Path(__file__).parent
    team_syntax = (
        'Unit types separated by commas, with an optional Order rating: "order=2, Knights, '
        '2 Spearmen, Archers x2". An army file (.toml/.json) holds `name`, `order` and '
        "`units = [...]` (type names, or tables with `type` and Mv/Ra/Me/De/Mo/Ht/tags)."
    )
    options = load_options(Path(__file__).with_name("options.toml"))

    def units(self) -> list[dict[str, Any]]:
        return [
            {
                "unit": t.name,
                "Mv": t.mv,
                "Ra": "-" if t.ra is None else t.ra,
                "Me": t.me,
                "De": t.de,
                "Mo": t.mo,
                "Ht": t.ht,
                "tags": ", ".join(t.tags),
            }
            for t in army.catalogue().types.values()
        ]

    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        return army.parse_inline(text, options)

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        return army.from_data(data, options)

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        return army.default_army(side, options)

    def preset_teams(self, options: dict[str, Any]) -> dict[str, Any]:
        return dict(army.catalogue().armies)

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        return (yield from army.builder(side, options))

    def describe_team(self, team: Any) -> str:
        units = ", ".join(u["type"] for u in team["units"])
        return f"Order {team['order']}: {units}"

    def new_game(self, setup: Setup, options: dict[str, Any]) -> SeedsGame:
        battle = new_battle(setup.names, setup.teams, options)
        battle.rules_version = versions.number(self)
        return SeedsGame(battle)

    def fast_play(self, game: SeedsGame, below: Callable[[int], int]) -> tuple[Outcome, int]:
        """Simulation hook: the same game with the dice drawn by the rules themselves, no
        events and no questions (every answer the bot's default), in `play()`'s dice order."""
        return fast_play(game, below)

    def view(self) -> Any:
        from rulesets.seeds_of_wars import view

        return view


RULESET = SeedsOfWars()
